//! Golden playthroughs of Matchstick Tycoon: any change to the rules engine, the move order, views or
//! events shows up as a diff. Regenerate deliberately with `CARDNET_BLESS=1`.

use cardnet_core::conformance::{check_golden_cases, GoldenCase};
use serde_json::json;
use std::path::PathBuf;

fn check(cases: &[GoldenCase]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    check_golden_cases(&dir, "matchstick", cases).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn full_two_players() {
    check(&[GoldenCase::new("2p-full", 2, 11, json!({}), 1, true)]);
}

#[test]
fn full_three_players_with_expansion() {
    check(&[GoldenCase::new("3p-exp2-full", 3, 307, json!({"expansion": 2}), 308, true)]);
}

#[test]
fn hashes_four_players() {
    check(&[GoldenCase::new("4p", 4, 13, json!({}), 3, false)]);
}

#[test]
fn hashes_three_players_dealing_all() {
    check(&[GoldenCase::new("3p-deal-all", 3, 14, json!({"deal_all": true}), 4, false)]);
}

#[test]
fn hashes_six_players_with_expansion() {
    check(&[GoldenCase::new("6p-exp4", 6, 15, json!({"expansion": 4}), 5, false)]);
}

#[test]
fn hashes_eight_players() {
    check(&[GoldenCase::new("8p", 8, 16, json!({}), 6, false)]);
}
