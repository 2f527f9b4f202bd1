//! Cherki's legal moves: which discards, takes and calls a seat may make, counted, ranked and unranked.

use super::cards::*;
use super::rules::*;
use crate::game::Seat;

/// The binomial coefficient `n` choose `k` (small arguments: at most 12 and 8 here).
pub(super) fn choose(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

impl Cherki {
    /// Whether `seat` (to act, before drawing) may take the top discard.
    pub(super) fn can_take(&self, seat: usize) -> bool {
        if !self.top_available {
            return false;
        }
        let Some(top) = self.discards.last() else { return false };
        if self.called[seat] {
            card_kind(top.card) == self.pair_kind[seat] as usize
        } else {
            !self.took_last[seat]
        }
    }

    /// The cards `seat` may discard now (all but a card just taken from the discard pile).
    pub(super) fn discardable(&self, seat: usize) -> u128 {
        let mut cards = self.hands[seat];
        if self.drawn_taken && self.drawn != NONE {
            cards &= !bit(self.drawn);
        }
        cards
    }

    /// The discardable cards whose discard leaves a ready hand (for a discard with the call).
    pub(super) fn callable_discards(&self, seat: usize) -> u128 {
        let counts = kind_counts(self.hands[seat]);
        let mut ready_kinds = 0u128;
        for (kind, mask) in KIND_MASKS.iter().enumerate() {
            if counts[kind] == 0 {
                continue;
            }
            let mut after = counts;
            after[kind] -= 1;
            if ready_kind(&after).is_some() {
                ready_kinds |= mask;
            }
        }
        self.discardable(seat) & ready_kinds
    }

    /// The discards `seat` may make now as card masks: plain ones, and those that come with the call (both
    /// empty unless `seat` is to discard). These are the moves `legal_move` lists then, without building them.
    pub fn discard_options(&self, seat: Seat) -> (u128, u128) {
        let plain = self.plain_discards(seat);
        if plain == 0 || self.called[seat] {
            (plain, 0)
        } else {
            (plain, self.callable_discards(seat))
        }
    }

    /// The first mask of [`Cherki::discard_options`] alone (cheaper: no search for calls).
    pub fn plain_discards(&self, seat: Seat) -> u128 {
        if !self.acting(seat) || self.phase != Phase::Drawn {
            0
        } else if self.called[seat] {
            bit(self.drawn)
        } else {
            self.discardable(seat)
        }
    }
}

impl Cherki {
    /// [`Game::legal_move`] of this game.
    pub(super) fn unrank_move(&self, seat: Seat, index: usize) -> Option<CherkiMove> {
        if !self.acting(seat) {
            return None;
        }
        match self.phase {
            Phase::Start => {
                let mut options = [Some(CherkiMove::DrawStock), None, None];
                let mut n = 1;
                if self.can_take(seat) {
                    options[n] = Some(CherkiMove::TakeDiscard);
                    n += 1;
                }
                if !self.called[seat] && self.hand_ready_kind(seat).is_some() {
                    options[n] = Some(CherkiMove::Call);
                }
                options.get(index).copied().flatten()
            }
            Phase::Drawn if self.called[seat] => {
                (index == 0).then_some(CherkiMove::Discard { card: self.drawn, call: false })
            }
            Phase::Drawn => {
                let plain = self.discardable(seat);
                let count = plain.count_ones() as usize;
                if index < count {
                    bits(plain).nth(index).map(|card| CherkiMove::Discard { card, call: false })
                } else {
                    bits(self.callable_discards(seat))
                        .nth(index - count)
                        .map(|card| CherkiMove::Discard { card, call: true })
                }
            }
            Phase::Over => None,
        }
    }

    /// [`Game::index_of`] of this game.
    pub(super) fn rank_move(&self, seat: Seat, mv: &CherkiMove) -> Option<usize> {
        if !self.acting(seat) {
            return None;
        }
        match (self.phase, *mv) {
            (Phase::Start, CherkiMove::DrawStock) => Some(0),
            (Phase::Start, CherkiMove::TakeDiscard) => self.can_take(seat).then_some(1),
            (Phase::Start, CherkiMove::Call) => {
                (!self.called[seat] && self.hand_ready_kind(seat).is_some()).then_some(1 + self.can_take(seat) as usize)
            }
            (Phase::Drawn, CherkiMove::Discard { card, call }) => {
                if card as usize >= DECK_SIZE {
                    return None;
                }
                if self.called[seat] {
                    return (card == self.drawn && !call).then_some(0);
                }
                let plain = self.discardable(seat);
                if plain & bit(card) == 0 {
                    return None;
                }
                let below = bit(card) - 1;
                if !call {
                    return Some((plain & below).count_ones() as usize);
                }
                let callable = self.callable_discards(seat);
                (callable & bit(card) != 0)
                    .then(|| plain.count_ones() as usize + (callable & below).count_ones() as usize)
            }
            _ => None,
        }
    }
}
