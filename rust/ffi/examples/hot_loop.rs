//! The Rust side of `bench/ffi_speed.py`: the loop the C example times (new 4-player Matchstick game
//! per seed, uniform random legal index until it ends), through the typed `Game` trait and through the
//! dynamic `AnyGame` that the C ABI wraps. Prints one JSON document.
//!
//! `cargo run --release -p cardnet-ffi --example hot_loop -- [SECONDS] [SEED]`

use cardnet_core::games::matchstick::Matchstick;
use cardnet_core::json::canonical;
use cardnet_core::rng::{derive, Rng};
use cardnet_core::session::Session;
use cardnet_core::{new_game, Game, GameError};
use serde_json::{json, Value};
use std::time::Instant;

/// Plays games until `seconds` passed; returns (games, decisions, elapsed seconds).
fn time_games(
    seconds: f64,
    seed: u64,
    mut play: impl FnMut(u64, &mut Rng) -> Result<u64, GameError>,
) -> (u64, u64, f64) {
    let mut rng = Rng::new(seed);
    let start = Instant::now();
    let (mut games, mut decisions) = (0u64, 0u64);
    while start.elapsed().as_secs_f64() < seconds {
        decisions += play(derive(seed, games), &mut rng).expect("a random game plays to its end");
        games += 1;
    }
    (games, decisions, start.elapsed().as_secs_f64())
}

fn typed(deal: u64, rng: &mut Rng) -> Result<u64, GameError> {
    let mut game = Session::<Matchstick>::start(Some(4), deal, &Value::Null)?.game().clone();
    let mut decisions = 0;
    while let Some(seat) = game.to_act().first() {
        let index = rng.index(game.legal_count(seat));
        game.apply_index(seat, index)?;
        decisions += 1;
    }
    Ok(decisions)
}

fn dynamic(deal: u64, rng: &mut Rng) -> Result<u64, GameError> {
    let mut game = new_game("matchstick", Some(4), deal, &Value::Null)?;
    let mut decisions = 0;
    while let Some(&seat) = game.to_act().first() {
        let index = rng.index(game.legal_count(seat));
        game.apply_index(seat, index)?;
        decisions += 1;
    }
    Ok(decisions)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    if cfg!(debug_assertions) {
        eprintln!("refusing to benchmark a debug build: use --release");
        std::process::exit(2);
    }
    let row = |name: &str, (games, decisions, elapsed): (u64, u64, f64)| {
        json!({"api": name, "games": games, "decisions": decisions,
               "games_per_s": (games as f64 / elapsed).round() as u64,
               "decisions_per_s": (decisions as f64 / elapsed).round() as u64})
    };
    let rows = vec![
        row("rust_typed", time_games(seconds, seed, typed)),
        row("rust_dynamic", time_games(seconds, seed, dynamic)),
    ];
    println!("{}", canonical(&json!({"benchmark": "ffi_rust", "game": "matchstick", "players": 4, "results": rows})));
}
