//! The pure parts of the host's fast lane (`host.play_line`): the index `move` line, the decisions that stay
//! open or open after a move, and the move's journal record — each the same as the Python path makes
//! (`decode_line` with `parse_client_message`, `Table._refresh_decisions`, `Table.apply_move` with
//! `journal.encode_record`; the tests in tests/test_fast_lane.py play games both ways and compare every byte).

use cardnet_core::json::{write_i64, write_u64};
use cardnet_core::Seat;

/// A peer's `ref`: absent and `null` are the same (None in Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ref<'a> {
    None,
    Int(i64),
    Str(&'a str),
}

/// An index `move` line: `{"decision_id":D,"index":I[,"ref":R],"type":"move"}`, keys in any order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLine<'a> {
    pub decision_id: u64,
    pub index: i64,
    pub peer_ref: Ref<'a>,
}

/// At most this many digits in a number of a move line (so it is within ±(2^53−1), as the decoder requires).
const MAX_DIGITS: usize = 15;
/// At most this many characters in a key or a string `ref` of a move line.
const MAX_REF: usize = 64;

/// Splits `0` or a number without a leading zero, at most [`MAX_DIGITS`] digits, off the front of `text`.
fn unsigned(text: &[u8]) -> Option<(u64, &[u8])> {
    let digits = text.iter().take(MAX_DIGITS).take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    if text[0] == b'0' {
        // "01" is not JSON: only the "0" is a number, and the "1" then fails the caller's next check.
        return Some((0, &text[1..]));
    }
    let value = text[..digits].iter().fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
    Some((value, &text[digits..]))
}

/// An optional minus sign, then [`unsigned`].
fn signed(text: &[u8]) -> Option<(i64, &[u8])> {
    let (negative, digits) = match text.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (value, rest) = unsigned(digits)?;
    // At most 15 digits: always within i64.
    let value = value as i64;
    Some((if negative { -value } else { value }, rest))
}

/// A string of printable ASCII without quote or backslash (so it is its own canonical JSON, and decodes to
/// itself), at most [`MAX_REF`] characters, then the rest.
fn plain_string(text: &[u8]) -> Option<(&str, &[u8])> {
    let body = text.strip_prefix(b"\"")?;
    let end = body.iter().take(MAX_REF + 1).position(|&b| b == b'"')?;
    let chars = &body[..end];
    if !chars.iter().all(|&b| (0x20..=0x7e).contains(&b) && b != b'\\') {
        return None;
    }
    Some((std::str::from_utf8(chars).ok()?, &body[end + 1..]))
}

/// `text` after any JSON whitespace at its front but a newline, which ends a line (so whatever spans two
/// lines is never read as one message).
pub fn skip_space(text: &[u8]) -> &[u8] {
    let blank = text.iter().take_while(|b| matches!(b, b' ' | b'\t' | b'\r')).count();
    &text[blank..]
}

/// A `ref` value the lane echoes as is: `null`, an integer or a [`plain_string`]; then the rest.
fn ref_value(text: &[u8]) -> Option<(Ref<'_>, &[u8])> {
    if let Some(after) = text.strip_prefix(b"null") {
        Some((Ref::None, after))
    } else if text.first() == Some(&b'"') {
        plain_string(text).map(|(chars, after)| (Ref::Str(chars), after))
    } else {
        signed(text).map(|(n, after)| (Ref::Int(n), after))
    }
}

