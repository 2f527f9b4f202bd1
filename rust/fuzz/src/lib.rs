//! Fuzz targets for everything `cardnet-core` and its C ABI read from outside: moves as JSON (each game's
//! `wire.rs`), views given to `game_from_view`, saved games, RL saves, setups and options, player and card
//! names, and the C ABI's JSON entry points.
//!
//! Each target is a function of the fuzzer's bytes that panics when a promise of the core breaks: a panic
//! inside the core, an error that is not the documented typed one, a refusal that changed the state, or a
//! parse that succeeded but does not round-trip or fails the core's consistency check
//! (`cardnet_core::conformance::check_state`). The same functions serve two drivers: libFuzzer
//! (`fuzz_targets/`, feature `libfuzzer`, built with coverage instrumentation by `bench/fuzz_core.sh`), and
//! `cargo test` (`tests/targets.rs`), which runs them over the seed corpus, its mutations, random inputs
//! and every input kept in `regressions/`, with no fuzzing tool installed.

pub mod check;
pub mod input;
pub mod seeds;
pub mod targets;

/// A target: it reads the fuzzer's bytes and panics when a promise breaks.
pub type Target = fn(&[u8]);

/// The targets by name, in the order the run script and the tests list them.
pub const TARGETS: [(&str, Target); 6] = [
    ("moves", targets::moves::run),
    ("views", targets::views::run),
    ("saves", targets::saves::run),
    ("rl_saves", targets::rl_saves::run),
    ("setups", targets::setups::run),
    ("ffi", targets::ffi::run),
];
