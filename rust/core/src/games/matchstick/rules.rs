//! Matchstick Tycoon's state, moves and events, and how a legal move changes the state.

use crate::error::GameError;
use crate::game::{Seat, Setup};
use crate::rng::Rng;
use crate::segments::{self, CardType, Segments, Value};
use std::sync::Arc;

pub(super) const TYPES: usize = CardType::COUNT;

pub(super) const VALUES: usize = Value::COUNT;

/// Most cards in one play.
pub(super) const MAX_PLAY: usize = 5;

/// Most matchsticks one play can need: five 1s shown as 8s.
pub(super) const MAX_COST: usize = 25;

pub(super) const LANES: usize = MAX_COST + 1;

pub(super) const NO_COST: u8 = u8::MAX;

/// Most matchsticks one card can need (a 1 shown as 8).
pub(super) const MAX_CARD_COST: usize = 5;

/// `COST[t][v]`: fewest matchsticks a card of type `t` needs to show `v`, or [`NO_COST`].
pub(super) const COST: [[u8; VALUES]; TYPES] = {
    let mut table = [[NO_COST; VALUES]; TYPES];
    let mut t = 0;
    while t < TYPES {
        let mut v = 0;
        while v < VALUES {
            if let Some(k) = segments::min_cost(CardType::ALL[t], Value::ALL[v]) {
                table[t][v] = k;
            }
            v += 1;
        }
        t += 1;
    }
    table
};

/// `REACH_LE[v][c]`: the card types (bit t) that can show `v` with at most `c` matchsticks.
pub(super) const REACH_LE: [[u16; MAX_CARD_COST + 1]; VALUES] = {
    let mut table = [[0u16; MAX_CARD_COST + 1]; VALUES];
    let mut v = 0;
    while v < VALUES {
        let mut c = 0;
        while c <= MAX_CARD_COST {
            let mut t = 0;
            while t < TYPES {
                if COST[t][v] != NO_COST && COST[t][v] as usize <= c {
                    table[v][c] |= 1 << t;
                }
                t += 1;
            }
            c += 1;
        }
        v += 1;
    }
    table
};

pub(super) fn card_type(id: u8) -> CardType {
    CardType::ALL[usize::from(id >> 2) & (TYPES - 1)]
}

/// The ids of the at most [`MAX_PLAY`] cards in `mask`, in increasing order, without allocating: the ids
/// fill the front of the returned array, and the count comes with it.
pub(super) fn play_ids(mask: u64) -> ([u8; MAX_PLAY], usize) {
    let mut ids = [0u8; MAX_PLAY];
    let mut count = 0;
    let mut m = mask;
    while m != 0 && count < MAX_PLAY {
        ids[count] = m.trailing_zeros() as u8;
        count += 1;
        m &= m - 1;
    }
    (ids, count)
}

pub(super) fn ids_of(mask: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(mask.count_ones() as usize);
    let mut m = mask;
    while m != 0 {
        out.push(m.trailing_zeros() as u8);
        m &= m - 1;
    }
    out
}

/// A play as a player may send it: the value shown, the cards (in the sender's order) and optional
/// per-card details. Entries past `count` are zero, so equal plays compare equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayMove {
    /// The value every card shows.
    pub value: Value,
    /// How many cards (1..=5).
    pub count: u8,
    /// Card ids, `count` of them.
    pub cards: [u8; MAX_PLAY],
    /// Per card: turned 180°, when the sender said so.
    pub rotated: Option<[bool; MAX_PLAY]>,
    /// Per card: the segments filled with matchsticks, when the sender said so.
    pub add: Option<[Segments; MAX_PLAY]>,
}

impl PlayMove {
    /// A play of `cards` (1 to 5 ids below 64) showing `value`, without per-card details.
    pub fn new(value: Value, cards: &[u8]) -> Option<PlayMove> {
        if cards.is_empty() || cards.len() > MAX_PLAY || cards.iter().any(|&id| id >= 64) {
            return None;
        }
        let mut arr = [0u8; MAX_PLAY];
        arr[..cards.len()].copy_from_slice(cards);
        Some(PlayMove { value, count: cards.len() as u8, cards: arr, rotated: None, add: None })
    }

