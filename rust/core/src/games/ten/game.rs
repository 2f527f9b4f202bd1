//! The TEN rules engine (rules: `docs/rules/ten.md`, §4.3–§4.13).
//!
//! # Flow
//! A turn is a [`Phase::Draw`] loop (`draw` / `stop`). A drawn wild opens an [`Phase::Auction`] (one pass
//! starting left of the active player, who bids last) or, in the solo house variant, a
//! [`Phase::SoloOffer`]; the drawing phase then goes on. `stop` with cards in the tableau leads to
//! [`Phase::Prize`]; the NUMBERS prize leads to [`Phase::Buy`]. A bust ends the turn inside the `draw` move.
//! Once the turn that drew the last card ends, [`Phase::FinalBuy`] gives every seat one buy, starting left of
//! that turn's player, who goes last; then the game is over and scored.
//!
//! Every price (a market card, an auction win, a solo wild) is paid in [`Phase::Pay`], one piece per move.
//!
//! # Minimal payments (§4.7)
//! A payment of `t` tokens, `b` bust tokens and `c` collected cards is worth `t + 3b + c`. It is valid when it
//! covers the price and no single piece can be taken back while it still covers the price (taking back more
//! pieces only lowers the value, so single pieces are enough). Removing a token or card lowers the value by 1,
//! a bust token by 3, so the valid payments are exactly:
//! - **exact** payments (`t + 3b + c = price`), in any mix; and
//! - **bust tokens alone**, as many as it takes: `b = ceil(price / 3)`, the only way to overpay.
//!
//! A bust token paid next to any token or card must therefore land exactly: owing 2 with nothing paid yet,
//! `pay_bust` is legal (one bust token alone, 1 lost); owing 2 after one token of a price of 3, it is not
//! (token + bust = 4, and the token could be taken back). A `pay_*` move is legal only while something is owed
//! and only if the payment can still end valid with what the payer has left; the phase ends the moment the
//! price is covered. Entering the phase needs purchasing power (`tokens + 3·busts + cards`) of at least the
//! price, and that is also enough for a valid payment to exist.
//!
//! # Legal-move order
//! - `draw` (if the pile has cards), then `stop` (if the tableau holds a card, or the pile is empty);
//! - `prize numbers` then `prize currency`, each only when the tableau holds that kind;
//! - buy phases: `skip_buy`, then `buy` per buyable kind of market card (the lowest id of each colour and
//!   number, by id; any id of the same kind ranks the same);
//! - auctions: `pass_bid`, then `bid` from the lowest legal amount up to the bidder's purchasing power;
//! - solo offers: `decline_wild`, then `accept_wild` (if affordable);
//! - payments: `pay_token`, `pay_bust`, then `pay_card` per kind of collected card (lowest id of each kind;
//!   identical cards pay identically).
//!
//! A forced choice (the only prize present, `draw` with an empty tableau) is still a move of the player, so
//! every change of the state is one recorded decision.

use super::cards::{TenData, TenKind, TOTAL_CARDS};
use super::scoring::{self, Tally};
use super::seat_scores::SeatScores;
use crate::error::GameError;
use crate::game::{Fields, Game, GameInfo, OptionKind, OptionSpec, Outcome, OutcomeKind, Search, Seat, SeatSet, Setup};
use crate::rng::Rng;
use serde_json::{json, Value};
use std::sync::Arc;

/// The direct canonical-JSON writers of views, events and moves (a child module, for the private state).
#[path = "wire.rs"]
mod wire;

/// Most players TEN seats.
const MAX_PLAYERS: usize = 5;

/// The note shown wherever the 1-player game is offered.
pub const SOLO_NOTE: &str = "house rules: TEN's official solo mode could not be found; this variant uses the \
2-player deck, ignores gains meant for other players, offers each drawn wild at a fixed price (accept or \
decline), and is won by reaching a target score (option solo_target)";

/// A set of card ids (0..192) as a bitmask: collections and the market, iterated in id order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet([u64; 3]);

impl CardSet {
    /// Whether `id` is in the set.
    pub fn contains(self, id: u8) -> bool {
        let i = usize::from(id);
        i < 192 && self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn insert(&mut self, id: u8) {
        let i = usize::from(id);
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn remove(&mut self, id: u8) {
        let i = usize::from(id);
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// How many cards the set holds.
    pub fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == [0; 3]
    }

    /// The set as three 64-bit words, lowest ids first (bit `b` of word `w` = id `64 w + b`).
    pub fn words(self) -> [u64; 3] {
        self.0
    }

    /// The ids in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..3usize).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some((w * 64 + b) as u8)
            })
        })
    }
}

