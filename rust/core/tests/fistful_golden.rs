//! Golden transcripts of A Fistful of Gold: two full playthroughs (views and events) and a few hash-only
//! ones. Regenerate deliberately with `CARDNET_BLESS=1 cargo test -p cardnet-core --test fistful_golden`.

use cardnet_core::conformance::{check_golden, golden_transcript};
use serde_json::json;
use std::path::PathBuf;

fn check(label: &str, seed: u64, options: serde_json::Value, move_seed: u64, full: bool) {
    let transcript = golden_transcript("fistful", 2, seed, &options, move_seed, full).expect("transcript");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/fistful-{label}.jsonl"));
    if let Err(e) = check_golden(&path, &transcript) {
        panic!("{e}");
    }
}

#[test]
fn golden_full_short() {
    check("full-short", 11, json!({"length": "short", "colours": "random"}), 3, true);
}

#[test]
fn golden_full_long() {
    check("full-long", 12, json!({"length": "long", "colours": "seat0_green"}), 5, true);
}

#[test]
fn golden_hashes() {
    check("hash-short-pink", 21, json!({"colours": "seat0_pink"}), 8, false);
    check("hash-long-random", 22, json!({"length": "long"}), 9, false);
    check("hash-short-green", 23, json!({"colours": "seat0_green"}), 10, false);
}
