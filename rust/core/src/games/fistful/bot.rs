//! A Fistful of Gold's built-in heuristic player.

use super::rules::*;
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// Net gold of `x` against every card of a full deck, a rough card strength for the heuristic player.
pub(super) fn strength(x: u8) -> i32 {
    (1..=DYNAMITE).map(|y| base_gold(x, y)).sum()
}

impl Fistful {
    /// [`Game::heuristic_index`] of this game.
    pub(super) fn heuristic_choice(&self, seat: Seat, _rng: &mut Rng) -> usize {
        let n = self.legal_count(seat);
        let best_by = |score: &dyn Fn(FistfulMove) -> i32| -> usize {
            (0..n)
                .filter_map(|i| self.legal_move(seat, i).map(|m| (i, score(m))))
                .max_by_key(|&(i, s)| (s, std::cmp::Reverse(i)))
                .map_or(0, |(i, _)| i)
        };
        match self.phase {
            // Keep the strong cards: discard the weakest set.
            Phase::SetupDiscard | Phase::RoundEndDiscard => best_by(&|m| match m {
                FistfulMove::Discard(cards) => -cards_of(cards).map(strength).sum::<i32>(),
                _ => 0,
            }),
            Phase::Green8Retrieve => best_by(&|m| match m {
                FistfulMove::Retrieve(card) => strength(card),
                _ => 0,
            }),
            // Best net gold against the opponent's cards not yet played this round.
            Phase::Pick => {
                let other = 1 - seat;
                let candidates = FULL_DECK & !self.played_mask(other);
                best_by(&|m| match m {
                    FistfulMove::Pick(card) => cards_of(candidates).map(|y| base_gold(card, y)).sum(),
                    _ => 0,
                })
            }
            Phase::MatchOver => 0,
        }
    }
}
