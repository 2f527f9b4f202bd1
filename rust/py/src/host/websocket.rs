//! The WebSocket framing the native lane speaks for a browser's seat (RFC 6455 § 5.2): the host's lines out as
//! unmasked text frames, and the one kind of client frame the lane reads itself, a whole protocol line in one
//! masked text frame. Any other frame (a fragment, a control frame, a binary or broken one) is not the lane's:
//! it stays for the web seat's Python reader and wsproto (python/cardnet/web/ws.py).

/// The longest frame header: two bytes, an 8-byte length and a 4-byte mask.
pub const MAX_HEADER: usize = 14;

/// Appends to `out` one final, unmasked text frame (a server's) carrying `line` without its trailing newline:
/// `cardnet.web.ws.text_frame`, byte for byte.
pub fn text_frame(line: &[u8], out: &mut Vec<u8>) {
    let payload = line.strip_suffix(b"\n").unwrap_or(line);
    let size = payload.len();
    out.push(0x81);
    if size < 126 {
        out.push(size as u8);
    } else if let Ok(short) = u16::try_from(size) {
        out.push(126);
        out.extend_from_slice(&short.to_be_bytes());
    } else {
        out.push(127);
        out.extend_from_slice(&(size as u64).to_be_bytes());
    }
    out.extend_from_slice(payload);
}

/// The length of `frame`'s payload and where it starts, when `frame` begins with the header of a final, masked
/// text frame with no reserved bits whose length is in its shortest form (as wsproto requires); None otherwise
/// or while the header is not whole.
fn masked_text_header(frame: &[u8]) -> Option<(usize, usize)> {
    let (&first, rest) = frame.split_first()?;
    let (&second, rest) = rest.split_first()?;
    if first != 0x81 || second & 0x80 == 0 {
        return None;
    }
    let (size, length_bytes) = match second & 0x7F {
        126 => (u64::from(u16::from_be_bytes(rest.get(..2)?.try_into().ok()?)), 2),
        127 => (u64::from_be_bytes(rest.get(..8)?.try_into().ok()?), 8),
        short => (u64::from(short), 0),
    };
    let shortest = match length_bytes {
        2 => size >= 126,
        8 => size > u64::from(u16::MAX),
        _ => true,
    };
    if !shortest {
        return None;
    }
    Some((usize::try_from(size).ok()?, 2 + length_bytes + 4))
}

/// The protocol line (with a newline) that `frame` carries when it is exactly one final, masked text frame whose
/// text is UTF-8, at most `limit` bytes, and one line (a trailing newline allowed, as the web seat allows it),
/// written into `line` (cleared first); false, with `line` unspecified, for anything else: the bytes are then
/// left to the web seat's reader, which answers them as it answers every other frame.
pub fn client_line(frame: &[u8], limit: usize, line: &mut Vec<u8>) -> bool {
    let Some((size, start)) = masked_text_header(frame) else { return false };
    if size > limit || frame.len() != start + size {
        return false;
    }
    let key = &frame[start - 4..start];
    line.clear();
    line.extend(frame[start..].iter().zip(key.iter().cycle()).map(|(byte, mask)| byte ^ mask));
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    if line.contains(&b'\n') || std::str::from_utf8(line).is_err() {
        return false;
    }
    line.push(b'\n');
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(payload: &[u8], key: [u8; 4]) -> Vec<u8> {
        let mut frame = vec![0x81];
        match payload.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n < 1 << 16 => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        frame.extend_from_slice(&key);
        frame.extend(payload.iter().zip(key.iter().cycle()).map(|(b, k)| b ^ k));
        frame
    }

    #[test]
    fn a_masked_text_frame_is_one_line() {
        let mut line = Vec::new();
        for payload in [&b"{\"type\":\"move\"}"[..], b"x\n", b"", &[b'a'; 300][..]] {
            assert!(client_line(&masked(payload, [1, 2, 3, 250]), 1000, &mut line));
            let text = payload.strip_suffix(b"\n").unwrap_or(payload);
            assert_eq!(&line[..line.len() - 1], text);
            assert_eq!(line.last(), Some(&b'\n'));
        }
    }

    #[test]
    fn anything_else_is_left_to_python() {
        let mut line = Vec::new();
        let good = masked(b"hello", [9, 8, 7, 6]);
        // Unmasked, binary, not final, a ping, a reserved bit, cut short, followed by more, too long, two
        // lines, not UTF-8, a length not in its shortest form.
        let mut unmasked = good.clone();
        unmasked[1] &= 0x7F;
        let mut cases = vec![unmasked, good[..good.len() - 1].to_vec(), [&good[..], &good[..]].concat()];
        for first in [0x82, 0x01, 0x89, 0xC1] {
            let mut frame = good.clone();
            frame[0] = first;
            cases.push(frame);
        }
        cases.push(masked(&[b'a'; 11], [0; 4]));
        cases.push(masked(b"a\nb", [5; 4]));
        cases.push(masked(&[0xFF, 0xFE], [0; 4]));
        cases.push([&[0x81, 0x80 | 126, 0, 5][..], &[0; 4], b"hello"].concat());
        for case in cases {
            assert!(!client_line(&case, 10, &mut line), "{case:?}");
        }
    }

    #[test]
    fn server_frames_use_the_shortest_length() {
        for (size, header) in [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10)] {
            let mut out = Vec::new();
            let mut line = vec![b'a'; size];
            line.push(b'\n');
            text_frame(&line, &mut out);
            assert_eq!(out.len(), header + size);
            assert_eq!(out[0], 0x81);
        }
    }
}
