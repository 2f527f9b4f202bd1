//! TEN's state, moves and events, and how a legal move changes the state (draws, busts, auctions, payments
//! and the final round).

use super::cards::CardSet;
use super::cards::{TenData, TenKind};
use super::scoring::{self, Tally};
use super::seat_scores::SeatScores;
use crate::error::GameError;
use crate::game::{Outcome, OutcomeKind, Seat, Setup};
use crate::rng::Rng;
use serde_json::{json, Value};
use std::sync::Arc;

/// Most players TEN seats.
pub(super) const MAX_PLAYERS: usize = 5;

/// The note shown wherever the 1-player game is offered.
pub const SOLO_NOTE: &str = "house rules: TEN's official solo mode could not be found; this variant uses the \
2-player deck, ignores gains meant for other players, offers each drawn wild at a fixed price (accept or \
decline), and is won by reaching a target score (option solo_target)";

/// A small integer naming what a card is, so identical cards compare equal (0..56).
pub(super) fn kind_key(kind: TenKind) -> u8 {
    match kind {
        TenKind::Number { colour, value } => colour.index() as u8 * 9 + value - 1,
        TenKind::ColourWild { colour } => 36 + colour.index() as u8,
        TenKind::NumberWild { value } => 40 + value - 1,
        TenKind::AnyWild => 49,
        TenKind::Currency { value } => 50 + value,
    }
}

/// Which prize a stopping player takes (§4.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prize {
    /// The tableau's number cards (others gain the currency shown), then a buy phase.
    Numbers,
    /// The currency shown, as tokens; the numbers go to the market.
    Currency,
}

impl Prize {
    pub(super) fn name(self) -> &'static str {
        match self {
            Prize::Numbers => "numbers",
            Prize::Currency => "currency",
        }
    }
}

/// A TEN move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TenMove {
    /// `{"type": "draw"}`: draw the top card of the pile.
    Draw,
    /// `{"type": "stop"}`: stop drawing (then choose a prize, or end the turn if the tableau is empty).
    Stop,
    /// `{"type": "prize", "kind": "numbers" | "currency"}`.
    Prize(Prize),
    /// `{"type": "buy", "card": id}`: buy this market card, then pay for it.
    Buy(u8),
    /// `{"type": "skip_buy"}`.
    SkipBuy,
    /// `{"type": "bid", "amount": n}`.
    Bid(u32),
    /// `{"type": "pass_bid"}`.
    PassBid,
    /// `{"type": "pay_token"}`: pay one currency token (worth 1).
    PayToken,
    /// `{"type": "pay_bust"}`: pay one bust token (worth 3, no change).
    PayBust,
    /// `{"type": "pay_card", "card": id}`: pay one collected card (worth 1; it goes to the discard pile).
    PayCard(u8),
    /// `{"type": "accept_wild"}` (solo): buy the offered wild at the solo price.
    AcceptWild,
    /// `{"type": "decline_wild"}` (solo): the offered wild is discarded.
    DeclineWild,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Phase {
    /// The active player draws or stops.
    Draw,
    /// The active player picks a prize.
    Prize,
    /// The active player's buy phase after the NUMBERS prize.
    Buy,
    /// Bidding on a drawn wild.
    Auction,
    /// Solo: the drawn wild is offered at a fixed price.
    SoloOffer,
    /// A price is being paid piece by piece.
    Pay,
    /// The final buy round.
    FinalBuy,
    /// Scored and finished.
    Over,
}

impl Phase {
    /// The phase as people read it, for refusal reasons (the JSON keeps [`Phase::name`]).
    pub(super) fn words(self) -> &'static str {
        match self {
            Phase::Draw => "the drawing",
            Phase::Prize => "the choice of a prize",
            Phase::Buy => "the buy",
            Phase::Auction => "an auction",
            Phase::SoloOffer => "the offer of a wild",
            Phase::Pay => "a payment",
            Phase::FinalBuy => "the final buy round",
            Phase::Over => "the end of the game",
        }
    }

    /// The phase's name in views (`draw`, `prize`, ..., `over`).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Draw => "draw",
            Phase::Prize => "prize",
            Phase::Buy => "buy",
            Phase::Auction => "auction",
            Phase::SoloOffer => "solo_offer",
            Phase::Pay => "pay",
            Phase::FinalBuy => "final_buy",
            Phase::Over => "over",
        }
    }
}

