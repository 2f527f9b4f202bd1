//! Golden transcripts of A Fistful of Gold: two full playthroughs (views and events) and a few hash-only
//! ones. Regenerate deliberately with `CARDNET_BLESS=1 cargo test -p cardnet-core --test fistful_golden`.

use cardnet_core::conformance::{check_golden_cases, GoldenCase};
use serde_json::json;
use std::path::PathBuf;

fn check(cases: &[GoldenCase]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    check_golden_cases(&dir, "fistful", cases).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn golden_full_short() {
    check(&[GoldenCase::new("full-short", 2, 11, json!({"length": "short", "colours": "random"}), 3, true)]);
}

#[test]
fn golden_full_long() {
    check(&[GoldenCase::new("full-long", 2, 12, json!({"length": "long", "colours": "seat0_green"}), 5, true)]);
}

#[test]
fn golden_hashes() {
    check(&[
        GoldenCase::new("hash-short-pink", 2, 21, json!({"colours": "seat0_pink"}), 8, false),
        GoldenCase::new("hash-long-random", 2, 22, json!({"length": "long"}), 9, false),
        GoldenCase::new("hash-short-green", 2, 23, json!({"colours": "seat0_green"}), 10, false),
    ]);
}
