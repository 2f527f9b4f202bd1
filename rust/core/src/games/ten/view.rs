//! TEN from a view: a state rebuilt from what one seat sees (every card checked against this deck), and
//! determinization.

use super::cards::CardSet;
use super::cards::{TenKind, TOTAL_CARDS};
use super::rules::*;
use crate::error::GameError;
use crate::game::{Game, Seat, Setup};
use crate::rng::Rng;
use serde_json::Value;

pub(super) fn corrupt(what: impl std::fmt::Display) -> GameError {
    GameError::CorruptState(format!("ten view: {what}"))
}

/// `value[key]`, which must exist (`value` must be an object).
pub(super) fn field<'v>(value: &'v Value, key: &str) -> Result<&'v Value, GameError> {
    value.as_object().and_then(|m| m.get(key)).ok_or_else(|| corrupt(format!("missing field {key:?}")))
}

/// `value[key]` as an integer no greater than `max`.
pub(super) fn uint(value: &Value, key: &str, max: u64) -> Result<u64, GameError> {
    field(value, key)?
        .as_u64()
        .filter(|&n| n <= max)
        .ok_or_else(|| corrupt(format!("field {key:?} must be an integer from 0 to {max}")))
}

/// `value[key]` as an array.
pub(super) fn array<'v>(value: &'v Value, key: &str) -> Result<&'v [Value], GameError> {
    field(value, key)?.as_array().map(Vec::as_slice).ok_or_else(|| corrupt(format!("field {key:?} must be a list")))
}

/// Reading a public view back into a state (`from_view`): each card must be of this deck, appear once, and be
/// described exactly as the view describes it.
impl Ten {
    pub(super) fn read_card(&self, value: &Value, seen: &mut CardSet) -> Result<u8, GameError> {
        let id = uint(value, "id", TOTAL_CARDS as u64 - 1)? as u8;
        if crate::json::written(|out| self.write_card(out, id)) != *value {
            return Err(corrupt(format!("card {value} is not TEN card {id}")));
        }
        if self.data.cards[usize::from(id)].min_players > (self.players() as u8).max(2) {
            return Err(corrupt(format!("card {id} is not in the deck for {} players", self.players())));
        }
        if seen.contains(id) {
            return Err(corrupt(format!("card {id} is in two places")));
        }
        seen.insert(id);
        Ok(id)
    }

    pub(super) fn read_cards(&self, value: &Value, key: &str, seen: &mut CardSet) -> Result<Vec<u8>, GameError> {
        array(value, key)?.iter().map(|c| self.read_card(c, seen)).collect()
    }

    pub(super) fn read_seat(&self, value: &Value, key: &str) -> Result<Seat, GameError> {
        Ok(uint(value, key, self.players() as u64 - 1)? as Seat)
    }

    /// The offset (1..=players) of `seat` after `from`: the auction's and the final round's position.
    pub(super) fn offset_from(&self, from: Seat, seat: Seat) -> usize {
        let n = self.players();
        match (seat + n - from) % n {
            0 => n,
            o => o,
        }
    }