/// A small integer naming what a card is, so identical cards compare equal (0..56).
fn kind_key(kind: TenKind) -> u8 {
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
    fn name(self) -> &'static str {
        match self {
            Prize::Numbers => "numbers",
            Prize::Currency => "currency",
        }
    }
}

/// The public table of [`Ten::public_table`]: what every seat's view shows, as plain data.
#[derive(Clone, Debug)]
pub struct PublicTable<'a> {
    pub phase: Phase,
    pub active: Seat,
    pub draw_pile: usize,
    pub tableau: &'a [u8],
    pub numbers: u16,
    pub currency: u16,
    pub market: CardSet,
    pub discard: &'a [u8],
    /// Per seat: tokens, bust tokens, collection.
    pub seats: &'a [SeatState],
    pub token_supply: u32,
    /// The wild on auction, the next bidder, the high bid and its seat.
    pub auction: Option<(u8, Seat, u32, Option<Seat>)>,
    pub offer: Option<u8>,
    pub payment: Option<PublicPayment>,
    /// The next seat of the final buy round.
    pub final_next: Option<Seat>,
    pub solo_target: Option<u16>,
}

/// A payment in progress, as the view's `payment` shows it.
#[derive(Clone, Copy, Debug)]
pub struct PublicPayment {
    pub payer: Seat,
    /// `buy`, `final_buy`, `auction` or `solo_wild`.
    pub purpose: &'static str,
    pub card: u8,
    pub price: u16,
    pub owed: u16,
    pub tokens: u16,
    pub bust_tokens: u16,
    pub cards: CardSet,
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
    fn words(self) -> &'static str {
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
enum Purpose {
    Buy,
    FinalBuy,
    Auction,
    SoloWild,
}

impl Purpose {
    fn name(self) -> &'static str {
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
struct Payment {
    payer: Seat,
    purpose: Purpose,
    item: u8,
    price: u16,
    tokens: u16,
    busts: u16,
    cards: CardSet,
}

impl Payment {
    fn value(&self, bust_value: u16) -> u16 {
        self.tokens + bust_value * self.busts + self.cards.len() as u16
    }
}

/// Bidding on a wild (§4.8): the bidder is `active + offset` (mod players), offsets 1..=players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Auction {
    card: u8,
    offset: usize,
    high: u32,
    high_seat: Option<Seat>,
}

/// One seat's belongings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
enum Event {
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
    setup: Arc<Setup>,
    data: &'static TenData,
    solo_target: u16,
    rng: Rng,
    /// The draw pile; the top card is the last.
    draw: Vec<u8>,
    /// The turn's number and currency cards, in draw order.
    tableau: Vec<u8>,
    numbers: u16,
    currency: u16,
    market: CardSet,
    /// The discard pile; the top card is the last.
    discard: Vec<u8>,
    seats: [SeatState; MAX_PLAYERS],
    /// Each seat's score while its collection is unchanged (forgotten whenever a collection changes).
    scores: SeatScores<MAX_PLAYERS>,
    bust_supply: u8,
    active: Seat,
    turn: u32,
    phase: Phase,
    auction: Option<Auction>,
    /// Solo: the wild on offer.
    offer: Option<u8>,
    pay: Option<Payment>,
    /// Final buy round: the seat whose turn drew the last card, and the offset of the buyer (1..=players).
    final_from: Seat,
    final_offset: usize,
    events: Vec<Event>,
}

/// The seat `offset` places clockwise of `from` at a table of `n`, without a division when `from < n`
/// and `offset <= n` (auction and final-round offsets; whose turn it is gets asked at every move).
#[inline]
fn clockwise(from: Seat, offset: usize, n: usize) -> Seat {
    let seat = from + offset;
    if seat < n {
        seat
    } else if seat < 2 * n {
        seat - n
    } else {
        seat % n.max(1)
    }
}

fn internal(what: &str) -> GameError {
    GameError::Internal(format!("ten: {what}"))
}

impl Ten {
    fn players(&self) -> usize {
        self.setup.players
    }

