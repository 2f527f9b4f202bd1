//! Cherki's state, moves and events, and how a legal move changes the state (draws, discards, calls,
//! wins and the next deal).

use super::cards::*;
use super::discard_log::{DiscardEntry, DiscardLog};
use crate::error::GameError;
use crate::game::{Game, Seat, Setup};
use crate::rng::Rng;
use serde_json::json;

/// A move of Cherki.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CherkiMove {
    /// Take the top card of the stock.
    DrawStock,
    /// Take the card the previous player just discarded.
    TakeDiscard,
    /// Discard a card, calling Cherki with it when `call` is set.
    Discard {
        /// The card discarded.
        card: u8,
        /// Whether Cherki is called with this discard.
        call: bool,
    },
    /// Call Cherki before drawing, with an already ready hand.
    Call,
}

/// Where a deal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The player to act has not drawn yet.
    Start,
    /// The player to act has drawn or taken a card and must discard.
    Drawn,
    /// The game is over.
    Over,
}

impl Phase {
    pub(super) fn name(self) -> &'static str {
        match self {
            Phase::Start => "start",
            Phase::Drawn => "drawn",
            Phase::Over => "over",
        }
    }
}

/// How a finished deal ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DealResult {
    pub(super) deal: u8,
    pub(super) dealer: u8,
    /// The winner, or `NONE` for a drawn deal.
    pub(super) winner: u8,
    pub(super) hand: [u8; 9],
    pub(super) pair_kind: u8,
    pub(super) total: u32,
    pub(super) by_take: bool,
}

impl DealResult {
    pub(super) fn payments(&self, players: usize) -> Vec<i64> {
        (0..players)
            .map(|s| {
                if self.winner == NONE {
                    0
                } else if s == self.winner as usize {
                    (players as i64 - 1) * self.total as i64
                } else {
                    -(self.total as i64)
                }
            })
            .collect()
    }
}

/// What the last move caused, redacted per seat by [`Game::events`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    DrawStock {
        seat: u8,
        card: u8,
        stock: u8,
    },
    TakeDiscard {
        seat: u8,
        card: u8,
        from: u8,
    },
    Discard {
        seat: u8,
        card: u8,
    },
    Call {
        seat: u8,
    },
    /// Details come from the last deal result.
    Win,
    DealDrawn {
        deal: u8,
    },
    NewDeal {
        deal: u8,
        dealer: u8,
    },
}

/// A game of Cherki: one deal or a series of deals with cumulative settlements.
#[derive(Clone, Debug)]
pub struct Cherki {
    pub(super) setup: Setup,
    pub(super) rng: Rng,
    pub(super) players: usize,
    pub(super) deals: u8,
    pub(super) deal: u8,
    pub(super) dealer: u8,
    pub(super) scores: [i64; MAX_PLAYERS],
    pub(super) hands: [u128; MAX_PLAYERS],
    /// Cards publicly known to be in a hand: taken from the discard pile and not discarded since.
    pub(super) known: [u128; MAX_PLAYERS],
    pub(super) called: [bool; MAX_PLAYERS],
    pub(super) pair_kind: [u8; MAX_PLAYERS],
    pub(super) took_last: [bool; MAX_PLAYERS],
    /// The stock; its top is the last card.
    pub(super) stock: [u8; DECK_SIZE],
    pub(super) stock_len: u8,
    pub(super) discards: DiscardLog,
    /// Whether the last discard may still be taken (it is the previous player's and nobody took it).
    pub(super) top_available: bool,
    pub(super) turn: u8,
    pub(super) phase: Phase,
    /// The card drawn or taken this turn, `NONE` before drawing.
    pub(super) drawn: u8,
    pub(super) drawn_taken: bool,
    pub(super) results: Vec<DealResult>,
    pub(super) events: Vec<Event>,
}

impl Cherki {
    pub(super) fn next_seat(&self, seat: usize) -> usize {
        (seat + 1) % self.players
    }