/// What a payment is for; decides what happens once it is complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Purpose {
    Buy,
    FinalBuy,
    Auction,
    SoloWild,
}

impl Purpose {
    pub(super) fn name(self) -> &'static str {
        match self {
            Purpose::Buy => "buy",
            Purpose::FinalBuy => "final_buy",
            Purpose::Auction => "auction",
            Purpose::SoloWild => "solo_wild",
        }
    }
}

/// A payment in progress (§4.7). The item is held aside: in no market, collection or pile until paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Payment {
    pub(super) payer: Seat,
    pub(super) purpose: Purpose,
    pub(super) item: u8,
    pub(super) price: u16,
    pub(super) tokens: u16,
    pub(super) busts: u16,
    pub(super) cards: CardSet,
}

impl Payment {
    pub(super) fn value(&self, bust_value: u16) -> u16 {
        self.tokens + bust_value * self.busts + self.cards.len() as u16
    }
}

/// Bidding on a wild (§4.8): the bidder is `active + offset` (mod players), offsets 1..=players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Auction {
    pub(super) card: u8,
    pub(super) offset: usize,
    pub(super) high: u32,
    pub(super) high_seat: Option<Seat>,
}

/// One seat's belongings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SeatState {
    /// Currency tokens.
    pub tokens: u8,
    /// Bust tokens.
    pub busts: u8,
    /// The cards collected.
    pub collection: CardSet,
}

/// What a move caused, kept typed until a view asks for JSON. TEN hides nothing from anyone but the pile's
/// order, so every seat learns the same events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    Drew { seat: Seat, card: u8 },
    Bust { seat: Seat, currency: bool, bust_token: bool },
    Gain { seat: Seat, gained: u8, lost: u8 },
    Stop { seat: Seat },
    Prize { seat: Seat, kind: Prize },
    AuctionOpen { card: u8 },
    Bid { seat: Seat, amount: u32 },
    PassBid { seat: Seat },
    AuctionWon { seat: Seat, card: u8, amount: u32 },
    WildDiscarded { card: u8 },
    Offer { card: u8, price: u16 },
    BuyChosen { seat: Seat, card: u8 },
    SkipBuy { seat: Seat },
    Paid { seat: Seat, token: bool, bust: bool, card: Option<u8>, owed: u16 },
    Collected { seat: Seat, card: u8, purpose: Purpose },
    TurnEnd { seat: Seat },
    NextTurn { seat: Seat, turn: u32 },
    FinalRound { first: Seat },
    GameOver,
}

/// A TEN game. See the module documentation for the flow, the payment rule and the legal-move order.
#[derive(Clone, Debug)]
pub struct Ten {
    /// Shared, so that cloning a state for search copies no option map.
    pub(super) setup: Arc<Setup>,
    pub(super) data: &'static TenData,
    pub(super) solo_target: u16,
    pub(super) rng: Rng,
    /// The draw pile; the top card is the last.
    pub(super) draw: Vec<u8>,
    /// The turn's number and currency cards, in draw order.
    pub(super) tableau: Vec<u8>,
    pub(super) numbers: u16,
    pub(super) currency: u16,
    pub(super) market: CardSet,
    /// The discard pile; the top card is the last.
    pub(super) discard: Vec<u8>,
    pub(super) seats: [SeatState; MAX_PLAYERS],
    /// Each seat's score while its collection is unchanged (forgotten whenever a collection changes).
    pub(super) scores: SeatScores<MAX_PLAYERS>,
    pub(super) bust_supply: u8,
    pub(super) active: Seat,
    pub(super) turn: u32,
    pub(super) phase: Phase,
    pub(super) auction: Option<Auction>,
    /// Solo: the wild on offer.
    pub(super) offer: Option<u8>,
    pub(super) pay: Option<Payment>,
    /// Final buy round: the seat whose turn drew the last card, and the offset of the buyer (1..=players).
    pub(super) final_from: Seat,
    pub(super) final_offset: usize,
    pub(super) events: Vec<Event>,
}