    fn solo(&self) -> bool {
        self.setup.players == 1
    }

    fn kind(&self, id: u8) -> TenKind {
        self.data.cards[usize::from(id)].kind
    }

    fn face(&self, id: u8) -> u16 {
        u16::from(self.kind(id).face_value().unwrap_or(0))
    }

    fn bust_value(&self) -> u16 {
        u16::from(self.data.bust_token_value)
    }

    fn power(&self, seat: Seat) -> u32 {
        let s = &self.seats[seat];
        u32::from(s.tokens) + u32::from(self.data.bust_token_value) * u32::from(s.busts) + s.collection.len() as u32
    }

    /// The seat deciding now, if any (TEN never has two seats acting at once).
    fn actor(&self) -> Option<Seat> {
        let n = self.players();
        match self.phase {
            Phase::Draw | Phase::Prize | Phase::Buy | Phase::SoloOffer => Some(self.active),
            Phase::Auction => self.auction.map(|a| clockwise(self.active, a.offset, n)),
            Phase::Pay => self.pay.map(|p| p.payer),
            Phase::FinalBuy => Some(clockwise(self.final_from, self.final_offset, n)),
            Phase::Over => None,
        }
    }

    fn has_kind(&self, prize: Prize) -> bool {
        self.tableau.iter().any(|&id| match prize {
            Prize::Numbers => matches!(self.kind(id), TenKind::Number { .. }),
            Prize::Currency => matches!(self.kind(id), TenKind::Currency { .. }),
        })
    }

    fn may_stop(&self) -> bool {
        !self.tableau.is_empty() || self.draw.is_empty()
    }

    /// Whether `seat` holds a number card of the same colour and number as market card `id` (§4.7).
    fn duplicate(&self, seat: Seat, id: u8) -> bool {
        let key = kind_key(self.kind(id));
        self.seats[seat].collection.iter().any(|c| kind_key(self.kind(c)) == key)
    }

    /// Whether `seat` may buy market card `id` now (affordable and not a duplicate).
    fn buyable(&self, seat: Seat, id: u8) -> bool {
        self.market.contains(id) && u32::from(self.face(id)) <= self.power(seat) && !self.duplicate(seat, id)
    }

    /// Whether `id` is the lowest id of its kind in `set` (the listed representative).
    fn representative(&self, set: CardSet, id: u8) -> u8 {
        let key = kind_key(self.kind(id));
        set.iter().find(|&c| kind_key(self.kind(c)) == key).unwrap_or(id)
    }

