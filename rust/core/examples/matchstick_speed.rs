//! Random self-play speed of Matchstick Tycoon: 4 players, each decision uniform among all legal moves
//! (`legal_count` + `apply_index` through `simulate`), on one thread of a release build.
//!
//! `cargo run --release -p cardnet-core --example matchstick_speed [games]`
//!
//! Prints rates by wall-clock time and, on Linux, by the thread's own CPU time (the honest figure on a
//! machine shared with other work).

use std::time::Instant;

use cardnet_core::ai::Player;
use cardnet_core::games::matchstick::Matchstick;
use cardnet_core::simulate::simulate;
use serde_json::json;

/// Nanoseconds this thread has run on a CPU, from `/proc/thread-self/schedstat` (Linux only).
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let seats = [Player::Random; 4];
    // A short warm-up so the timed run starts with warm caches and a settled CPU clock.
    if let Err(e) = simulate::<Matchstick>(Some(4), &json!({}), &seats, games / 20 + 1, 7) {
        eprintln!("warm-up failed: {e}");
        std::process::exit(1);
    }
    let cpu_start = cpu_ns();
    let start = Instant::now();
    let summary = match simulate::<Matchstick>(Some(4), &json!({}), &seats, games, 1) {
        Ok(summary) => summary,
        Err(e) => {
            eprintln!("simulation failed: {e}");
            std::process::exit(1);
        }
    };
    let wall = start.elapsed().as_secs_f64();
    let per = |secs: f64| (summary.games as f64 / secs, summary.decisions as f64 / secs);
    let (games_s, decisions_s) = per(wall);
    println!(
        "{} games, {} decisions ({:.1} per game)",
        summary.games,
        summary.decisions,
        summary.decisions as f64 / summary.games as f64
    );
    println!("wall {wall:.3} s: {games_s:.0} games/s, {decisions_s:.0} decisions/s");
    if let (Some(a), Some(b)) = (cpu_start, cpu_ns()) {
        let cpu = (b - a) as f64 / 1e9;
        let (games_s, decisions_s) = per(cpu);
        println!("cpu  {cpu:.3} s: {games_s:.0} games/s, {decisions_s:.0} decisions/s");
    }
}
