//! How far a search player departs from the heuristic, and what it wins against heuristic opponents:
//! `cargo run --release -p cardnet-core --example search_probe -- cherki hard 100 [PAIRED]`.
//!
//! Plays DEALS deals of GAME (Cherki or TEN, 3 players), each once with the hero in every seat and
//! heuristic players in the others, and prints the hero's wins with a normal-approximation 95 % interval,
//! the drawn games, how many of its decisions (with more than one legal move) differ from the heuristic's
//! choice, and its think time (wall clock, p50/p95). With PAIRED > 0 the hero is not the given player but a
//! flat rollout search kept here as an experiment: PAIRED playouts per decision shared out over the legal
//! moves, every move played on the same determinizations with the same playout seed (common random
//! numbers), and the heuristic's move kept unless the best mean beats it by a standard error of the paired
//! differences. The README's Cherki strength notes quote this probe.

use cardnet_core::ai::Player;
use cardnet_core::games::cherki::Cherki;
use cardnet_core::games::ten::Ten;
use cardnet_core::rng::{derive, Rng};
use cardnet_core::{Game, Setup};
use serde_json::Map;
use std::time::Instant;

/// The seed the deals are derived from.
const SEED: u64 = 11;

fn run<G: Game>(hero: Player, players: usize, deals: u64, paired: u32) {
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
                } else if paired > 0 {
                    paired_search(&game, seat, paired, &mut rng)
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
    let name = if paired > 0 { format!("paired:{paired}") } else { hero.name() };
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

/// Plays the game out with the heuristic player in every seat.
fn playout<G: Game>(state: &mut G, rng: &mut Rng) {
    while let Some(actor) = state.to_act().first() {
        let index = state.heuristic_index(actor, rng);
        if state.apply_index(actor, index).is_err() {
            break;
        }
    }
}

/// The flat rollout search described in the module docs.
fn paired_search<G: Game>(game: &G, seat: usize, budget: u32, rng: &mut Rng) -> usize {
    let count = game.legal_count(seat);
    if count <= 1 {
        return 0;
    }
    let players = game.setup().players;
    let heuristic = game.heuristic_index(seat, rng);
    let samples = (budget as usize / count).max(2);
    let mut rewards = vec![vec![0.0f64; samples]; count];
    for s in 0..samples {
        let sample = game.determinize(Some(seat), rng);
        let seed = rng.next_u64();
        for (index, row) in rewards.iter_mut().enumerate() {
            let mut state = sample.clone();
            if state.apply_index(seat, index).is_err() {
                continue;
            }
            playout(&mut state, &mut Rng::new(seed));
            row[s] = state.outcome().map_or(0.5, |o| o.rewards(players)[seat]);
        }
    }
    let mean = |r: &[f64]| r.iter().sum::<f64>() / r.len() as f64;
    let best = (0..count).max_by(|&a, &b| mean(&rewards[a]).total_cmp(&mean(&rewards[b]))).unwrap_or(heuristic);
    if best == heuristic {
        return heuristic;
    }
    let diffs: Vec<f64> = (0..samples).map(|s| rewards[best][s] - rewards[heuristic][s]).collect();
    let m = mean(&diffs);
    let variance = diffs.iter().map(|d| (d - m).powi(2)).sum::<f64>() / (samples as f64 - 1.0);
    if m > (variance / samples as f64).sqrt() {
        best
    } else {
        heuristic
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: search_probe cherki|ten PLAYER DEALS [PAIRED]";
    let (Some(game), Some(hero), Some(deals)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Ok(hero) = Player::parse(hero) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let deals: u64 = deals.parse().unwrap_or(0);
    let paired: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(0);
    match game.as_str() {
        "cherki" => run::<Cherki>(hero, 3, deals, paired),
        "ten" => run::<Ten>(hero, 3, deals, paired),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
