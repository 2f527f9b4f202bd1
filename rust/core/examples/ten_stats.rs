//! Heuristic self-play of TEN for 1–5 players: game length, auctions, busts, scores, ties and speed, to compare
//! with the reference figures in `docs/GAMES.md` (§ Reference figures). Run:
//! `cargo run --release -p cardnet-core --example ten_stats -- [games]`.

use cardnet_core::games::ten::Ten;
use cardnet_core::rng::{derive, Rng};
use cardnet_core::{Game, Setup};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let Ok(options) = Ten::info().resolve_options(&serde_json::Value::Null) else {
        eprintln!("TEN's options do not resolve");
        return;
    };
    for players in 1..=5usize {
        let (mut turns, mut auctions, mut busts, mut points, mut top_ties, mut wins, mut decisions) =
            (0u64, 0u64, 0u64, 0i64, 0u64, 0u64, 0u64);
        let start = std::time::Instant::now();
        for i in 0..games {
            let setup = Setup { players, seed: derive(2021, i), options: options.clone() };
            let Ok(mut game) = Ten::new(&setup) else { return };
            let mut rng = Rng::new(derive(setup.seed, 1));
            while let Some(seat) = game.to_act().first() {
                let index = game.heuristic_index(seat, &mut rng);
                if game.apply_index(seat, index).is_err() {
                    eprintln!("game {i}: the heuristic chose an illegal move");
                    return;
                }
                decisions += 1;
                for event in game.events(None) {
                    match event["type"].as_str() {
                        Some("auction") | Some("offer") => auctions += 1,
                        Some("bust") => busts += 1,
                        _ => {}
                    }
                }
            }
            let Some(outcome) = game.outcome() else { return };
            turns += u64::from(game.turn());
            points += outcome.scores.iter().sum::<i64>();
            let best = outcome.scores.iter().max().copied().unwrap_or(0);
            top_ties += u64::from(outcome.scores.iter().filter(|&&s| s == best).count() > 1);
            wins += u64::from(players == 1 && !outcome.winners.is_empty());
        }
        let n = games as f64;
        println!(
            "{players}p: {:.1} turns, {:.1} auctions, {:.3} busts/turn, {:.1} points/player, top score tied {:.1}%, \
             solo target reached {:.1}%, {:.0} decisions and {:.2} ms per game",
            turns as f64 / n,
            auctions as f64 / n,
            busts as f64 / turns as f64,
            points as f64 / n / players as f64,
            100.0 * top_ties as f64 / n,
            100.0 * wins as f64 / n,
            decisions as f64 / n,
            start.elapsed().as_secs_f64() * 1000.0 / n
        );
    }
}