/// The seat `offset` places clockwise of `from` at a table of `n`, without a division when `from < n`
/// and `offset <= n` (auction and final-round offsets; whose turn it is gets asked at every move).
#[inline]
pub(super) fn clockwise(from: Seat, offset: usize, n: usize) -> Seat {
    let seat = from + offset;
    if seat < n {
        seat
    } else if seat < 2 * n {
        seat - n
    } else {
        seat % n.max(1)
    }
}

pub(super) fn internal(what: &str) -> GameError {
    GameError::Internal(format!("ten: {what}"))
}

impl Ten {
    pub(super) fn players(&self) -> usize {
        self.setup.players
    }

    pub(super) fn solo(&self) -> bool {
        self.setup.players == 1
    }

    pub(super) fn kind(&self, id: u8) -> TenKind {
        self.data.cards[usize::from(id)].kind
    }

    pub(super) fn face(&self, id: u8) -> u16 {
        u16::from(self.kind(id).face_value().unwrap_or(0))
    }

    pub(super) fn bust_value(&self) -> u16 {
        u16::from(self.data.bust_token_value)
    }

    pub(super) fn power(&self, seat: Seat) -> u32 {
        let s = &self.seats[seat];
        u32::from(s.tokens) + u32::from(self.data.bust_token_value) * u32::from(s.busts) + s.collection.len() as u32
    }

    /// The seat deciding now, if any (TEN never has two seats acting at once).
    pub(super) fn actor(&self) -> Option<Seat> {
        let n = self.players();
        match self.phase {
            Phase::Draw | Phase::Prize | Phase::Buy | Phase::SoloOffer => Some(self.active),
            Phase::Auction => self.auction.map(|a| clockwise(self.active, a.offset, n)),
            Phase::Pay => self.pay.map(|p| p.payer),
            Phase::FinalBuy => Some(clockwise(self.final_from, self.final_offset, n)),
            Phase::Over => None,
        }
    }

    pub(super) fn has_kind(&self, prize: Prize) -> bool {
        self.tableau.iter().any(|&id| match prize {
            Prize::Numbers => matches!(self.kind(id), TenKind::Number { .. }),
            Prize::Currency => matches!(self.kind(id), TenKind::Currency { .. }),
        })
    }

    pub(super) fn may_stop(&self) -> bool {
        !self.tableau.is_empty() || self.draw.is_empty()
    }

    /// Whether `seat` holds a number card of the same colour and number as market card `id` (§4.7).
    pub(super) fn duplicate(&self, seat: Seat, id: u8) -> bool {
        let key = kind_key(self.kind(id));
        self.seats[seat].collection.iter().any(|c| kind_key(self.kind(c)) == key)
    }

    /// Whether `seat` may buy market card `id` now (affordable and not a duplicate).
    pub(super) fn buyable(&self, seat: Seat, id: u8) -> bool {
        self.market.contains(id) && u32::from(self.face(id)) <= self.power(seat) && !self.duplicate(seat, id)
    }

    /// Whether `id` is the lowest id of its kind in `set` (the listed representative).
    pub(super) fn representative(&self, set: CardSet, id: u8) -> u8 {
        let key = kind_key(self.kind(id));
        set.iter().find(|&c| kind_key(self.kind(c)) == key).unwrap_or(id)
    }

