//! How strong the built-in players are, per game, as one JSON document: the mean reward (0..=1, see
//! `Outcome::rewards`) of seat 0 when it plays `heuristic` against `random` players, and `ismcts:N` against
//! `heuristic` players. An even table gives every seat about 1/players of the wins.
//!
//! `cargo run --release -p cardnet-core --example strength -- [--games G] [--iterations N]`

use cardnet_core::json::canonical;
use cardnet_core::registry;
use serde_json::{json, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let games: u64 = flag("--games").and_then(|s| s.parse().ok()).unwrap_or(400);
    let iterations: u32 = flag("--iterations").and_then(|s| s.parse().ok()).unwrap_or(200);
    let searcher = format!("ismcts:{iterations}");
    let mut rows = Vec::new();
    for info in registry::infos() {
        let players = info.default_players;
        for (hero, rest, count) in [("heuristic", "random", games), (searcher.as_str(), "heuristic", games / 10)] {
            let mut seats = vec![rest; players];
            seats[0] = hero;
            match registry::simulate(info.name, &seats, count.max(1), 7, &Value::Null) {
                Ok(s) => rows.push(json!({
                    "game": info.name, "players": players, "seat0": hero, "others": rest, "games": s.games,
                    "seat0_reward_milli": (s.rewards[0] * 1000.0 / s.games as f64).round() as i64,
                    "others_reward_milli": (s.rewards[1..].iter().sum::<f64>() * 1000.0
                        / (s.games as f64 * (players - 1).max(1) as f64)).round() as i64,
                })),
                Err(e) => {
                    eprintln!("{}: {e}", info.name);
                    std::process::exit(1);
                }
            }
        }
    }
    println!("{}", canonical(&json!({"benchmark": "ai_strength", "results": rows})));
}
