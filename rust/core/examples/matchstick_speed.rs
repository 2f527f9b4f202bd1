//! Random self-play speed of Matchstick Tycoon: 4 uniform random players, one core, release build.
//!
//! `cargo run --release -p cardnet-core --example matchstick_speed [games]`

use std::time::Instant;

use cardnet_core::ai::Player;
use cardnet_core::games::matchstick::Matchstick;
use cardnet_core::simulate::simulate;
use serde_json::json;

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let seats = [Player::Random; 4];
    // Warm up caches and the branch predictor before timing.
    let _ = simulate::<Matchstick>(Some(4), &json!({}), &seats, games / 20 + 1, 7);
    let start = Instant::now();
    match simulate::<Matchstick>(Some(4), &json!({}), &seats, games, 1) {
        Ok(summary) => {
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{} games, {} decisions in {:.3} s: {:.0} games/s, {:.0} decisions/s, {:.1} decisions/game",
                summary.games,
                summary.decisions,
                secs,
                summary.games as f64 / secs,
                summary.decisions as f64 / secs,
                summary.decisions as f64 / summary.games as f64
            );
        }
        Err(e) => {
            eprintln!("simulation failed: {e}");
            std::process::exit(1);
        }
    }
}