    /// The representatives of `set`'s kinds, by id, passing `keep`.
    pub(super) fn kinds_of<'a>(
        &'a self,
        set: CardSet,
        keep: impl Fn(u8) -> bool + 'a,
    ) -> impl Iterator<Item = u8> + 'a {
        let mut seen = 0u64;
        set.iter().filter(move |&id| {
            let bit = 1u64 << kind_key(self.kind(id));
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
            keep(id)
        })
    }

    /// Whether adding one piece (worth `add`; a unit piece if `unit`) keeps the payment able to end valid.
    pub(super) fn piece_ok(&self, unit: bool, add: u16) -> bool {
        let Some(p) = self.pay else { return false };
        let s = &self.seats[p.payer];
        let bv = self.bust_value();
        let mut units_left = u16::from(s.tokens) + s.collection.len() as u16;
        let mut busts_left = u16::from(s.busts);
        if unit {
            units_left = units_left.saturating_sub(1);
        } else {
            busts_left = busts_left.saturating_sub(1);
        }
        let units_used = p.tokens > 0 || !p.cards.is_empty() || unit;
        let value = p.value(bv) + add;
        if value >= p.price {
            return value == p.price || !units_used;
        }
        completable(p.price - value, units_used, units_left, busts_left, bv)
    }

    pub(super) fn token_ok(&self) -> bool {
        self.pay.is_some_and(|p| self.seats[p.payer].tokens > 0) && self.piece_ok(true, 1)
    }

    pub(super) fn bust_ok(&self) -> bool {
        self.pay.is_some_and(|p| self.seats[p.payer].busts > 0) && self.piece_ok(false, self.bust_value())
    }

    pub(super) fn card_ok(&self) -> bool {
        self.pay.is_some_and(|p| !self.seats[p.payer].collection.is_empty()) && self.piece_ok(true, 1)
    }

    pub(super) fn draw_moves(&self) -> (bool, bool) {
        (!self.draw.is_empty(), self.may_stop())
    }

    pub(super) fn min_bid(&self) -> u32 {
        self.auction.map(|a| a.high + 1).unwrap_or(1)
    }

    pub(super) fn bid_count(&self, seat: Seat) -> usize {
        let power = self.power(seat);
        let lo = self.min_bid();
        if power >= lo {
            (power - lo + 1) as usize
        } else {
            0
        }
    }

    pub(super) fn buyer(&self) -> Seat {
        match self.phase {
            Phase::FinalBuy => (self.final_from + self.final_offset) % self.players(),
            _ => self.active,
        }
    }

    pub(super) fn solo_price(&self) -> u16 {
        u16::from(self.data.solo_wild_price)
    }

    /// Gives `seat` up to `amount` tokens under the cap and records what was gained and lost.
    pub(super) fn gain(&mut self, seat: Seat, amount: u16) {
        if amount == 0 {
            return;
        }
        let room = self.data.token_cap.saturating_sub(self.seats[seat].tokens);
        let gained = amount.min(u16::from(room)) as u8;
        self.seats[seat].tokens += gained;
        self.events.push(Event::Gain { seat, gained, lost: (amount - u16::from(gained)) as u8 });
    }

    /// Every seat but the active one gains the currency shown (§4.6); nobody else exists in solo.
    pub(super) fn others_gain(&mut self) {
        let amount = self.currency;
        for offset in 1..self.players() {
            let seat = (self.active + offset) % self.players();
            self.gain(seat, amount);
        }
    }

    /// Moves the tableau's currency cards to the discard pile and its number cards to `to_collection` or
    /// the market, and clears the sums.
    pub(super) fn clear_tableau(&mut self, to_collection: bool) {
        let seat = self.active;
        for i in 0..self.tableau.len() {
            let id = self.tableau[i];
            match self.kind(id) {
                TenKind::Currency { .. } => self.discard.push(id),
                _ if to_collection => {
                    self.seats[seat].collection.insert(id);
                    self.scores.forget(seat);
                }
                _ => self.market.insert(id),
            }
        }
        self.tableau.clear();
        self.numbers = 0;
        self.currency = 0;
    }

    pub(super) fn end_turn(&mut self) {
        self.events.push(Event::TurnEnd { seat: self.active });
        if self.draw.is_empty() {
            self.final_from = self.active;
            self.final_offset = 1;
            self.phase = Phase::FinalBuy;
            self.events.push(Event::FinalRound { first: (self.active + 1) % self.players() });
        } else {
            self.active = (self.active + 1) % self.players();
            self.turn += 1;
            self.phase = Phase::Draw;
            self.events.push(Event::NextTurn { seat: self.active, turn: self.turn });
        }
    }

    pub(super) fn next_final_buyer(&mut self) {
        if self.final_offset >= self.players() {
            self.phase = Phase::Over;
            self.events.push(Event::GameOver);
        } else {
            self.final_offset += 1;
        }
    }

    pub(super) fn draw_card(&mut self) {
        let Some(id) = self.draw.pop() else { return };
        let seat = self.active;
        self.events.push(Event::Drew { seat, card: id });
        let threshold = u16::from(self.data.bust_threshold);
        match self.kind(id) {
            kind if kind.is_wild() => {
                if self.solo() {
                    self.offer = Some(id);
                    self.phase = Phase::SoloOffer;
                    self.events.push(Event::Offer { card: id, price: self.solo_price() });
                } else {
                    self.auction = Some(Auction { card: id, offset: 1, high: 0, high_seat: None });
                    self.phase = Phase::Auction;
                    self.events.push(Event::AuctionOpen { card: id });
                }
            }
            TenKind::Currency { value } => {
                self.tableau.push(id);
                self.currency += u16::from(value);
                if self.currency >= threshold {
                    self.bust(true);
                }
            }
            TenKind::Number { value, .. } => {
                self.tableau.push(id);
                self.numbers += u16::from(value);
                if self.numbers >= self.currency + threshold {
                    self.bust(false);
                }
            }
            _ => {}
        }
    }

    /// §4.6 bust: numbers to the market, one bust token if any are left, others gain on a number bust.
    pub(super) fn bust(&mut self, currency_bust: bool) {
        let seat = self.active;
        let bust_token = self.bust_supply > 0;
        if bust_token {
            self.bust_supply -= 1;
            self.seats[seat].busts += 1;
        }
        self.events.push(Event::Bust { seat, currency: currency_bust, bust_token });
        if !currency_bust {
            self.others_gain();
        }
        self.clear_tableau(false);
        self.end_turn();
    }

    pub(super) fn take_prize(&mut self, prize: Prize) {
        let seat = self.active;
        self.events.push(Event::Prize { seat, kind: prize });
        match prize {
            Prize::Numbers => {
                self.others_gain();
                self.clear_tableau(true);
                self.phase = Phase::Buy;
            }
            Prize::Currency => {
                let amount = self.currency;
                self.gain(seat, amount);
                self.clear_tableau(false);
                self.end_turn();
            }
        }
    }

    pub(super) fn start_payment(&mut self, payer: Seat, purpose: Purpose, item: u8, price: u16) {
        self.pay = Some(Payment { payer, purpose, item, price, tokens: 0, busts: 0, cards: CardSet::default() });
        self.phase = Phase::Pay;
    }

    pub(super) fn after_auction_pass(&mut self) {
        let Some(mut a) = self.auction else { return };
        if a.offset < self.players() {
            a.offset += 1;
            self.auction = Some(a);
            return;
        }
        self.auction = None;
        match a.high_seat {
            Some(seat) => {
                self.events.push(Event::AuctionWon { seat, card: a.card, amount: a.high });
                self.start_payment(seat, Purpose::Auction, a.card, a.high as u16);
            }
            None => {
                self.discard.push(a.card);
                self.events.push(Event::WildDiscarded { card: a.card });
                self.phase = Phase::Draw;
            }
        }
    }

    pub(super) fn pay_piece(&mut self, token: bool, bust: bool, card: Option<u8>) {
        let Some(mut p) = self.pay else { return };
        let s = &mut self.seats[p.payer];
        if token {
            s.tokens -= 1;
            p.tokens += 1;
        } else if bust {
            s.busts -= 1;
            p.busts += 1;
            self.bust_supply += 1;
        } else if let Some(id) = card {
            s.collection.remove(id);
            self.scores.forget(p.payer);
            p.cards.insert(id);
            self.discard.push(id);
        }
        let value = p.value(self.bust_value());
        let owed = p.price.saturating_sub(value);
        self.events.push(Event::Paid { seat: p.payer, token, bust, card, owed });
        if owed > 0 {
            self.pay = Some(p);
            return;
        }
        self.pay = None;
        self.seats[p.payer].collection.insert(p.item);
        self.scores.forget(p.payer);
        self.events.push(Event::Collected { seat: p.payer, card: p.item, purpose: p.purpose });
        match p.purpose {
            Purpose::Auction | Purpose::SoloWild => self.phase = Phase::Draw,
            Purpose::Buy => {
                self.end_turn();
            }
            Purpose::FinalBuy => {
                self.phase = Phase::FinalBuy;
                self.next_final_buyer();
            }
        }
    }

    /// The scores of every seat by the exact optimizer (§4.10).
    pub fn scores(&self) -> Vec<u16> {
        (0..self.players()).map(|s| self.score_of(s)).collect()
    }

    /// The score of `seat` by the exact optimizer (one entry of [`Ten::scores`]), remembered until its
    /// collection changes.
    pub fn score(&self, seat: Seat) -> u16 {
        self.scores.get_or(seat, || self.score_of(seat))
    }

    pub(super) fn score_of(&self, seat: Seat) -> u16 {
        let mut tally = Tally::new();
        for id in self.seats[seat].collection.iter() {
            // The data allows one numbered wild per number and one multicolour #, so adding never fails.
            let _ = tally.add(self.kind(id));
        }
        tally.best_total(self.data.perfect_run_bonus)
    }
}

