//! Batch self-play speed of every game in the core, one core, printed as one JSON document.
//!
//! `cargo run --release -p cardnet-core --example selfplay -- [--seconds S] [--game NAME] [--players N] [--player P]`
//! Each game is played with uniform random players (or `--player`) for about S seconds (default 3) per
//! game and player count; the figures are games/s and decisions/s of `registry::simulate`.

use cardnet_core::json::canonical;
use cardnet_core::registry;
use serde_json::{json, Value};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let seconds: f64 = flag("--seconds").and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let only_game = flag("--game");
    let only_players: Option<usize> = flag("--players").and_then(|s| s.parse().ok());
    let player = flag("--player").unwrap_or_else(|| "random".to_string());
    if cfg!(debug_assertions) {
        eprintln!("refusing to benchmark a debug build: use --release");
        std::process::exit(2);
    }
    let mut rows = Vec::new();
    for info in registry::infos() {
        if only_game.as_deref().is_some_and(|g| g != info.name) {
            continue;
        }
        let counts: Vec<usize> = match only_players {
            Some(n) => vec![n],
            None => vec![info.default_players],
        };
        for players in counts {
            let seats: Vec<&str> = vec![player.as_str(); players];
            // Calibrate with a small batch, then run for about `seconds`.
            let mut batch = 16u64;
            let mut seed = 1u64;
            let (mut games, mut decisions, mut elapsed) = (0u64, 0u64, 0.0f64);
            while elapsed < seconds {
                let start = Instant::now();
                let summary = match registry::simulate(info.name, &seats, batch, seed, &Value::Null) {
                    Ok(s) => s,
                    Err(e) => {
                        eprintln!("{}: {e}", info.name);
                        std::process::exit(1);
                    }
                };
                let took = start.elapsed().as_secs_f64();
                elapsed += took;
                games += summary.games;
                decisions += summary.decisions;
                seed += 1;
                if took < 0.2 {
                    batch *= 2;
                }
            }
            rows.push(json!({
                "game": info.name, "players": players, "player": player, "games": games,
                "decisions": decisions,
                "games_per_s": (games as f64 / elapsed).round() as u64,
                "decisions_per_s": (decisions as f64 / elapsed).round() as u64,
                "decisions_per_game_x10": (decisions as f64 * 10.0 / games.max(1) as f64).round() as u64,
            }));
        }
    }
    println!("{}", canonical(&json!({"benchmark": "core_selfplay", "results": rows})));
}