    /// The representatives of `set`'s kinds, by id, passing `keep`.
    fn kinds_of<'a>(&'a self, set: CardSet, keep: impl Fn(u8) -> bool + 'a) -> impl Iterator<Item = u8> + 'a {
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
    fn piece_ok(&self, unit: bool, add: u16) -> bool {
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

    fn token_ok(&self) -> bool {
        self.pay.is_some_and(|p| self.seats[p.payer].tokens > 0) && self.piece_ok(true, 1)
    }

    fn bust_ok(&self) -> bool {
        self.pay.is_some_and(|p| self.seats[p.payer].busts > 0) && self.piece_ok(false, self.bust_value())
    }

    fn card_ok(&self) -> bool {
        self.pay.is_some_and(|p| !self.seats[p.payer].collection.is_empty()) && self.piece_ok(true, 1)
    }

    fn draw_moves(&self) -> (bool, bool) {
        (!self.draw.is_empty(), self.may_stop())
    }

    fn min_bid(&self) -> u32 {
        self.auction.map(|a| a.high + 1).unwrap_or(1)
    }

    fn bid_count(&self, seat: Seat) -> usize {
        let power = self.power(seat);
        let lo = self.min_bid();
        if power >= lo {
            (power - lo + 1) as usize
        } else {
            0
        }
    }

    fn buyer(&self) -> Seat {
        match self.phase {
            Phase::FinalBuy => (self.final_from + self.final_offset) % self.players(),
            _ => self.active,
        }
    }

    fn solo_price(&self) -> u16 {
        u16::from(self.data.solo_wild_price)
    }

    /// Gives `seat` up to `amount` tokens under the cap and records what was gained and lost.
    fn gain(&mut self, seat: Seat, amount: u16) {
        if amount == 0 {
            return;
        }
        let room = self.data.token_cap.saturating_sub(self.seats[seat].tokens);
        let gained = amount.min(u16::from(room)) as u8;
        self.seats[seat].tokens += gained;
        self.events.push(Event::Gain { seat, gained, lost: (amount - u16::from(gained)) as u8 });
    }

    /// Every seat but the active one gains the currency shown (§4.6); nobody else exists in solo.
    fn others_gain(&mut self) {
        let amount = self.currency;
        for offset in 1..self.players() {
            let seat = (self.active + offset) % self.players();
            self.gain(seat, amount);
        }
    }

    /// Moves the tableau's currency cards to the discard pile and its number cards to `to_collection` or
    /// the market, and clears the sums.
    fn clear_tableau(&mut self, to_collection: bool) {
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

    fn end_turn(&mut self) {
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

    fn next_final_buyer(&mut self) {
        if self.final_offset >= self.players() {
            self.phase = Phase::Over;
            self.events.push(Event::GameOver);
        } else {
            self.final_offset += 1;
        }
    }

    fn draw_card(&mut self) {
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
    fn bust(&mut self, currency_bust: bool) {
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

    fn take_prize(&mut self, prize: Prize) {
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

    fn start_payment(&mut self, payer: Seat, purpose: Purpose, item: u8, price: u16) {
        self.pay = Some(Payment { payer, purpose, item, price, tokens: 0, busts: 0, cards: CardSet::default() });
        self.phase = Phase::Pay;
    }

    fn after_auction_pass(&mut self) {
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

    fn pay_piece(&mut self, token: bool, bust: bool, card: Option<u8>) {
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

    /// Calls `visit` with each legal move of `seat` in the order of [`Game::legal_move`], working out once
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

    /// The scores of every seat by the exact optimizer (§4.10).
    pub fn scores(&self) -> Vec<u16> {
        (0..self.players()).map(|s| self.score_of(s)).collect()
    }

    /// The score of `seat` by the exact optimizer (one entry of [`Ten::scores`]), remembered until its
    /// collection changes.
    pub fn score(&self, seat: Seat) -> u16 {
        self.scores.get_or(seat, || self.score_of(seat))
    }

    fn score_of(&self, seat: Seat) -> u16 {
        let mut tally = Tally::new();
        for id in self.seats[seat].collection.iter() {
            // The data allows one numbered wild per number and one multicolour #, so adding never fails.
            let _ = tally.add(self.kind(id));
        }
        tally.best_total(self.data.perfect_run_bonus)
    }

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

fn corrupt(what: impl std::fmt::Display) -> GameError {
    GameError::CorruptState(format!("ten view: {what}"))
}

/// `value[key]`, which must exist (`value` must be an object).
fn field<'v>(value: &'v Value, key: &str) -> Result<&'v Value, GameError> {
    value.as_object().and_then(|m| m.get(key)).ok_or_else(|| corrupt(format!("missing field {key:?}")))
}

/// `value[key]` as an integer no greater than `max`.
fn uint(value: &Value, key: &str, max: u64) -> Result<u64, GameError> {
    field(value, key)?
        .as_u64()
        .filter(|&n| n <= max)
        .ok_or_else(|| corrupt(format!("field {key:?} must be an integer from 0 to {max}")))
}

/// `value[key]` as an array.
fn array<'v>(value: &'v Value, key: &str) -> Result<&'v [Value], GameError> {
    field(value, key)?.as_array().map(Vec::as_slice).ok_or_else(|| corrupt(format!("field {key:?} must be a list")))
}

/// Reading a public view back into a state (`from_view`): each card must be of this deck, appear once, and be
/// described exactly as the view describes it.
impl Ten {
    fn read_card(&self, value: &Value, seen: &mut CardSet) -> Result<u8, GameError> {
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

    fn read_cards(&self, value: &Value, key: &str, seen: &mut CardSet) -> Result<Vec<u8>, GameError> {
        array(value, key)?.iter().map(|c| self.read_card(c, seen)).collect()
    }

    fn read_seat(&self, value: &Value, key: &str) -> Result<Seat, GameError> {
        Ok(uint(value, key, self.players() as u64 - 1)? as Seat)
    }

    /// The offset (1..=players) of `seat` after `from`: the auction's and the final round's position.
    fn offset_from(&self, from: Seat, seat: Seat) -> usize {
        let n = self.players();
        match (seat + n - from) % n {
            0 => n,
            o => o,
        }
    }

    /// Fills every public field of a fresh game from `public`; the draw pile is left to the caller.
    fn read_public(&mut self, public: &Value) -> Result<(), GameError> {
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

    fn read_auction(&mut self, value: &Value, seen: &mut CardSet) -> Result<(), GameError> {
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

    fn read_offer(&mut self, value: &Value, seen: &mut CardSet) -> Result<(), GameError> {
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

    fn read_payment(&mut self, value: &Value, seen: &mut CardSet) -> Result<(), GameError> {
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

    fn read_final_round(&mut self, value: &Value) -> Result<(), GameError> {
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

/// Whether a payment owing `owed > 0` can still end valid with `units` tokens and cards and `busts` bust
/// tokens left: either exactly (as many bust tokens as fit, the rest in units), or — while only bust tokens
/// have been paid — by bust tokens alone.
fn completable(owed: u16, units_used: bool, units: u16, busts: u16, bust_value: u16) -> bool {
    let fitting = busts.min(owed / bust_value);
    if owed - bust_value * fitting <= units {
        return true;
    }
    !units_used && busts * bust_value >= owed
}

fn parse_card(f: &Fields) -> Result<u8, GameError> {
    let id = f.uint("card")?;
    if id >= TOTAL_CARDS as u64 {
        return Err(GameError::invalid(format!("no TEN card has id {id} (ids are 0–{})", TOTAL_CARDS - 1)));
    }
    Ok(id as u8)
}

impl Game for Ten {
    type Move = TenMove;

    fn info() -> GameInfo {
        let data = TenData::embedded().ok();
        let default_target = data.map_or(Value::Null, |d| json!(d.solo_target_score_default));
        let best = data.map_or(40, |d| 4 * (9 + i64::from(d.perfect_run_bonus)));
        GameInfo {
            name: "ten",
            title: "TEN",
            min_players: 1,
            max_players: MAX_PLAYERS,
            default_players: 3,
            options: vec![OptionSpec {
                name: "solo_target",
                kind: OptionKind::Int { min: 1, max: best },
                default: default_target,
                doc: "Solo house variant only (1 player): the total score that wins. Ignored with 2–5 players.",
                house_rules: true,
            }],
            house_rules_players: vec![(1, SOLO_NOTE)],
            summary: "Push your luck: draw cards until you stop or bust (numbers minus currency, or currency, \
                      reaching 11), then take the numbers or the currency. Every wild drawn is auctioned. \
                      Score the longest run per colour; a full 1–9 run scores 10.",
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
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

    fn setup(&self) -> &Setup {
        &self.setup
    }

    fn to_act(&self) -> SeatSet {
        self.actor().map_or(SeatSet::EMPTY, SeatSet::single)
    }

    /// Without building the outcome (the RL step asks after every move).
    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn outcome(&self) -> Option<Outcome> {
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

    fn legal_count(&self, seat: Seat) -> usize {
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

    fn legal_move(&self, seat: Seat, index: usize) -> Option<TenMove> {
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

    fn index_of(&self, seat: Seat, mv: &TenMove) -> Option<usize> {
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

    fn explain(&self, seat: Seat, mv: &TenMove) -> GameError {
        if self.phase == Phase::Over {
            return GameError::illegal("game_over", "the game is over");
        }
        if self.actor() != Some(seat) {
            return GameError::illegal("not_your_turn", format!("seat {seat} is not to act"));
        }
        let phase = self.phase.words();
        let wrong = || GameError::illegal("wrong_phase", format!("this move is not possible during {phase}"));
        match (self.phase, mv) {
            (Phase::Draw, TenMove::Draw) => {
                GameError::illegal("draw_pile_empty", "the draw pile is empty: you must stop")
            }
            (Phase::Draw, TenMove::Stop) => GameError::illegal(
                "empty_tableau",
                "you may stop only with a number or currency card in the tableau (wilds do not count): draw",
            ),
            (Phase::Prize, TenMove::Prize(p)) => GameError::illegal(
                "prize_absent",
                format!(
                    "the tableau holds no {} card, so that prize is not available",
                    match p {
                        Prize::Numbers => "number",
                        Prize::Currency => "currency",
                    }
                ),
            ),
            (Phase::Buy | Phase::FinalBuy, &TenMove::Buy(id)) => {
                if !self.market.contains(id) {
                    GameError::illegal("not_in_market", format!("card {id} is not in the market"))
                } else if self.duplicate(seat, id) {
                    GameError::illegal(
                        "duplicate",
                        format!("you already hold a number card of the same colour and number as card {id}"),
                    )
                } else {
                    GameError::illegal(
                        "cannot_afford",
                        format!("card {id} costs {} and your purchasing power is {}", self.face(id), self.power(seat)),
                    )
                }
            }
            (Phase::Auction, &TenMove::Bid(amount)) => {
                let lo = self.min_bid();
                if amount < lo {
                    GameError::illegal(
                        "bid_too_low",
                        format!("a bid must be at least {lo} (strictly higher than the high bid)"),
                    )
                } else {
                    GameError::illegal(
                        "cannot_afford",
                        format!("a bid of {amount} exceeds your purchasing power of {}", self.power(seat)),
                    )
                }
            }
            (Phase::SoloOffer, TenMove::AcceptWild) => GameError::illegal(
                "cannot_afford",
                format!("the wild costs {} and your purchasing power is {}", self.solo_price(), self.power(seat)),
            ),
            (Phase::Pay, TenMove::PayToken | TenMove::PayBust | TenMove::PayCard(_)) => {
                let Some(p) = self.pay else { return wrong() };
                let bv = self.bust_value();
                let owed = p.price.saturating_sub(p.value(bv));
                let s = &self.seats[seat];
                match mv {
                    TenMove::PayToken if s.tokens == 0 => {
                        GameError::illegal("no_tokens", "you have no currency tokens")
                    }
                    TenMove::PayBust if s.busts == 0 => GameError::illegal("no_bust_tokens", "you have no bust tokens"),
                    &TenMove::PayCard(id) if !s.collection.contains(id) => {
                        if id == p.item {
                            GameError::illegal("card_being_paid_for", format!("card {id} is the card being paid for"))
                        } else {
                            GameError::illegal("not_in_collection", format!("card {id} is not in your collection"))
                        }
                    }
                    // With a token or card paid, a bust token that keeps the payment short always leaves an
                    // exact completion (see the module documentation), so a refused one always overpays.
                    TenMove::PayBust => GameError::illegal(
                        "overpayment",
                        format!(
                            "you owe {owed}: a bust token (worth {bv}) would make the payment {} for a price of {}, \
                             and a token or card already paid could then be taken back; only bust tokens alone \
                             may overpay",
                            p.value(bv) + bv,
                            p.price
                        ),
                    ),
                    _ => {
                        let (piece, tokens, cards) = match mv {
                            TenMove::PayToken => ("token", s.tokens.saturating_sub(1), s.collection.len()),
                            _ => ("card", s.tokens, s.collection.len().saturating_sub(1)),
                        };
                        let left = owed.saturating_sub(1);
                        GameError::illegal(
                            "not_minimal",
                            format!(
                                "you owe {owed}: after this {piece} {left} would be left, and {tokens} tokens, {} \
                                 bust tokens and {cards} card{} cannot pay {left} exactly (a bust token may \
                                 overpay only in a payment of bust tokens alone)",
                                s.busts,
                                if cards == 1 { "" } else { "s" }
                            ),
                        )
                    }
                }
            }
            _ => wrong(),
        }
    }

    fn apply_legal(&mut self, seat: Seat, mv: &TenMove) {
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

    fn write_move(&self, mv: &TenMove, out: &mut String) {
        wire::write_move(out, mv);
    }

    fn move_from_json(&self, _seat: Seat, value: &Value) -> Result<TenMove, GameError> {
        let kind = Fields::new(value, &["type", "kind", "card", "amount"])?.kind()?;
        let only = |keys: &[&str]| Fields::new(value, keys);
        Ok(match kind {
            "draw" => only(&["type"]).map(|_| TenMove::Draw)?,
            "stop" => only(&["type"]).map(|_| TenMove::Stop)?,
            "skip_buy" => only(&["type"]).map(|_| TenMove::SkipBuy)?,
            "pass_bid" => only(&["type"]).map(|_| TenMove::PassBid)?,
            "pay_token" => only(&["type"]).map(|_| TenMove::PayToken)?,
            "pay_bust" => only(&["type"]).map(|_| TenMove::PayBust)?,
            "accept_wild" => only(&["type"]).map(|_| TenMove::AcceptWild)?,
            "decline_wild" => only(&["type"]).map(|_| TenMove::DeclineWild)?,
            "prize" => match only(&["type", "kind"])?.str("kind")? {
                "numbers" => TenMove::Prize(Prize::Numbers),
                "currency" => TenMove::Prize(Prize::Currency),
                other => return Err(GameError::invalid(format!("unknown prize {other:?} (numbers or currency)"))),
            },
            "buy" => TenMove::Buy(parse_card(&only(&["type", "card"])?)?),
            "pay_card" => TenMove::PayCard(parse_card(&only(&["type", "card"])?)?),
            "bid" => {
                let amount = only(&["type", "amount"])?.uint("amount")?;
                TenMove::Bid(u32::try_from(amount).map_err(|_| GameError::invalid("bid amount too large"))?)
            }
            other => {
                return Err(GameError::invalid(format!(
                    "unknown TEN move {other:?} (draw, stop, prize, buy, skip_buy, bid, pass_bid, pay_token, \
                     pay_bust, pay_card, accept_wild, decline_wild)"
                )))
            }
        })
    }

    fn write_public_view(&self, out: &mut String) {
        self.write_public(out);
    }

    /// Always `null`, as [`Ten::private_view`] is.
    fn write_private_view(&self, _seat: Option<Seat>, out: &mut String) {
        out.push_str("null");
    }

    fn write_events(&self, _seat: Option<Seat>, out: &mut String) {
        self.write_event_list(out);
    }

    /// TEN hides nothing but the draw pile's order, so every observer learns the same events.
    fn events_are_public(&self) -> bool {
        true
    }

    /// Only the draw pile's order (and the state's RNG) is unknown to anyone, so only they are re-dealt.
    fn determinize(&self, _observer: Option<Seat>, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        rng.shuffle(&mut g.draw);
        g.rng = rng.fork();
        g
    }

    /// Everything but the draw pile's order is in the public view, so the view is read back strictly and
    /// the cards seen nowhere are shuffled into the draw pile, as `determinize` does.
    fn from_view(setup: &Setup, seat: Option<Seat>, view: &Value, rng: &mut Rng) -> Result<Self, GameError> {
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

    fn state_json(&self) -> Value {
        let mut v = self.public_view();
        v["draw_order"] = json!(self.draw);
        v["discard_order"] = json!(self.discard);
        v["rng"] = json!(self.rng.state_hex());
        v["final_from"] = json!(self.final_from);
        v["final_offset"] = json!(self.final_offset);
        v["events"] = Value::Array(self.events(None));
        v
    }

    fn heuristic_index(&self, seat: Seat, rng: &mut Rng) -> usize {
        self.heuristic(seat, rng)
    }

    /// The draw pile's order is the only hidden fact and a tree search spreads its costly playouts over
    /// many moves, so the search levels compare the candidates on the same shuffles instead. A playout is
    /// most of a game of about 330 moves and costs two iterations: `hard` then thinks about 0.5 s a move.
    const SEARCH: Search = Search::Flat { playout_cost: 2 };

    /// Payments are left to the heuristic (they are a third of the decisions and rarely change a
    /// result); an auction compares passing with the three lowest bids, which already lead it.
    fn search_candidates(&self, seat: Seat) -> Vec<usize> {
        let count = self.legal_count(seat);
        match self.phase {
            Phase::Pay => Vec::new(),
            Phase::Auction => (0..count.min(AUCTION_CANDIDATES)).collect(),
            _ => (0..count).collect(),
        }
    }
}

/// How many auction moves a search compares: passing and the three lowest bids.
const AUCTION_CANDIDATES: usize = 4;

/// The built-in heuristic player: a few rules of thumb judged by the exact scorer.
impl Ten {
    /// The score `seat` would have with `extra` added to and `without` taken from its collection.
    fn score_with(&self, seat: Seat, extra: Option<u8>, without: Option<u8>) -> u16 {
        let mut tally = Tally::new();
        for id in self.seats[seat].collection.iter().filter(|&c| Some(c) != without).chain(extra) {
            let _ = tally.add(self.kind(id));
        }
        tally.best_total(self.data.perfect_run_bonus)
    }

    fn heuristic(&self, seat: Seat, rng: &mut Rng) -> usize {
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