/// Whether a payment owing `owed > 0` can still end valid with `units` tokens and cards and `busts` bust
/// tokens left: either exactly (as many bust tokens as fit, the rest in units), or — while only bust tokens
/// have been paid — by bust tokens alone.
pub(super) fn completable(owed: u16, units_used: bool, units: u16, busts: u16, bust_value: u16) -> bool {
    let fitting = busts.min(owed / bust_value);
    if owed - bust_value * fitting <= units {
        return true;
    }
    !units_used && busts * bust_value >= owed
}

impl Ten {
    /// [`Game::new`] of this game.
    pub(super) fn deal_from(setup: &Setup) -> Result<Self, GameError> {
        let data = TenData::embedded().map_err(|e| internal(&e))?;
        if !(1..=MAX_PLAYERS).contains(&setup.players) {
            return Err(GameError::BadOptions(format!("TEN takes 1–5 players, not {}", setup.players)));
        }
        let solo_target = match setup.options.get("solo_target").and_then(Value::as_i64) {
            Some(t) if (1..=i64::from(u16::MAX)).contains(&t) => t as u16,
            Some(t) => return Err(GameError::BadOptions(format!("solo_target {t} is out of range"))),
            None => u16::from(data.solo_target_score_default),
        };
        let mut rng = Rng::new(setup.seed);
        let mut draw = data.deck_for(setup.players as u8)?;
        rng.shuffle(&mut draw);
        let active = rng.index(setup.players);
        let mut seats = [SeatState::default(); MAX_PLAYERS];
        for s in seats.iter_mut().take(setup.players) {
            s.tokens = data.start_tokens;
        }
        Ok(Ten {
            setup: Arc::new(setup.clone()),
            data,
            solo_target,
            rng,
            draw,
            tableau: Vec::with_capacity(32),
            numbers: 0,
            currency: 0,
            market: CardSet::default(),
            discard: Vec::with_capacity(64),
            seats,
            scores: SeatScores::new(),
            bust_supply: data.bust_token_supply,
            active,
            turn: 1,
            phase: Phase::Draw,
            auction: None,
            offer: None,
            pay: None,
            final_from: 0,
            final_offset: 0,
            events: Vec::with_capacity(8),
        })
    }

