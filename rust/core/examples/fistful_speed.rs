//! Speed and strength check of A Fistful of Gold: random self-play throughput on the typed hot path, then
//! the built-in players against each other. Run with `cargo run --release -p cardnet-core --example fistful_speed`.

use cardnet_core::games::fistful::Fistful;
use cardnet_core::registry::simulate;
use cardnet_core::rng::{derive, Rng};
use cardnet_core::{Game, Setup};
use serde_json::{json, Map};
use std::time::Instant;

fn main() {
    let games = 20_000u64;
    let start = Instant::now();
    let mut decisions = 0u64;
    for i in 0..games {
        let setup = Setup { players: 2, seed: derive(1, i), options: Map::new() };
        let Ok(mut game) = Fistful::new(&setup) else { return };
        let mut rng = Rng::new(i);
        while let Some(seat) = game.to_act().first() {
            let n = game.legal_count(seat);
            if game.apply_index(seat, rng.index(n)).is_err() {
                return;
            }
            decisions += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("random play: {games} games, {decisions} decisions in {secs:.2} s ({:.0} games/s)", games as f64 / secs);
    for seats in [["heuristic", "random"], ["random", "heuristic"], ["ismcts:200", "heuristic"]] {
        let n = if seats[0].starts_with("ismcts") { 40 } else { 2000 };
        let start = Instant::now();
        match simulate("fistful", &seats, n, 7, &json!({})) {
            Ok(summary) => println!("{seats:?} x{n}: {} in {:.2} s", summary.to_json(), start.elapsed().as_secs_f64()),
            Err(e) => println!("{seats:?}: {e}"),
        }
    }
}