    /// The card ids of the play.
    pub fn ids(&self) -> &[u8] {
        &self.cards[..usize::from(self.count)]
    }
}

/// A move of Matchstick Tycoon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchstickMove {
    /// Take a matchstick instead of playing (following only).
    Pass,
    /// The forced turn of a player whose hand is empty but who still holds matchsticks.
    DiscardMatchstick,
    /// Put cards on the table.
    Play(PlayMove),
}

/// The play on top of the table, as drawn: every card with its orientation and added segments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TablePlay {
    pub(super) seat: u8,
    pub(super) count: u8,
    pub(super) value: Value,
    pub(super) cards: [u8; MAX_PLAY],
    /// Bit i: card i is turned.
    pub(super) rotated: u8,
    pub(super) added: [Segments; MAX_PLAY],
    pub(super) cost: u8,
}

/// What a move caused (kept typed; JSON is built only when asked for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    Play(TablePlay),
    Pass { seat: u8, matchsticks: u32 },
    Discard { seat: u8, matchsticks: u32 },
    Revolution(bool),
    WentOut { seat: u8, position: u8 },
    TrickCleared { cards: u8, leader: u8 },
    GameOver,
}

/// Most events one move causes (a play: play, revolution, went out, game over).
pub(super) const MAX_EVENTS: usize = 6;

/// What the player to act may do, with the number of legal plays per (count, value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Turn {
    Over,
    Discard,
    Lead,
    Follow,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct LegalCache {
    pub(super) turn: Turn,
    /// `plays[v][k]`: plays of `k` cards showing value `v`.
    pub(super) plays: [[u16; MAX_PLAY + 1]; VALUES],
    pub(super) total: u32,
}

/// Matchstick Tycoon: the full state of one game. See the module documentation for moves and their order.
#[derive(Clone, Debug)]
pub struct Matchstick {
    pub(super) setup: Arc<Setup>,
    pub(super) players: u8,
    /// Copies of G and of H in the deck (0, 2 or 4).
    pub(super) expansion: u8,
    /// Values in play: 16, or 18 with the expansion.
    pub(super) values: u8,
    pub(super) hands: [u64; 8],
    pub(super) type_counts: [[u8; TYPES]; 8],
    /// Bit t: the seat holds a card of type t.
    pub(super) present: [u16; 8],
    pub(super) matchsticks: [u32; 8],
    /// Finishing position per seat, 0 while in the game.
    pub(super) finish: [u8; 8],
    pub(super) finish_order: [u8; 8],
    pub(super) finished: u8,
    /// Seats still in the game.
    pub(super) active: u8,
    pub(super) table: Option<TablePlay>,
    /// Every card played in the current trick (the top play included).
    pub(super) pile: u64,
    pub(super) removed: u64,
    pub(super) set_aside: u64,
    pub(super) revolution: bool,
    pub(super) current: u8,
    /// Who made the first play of the current trick.
    pub(super) leader: Option<u8>,
    /// Seats that had a turn without playing since the last play.
    pub(super) passed: u8,
    pub(super) rng: Rng,
    pub(super) events: [Event; MAX_EVENTS],
    pub(super) event_count: u8,
    pub(super) legal: LegalCache,
}

/// The given per-card details of a play, checked: for each card the orientation and added segments
/// that make it show the value, or `None` when they do not.
pub(super) fn resolve_details(mv: &PlayMove) -> Option<(u8, [Segments; MAX_PLAY], u32)> {
    let glyph = mv.value.glyph();
    let mut rotated_mask = 0u8;
    let mut added = [0; MAX_PLAY];
    let mut cost = 0u32;
    for (i, &id) in mv.ids().iter().enumerate() {
        let t = card_type(id);
        let fits = |rot: bool| {
            let shape = segments::shape(t, rot);
            shape & !glyph == 0
        };
        let rot = match (mv.rotated, mv.add) {
            (Some(r), _) => r[i],
            (None, Some(a)) => {
                let up = segments::shape(t, false);
                !(up & a[i] == 0 && up | a[i] == glyph)
            }
            (None, None) => segments::cheapest_orientation(t, mv.value)?.0,
        };
        if !fits(rot) {
            return None;
        }
        let shape = segments::shape(t, rot);
        let fill = glyph & !shape;
        if let Some(a) = mv.add {
            if a[i] != fill {
                return None;
            }
        }
        if rot {
            rotated_mask |= 1 << i;
        }
        added[i] = fill;
        cost += fill.count_ones();
    }
    Some((rotated_mask, added, cost))
}