    /// Fills every public field of a fresh game from `public`; the draw pile is left to the caller.
    pub(super) fn read_public(&mut self, public: &Value) -> Result<(), GameError> {
        let mut seen = CardSet::default();
        let n = self.players();
        let phase_name = field(public, "phase")?.as_str().unwrap_or("");
        self.phase = [
            Phase::Draw,
            Phase::Prize,
            Phase::Buy,
            Phase::Auction,
            Phase::SoloOffer,
            Phase::Pay,
            Phase::FinalBuy,
            Phase::Over,
        ]
        .into_iter()
        .find(|p| p.name() == phase_name)
        .ok_or_else(|| corrupt(format!("unknown phase {phase_name:?}")))?;
        self.active = self.read_seat(public, "active")?;
        self.turn = uint(public, "turn", u64::from(u32::MAX))? as u32;
        if self.turn == 0 {
            return Err(corrupt("turns are counted from 1"));
        }
        self.tableau = self.read_cards(field(public, "tableau")?, "cards", &mut seen)?;
        let (mut numbers, mut currency) = (0, 0);
        for &id in &self.tableau {
            match self.kind(id) {
                TenKind::Number { value, .. } => numbers += u16::from(value),
                TenKind::Currency { value } => currency += u16::from(value),
                _ => return Err(corrupt(format!("the wild {id} cannot be in the tableau"))),
            }
        }
        (self.numbers, self.currency) = (numbers, currency);
        self.market = CardSet::default();
        for id in self.read_cards(public, "market", &mut seen)? {
            if !matches!(self.kind(id), TenKind::Number { .. }) {
                return Err(corrupt(format!("card {id} in the market is not a number card")));
            }
            self.market.insert(id);
        }
        self.discard = self.read_cards(field(public, "discard")?, "cards", &mut seen)?;
        let seats = array(public, "seats")?;
        if seats.len() != n {
            return Err(corrupt(format!("{} seats listed at a table of {n}", seats.len())));
        }
        let mut busts_held = 0u16;
        for (s, value) in seats.iter().enumerate() {
            let tokens = uint(value, "tokens", u64::from(self.data.token_cap))? as u8;
            let busts = uint(value, "bust_tokens", u64::from(self.data.bust_token_supply))? as u8;
            let mut collection = CardSet::default();
            for id in self.read_cards(value, "collection", &mut seen)? {
                collection.insert(id);
            }
            busts_held += u16::from(busts);
            self.seats[s] = SeatState { tokens, busts, collection };
        }
        self.scores.forget_all();
        self.bust_supply = uint(public, "bust_supply", u64::from(self.data.bust_token_supply))? as u8;
        if busts_held + u16::from(self.bust_supply) != u16::from(self.data.bust_token_supply) {
            return Err(corrupt(format!(
                "{busts_held} bust tokens held and {} in the supply, not {}",
                self.bust_supply, self.data.bust_token_supply
            )));
        }
        self.read_auction(field(public, "auction")?, &mut seen)?;
        self.read_offer(field(public, "offer")?, &mut seen)?;
        self.read_payment(field(public, "payment")?, &mut seen)?;
        self.read_final_round(field(public, "final_round")?)
    }

    pub(super) fn read_auction(&mut self, value: &Value, seen: &mut CardSet) -> Result<(), GameError> {
        self.auction = None;
        if value.is_null() {
            return match self.phase {
                Phase::Auction => Err(corrupt("an auction phase without an auction")),
                _ => Ok(()),
            };
        }
        if self.phase != Phase::Auction || self.solo() {
            return Err(corrupt(format!("an auction during phase {}", self.phase.name())));
        }
        let card = self.read_card(field(value, "card")?, seen)?;
        if !self.kind(card).is_wild() {
            return Err(corrupt(format!("card {card} is auctioned but is not a wild")));
        }
        let next = self.read_seat(value, "next")?;
        let high = uint(value, "high_bid", u64::from(u32::MAX - 1))? as u32;
        let high_seat = match field(value, "high_seat")? {
            Value::Null => None,
            _ => Some(self.read_seat(value, "high_seat")?),
        };
        if high_seat.is_some() != (high > 0) {
            return Err(corrupt("a high bid needs a high bidder and the reverse"));
        }
        self.auction = Some(Auction { card, offset: self.offset_from(self.active, next), high, high_seat });
        Ok(())
    }

    pub(super) fn read_offer(&mut self, value: &Value, seen: &mut CardSet) -> Result<(), GameError> {
        self.offer = None;
        if value.is_null() {
            return match self.phase {
                Phase::SoloOffer => Err(corrupt("a solo offer phase without an offer")),
                _ => Ok(()),
            };
        }
        if self.phase != Phase::SoloOffer || !self.solo() {
            return Err(corrupt(format!("a solo offer during phase {}", self.phase.name())));
        }
        let card = self.read_card(field(value, "card")?, seen)?;
        if !self.kind(card).is_wild() {
            return Err(corrupt(format!("card {card} is offered but is not a wild")));
        }
        self.offer = Some(card);
        Ok(())
    }

