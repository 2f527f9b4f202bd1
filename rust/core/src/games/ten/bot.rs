//! TEN's built-in heuristic player.

use super::rules::*;
use super::scoring::Tally;
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// How many auction moves a search compares: passing and the three lowest bids.
pub(super) const AUCTION_CANDIDATES: usize = 4;

/// The built-in heuristic player: a few rules of thumb judged by the exact scorer.
impl Ten {
    /// The score `seat` would have with `extra` added to and `without` taken from its collection.
    pub(super) fn score_with(&self, seat: Seat, extra: Option<u8>, without: Option<u8>) -> u16 {
        let mut tally = Tally::new();
        for id in self.seats[seat].collection.iter().filter(|&c| Some(c) != without).chain(extra) {
            let _ = tally.add(self.kind(id));
        }
        tally.best_total(self.data.perfect_run_bonus)
    }

    pub(super) fn heuristic(&self, seat: Seat, rng: &mut Rng) -> usize {
        let count = self.legal_count(seat);
        if count <= 1 {
            return 0;
        }
        let threshold = self.data.bust_threshold as i32;
        if self.phase == Phase::Draw {
            if self.tableau.is_empty() {
                return 0;
            }
            // Push on while a bust needs a big card: numbers are worth 1–9 and currency 1–5.
            let number_room = threshold - (i32::from(self.numbers) - i32::from(self.currency));
            let currency_room = threshold - i32::from(self.currency);
            return usize::from(!(number_room >= 6 && currency_room >= 6));
        }
        // Every other phase weighs moves by the exact scorer; the draw above, the most frequent decision
        // and the bulk of every search playout, needs no score at all.
        let now = self.score_with(seat, None, None);
        match self.phase {
            Phase::Draw => 0,
            Phase::Prize => {
                let mut tally = Tally::new();
                for id in self.seats[seat].collection.iter().chain(self.tableau.iter().copied()) {
                    let _ = tally.add(self.kind(id));
                }
                let gain = tally.best_total(self.data.perfect_run_bonus).saturating_sub(now);
                let room = self.data.token_cap.saturating_sub(self.seats[seat].tokens);
                let take_currency = gain == 0 && self.currency >= 2 && room >= 2;
                usize::from(take_currency)
            }
            Phase::Buy | Phase::FinalBuy => {
                let s = &self.seats[seat];
                let cash = u16::from(s.tokens) + self.bust_value() * u16::from(s.busts);
                let mut best = (0u16, 0usize);
                for i in 1..count {
                    if let Some(TenMove::Buy(id)) = self.legal_move(seat, i) {
                        let gain = self.score_with(seat, Some(id), None).saturating_sub(now);
                        if gain > best.0 && self.face(id) <= cash {
                            best = (gain, i);
                        }
                    }
                }
                best.1
            }
            Phase::Auction => {
                let Some(a) = self.auction else { return 0 };
                let gain = self.score_with(seat, Some(a.card), None).saturating_sub(now);
                let s = &self.seats[seat];
                let cash = u32::from(s.tokens) + u32::from(self.data.bust_token_value) * u32::from(s.busts);
                let limit = (2 * u32::from(gain) + u32::from(gain > 0)).min(cash);
                let bid = a.high + 1 + u32::from(gain >= 2 && rng.below(2) == 1);
                if gain > 0 && bid <= limit {
                    1 + (bid - a.high - 1) as usize
                } else {
                    0
                }
            }
            Phase::SoloOffer => {
                let s = &self.seats[seat];
                let gain = self.offer.map_or(0, |c| self.score_with(seat, Some(c), None).saturating_sub(now));
                usize::from(gain > 0 || s.tokens > 0 || s.busts > 0)
            }
            Phase::Pay => {
                let mut best = (u16::MAX, 0usize);
                for i in 0..count {
                    match self.legal_move(seat, i) {
                        Some(TenMove::PayToken) => return i,
                        Some(TenMove::PayBust) => return i,
                        Some(TenMove::PayCard(id)) => {
                            let loss = now.saturating_sub(self.score_with(seat, None, Some(id)));
                            if loss < best.0 {
                                best = (loss, i);
                            }
                        }
                        _ => {}
                    }
                }
                best.1
            }
            Phase::Over => 0,
        }
    }
}
