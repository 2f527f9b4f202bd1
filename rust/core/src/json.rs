//! Canonical JSON: the one byte form of moves, views and events on every boundary.
//!
//! Keys sorted (serde_json's default map is ordered), `,` and `:` without spaces, integers only, and
//! pure ASCII (anything else is written as `\uXXXX`, surrogate pairs beyond the BMP). Two peers that hold
//! the same value therefore produce the same bytes, which is what `state_hash` relies on.
//!
//! For embedders: [`canonical`] (and [`write_canonical`]) and [`parse`]. The streaming writers the games
//! and the Python host use are public for those crates only and hidden from the documentation: they are
//! no part of the stable API.

use serde_json::Value;
use std::fmt::Write;

/// Writes `value` in canonical form. Floats never occur in cardnet data; if one slips in it is written
/// through serde_json so the output stays valid JSON.
pub fn canonical(value: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_canonical(&mut out, value);
    out
}

/// Appends the canonical form of `value` to `out`: the writer behind [`canonical`], for callers that
/// splice several fragments into one buffer without an intermediate `String` each.
///
/// serde_json's map is a `BTreeMap`, so keys already come sorted: the writer walks the tree once and never
/// sorts. Integers and plain ASCII strings (nearly everything in cardnet data) skip `fmt` machinery.
pub fn write_canonical(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                write_u64(out, u);
            } else if let Some(i) = n.as_i64() {
                write_i64(out, i);
            } else {
                let _ = write!(out, "{n}");
            }
        }
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                write_canonical(out, item);
            }
            out.push('}');
        }
    }
}

/// Appends the decimal digits of `n`.
#[doc(hidden)]
pub fn write_u64(out: &mut String, mut n: u64) {
    // Most numbers in a view or a legal list (cards, seats, counts) have one or two digits.
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
        return;
    }
    if n < 100 {
        out.push(char::from(b'0' + (n / 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
        return;
    }
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // The slice holds ASCII digits only.
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or("0"));
}

/// Appends a signed integer.
#[doc(hidden)]
pub fn write_i64(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    write_u64(out, n.unsigned_abs());
}

/// `true` or `false`.
#[doc(hidden)]
pub fn bool_str(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// Appends an optional unsigned integer (`null` for none).
#[doc(hidden)]
pub fn write_opt(out: &mut String, n: Option<u64>) {
    match n {
        Some(n) => write_u64(out, n),
        None => out.push_str("null"),
    }
}

/// Appends a JSON array, each item written by `write`.
#[doc(hidden)]
pub fn write_array<T>(out: &mut String, items: impl IntoIterator<Item = T>, mut write: impl FnMut(&mut String, T)) {
    out.push('[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(out, item);
    }
    out.push(']');
}

/// Appends a JSON array of unsigned integers.
#[doc(hidden)]
pub fn write_list(out: &mut String, items: impl Iterator<Item = u64>) {
    write_array(out, items, write_u64);
}

/// Appends `s` as a canonical JSON string (quoted, escaped, pure ASCII).
#[doc(hidden)]
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    if s.bytes().all(|b| (0x20..=0x7e).contains(&b) && b != b'"' && b != b'\\') {
        out.push_str(s);
    } else {
        write_escaped(out, s);
    }
    out.push('"');
}

fn write_escaped(out: &mut String, s: &str) {
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
}

/// Parses JSON text, refusing anything that is not one valid JSON document.
pub fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The value of the JSON that `write` appends: the one bridge from a game's direct writers to the
/// `Value` that callers outside the hot path (Python bots' views, saves, conformance checks) read. Every game
/// writes each piece of its JSON once, with a writer; nothing builds a second copy as a `Value`.
///
/// # Panics
/// When `write` produces text that is not JSON: a bug in that writer, never a consequence of input.
#[doc(hidden)]
pub fn written(write: impl FnOnce(&mut String)) -> Value {
    let mut text = String::with_capacity(256);
    write(&mut text);
    match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(e) => panic!("a writer produced invalid JSON ({e}): {text}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sorted_compact_ascii() {
        let v = json!({"b": [1, -2, true, null], "a": {"z": "é😀\n", "y": "x"}});
        assert_eq!(canonical(&v), r#"{"a":{"y":"x","z":"\u00e9\ud83d\ude00\n"},"b":[1,-2,true,null]}"#);
    }

    #[test]
    fn round_trips_through_serde() {
        let v = json!({"k": "quote\" back\\ ctl\u{1}", "n": 18446744073709551615u64});
        let text = canonical(&v);
        assert_eq!(parse(&text).unwrap(), v);
        assert!(text.is_ascii());
    }

    #[test]
    fn integers_at_the_edges() {
        let v = json!([0, 9, 10, -1, i64::MIN, i64::MAX, u64::MAX]);
        assert_eq!(canonical(&v), format!("[0,9,10,-1,{},{},{}]", i64::MIN, i64::MAX, u64::MAX));
    }

    #[test]
    fn numbers_are_written_as_rust_formats_them() {
        let edges = (0..=1_100).chain((1..20).flat_map(|p| [10u64.pow(p) - 1, 10u64.pow(p)])).chain([u64::MAX]);
        for n in edges {
            let mut out = String::from("x");
            write_u64(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
