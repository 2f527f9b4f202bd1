//! The pure parts of the host's fast lane (`Game.host_move`): the canonical `move` line, the decisions that
//! stay open or open after a move, and the move's journal record — each the same as the Python path makes
//! (`parse_move_line`, `Table._refresh_decisions`, `Table.apply_move` with `journal.encode_record`; the tests
//! in tests/test_fast_lane.py play games both ways and compare every byte).

use cardnet_core::json::{write_i64, write_u64};
use cardnet_core::Seat;

/// A peer's `ref`: absent and `null` are the same (None in Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ref<'a> {
    None,
    Int(i64),
    Str(&'a str),
}

/// A `move` line in the one canonical index form: `{"decision_id":D,"index":I[,"ref":R],"type":"move"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLine<'a> {
    pub decision_id: u64,
    pub index: i64,
    pub peer_ref: Ref<'a>,
}

/// At most this many digits in a number of the canonical form (`parse_move_line`'s `{0,14}` after the first).
const MAX_DIGITS: usize = 15;
/// At most this many characters in a string `ref` of the canonical form.
const MAX_REF: usize = 64;

/// Splits `0` or a number without a leading zero, at most [`MAX_DIGITS`] digits, off the front of `text`.
fn unsigned(text: &[u8]) -> Option<(u64, &[u8])> {
    let digits = text.iter().take(MAX_DIGITS).take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    if text[0] == b'0' {
        // "01" is not canonical: only the "0" is a number, and the "1" then fails the caller's next check.
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

/// A string `ref` of printable ASCII without quote or backslash (it is its own canonical JSON), then the rest.
fn string_ref(text: &[u8]) -> Option<(&str, &[u8])> {
    let body = text.strip_prefix(b"\"")?;
    let end = body.iter().take(MAX_REF + 1).position(|&b| b == b'"')?;
    let chars = &body[..end];
    if !chars.iter().all(|&b| (0x20..=0x7e).contains(&b) && b != b'\\') {
        return None;
    }
    Some((std::str::from_utf8(chars).ok()?, &body[end + 1..]))
}

/// The move of a line in the canonical index form, or None for any other line (valid or not: the general
/// path decides those).
pub fn parse_move_line(line: &[u8]) -> Option<MoveLine<'_>> {
    let rest = line.strip_prefix(b"{\"decision_id\":")?;
    let (decision_id, rest) = unsigned(rest)?;
    let rest = rest.strip_prefix(b",\"index\":")?;
    let (index, rest) = signed(rest)?;
    let (peer_ref, rest) = match rest.strip_prefix(b",\"ref\":") {
        None => (Ref::None, rest),
        Some(value) => {
            if let Some(after) = value.strip_prefix(b"null") {
                (Ref::None, after)
            } else if value.first() == Some(&b'"') {
                let (text, after) = string_ref(value)?;
                (Ref::Str(text), after)
            } else {
                let (n, after) = signed(value)?;
                (Ref::Int(n), after)
            }
        }
    };
    (rest == b",\"type\":\"move\"}").then_some(MoveLine { decision_id, index, peer_ref })
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
    fn other_lines_do_not() {
        for line in [
            r#"{"decision_id":01,"index":3,"type":"move"}"#,
            r#"{"decision_id":1,"index":03,"type":"move"}"#,
            r#"{"decision_id":-1,"index":3,"type":"move"}"#,
            r#"{"decision_id":1000000000000000,"index":3,"type":"move"}"#,
            r#"{"decision_id":1,"index":3,"ref":"a\"b","type":"move"}"#,
            r#"{"decision_id":1,"index":3,"ref":"a\\b","type":"move"}"#,
            r#"{"decision_id":1,"index":3,"ref":1.5,"type":"move"}"#,
            r#"{"decision_id":1,"index":3,"type":"move"} "#,
            r#"{"decision_id": 1,"index":3,"type":"move"}"#,
            r#"{"decision_id":1,"index":-,"type":"move"}"#,
            r#"{"decision_id":1,"index":3,"ref":"é","type":"move"}"#,
            r#"{"decision_id":1,"type":"move"}"#,
            "",
        ] {
            assert_eq!(parsed(line), None, "{line}");
        }
        let long = format!(r#"{{"decision_id":1,"index":1,"ref":"{}","type":"move"}}"#, "x".repeat(65));
        assert_eq!(parsed(&long), None);
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