    /// Shuffles the whole deck from the game's RNG and deals 8 cards each, two at a time, from the
    /// dealer's left, four rounds; the dealer's left starts.
    pub(super) fn deal_cards(&mut self) {
        let mut deck = [0u8; DECK_SIZE];
        for (i, slot) in deck.iter_mut().enumerate() {
            *slot = i as u8;
        }
        self.rng.shuffle(&mut deck);
        self.stock = deck;
        self.stock_len = DECK_SIZE as u8;
        self.hands = [0; MAX_PLAYERS];
        self.known = [0; MAX_PLAYERS];
        self.called = [false; MAX_PLAYERS];
        self.pair_kind = [NONE; MAX_PLAYERS];
        self.took_last = [false; MAX_PLAYERS];
        let first = self.next_seat(self.dealer as usize);
        for _ in 0..4 {
            for offset in 0..self.players {
                let seat = (first + offset) % self.players;
                for _ in 0..2 {
                    self.stock_len -= 1;
                    self.hands[seat] |= bit(self.stock[self.stock_len as usize]);
                }
            }
        }
        self.discards.clear();
        self.top_available = false;
        self.turn = first as u8;
        self.phase = Phase::Start;
        self.drawn = NONE;
        self.drawn_taken = false;
    }

    pub(super) fn hand_ready_kind(&self, seat: usize) -> Option<usize> {
        if self.hands[seat].count_ones() as usize != HAND_SIZE {
            return None;
        }
        ready_kind(&kind_counts(self.hands[seat]))
    }

    pub(super) fn acting(&self, seat: usize) -> bool {
        self.phase != Phase::Over && seat == self.turn as usize
    }

    /// Ends the deal: records the result, then deals the next one or ends the game.
    pub(super) fn finish_deal(&mut self, result: DealResult) {
        if result.winner != NONE {
            for (seat, pay) in result.payments(self.players).into_iter().enumerate() {
                self.scores[seat] += pay;
            }
            self.events.push(Event::Win);
        } else {
            self.events.push(Event::DealDrawn { deal: self.deal });
        }
        self.results.push(result);
        self.top_available = false;
        self.drawn = NONE;
        self.drawn_taken = false;
        if self.deal < self.deals {
            self.deal += 1;
            self.dealer = self.next_seat(self.dealer as usize) as u8;
            self.deal_cards();
            self.events.push(Event::NewDeal { deal: self.deal, dealer: self.dealer });
        } else {
            self.phase = Phase::Over;
        }
    }

    pub(super) fn win(&mut self, seat: usize, by_take: bool) {
        let mut hand = [0u8; 9];
        for (slot, card) in hand.iter_mut().zip(bits(self.hands[seat])) {
            *slot = card;
        }
        let total = hand.iter().map(|&c| card_points(c)).sum();
        let result = DealResult {
            deal: self.deal,
            dealer: self.dealer,
            winner: seat as u8,
            hand,
            pair_kind: self.pair_kind[seat],
            total,
            by_take,
        };
        self.finish_deal(result);
    }

    /// After a draw or a take: a called player holding a card of the pair kind wins, anyone else
    /// goes on to discard.
    pub(super) fn after_draw(&mut self, seat: usize, card: u8, by_take: bool) {
        if self.called[seat] && card_kind(card) == self.pair_kind[seat] as usize {
            self.win(seat, by_take);
        } else {
            self.phase = Phase::Drawn;
            self.drawn = card;
            self.drawn_taken = by_take;
        }
    }

    /// The hand of `seat` as a card mask (bit `c` = card id `c`).
    pub fn hand_mask(&self, seat: Seat) -> u128 {
        self.hands.get(seat).copied().unwrap_or(0)
    }

    /// The hand of `seat` as card ids in increasing order.
    pub fn hand(&self, seat: Seat) -> Vec<u8> {
        self.hands.get(seat).map_or_else(Vec::new, |&h| hand_list(h))
    }

    /// The stock, bottom first (the last card is drawn next).
    pub fn stock(&self) -> &[u8] {
        &self.stock[..self.stock_len as usize]
    }

    /// The cards lying in the discard pile (discarded and not taken back), oldest first.
    pub fn discard_pile(&self) -> Vec<u8> {
        self.discards.entries().iter().filter(|d| d.taken_by == NONE).map(|d| d.card).collect()
    }

    /// Whether `seat` has called Cherki this deal.
    pub fn has_called(&self, seat: Seat) -> bool {
        self.called.get(seat).copied().unwrap_or(false)
    }

    /// The locked pair kind of `seat` (secret in play), `None` before the call.
    pub fn locked_pair_kind(&self, seat: Seat) -> Option<usize> {
        self.pair_kind.get(seat).filter(|&&k| k != NONE).map(|&k| k as usize)
    }