    pub(super) fn read_payment(&mut self, value: &Value, seen: &mut CardSet) -> Result<(), GameError> {
        self.pay = None;
        if value.is_null() {
            return match self.phase {
                Phase::Pay => Err(corrupt("a pay phase without a payment")),
                _ => Ok(()),
            };
        }
        if self.phase != Phase::Pay {
            return Err(corrupt(format!("a payment during phase {}", self.phase.name())));
        }
        let purpose_name = field(value, "purpose")?.as_str().unwrap_or("");
        let purpose = [Purpose::Buy, Purpose::FinalBuy, Purpose::Auction, Purpose::SoloWild]
            .into_iter()
            .find(|p| p.name() == purpose_name)
            .ok_or_else(|| corrupt(format!("unknown payment purpose {purpose_name:?}")))?;
        let payer = self.read_seat(value, "payer")?;
        let item = self.read_card(field(value, "card")?, seen)?;
        let price = uint(value, "price", u64::from(u16::MAX))? as u16;
        let tokens = uint(value, "tokens", u64::from(self.data.currency_token_supply))? as u16;
        let busts = uint(value, "bust_tokens", u64::from(self.data.bust_token_supply))? as u16;
        // The cards paid so far are already on top of the discard pile, in the order they were paid.
        let mut paid = CardSet::default();
        let cards = self.read_cards(value, "cards", &mut paid)?;
        let on_top = self.discard.len().checked_sub(cards.len()).map(|from| &self.discard[from..]);
        if !on_top.is_some_and(|top| cards.len() == top.len() && top.iter().all(|&c| paid.contains(c))) {
            return Err(corrupt("the cards paid so far are not the top of the discard pile"));
        }
        let expected_payer = match purpose {
            Purpose::Buy | Purpose::SoloWild => Some(self.active),
            Purpose::FinalBuy | Purpose::Auction => None,
        };
        let wrong_table = match purpose {
            Purpose::SoloWild => !self.solo(),
            Purpose::Auction => self.solo(),
            Purpose::Buy | Purpose::FinalBuy => false,
        };
        if expected_payer.is_some_and(|p| p != payer) || wrong_table {
            return Err(corrupt(format!("seat {payer} cannot be paying for a {purpose_name}")));
        }
        let p = Payment { payer, purpose, item, price, tokens, busts, cards: paid };
        if price == 0 || p.value(self.bust_value()) >= price {
            return Err(corrupt("a payment in progress owes something"));
        }
        self.pay = Some(p);
        Ok(())
    }

    pub(super) fn read_final_round(&mut self, value: &Value) -> Result<(), GameError> {
        let in_final = self.phase == Phase::FinalBuy || self.pay.is_some_and(|p| p.purpose == Purpose::FinalBuy);
        // The final round follows the turn that drew the last card, whose player stays the active seat.
        self.final_from = 0;
        self.final_offset = 0;
        if value.is_null() {
            if in_final {
                return Err(corrupt("a final buy without a final round"));
            }
            if self.phase == Phase::Over {
                self.final_from = self.active;
                self.final_offset = self.players();
            }
            return Ok(());
        }
        if !in_final {
            return Err(corrupt(format!("a final round during phase {}", self.phase.name())));
        }
        let next = self.read_seat(value, "next")?;
        self.final_from = self.active;
        self.final_offset = self.offset_from(self.active, next);
        if self.pay.is_some_and(|p| p.payer != next) {
            return Err(corrupt("the final round's buyer is not the payer"));
        }
        Ok(())
    }
}

impl Ten {
    /// Only the draw pile's order (and the state's RNG) is unknown to anyone, so only they are re-dealt.
    /// [`Game::determinize`] of this game.
    pub(super) fn determinized(&self, _observer: Option<Seat>, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        rng.shuffle(&mut g.draw);
        g.rng = rng.fork();
        g
    }