impl Matchstick {
    pub(super) fn seat_bit(seat: usize) -> u8 {
        1u8 << seat
    }

    /// Every card id of this game's deck.
    pub(super) fn deck_mask(&self) -> u64 {
        (0..u64::from(self.expansion)).fold((1u64 << 56) - 1, |m, c| m | 1u64 << (56 + c) | 1u64 << (60 + c))
    }

    pub(super) fn is_active(&self, seat: usize) -> bool {
        self.active & Self::seat_bit(seat) != 0
    }

    /// The next seat clockwise after `seat` that is still in the game.
    pub(super) fn next_active(&self, seat: usize) -> usize {
        let n = usize::from(self.players);
        (1..=n).map(|d| (seat + d) % n).find(|&s| self.is_active(s)).unwrap_or(seat)
    }

    pub(super) fn push_event(&mut self, event: Event) {
        if usize::from(self.event_count) < MAX_EVENTS {
            self.events[usize::from(self.event_count)] = event;
            self.event_count += 1;
        }
    }

    pub(super) fn set_hand(&mut self, seat: usize, hand: u64) {
        self.hands[seat] = hand;
        let mut present = 0u16;
        for t in 0..TYPES {
            let c = ((hand >> (4 * t)) & 0xF).count_ones() as u8;
            self.type_counts[seat][t] = c;
            if c > 0 {
                present |= 1 << t;
            }
        }
        self.present[seat] = present;
    }

    pub(super) fn remove_card(&mut self, seat: usize, id: u8) {
        let bit = 1u64 << id;
        if self.hands[seat] & bit == 0 {
            return;
        }
        self.hands[seat] &= !bit;
        let t = usize::from(id >> 2);
        self.type_counts[seat][t] -= 1;
        if self.type_counts[seat][t] == 0 {
            self.present[seat] &= !(1 << t);
        }
    }

    /// Puts the cards on the table and runs every consequence of the play.
    pub(super) fn do_play(&mut self, seat: usize, top: TablePlay) {
        for &id in &top.cards[..usize::from(top.count)] {
            self.remove_card(seat, id);
            self.pile |= 1u64 << id;
        }
        self.matchsticks[seat] = self.matchsticks[seat].saturating_sub(u32::from(top.cost));
        if self.table.is_none() {
            self.leader = Some(seat as u8);
        }
        self.table = Some(top);
        self.passed = 0;
        self.push_event(Event::Play(top));
        if usize::from(top.count) == MAX_PLAY {
            self.revolution = !self.revolution;
            self.push_event(Event::Revolution(self.revolution));
        }
        self.after_turn(seat);
    }

    /// Going out, game end, end of trick and the next turn, after any move of `seat`.
    pub(super) fn after_turn(&mut self, seat: usize) {
        if self.hands[seat] == 0 && self.matchsticks[seat] == 0 {
            self.go_out(seat);
        }
        if self.active.count_ones() <= 1 {
            if let Some(last) = (0..usize::from(self.players)).find(|&s| self.is_active(s)) {
                self.go_out(last);
            }
            self.push_event(Event::GameOver);
            return;
        }
        if let Some(top) = self.table {
            let owner = usize::from(top.seat);
            let others = self.active & !Self::seat_bit(owner);
            if others & !self.passed == 0 {
                let next = if self.is_active(owner) { owner } else { self.next_active(owner) };
                let cards = self.pile.count_ones() as u8;
                self.removed |= self.pile;
                self.pile = 0;
                self.table = None;
                self.leader = None;
                self.passed = 0;
                self.current = next as u8;
                self.push_event(Event::TrickCleared { cards, leader: next as u8 });
                return;
            }
        }
        self.current = self.next_active(seat) as u8;
    }

