//! A quick two-player match between built-in players, seats swapped on the same deals:
//! `cargo run --release -p cardnet-core --features clock --example level_probe -- fistful hard normal 100`.
//!
//! Prints the first player's reward share (a win 1, a draw 1/2) with a normal-approximation 95 %
//! interval, and each player's think time per decision (CPU, p50/p95). A tool for tuning a level between
//! arena runs (`cardnet arena`, which adds Bradley–Terry ratings), not a benchmark of record.

use cardnet_core::registry::play_games;
use cardnet_core::simulate::Seating;
use serde_json::Value;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, hero, villain, deals] = args.as_slice() else {
        eprintln!("usage: level_probe GAME HERO VILLAIN DEALS");
        std::process::exit(2);
    };
    let deals: u64 = deals.parse().unwrap_or(50);
    let seatings: Vec<Seating> = (0..deals)
        .flat_map(|d| {
            [Seating { seed: 1000 + d, players: vec![0, 1] }, Seating { seed: 1000 + d, players: vec![1, 0] }]
        })
        .collect();
    let records = match play_games(game, &[hero.as_str(), villain.as_str()], &seatings, &Value::Null) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut shares = Vec::new();
    let mut think: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
    for (record, seating) in records.iter().zip(&seatings) {
        for (seat, &player) in seating.players.iter().enumerate() {
            if player == 0 {
                shares.push(record.rewards[seat]);
            }
            think[player].extend(&record.think_ns[seat]);
        }
    }
    let n = shares.len() as f64;
    let mean = shares.iter().sum::<f64>() / n;
    let var = shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    println!(
        "{game}: {hero} vs {villain}: {:.1} % [{:.1}, {:.1}] over {} games",
        mean * 100.0,
        (mean - half) * 100.0,
        (mean + half) * 100.0,
        shares.len()
    );
    for (p, name) in [hero, villain].iter().enumerate() {
        let t = &mut think[p];
        t.sort_unstable();
        let q = |x: f64| t.get(((t.len().max(1) - 1) as f64 * x) as usize).map_or(0.0, |&v| v as f64 / 1e6);
        println!("  {name}: think p50 {:.2} ms, p95 {:.2} ms over {} decisions", q(0.5), q(0.95), t.len());
    }
}
