//! The journal's record framing, the one definition: a record is its payload's length (4 bytes, big-endian),
//! the payload's CRC-32 (4 bytes, big-endian; zlib's) and the payload. `cardnet.journal` writes and reads
//! records through `frame_record` and `record_span`; the native lane appends its records with `frame`.

/// Bytes of a record's header (length, CRC-32).
pub const HEADER: usize = 8;
/// The largest payload a record holds; a header claiming more is damaged.
pub const MAX_RECORD: usize = 64 * 1024 * 1024;

/// Appends the record of `payload` (header, then payload) to `out`; refuses a payload over `MAX_RECORD`.
pub fn frame(payload: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    let length = u32::try_from(payload.len())
        .ok()
        .filter(|&n| n as usize <= MAX_RECORD)
        .ok_or_else(|| format!("journal record of {} bytes is too large", payload.len()))?;
    out.reserve(HEADER + payload.len());
    out.extend_from_slice(&length.to_be_bytes());
    out.extend_from_slice(&crc32(payload).to_be_bytes());
    out.extend_from_slice(payload);
    Ok(())
}

/// Where the payload of the record at `pos` of `data` lies (`start..end`), or why no intact record starts
/// there (an incomplete header, an implausible length, missing bytes, a CRC mismatch).
pub fn payload_at(data: &[u8], pos: usize) -> Result<(usize, usize), String> {
    let rest = data.get(pos..).unwrap_or_default();
    let (Some(length), Some(crc)) = (rest.get(0..4), rest.get(4..HEADER)) else {
        return Err("incomplete record header".to_owned());
    };
    let length = u32::from_be_bytes([length[0], length[1], length[2], length[3]]) as usize;
    let crc = u32::from_be_bytes([crc[0], crc[1], crc[2], crc[3]]);
    if length > MAX_RECORD {
        return Err(format!("implausible record length {length}"));
    }
    let present = rest.len() - HEADER;
    if present < length {
        return Err(format!("record needs {length} bytes, {present} present"));
    }
    let start = pos + HEADER;
    if crc32(&data[start..start + length]) != crc {
        return Err("CRC mismatch".to_owned());
    }
    Ok((start, start + length))
}

/// CRC-32 (IEEE 802.3, reflected), the checksum of `zlib.crc32`.
pub fn crc32(data: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    !data.iter().fold(!0u32, |c, &b| TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_is_zlibs() {
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b"The quick brown fox jumps over the lazy dog"), 0x414F_A339);
    }

    #[test]
    fn a_framed_record_reads_back_and_damage_is_named() {
        let mut data = b"xx".to_vec();
        frame(b"{\"a\":1}", &mut data).unwrap();
        assert_eq!(&data[2..6], &[0, 0, 0, 7]);
        assert_eq!(payload_at(&data, 2), Ok((10, 17)));
        assert_eq!(payload_at(&data, 12), Err("incomplete record header".to_owned()));
        assert_eq!(payload_at(&data[..16], 2), Err("record needs 7 bytes, 6 present".to_owned()));
        data[12] ^= 1;
        assert_eq!(payload_at(&data, 2), Err("CRC mismatch".to_owned()));
        assert_eq!(payload_at(&[0xFF; 9], 0), Err(format!("implausible record length {}", u32::MAX)));
        assert_eq!(payload_at(&data, 99), Err("incomplete record header".to_owned()));
    }
}