    pub(super) fn go_out(&mut self, seat: usize) {
        self.active &= !Self::seat_bit(seat);
        self.finished += 1;
        self.finish[seat] = self.finished;
        self.finish_order[usize::from(self.finished) - 1] = seat as u8;
        self.push_event(Event::WentOut { seat: seat as u8, position: self.finished });
    }

    pub(super) fn begin_move(&mut self) {
        self.event_count = 0;
    }
}

impl Matchstick {
    /// [`Game::new`] of this game.
    pub(super) fn deal_from(setup: &Setup) -> Result<Self, GameError> {
        let players = setup.players;
        if !(2..=8).contains(&players) {
            return Err(GameError::BadOptions(format!("Matchstick Tycoon takes 2–8 players, not {players}")));
        }
        let expansion = setup.int_option("expansion");
        if ![0, 2, 4].contains(&expansion) {
            return Err(GameError::BadOptions(format!("option expansion: expected 0, 2 or 4, got {expansion}")));
        }
        let deal_all = players >= 4 || setup.bool_option("deal_all");
        let mut rng = Rng::new(setup.seed);
        let mut deck: Vec<u8> = (0..56).collect();
        for t in 14..16u8 {
            deck.extend((0..expansion as u8).map(|c| t * 4 + c));
        }
        rng.shuffle(&mut deck);
        let first = rng.index(players);
        let dealt = if deal_all { deck.len() } else { (15 * players).min(deck.len()) };
        let mut hands = [0u64; 8];
        for (i, &id) in deck[..dealt].iter().enumerate() {
            hands[(first + i) % players] |= 1u64 << id;
        }
        let set_aside = deck[dealt..].iter().fold(0u64, |m, &id| m | (1u64 << id));
        let mut game = Matchstick {
            setup: Arc::new(setup.clone()),
            players: players as u8,
            expansion: expansion as u8,
            values: if expansion > 0 { VALUES as u8 } else { Value::BASE_COUNT as u8 },
            hands: [0; 8],
            type_counts: [[0; TYPES]; 8],
            present: [0; 8],
            matchsticks: [0; 8],
            finish: [0; 8],
            finish_order: [0; 8],
            finished: 0,
            active: ((1u16 << players) - 1) as u8,
            table: None,
            pile: 0,
            removed: 0,
            set_aside,
            revolution: false,
            current: first as u8,
            leader: None,
            passed: 0,
            rng,
            events: [Event::GameOver; MAX_EVENTS],
            event_count: 0,
            legal: LegalCache { turn: Turn::Over, plays: [[0; MAX_PLAY + 1]; VALUES], total: 0 },
        };
        for (seat, &hand) in hands.iter().enumerate().take(players) {
            game.set_hand(seat, hand);
            game.matchsticks[seat] = 1;
        }
        game.refresh_legal();
        Ok(game)
    }

    /// [`Game::apply_legal`] of this game.
    pub(super) fn apply(&mut self, seat: Seat, mv: &MatchstickMove) {
        self.begin_move();
        match mv {
            MatchstickMove::Pass => {
                self.matchsticks[seat] += 1;
                self.passed |= Self::seat_bit(seat);
                self.push_event(Event::Pass { seat: seat as u8, matchsticks: self.matchsticks[seat] });
                self.after_turn(seat);
            }
            MatchstickMove::DiscardMatchstick => {
                self.matchsticks[seat] = self.matchsticks[seat].saturating_sub(1);
                self.passed |= Self::seat_bit(seat);
                self.push_event(Event::Discard { seat: seat as u8, matchsticks: self.matchsticks[seat] });
                self.after_turn(seat);
            }
            MatchstickMove::Play(p) => {
                let Some((rotated, added, cost)) = resolve_details(p) else { return };
                let top = TablePlay {
                    seat: seat as u8,
                    count: p.count,
                    value: p.value,
                    cards: p.cards,
                    rotated,
                    added,
                    cost: cost as u8,
                };
                self.do_play(seat, top);
            }
        }
        self.refresh_legal();
    }
}

