//! How far a player departs from the heuristic, and what it wins against heuristic opponents:
//! `cargo run --release -p cardnet-core --example search_probe -- cherki hard 100`.
//!
//! Plays DEALS deals of GAME (Cherki or TEN, 3 players), each once with the hero in every seat and
//! heuristic players in the others, and prints the hero's wins with a normal-approximation 95 % interval,
//! the drawn games, how many of its decisions (with more than one legal move) differ from the heuristic's
//! choice, and its think time (wall clock, p50/p95). The README's strength notes quote this probe.

use cardnet_core::ai::Player;
use cardnet_core::games::cherki::Cherki;
use cardnet_core::games::ten::Ten;
use cardnet_core::rng::{derive, Rng};
use cardnet_core::{Game, Setup};
use serde_json::Map;
use std::time::Instant;

/// The seed the deals are derived from.
const SEED: u64 = 11;

fn run<G: Game>(hero: Player, players: usize, deals: u64) {
    let (mut wins, mut games, mut departures, mut decisions, mut draws) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut think = Vec::new();
    for d in 0..deals {
        for hero_seat in 0..players {
            let setup = Setup { players, seed: derive(SEED, d), options: Map::new() };
            let Ok(mut game) = G::new(&setup) else { return };
            let mut rng = Rng::new(derive(derive(SEED, d), 1 + hero_seat as u64));
            while let Some(seat) = game.to_act().first() {
                let start = Instant::now();
                let index = if seat != hero_seat {
                    game.heuristic_index(seat, &mut rng)
                } else {
                    hero.choose(&game, seat, &mut rng).unwrap_or(0)
                };
                if seat == hero_seat {
                    think.push(start.elapsed().as_secs_f64());
                    decisions += 1;
                    // Exact for Cherki, whose heuristic ignores its RNG; TEN's draws from it, so there the
                    // count is only a rough one.
                    if game.legal_count(seat) > 1 && index != game.heuristic_index(seat, &mut rng.clone()) {
                        departures += 1;
                    }
                }
                if game.apply_index(seat, index).is_err() {
                    return;
                }
            }
            let Some(outcome) = game.outcome() else { return };
            games += 1;
            wins += u64::from(outcome.winners.contains(&hero_seat));
            draws += u64::from(outcome.winners.is_empty());
        }
        eprint!("\r{} deals, {wins}/{games} won", d + 1);
    }
    think.sort_by(f64::total_cmp);
    let quantile = |p: f64| think.get(((think.len().max(1) - 1) as f64 * p) as usize).map_or(0.0, |t| t * 1000.0);
    let share = wins as f64 / games.max(1) as f64;
    let half = 1.96 * (share * (1.0 - share) / games.max(1) as f64).sqrt();
    let name = hero.name();
    eprintln!();
    println!(
        "{name}: won {wins}/{games} = {:.1} % ± {:.1}, drawn {draws}, departures from the heuristic \
         {departures}/{decisions}, think p50 {:.2} / p95 {:.2} ms",
        100.0 * share,
        100.0 * half,
        quantile(0.5),
        quantile(0.95)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: search_probe cherki|ten PLAYER DEALS";
    let (Some(game), Some(hero), Some(deals)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Ok(hero) = Player::parse(hero) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let deals: u64 = deals.parse().unwrap_or(0);
    match game.as_str() {
        "cherki" => run::<Cherki>(hero, 3, deals),
        "ten" => run::<Ten>(hero, 3, deals),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
