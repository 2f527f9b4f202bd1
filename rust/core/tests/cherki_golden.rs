//! Golden playthroughs of Cherki: two full transcripts (views and events) and a few hash-only ones.
//! Regenerate deliberately with `CARDNET_BLESS=1 cargo test -p cardnet-core --test cherki_golden`.

use cardnet_core::conformance::{check_golden, golden_transcript};
use serde_json::{json, Value};
use std::path::PathBuf;

fn golden(label: &str, players: usize, seed: u64, options: Value, move_seed: u64, full: bool) {
    let transcript = golden_transcript("cherki", players, seed, &options, move_seed, full).expect("a transcript");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/cherki-{label}.jsonl"));
    check_golden(&path, &transcript).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn golden_full_three_players_one_deal() {
    golden("full-3p", 3, 2026, json!({}), 7, true);
}

#[test]
fn golden_full_three_players_two_deals() {
    golden("full-3p-2deals", 3, 1444, json!({"deals": 2}), 1445, true);
}

#[test]
fn golden_hashes() {
    golden("hash-4p", 4, 41, json!({}), 1, false);
    golden("hash-6p-3deals", 6, 42, json!({"deals": 3}), 2, false);
    golden("hash-2p", 2, 43, json!({}), 3, false);
}