    /// Everything but the draw pile's order is in the public view, so the view is read back strictly and
    /// the cards seen nowhere are shuffled into the draw pile, as `determinize` does.
    /// [`Game::from_view`] of this game.
    pub(super) fn read_view(setup: &Setup, seat: Option<Seat>, view: &Value, rng: &mut Rng) -> Result<Self, GameError> {
        if seat.is_some_and(|s| s >= setup.players) {
            return Err(corrupt(format!("seat {seat:?} is not at a table of {}", setup.players)));
        }
        let whole = view.as_object().ok_or_else(|| corrupt("the view is not an object"))?;
        if whole.len() != 2 || whole.get("private") != Some(&Value::Null) {
            return Err(corrupt("a TEN view is {\"public\": ..., \"private\": null}"));
        }
        let public = field(view, "public")?;
        let mut g = Ten::new(setup)?;
        g.read_public(public)?;
        g.draw.clear();
        let mut seen = CardSet::default();
        for id in g.card_locations() {
            seen.insert(id);
        }
        let mut unseen = g.data.deck_for(setup.players as u8)?;
        unseen.retain(|&id| !seen.contains(id));
        let pile = uint(public, "draw_pile", TOTAL_CARDS as u64)? as usize;
        if unseen.len() != pile {
            return Err(corrupt(format!("{} cards are seen nowhere but the draw pile holds {pile}", unseen.len())));
        }
        rng.shuffle(&mut unseen);
        g.draw = unseen;
        g.rng = rng.fork();
        if g.public_view() != *public {
            return Err(corrupt("the view's derived fields (sums, scores, supplies, to_act...) disagree with it"));
        }
        Ok(g)
    }
}

/// The public table of [`Ten::public_table`]: what every seat's view shows, as plain data.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PublicTable<'a> {
    /// The phase of the turn.
    pub phase: Phase,
    /// The seat whose turn it is.
    pub active: Seat,
    /// Cards left in the draw pile.
    pub draw_pile: usize,
    /// The turn's number and currency cards, in draw order.
    pub tableau: &'a [u8],
    /// The summed value of the tableau's number cards.
    pub numbers: u16,
    /// The summed value of the tableau's currency cards.
    pub currency: u16,
    /// The cards in the market.
    pub market: CardSet,
    /// The discard pile; the top card is the last.
    pub discard: &'a [u8],
    /// Per seat: tokens, bust tokens, collection.
    pub seats: &'a [SeatState],
    /// Currency tokens left in the supply.
    pub token_supply: u32,
    /// The wild on auction, the next bidder, the high bid and its seat.
    pub auction: Option<(u8, Seat, u32, Option<Seat>)>,
    /// Solo: the wild on offer.
    pub offer: Option<u8>,
    /// The payment in progress, if any.
    pub payment: Option<PublicPayment>,
    /// The next seat of the final buy round.
    pub final_next: Option<Seat>,
    /// Solo: the score to reach; `None` with two or more players.
    pub solo_target: Option<u16>,
}

/// A payment in progress, as the view's `payment` shows it.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PublicPayment {
    /// The seat paying.
    pub payer: Seat,
    /// `buy`, `final_buy`, `auction` or `solo_wild`.
    pub purpose: &'static str,
    /// The card being paid for.
    pub card: u8,
    /// Its price.
    pub price: u16,
    /// What remains to pay after what is already put down.
    pub owed: u16,
    /// Currency tokens put down so far.
    pub tokens: u16,
    /// Bust tokens put down so far.
    pub bust_tokens: u16,
    /// Cards put down so far (each worth 1).
    pub cards: CardSet,
}

impl Ten {
    /// Every card id and where it is, for conservation checks: each id of the deck appears exactly once.
    pub fn card_locations(&self) -> Vec<u8> {
        let mut all: Vec<u8> = Vec::with_capacity(TOTAL_CARDS);
        all.extend(&self.draw);
        all.extend(&self.tableau);
        all.extend(self.market.iter());
        all.extend(&self.discard);
        for s in &self.seats[..self.players()] {
            all.extend(s.collection.iter());
        }
        all.extend(self.auction.map(|a| a.card));
        all.extend(self.offer);
        all.extend(self.pay.map(|p| p.item));
        all
    }

