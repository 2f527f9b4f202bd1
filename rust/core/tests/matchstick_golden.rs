//! Golden playthroughs of Matchstick Tycoon: any change to the rules engine, the move order, views or
//! events shows up as a diff. Regenerate deliberately with `CARDNET_BLESS=1`.

use cardnet_core::conformance::{check_golden, golden_transcript};
use serde_json::json;
use std::path::PathBuf;

fn golden(label: &str, players: usize, seed: u64, options: serde_json::Value, move_seed: u64, full: bool) {
    let transcript = golden_transcript("matchstick", players, seed, &options, move_seed, full).expect("transcript");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/matchstick-{label}.jsonl"));
    if let Err(e) = check_golden(&path, &transcript) {
        panic!("{e}");
    }
}

#[test]
fn full_two_players() {
    golden("2p-full", 2, 11, json!({}), 1, true);
}

#[test]
fn full_three_players_with_expansion() {
    golden("3p-exp2-full", 3, 307, json!({"expansion": 2}), 308, true);
}

#[test]
fn hashes_four_players() {
    golden("4p", 4, 13, json!({}), 3, false);
}

#[test]
fn hashes_three_players_dealing_all() {
    golden("3p-deal-all", 3, 14, json!({"deal_all": true}), 4, false);
}

#[test]
fn hashes_six_players_with_expansion() {
    golden("6p-exp4", 6, 15, json!({"expansion": 4}), 5, false);
}

#[test]
fn hashes_eight_players() {
    golden("8p", 8, 16, json!({}), 6, false);
}
