//! TEN's legal moves, visited in their fixed order, counted, ranked and unranked.

use super::rules::*;
use crate::game::Seat;

impl Ten {
    /// Calls `visit` with each legal move of `seat` in the order of [`Game::legal_move`](crate::Game::legal_move), working out once
    /// what the moves share (listing them by index repeats it per move, and per move before it in a
    /// payment or a purchase).
    pub fn visit_legal(&self, seat: Seat, mut visit: impl FnMut(TenMove)) {
        if self.actor() != Some(seat) {
            return;
        }
        match self.phase {
            Phase::Draw => {
                let (draw, stop) = self.draw_moves();
                for (ok, mv) in [(draw, TenMove::Draw), (stop, TenMove::Stop)] {
                    if ok {
                        visit(mv);
                    }
                }
            }
            Phase::Prize => {
                for prize in [Prize::Numbers, Prize::Currency] {
                    if self.has_kind(prize) {
                        visit(TenMove::Prize(prize));
                    }
                }
            }
            Phase::Buy | Phase::FinalBuy => {
                visit(TenMove::SkipBuy);
                self.kinds_of(self.market, |id| self.buyable(seat, id)).for_each(|id| visit(TenMove::Buy(id)));
            }
            Phase::Auction => {
                visit(TenMove::PassBid);
                let lowest = self.min_bid();
                (0..self.bid_count(seat) as u32).for_each(|i| visit(TenMove::Bid(lowest + i)));
            }
            Phase::SoloOffer => {
                visit(TenMove::DeclineWild);
                if self.power(seat) >= u32::from(self.solo_price()) {
                    visit(TenMove::AcceptWild);
                }
            }
            Phase::Pay => {
                for (ok, mv) in [(self.token_ok(), TenMove::PayToken), (self.bust_ok(), TenMove::PayBust)] {
                    if ok {
                        visit(mv);
                    }
                }
                if self.card_ok() {
                    self.kinds_of(self.seats[seat].collection, |_| true).for_each(|id| visit(TenMove::PayCard(id)));
                }
            }
            Phase::Over => {}
        }
    }
}

impl Ten {
    /// [`Game::legal_count`] of this game.
    pub(super) fn count_legal(&self, seat: Seat) -> usize {
        if self.actor() != Some(seat) {
            return 0;
        }
        match self.phase {
            Phase::Draw => {
                let (d, s) = self.draw_moves();
                usize::from(d) + usize::from(s)
            }
            Phase::Prize => usize::from(self.has_kind(Prize::Numbers)) + usize::from(self.has_kind(Prize::Currency)),
            Phase::Buy | Phase::FinalBuy => 1 + self.kinds_of(self.market, |id| self.buyable(seat, id)).count(),
            Phase::Auction => 1 + self.bid_count(seat),
            Phase::SoloOffer => 1 + usize::from(self.power(seat) >= u32::from(self.solo_price())),
            Phase::Pay => {
                let cards =
                    if self.card_ok() { self.kinds_of(self.seats[seat].collection, |_| true).count() } else { 0 };
                usize::from(self.token_ok()) + usize::from(self.bust_ok()) + cards
            }
            Phase::Over => 0,
        }
    }

    /// [`Game::legal_move`] of this game.
    pub(super) fn unrank_move(&self, seat: Seat, index: usize) -> Option<TenMove> {
        if self.actor() != Some(seat) {
            return None;
        }
        match self.phase {
            Phase::Draw => {
                let (d, s) = self.draw_moves();
                [(d, TenMove::Draw), (s, TenMove::Stop)].into_iter().filter(|(ok, _)| *ok).nth(index).map(|(_, m)| m)
            }
            Phase::Prize => [Prize::Numbers, Prize::Currency]
                .into_iter()
                .filter(|&p| self.has_kind(p))
                .nth(index)
                .map(TenMove::Prize),
            Phase::Buy | Phase::FinalBuy => match index {
                0 => Some(TenMove::SkipBuy),
                i => self.kinds_of(self.market, |id| self.buyable(seat, id)).nth(i - 1).map(TenMove::Buy),
            },
            Phase::Auction => match index {
                0 => Some(TenMove::PassBid),
                i if i <= self.bid_count(seat) => Some(TenMove::Bid(self.min_bid() + i as u32 - 1)),
                _ => None,
            },
            Phase::SoloOffer => match index {
                0 => Some(TenMove::DeclineWild),
                1 if self.power(seat) >= u32::from(self.solo_price()) => Some(TenMove::AcceptWild),
                _ => None,
            },
            Phase::Pay => {
                let mut i = index;
                for (ok, mv) in [(self.token_ok(), TenMove::PayToken), (self.bust_ok(), TenMove::PayBust)] {
                    if ok {
                        if i == 0 {
                            return Some(mv);
                        }
                        i -= 1;
                    }
                }
                if !self.card_ok() {
                    return None;
                }
                self.kinds_of(self.seats[seat].collection, |_| true).nth(i).map(TenMove::PayCard)
            }
            Phase::Over => None,
        }
    }

    /// [`Game::index_of`] of this game.
    pub(super) fn rank_move(&self, seat: Seat, mv: &TenMove) -> Option<usize> {
        if self.actor() != Some(seat) {
            return None;
        }
        match (self.phase, mv) {
            (Phase::Draw, TenMove::Draw) => (!self.draw.is_empty()).then_some(0),
            (Phase::Draw, TenMove::Stop) => self.may_stop().then_some(usize::from(!self.draw.is_empty())),
            (Phase::Prize, TenMove::Prize(p)) => match p {
                Prize::Numbers => self.has_kind(Prize::Numbers).then_some(0),
                Prize::Currency => self.has_kind(Prize::Currency).then_some(usize::from(self.has_kind(Prize::Numbers))),
            },
            (Phase::Buy | Phase::FinalBuy, TenMove::SkipBuy) => Some(0),
            (Phase::Buy | Phase::FinalBuy, &TenMove::Buy(id)) => {
                if !self.buyable(seat, id) {
                    return None;
                }
                let rep = self.representative(self.market, id);
                Some(1 + self.kinds_of(self.market, |c| self.buyable(seat, c)).take_while(|&c| c != rep).count())
            }
            (Phase::Auction, TenMove::PassBid) => Some(0),
            (Phase::Auction, &TenMove::Bid(amount)) => {
                let lo = self.min_bid();
                (amount >= lo && amount <= self.power(seat)).then(|| 1 + (amount - lo) as usize)
            }
            (Phase::SoloOffer, TenMove::DeclineWild) => Some(0),
            (Phase::SoloOffer, TenMove::AcceptWild) => (self.power(seat) >= u32::from(self.solo_price())).then_some(1),
            (Phase::Pay, TenMove::PayToken) => self.token_ok().then_some(0),
            (Phase::Pay, TenMove::PayBust) => self.bust_ok().then_some(usize::from(self.token_ok())),
            (Phase::Pay, &TenMove::PayCard(id)) => {
                let coll = self.seats[seat].collection;
                if !coll.contains(id) || !self.card_ok() {
                    return None;
                }
                let rep = self.representative(coll, id);
                let before = usize::from(self.token_ok()) + usize::from(self.bust_ok());
                Some(before + self.kinds_of(coll, |_| true).take_while(|&c| c != rep).count())
            }
            _ => None,
        }
    }
}
