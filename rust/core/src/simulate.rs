//! Batch self-play in Rust: the fastest way to run many games with built-in players.
//!
//! Game `i` of a batch with seed `S` is dealt with `derive(S, i)` — the same game as
//! `new_game(seed = derive(S, i))` — and its players draw their own choices from `derive(derive(S, i), 1)`.

use crate::ai::Player;
use crate::error::GameError;
use crate::game::Game;
use crate::rng::{derive, Rng};
use crate::session::Session;
use serde_json::{json, Value};

/// A game that has not ended after this many decisions is a bug in its engine, not a long game.
pub const DECISION_LIMIT: u64 = 1_000_000;

/// Totals of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct SimSummary {
    pub games: u64,
    pub decisions: u64,
    /// Per seat: the sum over games of [`crate::game::Outcome::rewards`] (wins, shares of wins, half draws).
    pub rewards: Vec<f64>,
    /// Per seat: games won outright or shared.
    pub wins: Vec<u64>,
    /// Games that ended with no winner.
    pub no_winner: u64,
}

impl SimSummary {
    /// The summary as JSON (rewards in thousandths, to keep JSON integer-only).
    pub fn to_json(&self) -> Value {
        let milli: Vec<i64> = self.rewards.iter().map(|r| (r * 1000.0).round() as i64).collect();
        json!({"games": self.games, "decisions": self.decisions, "wins": self.wins,
               "no_winner": self.no_winner, "reward_milli": milli})
    }
}

/// Plays `games` games of `G` with one built-in player per seat.
pub fn simulate<G: Game>(
    players: Option<usize>,
    options: &Value,
    seats: &[Player],
    games: u64,
    seed: u64,
) -> Result<SimSummary, GameError> {
    let template = Session::<G>::start(players, seed, options)?;
    let setup = template.game().setup().clone();
    if seats.len() != setup.players {
        return Err(GameError::BadOptions(format!("{} seats given for a {}-player game", seats.len(), setup.players)));
    }
    let mut summary = SimSummary {
        games,
        decisions: 0,
        rewards: vec![0.0; setup.players],
        wins: vec![0; setup.players],
        no_winner: 0,
    };
    let mut game_setup = setup.clone();
    for i in 0..games {
        game_setup.seed = derive(seed, i);
        let mut game = G::new(&game_setup)?;
        let mut rng = Rng::new(derive(game_setup.seed, 1));
        let mut decisions = 0u64;
        while let Some(seat) = game.to_act().first() {
            let index = seats[seat].choose(&game, seat, &mut rng)?;
            game.apply_index(seat, index)?;
            decisions += 1;
            if decisions > DECISION_LIMIT {
                return Err(GameError::Internal(format!("game {i} did not end within {DECISION_LIMIT} decisions")));
            }
        }
        summary.decisions += decisions;
        let outcome = game.outcome().ok_or_else(|| GameError::Internal(format!("game {i} stopped unfinished")))?;
        for (total, r) in summary.rewards.iter_mut().zip(outcome.rewards(setup.players)) {
            *total += r;
        }
        for &w in &outcome.winners {
            summary.wins[w] += 1;
        }
        if outcome.winners.is_empty() {
            summary.no_winner += 1;
        }
    }
    Ok(summary)
}
