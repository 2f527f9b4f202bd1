//! Deal statistics of Cherki under random or heuristic play, to compare with the reference figures in
//! `docs/GAMES.md` § Reference figures: `cargo run --release -p cardnet-core --example cherki_stats -- heuristic 3 2000`.

use cardnet_core::ai::Player;
use cardnet_core::games::cherki::Cherki;
use cardnet_core::rng::{derive, Rng};
use cardnet_core::{Game, Setup};
use serde_json::Map;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let player = Player::parse(args.get(1).map_or("heuristic", String::as_str)).unwrap_or(Player::Heuristic);
    let players: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    let deals: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let (mut turns, mut calls, mut wins, mut by_take, mut points) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let start = std::time::Instant::now();
    for i in 0..deals {
        let setup = Setup { players, seed: derive(7, i), options: Map::new() };
        let Ok(mut game) = Cherki::new(&setup) else { return };
        let mut rng = Rng::new(derive(8, i));
        while let Some(seat) = game.to_act().first() {
            let Ok(index) = player.choose(&game, seat, &mut rng) else { return };
            let before = game.phase();
            if game.apply_index(seat, index).is_err() {
                return;
            }
            for event in game.events(None) {
                match event["type"].as_str() {
                    Some("call") => calls += 1,
                    Some("win") => {
                        wins += 1;
                        by_take += (event["by"] == "take_discard") as u64;
                        points += event["total"].as_u64().unwrap_or(0);
                    }
                    _ => {}
                }
            }
            if before == cardnet_core::games::cherki::Phase::Start
                && game.phase() != cardnet_core::games::cherki::Phase::Start
            {
                turns += 1;
            }
        }
    }
    let d = deals as f64;
    println!(
        "{} play, {players} players, {deals} deals: {:.1} turns/deal, {:.2} calls/deal, {:.1}% drawn, \
         {:.1}% of wins by take, {:.1} points/win, {:.1} µs/deal",
        player.name(),
        turns as f64 / d,
        calls as f64 / d,
        100.0 * (deals - wins) as f64 / d,
        100.0 * by_take as f64 / wins.max(1) as f64,
        points as f64 / wins.max(1) as f64,
        start.elapsed().as_micros() as f64 / d
    );
}