    /// Cumulative settlements so far, one per seat.
    pub fn scores(&self) -> &[i64] {
        &self.scores[..self.players]
    }

    /// The dealer of the current (or last) deal.
    pub fn dealer(&self) -> Seat {
        self.dealer as usize
    }

    /// The deals of the game (the `deals` option), without an option lookup.
    pub fn deals(&self) -> usize {
        usize::from(self.deals)
    }

    /// The number of the current deal, from 1.
    pub fn deal_number(&self) -> usize {
        self.deal as usize
    }

    /// The phase of the current turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How many cards of each face `seat` discarded this deal, and how many it took from the pile: the
    /// discard log counted per seat, kept up to date as moves are applied.
    pub fn discard_face_counts(&self, seat: Seat) -> Option<(&[u8; DECK_SIZE / 4], &[u8; DECK_SIZE / 4])> {
        Some((self.discards.discarded_by(seat)?, self.discards.taken_by(seat)?))
    }

    /// The view's `top_discard` as (card, seat, takeable by the public rules), `None` when there is none.
    pub fn top_discard(&self) -> Option<(u8, Seat, bool)> {
        let turn = self.turn as usize;
        match self.discards.last() {
            Some(d) if self.top_available && self.phase != Phase::Over => Some((
                d.card,
                usize::from(d.seat),
                self.phase == Phase::Start && (self.called[turn] || !self.took_last[turn]),
            )),
            _ => None,
        }
    }

    /// Public per-seat flags: whether `seat` took the discard on its last turn.
    pub fn took_last_turn(&self, seat: Seat) -> bool {
        self.took_last.get(seat).copied().unwrap_or(false)
    }

    /// The seat to act, `None` once over.
    pub fn turn_seat(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn as usize)
    }

    /// What `seat` privately knows beyond its hand, as in its view: the card it drew or took this turn,
    /// the pair kind its 8 cards would make now, and whether it may take the discard.
    pub fn private_sight(&self, seat: Seat) -> (Option<u8>, Option<usize>, bool) {
        let mine = self.turn as usize == seat;
        let drawn = (mine && self.drawn != NONE).then_some(self.drawn);
        (drawn, self.hand_ready_kind(seat), self.phase == Phase::Start && mine && self.can_take(seat))
    }

    /// A precise position for rule tests: hands (8 cards each), the stock listed **top first**, the
    /// dealer, the seat to act (before drawing), an optional top discard `(card, seat)` that may be
    /// taken, and the `deals` option. The cards not placed anywhere are put face up in the discard
    /// history as old discards by the dealer, so every card stays in one place.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub fn test_position(
        hands: &[Vec<u8>],
        stock_top_first: &[u8],
        dealer: Seat,
        turn: Seat,
        top_discard: Option<(u8, Seat)>,
        deals: u8,
        seed: u64,
    ) -> Result<Self, GameError> {
        let players = hands.len();
        let mut options = serde_json::Map::new();
        options.insert("deals".into(), json!(deals));
        let mut game = Cherki::new(&Setup { players, seed, options })?;
        if dealer >= players || turn >= players {
            return Err(GameError::BadOptions("no such seat".into()));
        }
        let mut used = 0u128;
        let mut place = |card: u8| -> Result<(), GameError> {
            if card as usize >= DECK_SIZE || used & bit(card) != 0 {
                return Err(GameError::BadOptions(format!("card {card} missing or placed twice")));
            }
            used |= bit(card);
            Ok(())
        };
        game.hands = [0; MAX_PLAYERS];
        for (seat, hand) in hands.iter().enumerate() {
            if hand.len() != HAND_SIZE {
                return Err(GameError::BadOptions(format!("seat {seat} needs 8 cards")));
            }
            for &card in hand {
                place(card)?;
                game.hands[seat] |= bit(card);
            }
        }
        for &card in stock_top_first {
            place(card)?;
        }
        if let Some((card, _)) = top_discard {
            place(card)?;
        }
        if stock_top_first.is_empty() {
            return Err(GameError::BadOptions("the stock cannot start empty".into()));
        }
        game.stock_len = stock_top_first.len() as u8;
        for (i, &card) in stock_top_first.iter().rev().enumerate() {
            game.stock[i] = card;
        }
        game.discards.clear();
        for card in bits(ALL_CARDS & !used) {
            game.discards.push(DiscardEntry { card, seat: dealer as u8, taken_by: NONE });
        }
        game.top_available = false;
        if let Some((card, seat)) = top_discard {
            game.discards.push(DiscardEntry { card, seat: seat as u8, taken_by: NONE });
            game.top_available = true;
        }
        game.dealer = dealer as u8;
        game.turn = turn as u8;
        Ok(game)
    }
}

