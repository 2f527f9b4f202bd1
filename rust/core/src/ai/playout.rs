//! The playout both searches share: a state played to its end by the heuristic player, and what that end
//! is worth to each seat.

use crate::game::{Game, Outcome, OutcomeKind};
use crate::rng::Rng;

/// Plays `state` to its end with the heuristic player in every seat and returns what the end is worth to
/// each seat in a search (see [`search_rewards`]); a state the heuristic cannot finish is worth 0.5.
pub(super) fn play_out<G: Game>(state: &mut G, players: usize, rng: &mut Rng) -> Vec<f64> {
    while let Some(actor) = state.to_act().first() {
        let index = state.heuristic_index(actor, rng);
        if state.apply_index(actor, index).is_err() {
            break;
        }
    }
    match state.outcome() {
        Some(outcome) => search_rewards(&outcome, players),
        None => vec![0.5; players],
    }
}

/// What a finished playout is worth to each seat in the search: [`Outcome::rewards`] for rankings, draws
/// and solo games, and otherwise the win alone (`1/k` to each of `k` winners, 0 to the rest). The score
/// share of `Outcome::rewards` made the search trade wins for a better losing score: in TEN (seed 1,
/// 12 rotated games against heuristic players) `normal` won 1 game with it and 5 without it.
fn search_rewards(outcome: &Outcome, players: usize) -> Vec<f64> {
    match outcome.kind {
        OutcomeKind::Ranking | OutcomeKind::Draw => outcome.rewards(players),
        _ if players == 1 => outcome.rewards(players),
        _ => {
            let mut r = vec![0.0; players];
            let share = 1.0 / outcome.winners.len().max(1) as f64;
            for &w in &outcome.winners {
                if let Some(x) = r.get_mut(w) {
                    *x = share;
                }
            }
            r
        }
    }
}

/// [`play_out`] with a share `exploration` of the moves drawn uniformly among the legal ones instead of by
/// the heuristic: a continuation that no single predictable reply exploits.
pub(super) fn play_out_mixed<G: Game>(state: &mut G, players: usize, exploration: f64, rng: &mut Rng) -> Vec<f64> {
    let threshold = (exploration.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
    while let Some(actor) = state.to_act().first() {
        let index = if rng.next_u64() < threshold {
            rng.index(state.legal_count(actor).max(1))
        } else {
            state.heuristic_index(actor, rng)
        };
        if state.apply_index(actor, index).is_err() {
            break;
        }
    }
    match state.outcome() {
        Some(outcome) => search_rewards(&outcome, players),
        None => vec![0.5; players],
    }
}
