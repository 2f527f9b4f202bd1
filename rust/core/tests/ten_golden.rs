//! Golden playthroughs of TEN: two full transcripts (views and events) and a few hash-only ones.
//! Regenerate deliberately with `CARDNET_BLESS=1 cargo test -p cardnet-core --test ten_golden`.

use cardnet_core::conformance::{check_golden, golden_transcript};
use serde_json::{json, Value};
use std::path::PathBuf;

fn golden(label: &str, players: usize, seed: u64, options: Value, move_seed: u64, full: bool) {
    let transcript = golden_transcript("ten", players, seed, &options, move_seed, full).expect("a transcript");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/ten-{label}.jsonl"));
    check_golden(&path, &transcript).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn golden_full_three_players() {
    golden("full-3p", 3, 2021, json!({}), 7, true);
}

#[test]
fn golden_full_solo() {
    golden("full-solo", 1, 2022, json!({"solo_target": 20}), 8, true);
}

#[test]
fn golden_hashes() {
    golden("hash-2p", 2, 41, json!({}), 1, false);
    golden("hash-4p", 4, 42, json!({}), 2, false);
    golden("hash-5p", 5, 43, json!({}), 3, false);
}
