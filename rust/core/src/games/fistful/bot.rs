//! A Fistful of Gold's built-in heuristic player, and the samples its search solves duels from.

use super::rules::*;
use crate::game::{Game, Seat, SeatSet};
use crate::rng::Rng;

/// Tree iterations per iteration of a level's budget in the simultaneous-move search
/// (`Search::Matrix`): an iteration (a walk down the tree and a playout of the rest of the match) costs a
/// few microseconds, so `hard`'s iterations buy about 0.15 s a decision on one core (the setup discard,
/// with 36 moves a side, about 0.3 s).
pub(super) const MATRIX_PLAYOUTS: u32 = 20;

/// Budgets from this many iterations on (`hard`) use the simultaneous-move search; smaller ones
/// (`normal`) information-set MCTS.
pub(super) const MATRIX_FROM_ITERATIONS: u32 = 1000;

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

impl Fistful {
    /// [`Game::simultaneous_sample`] of this game: at a duel pick, a determinized state with the
    /// opponent's pick (if already made) back in its hand and the opponent to act again. Its hidden cards
    /// follow what `seat` can count: the opponent's hand is a deck minus the cards it was seen to lose,
    /// dealt at random among the histories that fit the public log.
    pub(super) fn duel_sample(&self, seat: Seat, rng: &mut Rng) -> Option<(Self, Seat)> {
        if self.phase != Phase::Pick || seat > 1 || !self.to_act.contains(seat) {
            return None;
        }
        let other = 1 - seat;
        let mut sample = self.determinize(Some(seat), rng);
        if let Some(card) = sample.pending[other].take() {
            sample.hand[other] |= bit(card);
        }
        sample.to_act = SeatSet::EMPTY.with(seat).with(other);
        Some((sample, other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;

    #[test]
    fn a_duel_sample_takes_the_opponents_pick_back_and_keeps_the_own_hand() {
        let Ok(mut game) = Fistful::new(&Setup { players: 2, seed: 4, options: serde_json::Map::new() }) else {
            panic!("no game")
        };
        let mut rng = Rng::new(4);
        for seat in 0..2 {
            let index = game.heuristic_index(seat, &mut rng);
            assert!(game.apply_index(seat, index).is_ok());
        }
        assert_eq!(game.phase, Phase::Pick);
        // Seat 1 picks; seat 0 still has to.
        assert!(game.apply_index(1, 0).is_ok());
        for _ in 0..20 {
            let Some((sample, other)) = game.duel_sample(0, &mut rng) else { panic!("no sample at a pick") };
            assert_eq!(other, 1);
            assert!(sample.to_act.contains(0) && sample.to_act.contains(1));
            assert_eq!(sample.pending, [None, None]);
            assert_eq!(sample.hand[0], game.hand[0]);
            assert_eq!(count(sample.hand[1]), count(game.hand[0]));
        }
        assert!(game.duel_sample(1, &mut rng).is_none(), "seat 1 has nothing left to decide");
    }
}