impl Cherki {
    /// [`Game::new`] of this game.
    pub(super) fn deal_from(setup: &Setup) -> Result<Self, GameError> {
        let players = setup.players;
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(GameError::BadOptions(format!("Cherki takes 2–6 players, not {players}")));
        }
        let deals = match setup.options.get("deals") {
            None => 1,
            Some(v) => v.as_i64().unwrap_or(0),
        };
        if !(1..=20).contains(&deals) {
            return Err(GameError::BadOptions(format!("option deals: expected an integer 1–20, got {deals}")));
        }
        let mut rng = Rng::new(setup.seed);
        let dealer = rng.index(players) as u8;
        let mut game = Cherki {
            setup: setup.clone(),
            rng,
            players,
            deals: deals as u8,
            deal: 1,
            dealer,
            scores: [0; MAX_PLAYERS],
            hands: [0; MAX_PLAYERS],
            known: [0; MAX_PLAYERS],
            called: [false; MAX_PLAYERS],
            pair_kind: [NONE; MAX_PLAYERS],
            took_last: [false; MAX_PLAYERS],
            stock: [0; DECK_SIZE],
            stock_len: 0,
            discards: DiscardLog::new(),
            top_available: false,
            turn: 0,
            phase: Phase::Start,
            drawn: NONE,
            drawn_taken: false,
            results: Vec::new(),
            events: Vec::new(),
        };
        game.deal_cards();
        Ok(game)
    }

    /// [`Game::apply_legal`] of this game.
    pub(super) fn apply(&mut self, seat: Seat, mv: &CherkiMove) {
        self.events.clear();
        let s = seat as u8;
        match *mv {
            CherkiMove::Call => {
                if let Some(kind) = self.hand_ready_kind(seat) {
                    self.called[seat] = true;
                    self.pair_kind[seat] = kind as u8;
                    self.events.push(Event::Call { seat: s });
                }
            }
            CherkiMove::DrawStock => {
                if self.stock_len == 0 {
                    return;
                }
                self.stock_len -= 1;
                let card = self.stock[self.stock_len as usize];
                self.hands[seat] |= bit(card);
                self.took_last[seat] = false;
                self.events.push(Event::DrawStock { seat: s, card, stock: self.stock_len });
                self.after_draw(seat, card, false);
            }
            CherkiMove::TakeDiscard => {
                let Some(top) = self.discards.take_last(s) else { return };
                let (card, from) = (top.card, top.seat);
                self.top_available = false;
                self.hands[seat] |= bit(card);
                self.known[seat] |= bit(card);
                self.took_last[seat] = true;
                self.events.push(Event::TakeDiscard { seat: s, card, from });
                self.after_draw(seat, card, true);
            }
            CherkiMove::Discard { card, call } => {
                self.hands[seat] &= !bit(card);
                self.known[seat] &= !bit(card);
                self.discards.push(DiscardEntry { card, seat: s, taken_by: NONE });
                self.top_available = true;
                self.drawn = NONE;
                self.drawn_taken = false;
                self.events.push(Event::Discard { seat: s, card });
                if call {
                    if let Some(kind) = self.hand_ready_kind(seat) {
                        self.called[seat] = true;
                        self.pair_kind[seat] = kind as u8;
                        self.events.push(Event::Call { seat: s });
                    }
                }
                if self.stock_len == 0 {
                    let result = DealResult {
                        deal: self.deal,
                        dealer: self.dealer,
                        winner: NONE,
                        hand: [0; 9],
                        pair_kind: NONE,
                        total: 0,
                        by_take: false,
                    };
                    self.finish_deal(result);
                } else {
                    self.turn = self.next_seat(seat) as u8;
                    self.phase = Phase::Start;
                }
            }
        }
    }
}