#[doc(hidden)]
impl Matchstick {
    /// Test constructor: replaces hands, matchsticks, the table, the revolution flag and the seat to
    /// act of a dealt game, keeping the deck bookkeeping consistent (cards not in a hand or on the table
    /// become set aside).
    pub fn test_position(
        mut self,
        hands: &[Vec<u8>],
        matchsticks: &[u32],
        table: Option<(usize, Value, &[u8])>,
        revolution: bool,
        current: usize,
    ) -> Self {
        let mut used = 0u64;
        for (s, hand) in hands.iter().enumerate().take(usize::from(self.players)) {
            let mask = hand.iter().fold(0u64, |m, &id| m | (1u64 << id));
            used |= mask;
            self.set_hand(s, mask);
            self.matchsticks[s] = matchsticks.get(s).copied().unwrap_or(0);
        }
        self.table = None;
        self.pile = 0;
        self.leader = None;
        if let Some((owner, value, cards)) = table {
            let mut top = TablePlay {
                seat: owner as u8,
                count: cards.len() as u8,
                value,
                cards: [0; MAX_PLAY],
                rotated: 0,
                added: [0; MAX_PLAY],
                cost: 0,
            };
            for (i, &id) in cards.iter().enumerate().take(MAX_PLAY) {
                top.cards[i] = id;
                self.pile |= 1u64 << id;
                if let Some((rot, _)) = segments::cheapest_orientation(card_type(id), value) {
                    if rot {
                        top.rotated |= 1 << i;
                    }
                    top.added[i] = value.glyph() & !segments::shape(card_type(id), rot);
                }
            }
            used |= self.pile;
            self.table = Some(top);
            self.leader = Some(owner as u8);
        }
        let mut deck = (1u64 << 56) - 1;
        for c in 0..u64::from(self.expansion) {
            deck |= 1u64 << (56 + c) | 1u64 << (60 + c);
        }
        self.removed = 0;
        self.set_aside = deck & !used;
        self.revolution = revolution;
        self.current = current as u8;
        self.passed = 0;
        self.event_count = 0;
        self.refresh_legal();
        self
    }

    /// Test accessor: the hand of `seat` as card ids.
    pub fn hand_ids(&self, seat: Seat) -> Vec<u8> {
        ids_of(self.hands[seat])
    }

    /// Test accessor: the matchsticks of `seat`.
    pub fn matchsticks_of(&self, seat: Seat) -> u32 {
        self.matchsticks[seat]
    }

    /// Test accessor: (cards in hands, on the table, removed, set aside) as masks; for conservation checks.
    pub fn card_masks(&self) -> ([u64; 8], u64, u64, u64) {
        (self.hands, self.pile, self.removed, self.set_aside)
    }

    /// Copies of G and of H in the deck (the `expansion` option: 0, 2 or 4), without an option lookup.
    pub fn expansion(&self) -> u8 {
        self.expansion
    }

    /// Test accessor: the revolution flag.
    pub fn revolution(&self) -> bool {
        self.revolution
    }

    /// Test accessor: the seat to act (meaningless once over).
    pub fn current_seat(&self) -> Seat {
        usize::from(self.current)
    }

    /// The top play as (seat, value, its cards as a mask, matchsticks spent); public, like the view's
    /// `table`. For the RL observation encoder.
    pub fn table_top(&self) -> Option<(Seat, Value, u64, u8)> {
        self.table.map(|t| {
            let cards = t.cards[..usize::from(t.count)].iter().fold(0u64, |m, &id| m | (1u64 << id));
            (usize::from(t.seat), t.value, cards, t.cost)
        })
    }

    /// The player count, read from the state (the RL encoder's per-step reads stay off the shared setup).
    pub fn players(&self) -> usize {
        usize::from(self.players)
    }

    /// Public seat state for the RL observation encoder: finishing positions (0 while in), the seats still
    /// in, the seats that passed since the last play, and the leader of the trick (all in the view).
    pub fn seat_state(&self) -> ([u8; 8], u8, u8, Option<Seat>) {
        (self.finish, self.active, self.passed, self.leader.map(usize::from))
    }
}
