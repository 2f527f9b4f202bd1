//! The fuzz targets as ordinary tests, with no fuzzing tool: every target over its seed corpus (inputs from
//! real games), mutations of each seed, random inputs from proptest, and every input in `regressions/`
//! (what the coverage-guided runs found, kept once fixed). `bench/fuzz_core.sh` runs the same targets
//! under libFuzzer for as long as it is given.

use cardnet_core::rng::Rng;
use cardnet_fuzz::{seeds::seeds, TARGETS};
use proptest::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Mutants tried per seed.
const MUTANTS: usize = 24;

/// Text a mutation splices in: the edges a parser must refuse or take whole.
const SPLICES: [&str; 16] = [
    "-1",
    "18446744073709551616",
    "1e999",
    "0.5",
    "null",
    "[]",
    "{}",
    "\"\\ud800\"",
    "\"\\u0000\"",
    "\u{feff}",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    "9223372036854775807",
    "true",
    "\"\u{fffe}\"",
    "4294967296",
    "\"x\":1,",
];

/// Runs `target` on `input`, naming the input when it fails.
fn run(name: &str, target: fn(&[u8]), input: &[u8], origin: &str) {
    if catch_unwind(AssertUnwindSafe(|| target(input))).is_err() {
        panic!("target {name} failed on {origin}: {:?}", String::from_utf8_lossy(input));
    }
}

/// One mutation of `seed`: a byte changed, a range cut, doubled or truncated, or an edge value spliced in.
fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = seed.to_vec();
    if out.is_empty() {
        return SPLICES[rng.index(SPLICES.len())].as_bytes().to_vec();
    }
    let at = rng.index(out.len());
    match rng.index(6) {
        0 => out[at] = rng.index(256) as u8,
        1 => {
            let end = (at + 1 + rng.index(16)).min(out.len());
            out.drain(at..end);
        }
        2 => out.truncate(at),
        3 => {
            let end = (at + 1 + rng.index(32)).min(out.len());
            let copy = out[at..end].to_vec();
            out.splice(at..at, copy);
        }
        4 => {
            // Replace a number (or a byte) with an edge value.
            let end = out[at..].iter().position(|b| !b.is_ascii_digit()).map_or(out.len(), |n| at + n.max(1));
            out.splice(at..end, SPLICES[rng.index(SPLICES.len())].bytes());
        }
        _ => out.splice(at..at, SPLICES[rng.index(SPLICES.len())].bytes()).for_each(drop),
    }
    out
}

/// The seeds, their mutants and the kept regressions of one target.
fn corpus_of(name: &str) {
    let target = TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f).expect("a target of that name");
    let seeds = seeds(name);
    assert!(seeds.len() >= 30, "{name}: only {} seeds", seeds.len());
    let mut rng = Rng::new(34);
    for (i, seed) in seeds.iter().enumerate() {
        run(name, target, seed, &format!("seed {i}"));
        for m in 0..MUTANTS {
            run(name, target, &mutate(seed, &mut rng), &format!("mutant {m} of seed {i}"));
        }
    }
    let kept = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions").join(name);
    if let Ok(entries) = std::fs::read_dir(&kept) {
        for entry in entries.flatten() {
            let input = std::fs::read(entry.path()).expect("a kept input is readable");
            run(name, target, &input, &entry.path().display().to_string());
        }
    }
}

#[test]
fn moves_corpus() {
    corpus_of("moves");
}

#[test]
fn views_corpus() {
    corpus_of("views");
}

#[test]
fn saves_corpus() {
    corpus_of("saves");
}

#[test]
fn rl_saves_corpus() {
    corpus_of("rl_saves");
}

#[test]
fn setups_corpus() {
    corpus_of("setups");
}

#[test]
fn ffi_corpus() {
    corpus_of("ffi");
}

/// The seeds are documents the core accepts, so the fuzzer starts inside the parsers, not at their door.
#[test]
fn the_seed_documents_are_accepted() {
    for (i, save) in seeds("saves").iter().enumerate() {
        let text = std::str::from_utf8(save).expect("a save is text");
        assert!(cardnet_core::load_game(text).is_ok(), "save seed {i} does not load");
    }
    for (i, save) in seeds("rl_saves").iter().enumerate() {
        let text = std::str::from_utf8(save).expect("an RL save is text");
        assert!(cardnet_core::rl::load_rl(text).is_ok(), "RL save seed {i} does not load");
    }
}

#[test]
fn every_target_has_a_test_and_seeds() {
    let tested = ["moves", "views", "saves", "rl_saves", "setups", "ffi"];
    let names: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, tested, "a target was added without a test here");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random bytes after a random header: mostly refused as not JSON, which must be refused cleanly too.
    #[test]
    fn random_inputs(target in 0..TARGETS.len(), input in proptest::collection::vec(any::<u8>(), 0..200)) {
        let (name, run_target) = TARGETS[target];
        run(name, run_target, &input, "a random input");
    }

    /// A random header before a random JSON value: reaches the parsers behind the JSON decoder.
    #[test]
    fn random_json(target in 0..TARGETS.len(), header in proptest::collection::vec(any::<u8>(), 8),
                   value in json_value()) {
        let (name, run_target) = TARGETS[target];
        let input = [header, value.into_bytes()].concat();
        run(name, run_target, &input, "a random JSON value");
    }
}

/// JSON text built from the keys and values the core's documents use.
fn json_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_string()),
        any::<bool>().prop_map(|b| b.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        (0u64..20).prop_map(|n| n.to_string()),
        prop::sample::select(vec!["\"play\"", "\"pass\"", "\"matchstick\"", "\"ten\"", "\"bid\"", "\"8\"", "\"\""])
            .prop_map(str::to_string),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        let keys = prop::sample::select(vec![
            "type",
            "cards",
            "value",
            "seat",
            "move",
            "moves",
            "format",
            "game",
            "players",
            "seed",
            "options",
            "state",
            "public",
            "private",
            "actions",
            "state_hash",
            "hand",
            "to_act",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::vec((keys, inner), 0..5).prop_map(|fields| {
                let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{{}}}", body.join(","))
            }),
        ]
    })
}
