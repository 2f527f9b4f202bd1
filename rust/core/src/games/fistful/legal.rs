//! A Fistful of Gold's legal moves: picks and discards as subsets of a hand, ranked and unranked.

use super::rules::*;
use crate::game::{Game, Seat};

/// `n` choose `k` for the tiny sizes of this game.
pub(super) fn choose(n: usize, k: usize) -> usize {
    match k {
        0 => 1,
        1 => n,
        2 => n * n.saturating_sub(1) / 2,
        _ => 0,
    }
}

/// The `index`-th `k`-subset (k = 1 or 2) of `mask` in lexicographic order.
pub(super) fn unrank_subset(mask: u16, k: usize, index: usize) -> Option<u16> {
    let cards: [u8; 9] = {
        let mut a = [0u8; 9];
        for (i, c) in cards_of(mask).enumerate() {
            a[i] = c;
        }
        a
    };
    let n = count(mask);
    match k {
        1 => (index < n).then(|| bit(cards[index])),
        2 => {
            let mut i = index;
            for a in 0..n {
                let row = n - a - 1;
                if i < row {
                    return Some(bit(cards[a]) | bit(cards[a + 1 + i]));
                }
                i -= row;
            }
            None
        }
        _ => None,
    }
}

/// The rank of `subset` among the `count(subset)`-subsets of `mask`, if it is one.
pub(super) fn rank_subset(mask: u16, subset: u16) -> Option<usize> {
    if subset & !mask != 0 {
        return None;
    }
    let k = count(subset);
    (0..choose(count(mask), k)).find(|&i| unrank_subset(mask, k, i) == Some(subset))
}

impl Fistful {
    /// [`Game::legal_move`] of this game.
    pub(super) fn unrank_move(&self, seat: Seat, index: usize) -> Option<FistfulMove> {
        if index >= self.legal_count(seat) {
            return None;
        }
        match self.phase {
            Phase::SetupDiscard | Phase::RoundEndDiscard => {
                unrank_subset(self.hand[seat], self.discard_count(seat), index).map(FistfulMove::Discard)
            }
            Phase::Pick => cards_of(self.pickable(seat)).nth(index).map(FistfulMove::Pick),
            Phase::Green8Retrieve => cards_of(self.discard[seat]).nth(index).map(FistfulMove::Retrieve),
            Phase::MatchOver => None,
        }
    }

    /// [`Game::index_of`] of this game.
    pub(super) fn rank_move(&self, seat: Seat, mv: &FistfulMove) -> Option<usize> {
        if self.legal_count(seat) == 0 {
            return None;
        }
        match (self.phase, *mv) {
            (Phase::SetupDiscard | Phase::RoundEndDiscard, FistfulMove::Discard(cards)) => {
                if count(cards) != self.discard_count(seat) {
                    return None;
                }
                rank_subset(self.hand[seat], cards)
            }
            (Phase::Pick, FistfulMove::Pick(card)) => {
                let legal = self.pickable(seat);
                (card <= DYNAMITE && legal & bit(card) != 0).then(|| count(legal & (bit(card) - 1)))
            }
            (Phase::Green8Retrieve, FistfulMove::Retrieve(card)) => {
                let pile = self.discard[seat];
                (card <= DYNAMITE && pile & bit(card) != 0).then(|| count(pile & (bit(card) - 1)))
            }
            _ => None,
        }
    }
}
