//! Matchstick Tycoon's built-in heuristic player.

use super::rules::*;
use crate::game::{Game, Seat};
use crate::rng::Rng;
use crate::segments::{self};

impl Matchstick {
    /// [`Game::heuristic_index`] of this game.
    pub(super) fn heuristic_choice(&self, seat: Seat, _rng: &mut Rng) -> usize {
        let count = self.legal_count(seat);
        if count <= 1 {
            return 0;
        }
        let first = self.pass_offset();
        let hand = self.hands[seat].count_ones();
        let sticks = self.matchsticks[seat];
        // Matchsticks left when the hand is empty cost a turn each, so spending them is cheap once they
        // outnumber the cards; before that they buy flexibility and are worth keeping.
        let stick_weight = if sticks >= hand { 1 } else { 4 };
        let score = |p: &PlayMove| -> i64 {
            let rank = if self.revolution { 17 - p.value.index() } else { p.value.index() } as i64;
            let cost: u32 =
                p.ids().iter().filter_map(|&id| segments::min_cost(card_type(id), p.value)).map(u32::from).sum();
            i64::from(p.count) * 40 - rank * 2 - i64::from(cost) * stick_weight
        };
        // Plays are ordered by size then value, so the head and the tail of a long list hold the
        // weakest single cards and the biggest groups: the candidates worth weighing.
        let scan: Box<dyn Iterator<Item = usize>> = if count - first <= HEURISTIC_SCAN * 2 {
            Box::new(first..count)
        } else {
            Box::new((first..first + HEURISTIC_SCAN).chain(count - HEURISTIC_SCAN..count))
        };
        let best = scan
            .filter_map(|i| match self.legal_move(seat, i) {
                Some(MatchstickMove::Play(p)) => Some((score(&p), i, p.value)),
                _ => None,
            })
            .max_by_key(|&(s, i, _)| (s, std::cmp::Reverse(i)));
        match best {
            // Following with a strong card while holding many others gives away control cheaply:
            // keep the top of the order for leads unless the hand is nearly out.
            Some((_, i, value)) if first == 1 => {
                let rank = if self.revolution { 17 - value.index() } else { value.index() };
                if rank >= 13 && hand > 4 {
                    0
                } else {
                    i
                }
            }
            Some((_, i, _)) => i,
            None => 0,
        }
    }
}

/// How many plays at each end of a long legal list the heuristic player weighs.
pub(super) const HEURISTIC_SCAN: usize = 128;
