//! Golden playthroughs of Cherki: two full transcripts (views and events) and a few hash-only ones.
//! Regenerate deliberately with `CARDNET_BLESS=1 cargo test -p cardnet-core --test cherki_golden`.

use cardnet_core::conformance::{check_golden_cases, GoldenCase};
use serde_json::json;
use std::path::PathBuf;

fn check(cases: &[GoldenCase]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    check_golden_cases(&dir, "cherki", cases).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn golden_full_three_players_one_deal() {
    check(&[GoldenCase::new("full-3p", 3, 2026, json!({}), 7, true)]);
}

#[test]
fn golden_full_three_players_two_deals() {
    check(&[GoldenCase::new("full-3p-2deals", 3, 1444, json!({"deals": 2}), 1445, true)]);
}

#[test]
fn golden_hashes() {
    check(&[
        GoldenCase::new("hash-4p", 4, 41, json!({}), 1, false),
        GoldenCase::new("hash-6p-3deals", 6, 42, json!({"deals": 3}), 2, false),
        GoldenCase::new("hash-2p", 2, 43, json!({}), 3, false),
    ]);
}