/// The move of an index `move` line, or None for any other line (valid or not: the general path decides
/// those). The line is one flat JSON object with the keys `decision_id`, `index` and `type` (`"move"`), and
/// optionally `ref`, each once, in any order, with any JSON whitespace but a newline between tokens: what
/// a peer writes, whatever its JSON encoder. Whatever the strict decoder might read otherwise is left to it:
/// escapes, numbers beyond [`MAX_DIGITS`] digits or with a fraction or exponent, other keys, a repeated key.
pub fn parse_move_line(line: &[u8]) -> Option<MoveLine<'_>> {
    let mut rest = skip_space(line).strip_prefix(b"{")?;
    let (mut decision_id, mut index, mut peer_ref, mut typed) = (None, None, None, false);
    loop {
        let (key, after) = plain_string(skip_space(rest))?;
        let value = skip_space(skip_space(after).strip_prefix(b":")?);
        rest = match key {
            "decision_id" if decision_id.is_none() => {
                let (n, after) = unsigned(value)?;
                decision_id = Some(n);
                after
            }
            "index" if index.is_none() => {
                let (n, after) = signed(value)?;
                index = Some(n);
                after
            }
            "ref" if peer_ref.is_none() => {
                let (r, after) = ref_value(value)?;
                peer_ref = Some(r);
                after
            }
            "type" if !typed => {
                typed = true;
                value.strip_prefix(b"\"move\"")?
            }
            _ => return None,
        };
        match skip_space(rest).split_first()? {
            (b',', after) => rest = after,
            (b'}', after) => {
                rest = after;
                break;
            }
            _ => return None,
        }
    }
    if !typed || !skip_space(rest).is_empty() {
        return None;
    }
    Some(MoveLine { decision_id: decision_id?, index: index?, peer_ref: peer_ref.unwrap_or(Ref::None) })
}

/// The mover's ack as canonical JSON: `{"decision_id":D,"ref":R}`.
pub fn ack_json(decision_id: u64, peer_ref: Ref<'_>) -> String {
    let mut out = String::with_capacity(48);
    out.push_str("{\"decision_id\":");
    write_u64(&mut out, decision_id);
    out.push_str(",\"ref\":");
    match peer_ref {
        Ref::None => out.push_str("null"),
        Ref::Int(n) => write_i64(&mut out, n),
        Ref::Str(text) => {
            out.push('"');
            out.push_str(text);
            out.push('"');
        }
    }
    out.push('}');
    out
}

/// An open decision of a seat other than the mover, as the host holds it: `(seat, id, legal list)`, the list
/// borrowed from wherever the host keeps it (a move compares it, never keeps it).
pub type Held<'a> = (Seat, u64, &'a str);

/// One acting seat's decision after a move: `(seat, id, count, kept)`; `kept`: the seat's open decision
/// stays (same id), else a new one opens with this id.
pub type After = (Seat, u64, usize, bool);

