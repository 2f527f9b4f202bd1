//! Random-play statistics of Matchstick Tycoon, to compare with the reference figures of
//! `docs/GAMES.md` § Reference figures (turns, tricks, revolutions, forced discards per game, legal moves per
//! decision), for every player count.
//!
//! `cargo run --release -p cardnet-core --example matchstick_stats [games] [deal_all] [pass_probability]`
//!
//! By default each decision is uniform among all legal moves (`legal_count` + `apply_index`), as in
//! `simulate`. With `pass_probability` a follower passes with that probability and otherwise picks a play
//! uniformly: the figures at 2 players barely move with it, which is how a difference of game length
//! there can be told apart from a difference of random policy.

use cardnet_core::game::{Game, Setup};
use cardnet_core::games::matchstick::Matchstick;
use cardnet_core::rng::Rng;
use serde_json::json;

#[derive(Default)]
struct Totals {
    turns: u64,
    tricks: u64,
    revolutions: u64,
    discards: u64,
    passes: u64,
    plays: u64,
    /// Sum of legal-move counts over decisions (for the mean).
    choices: u64,
}

/// The move index to play: uniform, or a pass with probability `pass_p` when following.
fn pick(game: &Matchstick, seat: usize, pass_p: Option<f64>, rng: &mut Rng) -> usize {
    let count = game.legal_count(seat);
    let following = game.public_view()["table"].is_object() && !game.hand_ids(seat).is_empty();
    match pass_p {
        Some(p) if following && count > 1 => {
            if (rng.index(1 << 20) as f64) < p * f64::from(1u32 << 20) {
                0
            } else {
                1 + rng.index(count - 1)
            }
        }
        _ => rng.index(count),
    }
}

fn play_one(players: usize, deal_all: bool, pass_p: Option<f64>, seed: u64, totals: &mut Totals) -> Result<(), String> {
    let options = Matchstick::info().resolve_options(&json!({"deal_all": deal_all})).map_err(|e| e.to_string())?;
    let mut game = Matchstick::new(&Setup { players, seed, options }).map_err(|e| e.to_string())?;
    let mut rng = Rng::new(seed ^ 0x5eed);
    while let Some(seat) = game.to_act().first() {
        totals.choices += game.legal_count(seat) as u64;
        let index = pick(&game, seat, pass_p, &mut rng);
        game.apply_index(seat, index).map_err(|e| e.to_string())?;
        totals.turns += 1;
        for event in game.events(None) {
            match event["type"].as_str().unwrap_or("") {
                "trick_cleared" => totals.tricks += 1,
                "revolution" => totals.revolutions += 1,
                "discard_matchstick" => totals.discards += 1,
                "pass" => totals.passes += 1,
                "play" => totals.plays += 1,
                _ => {}
            }
        }
    }
    Ok(())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let deal_all = args.next().is_some_and(|a| a == "deal_all" || a == "true");
    let pass_p: Option<f64> = args.next().and_then(|a| a.parse().ok());
    let policy = pass_p.map_or("uniform".to_string(), |p| format!("followers pass with probability {p}"));
    println!("{games} games per player count; deal_all at 2-3 players: {deal_all}; policy: {policy}");
    println!("players   turns  tricks  revolutions  plays  passes  discards (% of turns)  legal moves/decision");
    for players in 2..=8 {
        let mut totals = Totals::default();
        for seed in 0..games {
            if let Err(e) = play_one(players, deal_all, pass_p, seed, &mut totals) {
                eprintln!("{players} players, seed {seed}: {e}");
                std::process::exit(1);
            }
        }
        let per = |x: u64| x as f64 / games as f64;
        println!(
            "{players:>7} {:>7.1} {:>7.1} {:>12.2} {:>6.1} {:>7.1} {:>9.1} ({:>2.0} %) {:>21.1}",
            per(totals.turns),
            per(totals.tricks),
            per(totals.revolutions),
            per(totals.plays),
            per(totals.passes),
            per(totals.discards),
            100.0 * totals.discards as f64 / totals.turns as f64,
            totals.choices as f64 / totals.turns as f64
        );
    }
}