    /// [`Game::outcome`] of this game.
    pub(super) fn result(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = self.players();
        let scores = self.scores();
        let keys: Vec<_> = (0..n)
            .map(|s| scoring::tie_break_key(scores[s], self.seats[s].tokens, self.seats[s].collection.len()))
            .collect();
        let mut order: Vec<Seat> = (0..n).collect();
        order.sort_by(|&a, &b| keys[b].cmp(&keys[a]));
        let breakdown: Vec<Value> = (0..n)
            .map(|s| {
                let ids: Vec<u8> = self.seats[s].collection.iter().collect();
                match self.data.score_ids(&ids) {
                    Ok(b) => json!({"per_colour": b.per_colour, "runs": b.runs,
                                    "wilds": b.placements.iter().map(|p| json!({"card": p.card,
                                        "colour": p.colour.name(), "value": p.value})).collect::<Vec<_>>()}),
                    Err(e) => json!({"error": e.to_string()}),
                }
            })
            .collect();
        let mut detail = json!({
            "tokens": (0..n).map(|s| self.seats[s].tokens).collect::<Vec<_>>(),
            "cards": (0..n).map(|s| self.seats[s].collection.len()).collect::<Vec<_>>(),
            "bust_tokens": (0..n).map(|s| self.seats[s].busts).collect::<Vec<_>>(),
            "breakdown": breakdown,
        });
        let winners = if self.solo() {
            detail["solo_target"] = json!(self.solo_target);
            detail["house_rules"] = json!(true);
            if scores[0] >= self.solo_target {
                vec![0]
            } else {
                Vec::new()
            }
        } else {
            scoring::winners(&keys)
        };
        Some(Outcome {
            kind: OutcomeKind::Scores,
            winners,
            scores: scores.iter().map(|&s| i64::from(s)).collect(),
            order,
            detail,
        })
    }

