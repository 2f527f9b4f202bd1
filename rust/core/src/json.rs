//! Canonical JSON: the one byte form of moves, views and events on every boundary.
//!
//! Keys sorted (serde_json's default map is ordered), `,` and `:` without spaces, integers only, and
//! pure ASCII (anything else is written as `\uXXXX`, surrogate pairs beyond the BMP). Two peers that hold
//! the same value therefore produce the same bytes, which is what `state_hash` relies on.

use serde_json::Value;
use std::fmt::Write;

/// Writes `value` in canonical form. Floats never occur in cardnet data; if one slips in it is written
/// through serde_json so the output stays valid JSON.
pub fn canonical(value: &Value) -> String {
    let mut out = String::with_capacity(64);
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
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
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
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
    out.push('"');
}

/// Parses JSON text, refusing anything that is not one valid JSON document.
pub fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
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
}
