//! Determinized flat Monte Carlo with common random numbers, for games whose [`Game::SEARCH`] is
//! [`Search::Flat`](crate::game::Search::Flat).
//!
//! Every sample is a full state consistent with what the searching seat knows ([`Game::determinize`]);
//! each candidate move ([`Game::search_candidates`] plus the default move) is played on that same state and
//! played out by the heuristic player from the same playout seed. The candidates are therefore compared on
//! identical luck, and the noise left in a difference of two moves comes only from the states where they
//! lead to different ends. The search keeps the game's default move ([`Game::search_default_index`])
//! unless the best mean beats it by more than one standard error of the paired differences: in Cherki,
//! where a tree search with the same budget barely moved from the heuristic, picking the best mean outright
//! with 20 samples won 19 % of the games against heuristic players, and the guard is what keeps a small
//! budget from trading a sound rule for noise.

use super::budget::Meter;
use super::playout::play_out;
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// Running sums for one candidate: its rewards and its differences from the default move's.
#[derive(Clone, Copy, Default)]
struct Tally {
    reward: f64,
    diff: f64,
    diff_squared: f64,
}

/// Spends the playouts `meter` allows for `seat` (`playout_cost` iterations each, a sample costing one
/// playout per candidate, and at least 2 samples, so a level costs about what the tree search costs with
/// as many iterations) and returns the index of the chosen move.
pub(crate) fn search<G: Game>(game: &G, seat: Seat, meter: &mut Meter, playout_cost: u32, rng: &mut Rng) -> usize {
    let count = game.legal_count(seat);
    if count <= 1 {
        return 0;
    }
    let default = game.search_default_index(seat, rng);
    let mut candidates = game.search_candidates(seat);
    candidates.retain(|&i| i < count && i != default);
    if candidates.is_empty() {
        return default;
    }
    candidates.insert(0, default);
    let players = game.setup().players;
    let sample_cost = (candidates.len() as u32).saturating_mul(playout_cost.max(1));
    let mut tallies = vec![Tally::default(); candidates.len()];
    let mut rewards = vec![0.0; candidates.len()];
    let mut samples = 0u32;
    while meter.spend(sample_cost) || samples < 2 {
        samples += 1;
        let sample = game.determinize(Some(seat), rng);
        let seed = rng.next_u64();
        for (reward, &index) in rewards.iter_mut().zip(&candidates) {
            let mut state = sample.clone();
            *reward = match state.apply_index(seat, index) {
                Ok(()) => play_out(&mut state, players, &mut Rng::new(seed))[seat],
                Err(_) => 0.0,
            };
        }
        for (tally, &reward) in tallies.iter_mut().zip(&rewards) {
            let diff = reward - rewards[0];
            tally.reward += reward;
            tally.diff += diff;
            tally.diff_squared += diff * diff;
        }
    }
    // The first best mean wins ties, and the default move comes first.
    let mut best = 0;
    for (i, tally) in tallies.iter().enumerate() {
        if tally.reward > tallies[best].reward {
            best = i;
        }
    }
    if best == 0 || !clearly_better(&tallies[best], samples) {
        return default;
    }
    candidates[best]
}

/// Whether a candidate's mean difference from the default move exceeds one standard error.
fn clearly_better(tally: &Tally, samples: u32) -> bool {
    let n = f64::from(samples);
    let mean = tally.diff / n;
    let variance = (tally.diff_squared - n * mean * mean).max(0.0) / (n - 1.0);
    mean > (variance / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Budget;
    use crate::games::cherki::Cherki;
    use crate::games::ten::Ten;
    use crate::rng::derive;
    use crate::Setup;

    /// Plays a whole game with the flat search in seat 0 (a small budget) and heuristic players elsewhere,
    /// and returns the search's choices.
    fn searched_moves<G: Game>(seed: u64) -> Vec<usize> {
        let options = G::info().resolve_options(&serde_json::Value::Null).unwrap_or_default();
        let Ok(mut game) = G::new(&Setup { players: 3, seed, options }) else { panic!("no game") };
        let mut rng = Rng::new(derive(seed, 1));
        let mut chosen = Vec::new();
        while let Some(seat) = game.to_act().first() {
            let index = if seat == 0 {
                search(&game, seat, &mut Meter::new(Budget::Iterations(8)), 1, &mut rng)
            } else {
                game.heuristic_index(seat, &mut rng)
            };
            assert!(index < game.legal_count(seat), "the search chose no legal move");
            if seat == 0 {
                chosen.push(index);
            }
            game.apply_index(seat, index).unwrap_or_else(|e| panic!("{e}"));
        }
        chosen
    }

    #[test]
    fn the_same_seed_gives_the_same_moves() {
        assert_eq!(searched_moves::<Cherki>(5), searched_moves::<Cherki>(5));
        assert_eq!(searched_moves::<Ten>(5), searched_moves::<Ten>(5));
    }

    #[test]
    fn a_steady_gain_is_clearly_better_and_a_coin_flip_is_not() {
        // Ten samples where the candidate won two more games than the default and never fewer.
        let steady = Tally { reward: 6.0, diff: 2.0, diff_squared: 2.0 };
        assert!(clearly_better(&steady, 10));
        // The same net gain of two out of ten, but from six wins and four losses against the default.
        let noisy = Tally { reward: 6.0, diff: 2.0, diff_squared: 10.0 };
        assert!(!clearly_better(&noisy, 10));
    }
}