    /// [`Game::apply_legal`] of this game.
    pub(super) fn apply(&mut self, seat: Seat, mv: &TenMove) {
        self.events.clear();
        match *mv {
            TenMove::Draw => self.draw_card(),
            TenMove::Stop => {
                self.events.push(Event::Stop { seat });
                if self.tableau.is_empty() {
                    self.end_turn();
                } else {
                    self.phase = Phase::Prize;
                }
            }
            TenMove::Prize(p) => self.take_prize(p),
            TenMove::SkipBuy => {
                self.events.push(Event::SkipBuy { seat });
                if self.phase == Phase::FinalBuy {
                    self.next_final_buyer();
                } else {
                    self.end_turn();
                }
            }
            TenMove::Buy(id) => {
                self.market.remove(id);
                self.events.push(Event::BuyChosen { seat, card: id });
                let purpose = if self.phase == Phase::FinalBuy { Purpose::FinalBuy } else { Purpose::Buy };
                let price = self.face(id);
                self.start_payment(self.buyer(), purpose, id, price);
            }
            TenMove::Bid(amount) => {
                if let Some(a) = &mut self.auction {
                    a.high = amount;
                    a.high_seat = Some(seat);
                }
                self.events.push(Event::Bid { seat, amount });
                self.after_auction_pass();
            }
            TenMove::PassBid => {
                self.events.push(Event::PassBid { seat });
                self.after_auction_pass();
            }
            TenMove::AcceptWild => {
                if let Some(card) = self.offer.take() {
                    let price = self.solo_price();
                    self.start_payment(seat, Purpose::SoloWild, card, price);
                }
            }
            TenMove::DeclineWild => {
                if let Some(card) = self.offer.take() {
                    self.discard.push(card);
                    self.events.push(Event::WildDiscarded { card });
                    self.phase = Phase::Draw;
                }
            }
            TenMove::PayToken => self.pay_piece(true, false, None),
            TenMove::PayBust => self.pay_piece(false, true, None),
            TenMove::PayCard(id) => self.pay_piece(false, false, Some(id)),
        }
    }
}