    /// The deck size used by this game (89, 105 or 129 with the standard data).
    pub fn deck_size(&self) -> usize {
        self.data.deck_for(self.players() as u8).map(|d| d.len()).unwrap_or(0)
    }

    /// Currency tokens and bust tokens of `seat`.
    pub fn tokens_of(&self, seat: Seat) -> (u8, u8) {
        (self.seats[seat].tokens, self.seats[seat].busts)
    }

    /// Bust tokens still in the supply.
    pub fn bust_supply(&self) -> u8 {
        self.bust_supply
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The ids in the draw pile, top last (hidden from every view; for tests of `determinize`).
    pub fn draw_pile(&self) -> &[u8] {
        &self.draw
    }

    /// The turn number (1-based).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The public table as plain data: the facts of the view without building JSON, for the RL
    /// observation encoder (which the tests hold equal to one read from the view).
    pub fn public_table(&self) -> PublicTable<'_> {
        let n = self.players();
        let tokens_held: u32 = self.seats[..n].iter().map(|s| u32::from(s.tokens)).sum();
        let bust_value = self.bust_value();
        PublicTable {
            phase: self.phase,
            active: self.active,
            draw_pile: self.draw.len(),
            tableau: &self.tableau,
            numbers: self.numbers,
            currency: self.currency,
            market: self.market,
            discard: &self.discard,
            seats: &self.seats[..n],
            token_supply: u32::from(self.data.currency_token_supply).saturating_sub(tokens_held),
            auction: self.auction.map(|a| (a.card, clockwise(self.active, a.offset, n), a.high, a.high_seat)),
            offer: self.offer,
            payment: self.pay.map(|p| PublicPayment {
                payer: p.payer,
                purpose: p.purpose.name(),
                card: p.item,
                price: p.price,
                owed: p.price.saturating_sub(p.value(bust_value)),
                tokens: p.tokens,
                bust_tokens: p.busts,
                cards: p.cards,
            }),
            final_next: (self.final_offset > 0 && self.phase != Phase::Over)
                .then(|| clockwise(self.final_from, self.final_offset, n)),
            solo_target: self.solo().then_some(self.solo_target),
        }
    }

    /// A position built for a rules test: the draw pile (top last), each seat's tokens, bust tokens and
    /// collection, the market and the active seat. Cards not named go to the discard pile. Refuses ids
    /// outside the deck or named twice.
    #[doc(hidden)]
    pub fn test_position(
        setup: &Setup,
        draw: &[u8],
        seats: &[(u8, u8, &[u8])],
        market: &[u8],
        active: Seat,
    ) -> Result<Ten, GameError> {
        let mut game = Ten::new(setup)?;
        let deck = game.data.deck_for(setup.players as u8)?;
        let mut used = CardSet::default();
        let mut take = |id: u8| -> Result<(), GameError> {
            if !deck.contains(&id) || used.contains(id) {
                return Err(GameError::BadOptions(format!("card {id} is not in the deck or named twice")));
            }
            used.insert(id);
            Ok(())
        };
        game.draw = draw.to_vec();
        for &id in draw.iter().chain(market) {
            take(id)?;
        }
        game.market = CardSet::default();
        for &id in market {
            game.market.insert(id);
        }
        if seats.len() != setup.players {
            return Err(GameError::BadOptions("one entry per seat".into()));
        }
        let mut held_busts = 0u8;
        for (seat, &(tokens, busts, collection)) in seats.iter().enumerate() {
            game.seats[seat] = SeatState { tokens, busts, collection: CardSet::default() };
            held_busts = held_busts.saturating_add(busts);
            for &id in collection {
                take(id)?;
                game.seats[seat].collection.insert(id);
            }
        }
        game.scores.forget_all();
        game.bust_supply = game.data.bust_token_supply.saturating_sub(held_busts);
        game.discard = deck.into_iter().filter(|&id| !used.contains(id)).collect();
        game.active = active % setup.players;
        Ok(game)
    }
}