/// The decisions after `mover` moved (`Table._refresh_decisions`): an acting seat other than the mover whose
/// legal list is byte-identical to that of its held decision keeps it; every other acting seat gets the id
/// `(seq[seat] + 1) * stride + seat`. `legal` is the new state's `(seat, count, legal list)` of every acting
/// seat, in seat order.
/// `seq` has one entry per seat (a seat past its end counts as having opened none).
pub fn decisions_after(
    mover: Seat,
    legal: &[(Seat, usize, String)],
    held: &[Held<'_>],
    seq: &[u64],
    stride: u64,
) -> Vec<After> {
    legal
        .iter()
        .map(|(seat, count, list)| {
            let kept = held.iter().find(|(s, _, old)| s == seat && *seat != mover && old == list);
            match kept {
                Some((_, id, _)) => (*seat, *id, *count, true),
                None => (*seat, (seq.get(*seat).copied().unwrap_or(0) + 1) * stride + *seat as u64, *count, false),
            }
        })
        .collect()
}

/// The journal payload of a move (`Table.apply_move`'s record, canonical: keys sorted).
pub fn move_record(game_no: u64, state_id: u64, seat: Seat, move_json: &str) -> String {
    let mut out = String::with_capacity(move_json.len() + 64);
    out.push_str("{\"game_no\":");
    write_u64(&mut out, game_no);
    out.push_str(",\"kind\":\"move\",\"move\":");
    out.push_str(move_json);
    out.push_str(",\"seat\":");
    write_u64(&mut out, seat as u64);
    out.push_str(",\"state_id\":");
    write_u64(&mut out, state_id);
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parsed(line: &str) -> Option<(u64, i64, Ref<'_>)> {
        parse_move_line(line.as_bytes()).map(|m| (m.decision_id, m.index, m.peer_ref))
    }

    #[test]
    fn canonical_lines_parse() {
        assert_eq!(parsed(r#"{"decision_id":17,"index":3,"type":"move"}"#), Some((17, 3, Ref::None)));
        assert_eq!(parsed(r#"{"decision_id":0,"index":-0,"ref":null,"type":"move"}"#), Some((0, 0, Ref::None)));
        assert_eq!(parsed(r#"{"decision_id":5,"index":-2,"ref":-0,"type":"move"}"#), Some((5, -2, Ref::Int(0))));
        assert_eq!(parsed(r#"{"decision_id":5,"index":1,"ref":"a b","type":"move"}"#), Some((5, 1, Ref::Str("a b"))));
        assert_eq!(parsed(r#"{"decision_id":5,"index":1,"ref":"","type":"move"}"#), Some((5, 1, Ref::Str(""))));
        let longest =
            format!(r#"{{"decision_id":999999999999999,"index":1,"ref":"{}","type":"move"}}"#, "x".repeat(64));
        assert!(parsed(&longest).is_some());
    }

    #[test]
    fn any_key_order_and_spacing_parse() {
        for line in [
            r#"{"decision_id": 1, "index": 3, "type": "move"}"#,
            r#"{"type":"move","decision_id":1,"index":3}"#,
            r#"{"type": "move", "index": 3, "ref": null, "decision_id": 1}"#,
            " \t{ \"index\" :3 ,\"decision_id\"\r:\t1,\"type\":\"move\" } \r",
        ] {
            assert_eq!(parsed(line), Some((1, 3, Ref::None)), "{line}");
        }
        assert_eq!(
            parsed(r#"{"ref": "b", "type": "move", "index": -7, "decision_id": 9}"#),
            Some((9, -7, Ref::Str("b")))
        );
        assert_eq!(parsed(r#"{"ref":12,"index":0,"decision_id":9,"type":"move"}"#), Some((9, 0, Ref::Int(12))));
    }

    #[test]
    fn other_lines_do_not() {
        for line in [
            r#"{"decision_id":01,"index":3,"type":"move"}"#,
            r#"{"decision_id":1,"index":03,"type":"move"}"#,
            r#"{"decision_id":-1,"index":3,"type":"move"}"#,
            r#"{"decision_id":1000000000000000,"index":3,"type":"move"}"#,
            r#"{"decision_id":1,"index":3,"ref":"a\"b","type":"move"}"#,
            r#"{"decision_id":1,"index":3,"ref":"a\\b","type":"move"}"#,
            r#"{"decision_id":1,"index":3,"ref":1.5,"type":"move"}"#,
            r#"{"decision_id":1,"index":3e0,"type":"move"}"#,
            r#"{"decision_id":1,"index":-,"type":"move"}"#,
            r#"{"decision_id":1,"index":3,"ref":"é","type":"move"}"#,
            r#"{"decision_id":1,"type":"move"}"#,
            r#"{"decision_id":1,"index":3}"#,
            r#"{"decision_id":1,"index":3,"type":"Move"}"#,
            r#"{"decision_id":1,"index":3,"type":"move","type":"move"}"#,
            r#"{"decision_id":1,"index":3,"index":4,"type":"move"}"#,
            r#"{"decision_id":1,"index":3,"decision_id":1,"type":"move"}"#,
            r#"{"decision_id":1,"index":3,"ref":null,"type":"move","ref":2}"#,
            r#"{"decision_id":1,"index":3,"type":"move","note":"x"}"#,
            r#"{"decision_id":1,"\u0069ndex":3,"type":"move"}"#,
            r#"{"decision_id":1,"index":3,"type":"move",}"#,
            r#"{,"decision_id":1,"index":3,"type":"move"}"#,
            r#"{"decision_id":1,"index":3 4,"type":"move"}"#,
            r#"{"decision_id" 1,"index":3,"type":"move"}"#,
            r#"{"decision_id":1,"index":3,"type":"move"}}"#,
            r#"{"decision_id":1,"index":3,"type":"move"} x"#,
            r#"[{"decision_id":1,"index":3,"type":"move"}]"#,
            "{\"decision_id\":1,\u{a0}\"index\":3,\"type\":\"move\"}",
            "{\"decision_id\":1,\"index\":3,\n\"type\":\"move\"}",
            "{}",
            "",
        ] {
            assert_eq!(parsed(line), None, "{line}");
        }
        let long = format!(r#"{{"decision_id":1,"index":1,"ref":"{}","type":"move"}}"#, "x".repeat(65));
        assert_eq!(parsed(&long), None);
    }

    /// A move line from its fields, in their order, with `blanks` (used in turn, then none) around every token.
    fn render(fields: &[(&str, String)], blanks: &[String]) -> String {
        let mut blank = blanks.iter().map(String::as_str).chain(std::iter::repeat(""));
        let mut line = format!("{}{{", blank.next().unwrap_or(""));
        for (n, (key, value)) in fields.iter().enumerate() {
            let end = if n + 1 < fields.len() { "," } else { "}" };
            let mut part = || blank.next().unwrap_or("");
            line += &format!("{}\"{key}\"{}:{}{value}{}{end}", part(), part(), part(), part());
        }
        line + blank.next().unwrap_or("")
    }

    /// A move's fields in `order` (of `decision_id`, `index`, `type`, `ref`), `ref` written as `refs[with_ref]`
    /// (absent for 0).
    fn fields(
        decision_id: u64,
        index: i64,
        order: &[usize],
        with_ref: usize,
        refs: &[String; 4],
    ) -> Vec<(&'static str, String)> {
        let keys = ["decision_id", "index", "type", "ref"];
        let values = [decision_id.to_string(), index.to_string(), "\"move\"".to_string(), refs[with_ref].clone()];
        order.iter().filter(|&&k| k != 3 || with_ref > 0).map(|&k| (keys[k], values[k].clone())).collect()
    }

    fn a_move() -> impl Strategy<Value = (u64, i64, usize, i32, String, Vec<usize>, Vec<String>)> {
        (
            0u64..1_000_000_000_000_000,
            -999_999_999_999_999i64..1_000_000_000_000_000,
            0usize..4,
            any::<i32>(),
            "[ !#-\\[\\]-~]{0,64}",
            Just(vec![0usize, 1, 2, 3]).prop_shuffle(),
            proptest::collection::vec("[ \t\r]{0,2}", 18),
        )
    }

    proptest! {
        /// Every rendering of a move, in any key order with any JSON whitespace, parses to that move.
        #[test]
        fn every_rendering_parses((decision_id, index, with_ref, number, text, order, blanks) in a_move()) {
            let refs = [String::new(), "null".to_string(), number.to_string(), format!("\"{text}\"")];
            let line = render(&fields(decision_id, index, &order, with_ref, &refs), &blanks);
            let expected = match with_ref {
                2 => Ref::Int(i64::from(number)),
                3 => Ref::Str(&text),
                _ => Ref::None,
            };
            prop_assert_eq!(parsed(&line), Some((decision_id, index, expected)), "{}", line);
        }

        /// A rendering with one of its keys twice never parses: the strict decoder refuses a repeated key.
        #[test]
        fn a_repeated_key_never_parses(
            (decision_id, index, with_ref, number, text, order, blanks) in a_move(),
            twice in any::<prop::sample::Index>(),
            at in any::<prop::sample::Index>(),
        ) {
            let refs = [String::new(), "null".to_string(), number.to_string(), format!("\"{text}\"")];
            let mut fields = fields(decision_id, index, &order, with_ref, &refs);
            let repeated = fields[twice.index(fields.len())].clone();
            fields.insert(at.index(fields.len() + 1), repeated);
            let line = render(&fields, &blanks);
            prop_assert_eq!(parsed(&line), None, "{}", line);
        }

        /// A rendering with one byte changed, added or removed parses only when a strict JSON decoder reads
        /// the same move from it (and no other key).
        #[test]
        fn an_edited_line_means_what_the_decoder_reads(
            (decision_id, index, with_ref, number, text, order, blanks) in a_move(),
            at in any::<prop::sample::Index>(),
            edit in 0u8..3,
            byte in prop::sample::select(b" \t{}[]\":,.-+0123456789eEnulxyz\\".to_vec()),
        ) {
            let refs = [String::new(), "null".to_string(), number.to_string(), format!("\"{text}\"")];
            let mut line = render(&fields(decision_id, index, &order, with_ref, &refs), &blanks).into_bytes();
            let at = at.index(line.len() + 1);
            match edit {
                0 if at < line.len() => line[at] = byte,
                1 => line.insert(at, byte),
                _ if at < line.len() => { line.remove(at); }
                _ => {}
            }
            if let Some(parsed) = parse_move_line(&line) {
                let value = serde_json::from_slice::<serde_json::Value>(&line).ok();
                let object = value.as_ref().and_then(serde_json::Value::as_object);
                prop_assert!(object.is_some(), "a parsed line is a JSON object: {}", String::from_utf8_lossy(&line));
                let Some(object) = object else { return Ok(()) };
                prop_assert!(object.keys().all(|k| ["decision_id", "index", "ref", "type"].contains(&k.as_str())));
                prop_assert_eq!(object.get("decision_id").and_then(|v| v.as_u64()), Some(parsed.decision_id));
                prop_assert_eq!(object.get("index").and_then(|v| v.as_i64()), Some(parsed.index));
                prop_assert_eq!(object.get("type").and_then(|v| v.as_str()), Some("move"));
                let peer_ref = match object.get("ref") {
                    None | Some(serde_json::Value::Null) => Ref::None,
                    Some(serde_json::Value::String(s)) => Ref::Str(s),
                    Some(v) => {
                        prop_assert!(v.is_i64(), "a ref that is neither null, a string nor an integer: {}", v);
                        Ref::Int(v.as_i64().unwrap_or_default())
                    }
                };
                prop_assert_eq!(peer_ref, parsed.peer_ref);
            }
        }
    }

    #[test]
    fn acks_and_records_are_canonical() {
        assert_eq!(ack_json(33, Ref::None), r#"{"decision_id":33,"ref":null}"#);
        assert_eq!(ack_json(33, Ref::Int(-4)), r#"{"decision_id":33,"ref":-4}"#);
        assert_eq!(ack_json(33, Ref::Str("x/y")), r#"{"decision_id":33,"ref":"x/y"}"#);
        assert_eq!(
            move_record(2, 40, 1, r#"{"a":1}"#),
            r#"{"game_no":2,"kind":"move","move":{"a":1},"seat":1,"state_id":40}"#
        );
    }

    #[test]
    fn decisions_keep_or_open() {
        let legal = vec![(0, 2, "[1,2]".to_string()), (1, 1, "[3]".to_string())];
        let held = vec![(1, 17, "[3]")];
        let after = decisions_after(0, &legal, &held, &[4, 1], 16);
        assert_eq!(after, vec![(0, 80, 2, false), (1, 17, 1, true)]);
        let changed = vec![(1, 17, "[4]")];
        assert_eq!(decisions_after(0, &legal, &changed, &[4, 1], 16), vec![(0, 80, 2, false), (1, 33, 1, false)]);
        // The mover never keeps its decision, even when its list is unchanged.
        assert_eq!(decisions_after(1, &legal, &held, &[4, 1], 16), vec![(0, 80, 2, false), (1, 33, 1, false)]);
    }
}
