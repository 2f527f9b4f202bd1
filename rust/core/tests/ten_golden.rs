//! Golden playthroughs of TEN: two full transcripts (views and events) and a few hash-only ones.
//! Regenerate deliberately with `CARDNET_BLESS=1 cargo test -p cardnet-core --test ten_golden`.

use cardnet_core::conformance::{check_golden_cases, GoldenCase};
use serde_json::json;
use std::path::PathBuf;

fn check(cases: &[GoldenCase]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    check_golden_cases(&dir, "ten", cases).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn golden_full_three_players() {
    check(&[GoldenCase::new("full-3p", 3, 2021, json!({}), 7, true)]);
}

#[test]
fn golden_full_solo() {
    check(&[GoldenCase::new("full-solo", 1, 2022, json!({"solo_target": 20}), 8, true)]);
}

#[test]
fn golden_hashes() {
    check(&[
        GoldenCase::new("hash-2p", 2, 41, json!({}), 1, false),
        GoldenCase::new("hash-4p", 4, 42, json!({}), 2, false),
        GoldenCase::new("hash-5p", 5, 43, json!({}), 3, false),
    ]);
}
