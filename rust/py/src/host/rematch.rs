//! The pure parts of a rematch in the host's native lane: the vote lines it takes, the seed of the next game,
//! and the journal records and the line of a vote — each the same bytes as the Python path makes
//! (`HostSession._dispatch` for a `rematch`, `Table.vote_rematch`, `Table.start_next_game`,
//! `cardnet.table.derive_seed`; tests/test_fast_lane.py plays rematches both ways and compares every byte).

use super::move_line::skip_space;
use cardnet_core::json::write_u64;
use cardnet_core::session::sha256;
use cardnet_core::Seat;

/// Whether `line` (newline included, at most `limit` bytes before it) is a rematch vote the lane takes:
/// `{"type":"rematch"}` with any JSON whitespace but a newline between its tokens. A vote with other fields
/// (which the general path ignores) goes the general way.
pub fn is_vote_line(line: &[u8], limit: usize) -> bool {
    let Some(body) = line.strip_suffix(b"\n") else { return false };
    let tokens: [&[u8]; 5] = [b"{", b"\"type\"", b":", b"\"rematch\"", b"}"];
    let mut rest = body;
    for token in tokens {
        match skip_space(rest).strip_prefix(token) {
            Some(after) => rest = after,
            None => return false,
        }
    }
    body.len() <= limit && skip_space(rest).is_empty()
}

/// The seed of game `game_no` (0-based) of a seeded table: `seed` itself for game 0, then the first 8 bytes,
/// big-endian, of `SHA-256("cardnet-rematch/1|" + seed + "|" + game_no)` (docs/PROTOCOL.md § 5).
pub fn derive_seed(seed: u64, game_no: u64) -> u64 {
    if game_no == 0 {
        return seed;
    }
    let d = sha256(format!("cardnet-rematch/1|{seed}|{game_no}").as_bytes());
    u64::from_be_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]])
}

/// The journal payload of a vote (`Table.vote_rematch`'s record, keys sorted).
pub fn vote_record(game_no: u64, seat: Seat) -> String {
    let mut out = String::with_capacity(48);
    out.push_str("{\"game_no\":");
    write_u64(&mut out, game_no);
    out.push_str(",\"kind\":\"vote\",\"seat\":");
    write_u64(&mut out, seat as u64);
    out.push('}');
    out
}

/// The journal payload of a game's start (`Table.start_next_game`'s record, keys sorted).
pub fn game_record(game_no: u64, seed: u64, state_id: u64) -> String {
    let mut out = String::with_capacity(80);
    out.push_str("{\"game_no\":");
    write_u64(&mut out, game_no);
    out.push_str(",\"kind\":\"game\",\"seed\":");
    write_u64(&mut out, seed);
    out.push_str(",\"state_id\":");
    write_u64(&mut out, state_id);
    out.push('}');
    out
}

/// The `rematch` line every peer gets after a vote that did not start the next game (`RematchVotes`), newline
/// included; `votes` in increasing order.
pub fn votes_line(game_no: u64, votes: &[Seat]) -> String {
    let mut out = String::with_capacity(48 + 4 * votes.len());
    out.push_str("{\"game_no\":");
    write_u64(&mut out, game_no);
    out.push_str(",\"type\":\"rematch\",\"votes\":[");
    for (i, seat) in votes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_u64(&mut out, *seat as u64);
    }
    out.push_str("]}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_follow_the_protocol() {
        assert_eq!(derive_seed(42, 0), 42);
        // `cardnet.table.derive_seed(42, 1)`, computed with hashlib.
        assert_eq!(derive_seed(42, 1), 15_076_587_201_317_099_318);
        assert_ne!(derive_seed(42, 1), derive_seed(42, 2));
    }

    #[test]
    fn votes_in_any_spacing_are_taken() {
        for line in ["{\"type\":\"rematch\"}\n", "{\"type\": \"rematch\"}\n", " {\t\"type\" :\"rematch\" } \r\n"] {
            assert!(is_vote_line(line.as_bytes(), 64), "{line:?}");
        }
        for line in [
            "{\"type\":\"rematch\"}",
            "{\"type\":\"rematch\",\"note\":1}\n",
            "{\"type\":\"rematch\",\"type\":\"rematch\"}\n",
            "{\"type\":\"Rematch\"}\n",
            "{\"type\":\"rematch\"}}\n",
            "{\"type\":\"rematch\"}\n{\"type\":\"rematch\"}\n",
            "[\"type\",\"rematch\"]\n",
            "{\"type\":\n\"rematch\"}\n",
        ] {
            assert!(!is_vote_line(line.as_bytes(), 64), "{line:?}");
        }
        // Longer than the peer's line limit: the general path refuses it.
        let padded = format!("{{\"type\":\"rematch\"{}}}\n", " ".repeat(50));
        assert!(is_vote_line(padded.as_bytes(), 70) && !is_vote_line(padded.as_bytes(), 60));
    }

    #[test]
    fn records_and_lines_are_canonical() {
        assert_eq!(vote_record(3, 1), r#"{"game_no":3,"kind":"vote","seat":1}"#);
        assert_eq!(game_record(4, 77, 120), r#"{"game_no":4,"kind":"game","seed":77,"state_id":120}"#);
        assert_eq!(votes_line(0, &[0, 2]), "{\"game_no\":0,\"type\":\"rematch\",\"votes\":[0,2]}\n");
        assert_eq!(votes_line(5, &[]), "{\"game_no\":5,\"type\":\"rematch\",\"votes\":[]}\n");
    }
}
