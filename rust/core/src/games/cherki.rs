//! Cherki, the CARDAVIA version (rules: `docs/rules/cherki.md`): draw and discard until a called
//! hand of two triples and a pair completes its third triple.
//!
//! # Cards
//! 120 cards, ids `0..120`: `face = id / 4`, four interchangeable copies per face (`id % 4`).
//! Faces `0..9` are Coins 1–9, `9..18` Strings 1–9, `18..27` Myriads 1–9, then `27` White Flower,
//! `28` Red Flower, `29` Old Thousand. Names: `coins-7`, `strings-9`, `myriads-1`, `white-flower`,
//! `red-flower`, `old-thousand` ([`card_name`]). Strings 9, Red Flower and Old Thousand carry the red
//! stamp ([`red_stamp`], display only).
//!
//! A card's **kind** ([`card_kind`]) is its rank for number cards (kinds `0..9` = ranks 1–9, any suit)
//! and the honour itself for honours (kinds 9, 10, 11); in JSON a kind is a string: `"1"`…`"9"`,
//! `"white-flower"`, `"red-flower"`, `"old-thousand"` ([`kind_name`]).
//!
//! # Moves and their order
//! `{"type":"draw_stock"}`, `{"type":"take_discard"}`, `{"type":"discard","card":id}` (optionally with
//! `"call":true`) and `{"type":"call"}`. The legal moves are listed in this order:
//! - before drawing: `draw_stock`, then `take_discard` when allowed, then `call` when the hand is ready
//!   and not yet called;
//! - after drawing, not called: one `discard` per card id in hand in increasing id order (never the card
//!   just taken from the discard pile), then one `discard` with `"call":true` per such card whose
//!   removal leaves a ready hand, again by increasing id;
//! - after drawing, called: the single `discard` of the card just drawn.
//!
//! # Choices where the rules leave room
//! - The no-stalling rule (3.7, decision 11: no taking the discard two turns running) binds players who
//!   have not called. A called player may take only a discard of the pair kind, which wins and ends the
//!   deal, so it cannot stall: such a take stays legal even right after a take (3.8).
//! - Winning is automatic: a called player who draws or takes a card of the locked pair kind wins at once
//!   and the deal ends without a discard.
//! - With `deals` > 1 the next deal is dealt as soon as one ends (shuffled from the game's own RNG); the
//!   finished deal stays visible as `last_deal`.
//! - Outcome: if every cumulative score is 0 (a single drawn deal, or only drawn deals) the game is a
//!   `draw`; otherwise a `settlement` whose winners are the seats sharing the top cumulative score
//!   (which is then above 0, since settlements sum to zero).

use crate::error::GameError;
use crate::game::{Fields, Game, GameInfo, OptionKind, OptionSpec, Outcome, OutcomeKind, Search, Seat, SeatSet, Setup};
use crate::rng::Rng;
use discard_log::{DiscardEntry, DiscardLog};
use serde_json::{json, Value};

mod counting;
mod discard_log;
mod wire;

/// Cards in the deck.
pub const DECK_SIZE: usize = 120;
/// Kinds: nine ranks and three honours.
pub const KINDS: usize = 12;
/// Cards in a hand between turns.
pub const HAND_SIZE: usize = 8;

const MAX_PLAYERS: usize = 6;
const NONE: u8 = u8::MAX;
const ALL_CARDS: u128 = (1u128 << DECK_SIZE) - 1;

const FACE_NAMES: [&str; 30] = [
    "coins-1",
    "coins-2",
    "coins-3",
    "coins-4",
    "coins-5",
    "coins-6",
    "coins-7",
    "coins-8",
    "coins-9",
    "strings-1",
    "strings-2",
    "strings-3",
    "strings-4",
    "strings-5",
    "strings-6",
    "strings-7",
    "strings-8",
    "strings-9",
    "myriads-1",
    "myriads-2",
    "myriads-3",
    "myriads-4",
    "myriads-5",
    "myriads-6",
    "myriads-7",
    "myriads-8",
    "myriads-9",
    "white-flower",
    "red-flower",
    "old-thousand",
];

const KIND_NAMES: [&str; KINDS] =
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", "white-flower", "red-flower", "old-thousand"];

const fn face_kind(face: usize) -> usize {
    if face < 27 {
        face % 9
    } else {
        face - 18
    }
}

const fn build_kind_masks() -> [u128; KINDS] {
    let mut masks = [0u128; KINDS];
    let mut id = 0;
    while id < DECK_SIZE {
        masks[face_kind(id / 4)] |= 1u128 << id;
        id += 1;
    }
    masks
}

/// Bit masks of the cards of each kind.
const KIND_MASKS: [u128; KINDS] = build_kind_masks();

/// The name of card `card` (`coins-7`, `red-flower`), or `None` past the deck.
pub fn card_name(card: u8) -> Option<&'static str> {
    FACE_NAMES.get(card as usize / 4).copied()
}

/// A card as people read it (`7 Coins`, `9 Strings`, `Red Flower`), for refusal reasons; the JSON keeps
/// [`card_name`].
pub fn card_words(card: u8) -> String {
    let face = card as usize / 4;
    match face {
        0..=26 => format!("{} {}", face % 9 + 1, ["Coins", "Strings", "Myriads"][face / 9]),
        27..=29 => KIND_WORDS[face_kind(face)].to_string(),
        _ => format!("card {card}"),
    }
}

/// Kinds as people read them: the ranks, then the honours' names.
const KIND_WORDS: [&str; KINDS] =
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", "White Flower", "Red Flower", "Old Thousand"];

/// The kind of a card: `0..9` for ranks 1–9, 9 White Flower, 10 Red Flower, 11 Old Thousand.
pub fn card_kind(card: u8) -> usize {
    face_kind(card as usize / 4)
}

/// A kind's JSON name: `"1"`…`"9"`, `"white-flower"`, `"red-flower"`, `"old-thousand"`.
pub fn kind_name(kind: usize) -> &'static str {
    KIND_NAMES.get(kind).copied().unwrap_or("none")
}

/// Points of a card: a number card scores its rank, an honour 1.
pub fn card_points(card: u8) -> u32 {
    let kind = card_kind(card);
    if kind < 9 {
        kind as u32 + 1
    } else {
        1
    }
}

/// Whether the card carries the red stamp (Strings 9, Red Flower, Old Thousand); display only.
pub fn red_stamp(card: u8) -> bool {
    matches!(card / 4, 17 | 28 | 29)
}

/// The card as a self-describing JSON object (for clients and help screens), or null past the deck.
pub fn card_json(card: u8) -> Value {
    let Some(name) = card_name(card) else { return Value::Null };
    let face = card as usize / 4;
    let (suit, rank) = if face < 27 {
        (["coins", "strings", "myriads"][face / 9], json!(face % 9 + 1))
    } else {
        ("honour", Value::Null)
    };
    json!({"id": card, "name": name, "suit": suit, "rank": rank, "kind": kind_name(card_kind(card)),
           "points": card_points(card), "red_stamp": red_stamp(card)})
}

fn kind_counts(hand: u128) -> [u8; KINDS] {
    let mut counts = [0u8; KINDS];
    for (count, mask) in counts.iter_mut().zip(KIND_MASKS.iter()) {
        *count = (hand & mask).count_ones() as u8;
    }
    counts
}

/// The pair kind of an 8-card count vector that splits into two triples and a pair, else `None`.
/// Every kind's count must be 2, 3, 5, 6 or 8 and exactly one of them 2, 5 or 8: that is precisely the
/// patterns {3,3,2}, {5,3}, {6,2} and {8}, and that one kind is the (unique) pair kind.
fn ready_kind(counts: &[u8; KINDS]) -> Option<usize> {
    if counts.iter().map(|&c| c as usize).sum::<usize>() != HAND_SIZE {
        return None;
    }
    let mut pair = None;
    for (kind, &count) in counts.iter().enumerate() {
        match count {
            0 | 3 | 6 => {}
            2 | 5 | 8 => {
                if pair.is_some() {
                    return None;
                }
                pair = Some(kind);
            }
            _ => return None,
        }
    }
    pair
}

/// The pair kind of `cards` when they form a ready hand (8 cards: two triples and a pair), else `None`.
/// Unknown ids or repeated ids are never ready.
pub fn ready_pair_kind(cards: &[u8]) -> Option<usize> {
    let mut hand = 0u128;
    for &card in cards {
        if card as usize >= DECK_SIZE || hand & (1u128 << card) != 0 {
            return None;
        }
        hand |= 1u128 << card;
    }
    ready_kind(&kind_counts(hand))
}

/// The binomial coefficient `n` choose `k` (small arguments: at most 12 and 8 here).
fn choose(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

fn bits(mut set: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let card = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(card)
        }
    })
}

fn bit(card: u8) -> u128 {
    1u128 << card
}

fn hand_list(hand: u128) -> Vec<u8> {
    bits(hand).collect()
}

/// A `CorruptState` for a view that cannot come from this game.
/// Removes and returns a uniformly chosen card of any kind but `kind` from cards sorted by kind (the card a
/// called seat just drew without winning), or `None` when there is none.
fn take_card_not_of_kind(by_kind: &mut [Vec<u8>; KINDS], kind: usize, rng: &mut Rng) -> Option<u8> {
    let others: usize = (0..KINDS).filter(|&k| k != kind).map(|k| by_kind[k].len()).sum();
    if others == 0 {
        return None;
    }
    let mut pick = rng.index(others);
    let chosen = (0..KINDS).filter(|&k| k != kind).find(|&k| {
        if pick < by_kind[k].len() {
            true
        } else {
            pick -= by_kind[k].len();
            false
        }
    })?;
    Some(by_kind[chosen].swap_remove(pick))
}

fn bad_view(reason: impl std::fmt::Display) -> GameError {
    GameError::CorruptState(format!("not a Cherki view: {reason}"))
}

/// The object at `value`, whose keys must be exactly `keys`.
fn view_object<'a>(
    value: &'a Value,
    what: &str,
    keys: &[&str],
) -> Result<&'a serde_json::Map<String, Value>, GameError> {
    let map = value.as_object().ok_or_else(|| bad_view(format!("{what} must be an object")))?;
    if map.len() != keys.len() || !keys.iter().all(|k| map.contains_key(*k)) {
        let mut found: Vec<&str> = map.keys().map(String::as_str).collect();
        found.sort_unstable();
        return Err(bad_view(format!("{what} has keys {found:?}, expected {keys:?}")));
    }
    Ok(map)
}

fn view_uint(map: &serde_json::Map<String, Value>, key: &str, max: u64) -> Result<u8, GameError> {
    match map.get(key).and_then(Value::as_u64) {
        Some(n) if n <= max => Ok(n as u8),
        _ => Err(bad_view(format!("{key:?} must be an integer 0–{max}"))),
    }
}

fn view_opt_uint(map: &serde_json::Map<String, Value>, key: &str, max: u64) -> Result<u8, GameError> {
    if map.get(key).is_some_and(Value::is_null) {
        Ok(NONE)
    } else {
        view_uint(map, key, max)
    }
}

fn view_bool(map: &serde_json::Map<String, Value>, key: &str) -> Result<bool, GameError> {
    map.get(key).and_then(Value::as_bool).ok_or_else(|| bad_view(format!("{key:?} must be a boolean")))
}

/// A list of distinct card ids.
fn view_cards(value: &Value, what: &str) -> Result<u128, GameError> {
    let list = value.as_array().ok_or_else(|| bad_view(format!("{what} must be a list of card ids")))?;
    let mut cards = 0u128;
    for item in list {
        match item.as_u64() {
            Some(card) if (card as usize) < DECK_SIZE && cards & bit(card as u8) == 0 => cards |= bit(card as u8),
            _ => return Err(bad_view(format!("{what} holds {item}, not a new card id"))),
        }
    }
    Ok(cards)
}

/// A kind name, or `NONE` for null.
fn view_kind(value: &Value, what: &str) -> Result<u8, GameError> {
    if value.is_null() {
        return Ok(NONE);
    }
    value
        .as_str()
        .and_then(|name| KIND_NAMES.iter().position(|k| *k == name))
        .map(|k| k as u8)
        .ok_or_else(|| bad_view(format!("{what} must be a kind name or null")))
}

/// A hidden called hand to invent: its seat, the kinds it is known to hold, and whether it also holds a
/// drawn card (which cannot be of its pair kind, or it would have won).
struct CalledSeat {
    seat: usize,
    known: [u8; KINDS],
    drawn: bool,
}

/// Chooses for each called seat from `index` on a ready shape (kind counts and pair kind) that holds its
/// known cards and fits the cards `avail` per kind, trying shapes in random order and backtracking; the
/// seat holding a drawn card comes last, so a card outside its pair kind is checked to remain. `budget`
/// bounds the search.
fn choose_shapes(
    seats: &[CalledSeat],
    index: usize,
    avail: &mut [u8; KINDS],
    rng: &mut Rng,
    budget: &mut u32,
    out: &mut Vec<([u8; KINDS], usize)>,
) -> bool {
    let Some(called) = seats.get(index) else { return true };
    let mut shapes = Vec::new();
    for a in 0..KINDS {
        for b in a..KINDS {
            for p in 0..KINDS {
                let mut need = [0u8; KINDS];
                need[a] += 3;
                need[b] += 3;
                need[p] += 2;
                if (0..KINDS).all(|k| need[k] >= called.known[k] && need[k] - called.known[k] <= avail[k]) {
                    shapes.push((need, p));
                }
            }
        }
    }
    rng.shuffle(&mut shapes);
    for (need, p) in shapes {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        for k in 0..KINDS {
            avail[k] -= need[k] - called.known[k];
        }
        let drawn_ok = !called.drawn || (0..KINDS).any(|k| k != p && avail[k] > 0);
        if drawn_ok {
            out.push((need, p));
            if choose_shapes(seats, index + 1, avail, rng, budget, out) {
                return true;
            }
            out.pop();
        }
        for k in 0..KINDS {
            avail[k] += need[k] - called.known[k];
        }
    }
    false
}

/// A move of Cherki.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CherkiMove {
    /// Take the top card of the stock.
    DrawStock,
    /// Take the card the previous player just discarded.
    TakeDiscard,
    /// Discard a card, calling Cherki with it when `call` is set.
    Discard { card: u8, call: bool },
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
    fn name(self) -> &'static str {
        match self {
            Phase::Start => "start",
            Phase::Drawn => "drawn",
            Phase::Over => "over",
        }
    }
}

/// How a finished deal ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DealResult {
    deal: u8,
    dealer: u8,
    /// The winner, or `NONE` for a drawn deal.
    winner: u8,
    hand: [u8; 9],
    pair_kind: u8,
    total: u32,
    by_take: bool,
}

impl DealResult {
    fn payments(&self, players: usize) -> Vec<i64> {
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
enum Event {
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
    setup: Setup,
    rng: Rng,
    players: usize,
    deals: u8,
    deal: u8,
    dealer: u8,
    scores: [i64; MAX_PLAYERS],
    hands: [u128; MAX_PLAYERS],
    /// Cards publicly known to be in a hand: taken from the discard pile and not discarded since.
    known: [u128; MAX_PLAYERS],
    called: [bool; MAX_PLAYERS],
    pair_kind: [u8; MAX_PLAYERS],
    took_last: [bool; MAX_PLAYERS],
    /// The stock; its top is the last card.
    stock: [u8; DECK_SIZE],
    stock_len: u8,
    discards: DiscardLog,
    /// Whether the last discard may still be taken (it is the previous player's and nobody took it).
    top_available: bool,
    turn: u8,
    phase: Phase,
    /// The card drawn or taken this turn, `NONE` before drawing.
    drawn: u8,
    drawn_taken: bool,
    results: Vec<DealResult>,
    events: Vec<Event>,
}

impl Cherki {
    fn next_seat(&self, seat: usize) -> usize {
        (seat + 1) % self.players
    }

    /// Shuffles the whole deck from the game's RNG and deals 8 cards each, two at a time, from the
    /// dealer's left, four rounds; the dealer's left starts.
    fn deal_cards(&mut self) {
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

    /// Whether `seat` (to act, before drawing) may take the top discard.
    fn can_take(&self, seat: usize) -> bool {
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

    fn hand_ready_kind(&self, seat: usize) -> Option<usize> {
        if self.hands[seat].count_ones() as usize != HAND_SIZE {
            return None;
        }
        ready_kind(&kind_counts(self.hands[seat]))
    }

    /// The cards `seat` may discard now (all but a card just taken from the discard pile).
    fn discardable(&self, seat: usize) -> u128 {
        let mut cards = self.hands[seat];
        if self.drawn_taken && self.drawn != NONE {
            cards &= !bit(self.drawn);
        }
        cards
    }

    /// The discardable cards whose discard leaves a ready hand (for a discard with the call).
    fn callable_discards(&self, seat: usize) -> u128 {
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

    fn acting(&self, seat: usize) -> bool {
        self.phase != Phase::Over && seat == self.turn as usize
    }

    /// Ends the deal: records the result, then deals the next one or ends the game.
    fn finish_deal(&mut self, result: DealResult) {
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

    fn win(&mut self, seat: usize, by_take: bool) {
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
    fn after_draw(&mut self, seat: usize, card: u8, by_take: bool) {
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

    /// Fills the hidden hands and the stock from `pool` for a determinization; `None` when a called
    /// hand could not be completed (the caller retries).
    fn redeal_hidden(&mut self, observer: Option<Seat>, pool: u128, rng: &mut Rng) -> Option<()> {
        let mut by_kind: [Vec<u8>; KINDS] = Default::default();
        for card in bits(pool) {
            by_kind[card_kind(card)].push(card);
        }
        for cards in by_kind.iter_mut() {
            rng.shuffle(cards);
        }
        for seat in 0..self.players {
            if Some(seat) == observer || !self.called[seat] {
                continue;
            }
            let known = self.known[seat];
            let known_counts = kind_counts(known);
            let avail: Vec<usize> = by_kind.iter().map(Vec::len).collect();
            let need_of = |a: usize, b: usize, p: usize| {
                let mut need = [0u8; KINDS];
                need[a] += 3;
                need[b] += 3;
                need[p] += 2;
                need
            };
            let fits = |need: &[u8; KINDS]| {
                (0..KINDS).all(|k| need[k] >= known_counts[k] && (need[k] - known_counts[k]) as usize <= avail[k])
            };
            // A shape is as likely as the number of ways to deal its missing cards from the pool, so a
            // triple of a rank (twelve copies) is far likelier than one of an honour (four).
            let ways = |need: &[u8; KINDS]| -> u64 {
                (0..KINDS).map(|k| choose(avail[k], (need[k] - known_counts[k]) as usize)).product()
            };
            let mut total = 0u64;
            for a in 0..KINDS {
                for b in a..KINDS {
                    for p in 0..KINDS {
                        let need = need_of(a, b, p);
                        if fits(&need) {
                            total += ways(&need);
                        }
                    }
                }
            }
            if total == 0 {
                return None;
            }
            let mut pick = rng.below(total);
            let mut chosen = None;
            'search: for a in 0..KINDS {
                for b in a..KINDS {
                    for p in 0..KINDS {
                        let need = need_of(a, b, p);
                        if fits(&need) {
                            let w = ways(&need);
                            if pick < w {
                                chosen = Some((need, p));
                                break 'search;
                            }
                            pick -= w;
                        }
                    }
                }
            }
            let (need, p) = chosen?;
            let mut hand = known;
            for kind in 0..KINDS {
                for _ in known_counts[kind]..need[kind] {
                    hand |= bit(by_kind[kind].pop()?);
                }
            }
            self.pair_kind[seat] = p as u8;
            if self.phase == Phase::Drawn && self.turn as usize == seat {
                let card = take_card_not_of_kind(&mut by_kind, p, rng)?;
                hand |= bit(card);
                self.drawn = card;
            }
            self.hands[seat] = hand;
        }
        let mut rest: Vec<u8> = by_kind.iter().flatten().copied().collect();
        rng.shuffle(&mut rest);
        if !self.deal_uncalled(observer, &mut rest) || rest.len() != self.stock_len as usize {
            return None;
        }
        self.stock[..rest.len()].copy_from_slice(&rest);
        Some(())
    }

    /// Refills every uncalled hand but the observer's to its size from its known cards plus cards popped
    /// off `rest`; a seat holding a drawn card nobody saw gets the last card dealt to it as that card.
    /// False when `rest` ran out before every hand was full.
    fn deal_uncalled(&mut self, observer: Option<Seat>, rest: &mut Vec<u8>) -> bool {
        let mut complete = true;
        for seat in 0..self.players {
            if Some(seat) == observer || self.called[seat] {
                continue;
            }
            let size = self.hands[seat].count_ones() as usize;
            let mut hand = self.known[seat];
            let mut fresh = NONE;
            while (hand.count_ones() as usize) < size {
                let Some(card) = rest.pop() else {
                    complete = false;
                    break;
                };
                hand |= bit(card);
                fresh = card;
            }
            if self.phase == Phase::Drawn && self.turn as usize == seat && !self.drawn_taken {
                self.drawn = fresh;
            }
            self.hands[seat] = hand;
        }
        complete
    }

    /// Deals the cards of `pool` to the `hidden` seats (sizes from the view; each keeps its known cards)
    /// and to the stock, for [`Game::from_view`]: called seats get ready hands (see [`choose_shapes`]),
    /// a seat mid-turn gets a drawn card. Refused when no deal fits.
    fn deal_view_hidden(
        &mut self,
        hidden: &[bool; MAX_PLAYERS],
        sizes: &[usize; MAX_PLAYERS],
        pool: u128,
        rng: &mut Rng,
    ) -> Result<(), GameError> {
        let mid_turn = |s: usize| self.phase == Phase::Drawn && self.turn as usize == s && !self.drawn_taken;
        let mut slots = self.stock_len as usize;
        let mut called = Vec::new();
        for s in (0..self.players).filter(|&s| hidden[s]) {
            let known = self.known[s].count_ones() as usize;
            if known > sizes[s] || (mid_turn(s) && known == sizes[s]) {
                return Err(bad_view(format!("seat {s} holds more cards taken from the pile than its hand size")));
            }
            slots += sizes[s] - known;
            if self.called[s] {
                let size = HAND_SIZE + usize::from(self.phase == Phase::Drawn && self.turn as usize == s);
                if sizes[s] != size || (self.phase == Phase::Drawn && self.turn as usize == s && self.drawn_taken) {
                    return Err(bad_view(format!("seat {s} called but holds {} cards", sizes[s])));
                }
                called.push(CalledSeat { seat: s, known: kind_counts(self.known[s]), drawn: mid_turn(s) });
            }
        }
        if slots != pool.count_ones() as usize {
            return Err(bad_view("the hand sizes and the stock do not account for every card"));
        }
        // The seat with a drawn card goes last, where the search checks that a card for it remains.
        called.sort_by_key(|c| c.drawn);
        let mut by_kind: [Vec<u8>; KINDS] = Default::default();
        for card in bits(pool) {
            by_kind[card_kind(card)].push(card);
        }
        let mut avail = [0u8; KINDS];
        for (count, cards) in avail.iter_mut().zip(by_kind.iter_mut()) {
            rng.shuffle(cards);
            *count = cards.len() as u8;
        }
        let mut shapes = Vec::with_capacity(called.len());
        if !choose_shapes(&called, 0, &mut avail, rng, &mut 100_000, &mut shapes) {
            return Err(bad_view("no ready hands fit the called seats"));
        }
        for (c, &(need, p)) in called.iter().zip(&shapes) {
            let mut hand = self.known[c.seat];
            for kind in 0..KINDS {
                for _ in c.known[kind]..need[kind] {
                    hand |= bit(by_kind[kind].pop().ok_or_else(|| bad_view("a called hand ran short"))?);
                }
            }
            if c.drawn {
                self.drawn = take_card_not_of_kind(&mut by_kind, p, rng)
                    .ok_or_else(|| bad_view("no card left to be the drawn one"))?;
                hand |= bit(self.drawn);
            }
            self.hands[c.seat] = hand;
            self.pair_kind[c.seat] = p as u8;
        }
        let mut rest: Vec<u8> = by_kind.iter().flatten().copied().collect();
        rng.shuffle(&mut rest);
        for s in (0..self.players).filter(|&s| hidden[s] && !self.called[s]) {
            let mut hand = self.known[s];
            while (hand.count_ones() as usize) < sizes[s] {
                let card = rest.pop().ok_or_else(|| bad_view("the hands ran short"))?;
                hand |= bit(card);
                if mid_turn(s) {
                    self.drawn = card;
                }
            }
            self.hands[s] = hand;
        }
        self.stock[..rest.len()].copy_from_slice(&rest);
        Ok(())
    }

    /// How good a hand is to keep building: triples count most, pairs next, singles nothing.
    fn shape_score(counts: &[u8; KINDS]) -> u32 {
        counts.iter().map(|&c| (c as u32 / 3) * 4 + if c % 3 == 2 { 2 } else { 0 }).sum()
    }
}

impl Game for Cherki {
    type Move = CherkiMove;

    fn info() -> GameInfo {
        GameInfo {
            name: "cherki",
            title: "Cherki",
            min_players: 2,
            max_players: MAX_PLAYERS,
            default_players: 3,
            options: vec![OptionSpec {
                name: "deals",
                kind: OptionKind::Int { min: 1, max: 20 },
                default: json!(1),
                doc: "Deals to play; scores add up over the deals and the dealer moves one seat clockwise.",
                house_rules: false,
            }],
            house_rules_players: Vec::new(),
            summary: "Malaysian money cards: draw from the stock or take the last discard, discard back to \
                      eight, call Cherki with two triples and a pair, then win by drawing or taking the card \
                      that completes the third triple. Each opponent pays the winner the hand's points.",
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
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

    fn setup(&self) -> &Setup {
        &self.setup
    }

    fn to_act(&self) -> SeatSet {
        if self.phase == Phase::Over {
            SeatSet::EMPTY
        } else {
            SeatSet::single(self.turn as usize)
        }
    }

    /// Without building the outcome (the RL step asks after every move).
    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores = self.scores[..self.players].to_vec();
        let top = scores.iter().copied().max().unwrap_or(0);
        let mut order: Vec<Seat> = (0..self.players).collect();
        order.sort_by_key(|&s| std::cmp::Reverse(scores[s]));
        let (kind, winners) = if scores.iter().all(|&s| s == 0) {
            (OutcomeKind::Draw, Vec::new())
        } else {
            (OutcomeKind::Settlement, (0..self.players).filter(|&s| scores[s] == top).collect())
        };
        let results: Vec<Value> = self.results.iter().map(|r| r.written(self.players)).collect();
        Some(Outcome { kind, winners, scores, order, detail: json!({"deals": results}) })
    }

    fn legal_count(&self, seat: Seat) -> usize {
        if !self.acting(seat) {
            return 0;
        }
        match self.phase {
            Phase::Start => {
                let take = self.can_take(seat) as usize;
                let call = (!self.called[seat] && self.hand_ready_kind(seat).is_some()) as usize;
                1 + take + call
            }
            Phase::Drawn if self.called[seat] => 1,
            Phase::Drawn => {
                self.discardable(seat).count_ones() as usize + self.callable_discards(seat).count_ones() as usize
            }
            Phase::Over => 0,
        }
    }

    fn legal_move(&self, seat: Seat, index: usize) -> Option<CherkiMove> {
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

    fn index_of(&self, seat: Seat, mv: &CherkiMove) -> Option<usize> {
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

    fn explain(&self, seat: Seat, mv: &CherkiMove) -> GameError {
        if seat >= self.players {
            return GameError::illegal("no_such_seat", format!("seat {seat} does not exist"));
        }
        if self.phase == Phase::Over {
            return GameError::illegal("game_over", "the game is over");
        }
        if seat != self.turn as usize {
            return GameError::illegal("not_your_turn", format!("it is seat {}'s turn", self.turn));
        }
        let pair = KIND_WORDS.get(self.pair_kind[seat] as usize).copied().unwrap_or("none");
        match (self.phase, *mv) {
            (Phase::Drawn, CherkiMove::DrawStock | CherkiMove::TakeDiscard) => {
                GameError::illegal("already_drawn", "you have already drawn this turn; discard a card")
            }
            (Phase::Drawn, CherkiMove::Call) => GameError::illegal(
                "call_with_discard",
                "after drawing you call Cherki as you discard (discard a card and call), not as a move of its own",
            ),
            (Phase::Start, CherkiMove::Discard { .. }) => {
                GameError::illegal("draw_first", "draw from the stock or take the discard before discarding")
            }
            (Phase::Start, CherkiMove::TakeDiscard) => {
                if !self.top_available {
                    GameError::illegal("no_discard", "there is no discard to take: draw from the stock")
                } else if self.took_last[seat] && !self.called[seat] {
                    GameError::illegal(
                        "took_last_turn",
                        "you took the discard on your previous turn, so this turn you must draw from the stock",
                    )
                } else {
                    let top = self.discards.last().map_or(0, |d| d.card);
                    GameError::illegal(
                        "not_pair_kind",
                        format!(
                            "you have called; you may take only a card of your pair kind ({pair}), and the discard is {}",
                            card_words(top)
                        ),
                    )
                }
            }
            (Phase::Start, CherkiMove::Call) => {
                if self.called[seat] {
                    GameError::illegal("already_called", "you have already called Cherki this deal")
                } else {
                    GameError::illegal("not_ready", "your eight cards are not two triples and a pair")
                }
            }
            (Phase::Drawn, CherkiMove::Discard { card, call }) => {
                let name = card_words(card);
                if self.called[seat] {
                    if call {
                        GameError::illegal("already_called", "you have already called Cherki this deal")
                    } else {
                        GameError::illegal(
                            "must_discard_drawn",
                            format!(
                                "your hand is locked: you must discard the card you drew ({})",
                                card_words(self.drawn)
                            ),
                        )
                    }
                } else if card as usize >= DECK_SIZE || self.hands[seat] & bit(card) == 0 {
                    GameError::illegal("not_in_hand", format!("card {card} ({name}) is not in your hand"))
                } else if self.drawn_taken && card == self.drawn {
                    GameError::illegal(
                        "just_taken",
                        format!("you cannot discard {name}: you took it from the discard pile this turn"),
                    )
                } else {
                    GameError::illegal(
                        "not_ready",
                        format!("without {name} your eight cards are not two triples and a pair, so you cannot call"),
                    )
                }
            }
            _ => GameError::illegal("not_legal", "that move is not legal now"),
        }
    }

    fn apply_legal(&mut self, seat: Seat, mv: &CherkiMove) {
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

    fn write_move(&self, mv: &CherkiMove, out: &mut String) {
        wire::write_move(out, mv);
    }

    fn move_from_json(&self, _seat: Seat, value: &Value) -> Result<CherkiMove, GameError> {
        let kind = Fields::new(value, &["type", "card", "call"])?.kind()?;
        match kind {
            "draw_stock" | "take_discard" | "call" => {
                Fields::new(value, &["type"])?;
                Ok(match kind {
                    "draw_stock" => CherkiMove::DrawStock,
                    "take_discard" => CherkiMove::TakeDiscard,
                    _ => CherkiMove::Call,
                })
            }
            "discard" => {
                let fields = Fields::new(value, &["type", "card", "call"])?;
                let card = fields.uint("card")?;
                if card as usize >= DECK_SIZE {
                    return Err(GameError::invalid(format!("no card {card}: ids run 0–119")));
                }
                Ok(CherkiMove::Discard { card: card as u8, call: fields.opt_bool("call")? })
            }
            other => Err(GameError::invalid(format!(
                "unknown move type {other:?} (draw_stock, take_discard, discard, call)"
            ))),
        }
    }

    fn write_public_view(&self, out: &mut String) {
        self.write_public(out);
    }

    fn write_private_view(&self, seat: Option<Seat>, out: &mut String) {
        self.write_private(seat, out);
    }

    fn write_events(&self, seat: Option<Seat>, out: &mut String) {
        crate::json::write_array(out, &self.events, |out, event| self.write_event(event, seat, out));
    }

    fn determinize(&self, observer: Option<Seat>, rng: &mut Rng) -> Self {
        let mut fixed = 0u128;
        for seat in 0..self.players {
            fixed |= if Some(seat) == observer { self.hands[seat] } else { self.known[seat] };
        }
        for d in self.discards.entries() {
            if d.taken_by == NONE {
                fixed |= bit(d.card);
            }
        }
        let pool = ALL_CARDS & !fixed;
        for _ in 0..8 {
            let mut game = self.clone();
            if game.redeal_hidden(observer, pool, rng).is_some() {
                game.rng = rng.fork();
                return game;
            }
        }
        // Called hands so tangled that random completion keeps failing: keep every called hand as it
        // is and re-deal only the others, which always succeeds.
        let mut game = self.clone();
        let mut kept = pool;
        for seat in 0..self.players {
            if Some(seat) != observer && self.called[seat] {
                kept &= !self.hands[seat];
            }
        }
        let mut rest: Vec<u8> = bits(kept).collect();
        rng.shuffle(&mut rest);
        // `kept` holds exactly the cards the uncalled hands lack plus the stock, so no hand comes up short.
        game.deal_uncalled(observer, &mut rest);
        let n = rest.len().min(DECK_SIZE);
        game.stock[..n].copy_from_slice(&rest[..n]);
        game.rng = rng.fork();
        game
    }

    /// Parses the view back (strictly: exactly the keys `view` writes), derives the cards publicly known
    /// to be in each hand from the discard history (a card whose latest discard was taken by a seat), then
    /// deals the rest: a random ready hand with an invented pair kind for each hidden called seat (a
    /// backtracking search, so tangled called hands still fit), a drawn card outside that pair kind when
    /// such a seat is mid-turn, the uncalled hands and the stock from what is left, and the RNG from
    /// `rng`. After a win that ended the game the winner's nine cards are the revealed ones. Only the last
    /// deal's result is in a view, so the built state's outcome detail lists that deal alone (the scores
    /// are exact). The result is re-rendered and must reproduce `view`, so any inconsistency is refused.
    fn from_view(setup: &Setup, seat: Option<Seat>, view: &Value, rng: &mut Rng) -> Result<Self, GameError> {
        let mut game = Cherki::new(setup)?;
        let players = game.players;
        if seat.is_some_and(|s| s >= players) {
            return Err(bad_view(format!("seat {seat:?} does not exist with {players} players")));
        }
        let top = view_object(view, "the view", &["public", "private"])?;
        let public = view_object(
            &top["public"],
            "public",
            &[
                "deal",
                "deals",
                "dealer",
                "scores",
                "stock",
                "top_discard",
                "discards",
                "players",
                "turn",
                "phase",
                "last_deal",
            ],
        )?;
        if view_uint(public, "deals", 20)? != game.deals {
            return Err(bad_view("\"deals\" differs from the setup's option"));
        }
        game.deal = view_uint(public, "deal", game.deals as u64)?;
        if game.deal == 0 {
            return Err(bad_view("\"deal\" starts at 1"));
        }
        game.dealer = view_uint(public, "dealer", players as u64 - 1)?;
        game.stock_len = view_uint(public, "stock", DECK_SIZE as u64)?;
        game.phase = match public["phase"].as_str() {
            Some("start") => Phase::Start,
            Some("drawn") => Phase::Drawn,
            Some("over") => Phase::Over,
            _ => return Err(bad_view("\"phase\" must be start, drawn or over")),
        };
        game.turn = view_opt_uint(public, "turn", players as u64 - 1)?;
        if (game.turn == NONE) != (game.phase == Phase::Over) {
            return Err(bad_view("\"turn\" is null exactly when the game is over"));
        }
        let scores = public["scores"].as_array().filter(|s| s.len() == players);
        let scores = scores.ok_or_else(|| bad_view(format!("\"scores\" must list {players} integers")))?;
        for (slot, score) in game.scores.iter_mut().zip(scores) {
            *slot = score.as_i64().ok_or_else(|| bad_view("\"scores\" must list integers"))?;
        }
        let seats = public["players"].as_array().filter(|p| p.len() == players);
        let seats = seats.ok_or_else(|| bad_view(format!("\"players\" must list {players} seats")))?;
        let mut sizes = [0usize; MAX_PLAYERS];
        for (s, entry) in seats.iter().enumerate() {
            let entry = view_object(entry, "a player", &["hand_size", "called", "took_last"])?;
            sizes[s] = view_uint(entry, "hand_size", HAND_SIZE as u64 + 1)? as usize;
            game.called[s] = view_bool(entry, "called")?;
            game.took_last[s] = view_bool(entry, "took_last")?;
        }
        // The discard history; each card's latest entry tells where it is now (pile or a taker's hand).
        let history = public["discards"].as_array().ok_or_else(|| bad_view("\"discards\" must be a list"))?;
        game.discards.clear();
        let mut pile = 0u128;
        game.known = [0; MAX_PLAYERS];
        for entry in history {
            let entry = view_object(entry, "a discard", &["card", "seat", "taken_by"])?;
            let card = view_uint(entry, "card", DECK_SIZE as u64 - 1)?;
            let by = view_uint(entry, "seat", players as u64 - 1)?;
            let taken_by = view_opt_uint(entry, "taken_by", players as u64 - 1)?;
            if pile & bit(card) != 0 {
                return Err(bad_view(format!("card {card} is discarded again while still in the pile")));
            }
            for known in game.known.iter_mut() {
                *known &= !bit(card);
            }
            if taken_by == NONE {
                pile |= bit(card);
            } else {
                game.known[taken_by as usize] |= bit(card);
            }
            game.discards.push(DiscardEntry { card, seat: by, taken_by });
        }
        game.top_available = !public["top_discard"].is_null();
        let last = &public["last_deal"];
        game.results.clear();
        if !last.is_null() {
            let result = view_object(
                last,
                "last_deal",
                &["deal", "dealer", "result", "winner", "hand", "pair_kind", "total", "by", "payments"],
            )?;
            let winner = view_opt_uint(result, "winner", players as u64 - 1)?;
            let revealed = view_cards(&result["hand"], "last_deal.hand")?;
            let mut hand = [0u8; 9];
            if winner != NONE {
                if revealed.count_ones() != 9 {
                    return Err(bad_view("a winning hand has nine cards"));
                }
                for (slot, card) in hand.iter_mut().zip(bits(revealed)) {
                    *slot = card;
                }
            }
            let total = result["total"].as_u64().filter(|&t| t <= 9 * 9);
            game.results.push(DealResult {
                deal: view_uint(result, "deal", game.deals as u64)?,
                dealer: view_uint(result, "dealer", players as u64 - 1)?,
                winner,
                hand,
                pair_kind: view_kind(&result["pair_kind"], "last_deal.pair_kind")?,
                total: total.ok_or_else(|| bad_view("last_deal.total must be a hand's points"))? as u32,
                by_take: result["by"] == json!("take_discard"),
            });
        }
        // Cards whose place the observer knows: its own hand, the pile, cards taken in view and, once a
        // win ended the game, the revealed winning hand.
        let mut fixed = pile;
        let mut hidden = [true; MAX_PLAYERS];
        let fix = |cards: u128, fixed: &mut u128| -> Result<(), GameError> {
            if *fixed & cards != 0 {
                return Err(bad_view("a card is in two places"));
            }
            *fixed |= cards;
            Ok(())
        };
        game.hands = [0; MAX_PLAYERS];
        if game.phase == Phase::Over {
            if let Some(r) = game.results.last().filter(|r| r.winner != NONE && r.deal == game.deal) {
                let w = r.winner as usize;
                game.hands[w] = r.hand.iter().fold(0, |h, &c| h | bit(c));
                hidden[w] = false;
            }
        }
        for s in (0..players).filter(|&s| !hidden[s]) {
            if game.known[s] & !game.hands[s] != 0 {
                return Err(bad_view(format!("seat {s} took a card its revealed hand lacks")));
            }
        }
        game.pair_kind = [NONE; MAX_PLAYERS];
        game.drawn = NONE;
        game.drawn_taken = game.phase == Phase::Drawn
            && game.discards.last().is_some_and(|d| d.taken_by == game.turn && !game.top_available);
        if game.drawn_taken {
            game.drawn = game.discards.last().map_or(NONE, |d| d.card);
        }
        match seat {
            None => {
                if !top["private"].is_null() {
                    return Err(bad_view("a spectator's view has private: null"));
                }
            }
            Some(s) => {
                let private = view_object(
                    &top["private"],
                    "private",
                    &["hand", "pair_kind", "ready", "ready_pair_kind", "drawn", "can_take"],
                )?;
                game.hands[s] = view_cards(&private["hand"], "private.hand")?;
                if game.known[s] & !game.hands[s] != 0 {
                    return Err(bad_view("the hand lacks a card it took from the discard pile"));
                }
                if game.called[s] {
                    game.pair_kind[s] = view_kind(&private["pair_kind"], "private.pair_kind")?;
                }
                if game.turn as usize == s && game.phase == Phase::Drawn && !game.drawn_taken {
                    game.drawn = view_opt_uint(private, "drawn", DECK_SIZE as u64 - 1)?;
                }
                hidden[s] = false;
            }
        }
        for (s, &unseen) in hidden.iter().enumerate().take(players) {
            fix(if unseen { game.known[s] } else { game.hands[s] }, &mut fixed)?;
        }
        game.deal_view_hidden(&hidden, &sizes, ALL_CARDS & !fixed, rng)?;
        game.rng = rng.fork();
        game.events.clear();
        if game.view(seat) != *view {
            return Err(bad_view("its fields contradict each other (the rebuilt state shows a different view)"));
        }
        Ok(game)
    }

    fn state_json(&self) -> Value {
        let hands: Vec<Value> = (0..self.players).map(|s| json!(hand_list(self.hands[s]))).collect();
        let known: Vec<Value> = (0..self.players).map(|s| json!(hand_list(self.known[s]))).collect();
        let pair_kinds: Vec<Value> =
            (0..self.players).map(|s| json!(self.locked_pair_kind(s).map(kind_name))).collect();
        let discards: Vec<Value> = self
            .discards
            .entries()
            .iter()
            .map(|d| json!([d.card, d.seat, if d.taken_by == NONE { -1 } else { d.taken_by as i64 }]))
            .collect();
        let results: Vec<Value> = self.results.iter().map(|r| r.written(self.players)).collect();
        json!({
            "players": self.players,
            "deals": self.deals,
            "deal": self.deal,
            "dealer": self.dealer,
            "scores": self.scores(),
            "hands": hands,
            "known": known,
            "called": &self.called[..self.players],
            "pair_kinds": pair_kinds,
            "took_last": &self.took_last[..self.players],
            "stock": self.stock(),
            "discards": discards,
            "top_available": self.top_available,
            "turn": self.turn,
            "phase": self.phase.name(),
            "drawn": if self.drawn == NONE { Value::Null } else { json!(self.drawn) },
            "drawn_taken": self.drawn_taken,
            "results": results,
            "rng": self.rng.state_hex(),
        })
    }

    /// A single deal turns on the draw, so a tree search spreads its playouts too thin: the search levels
    /// compare a few candidate moves on the same sampled deals instead.
    const SEARCH: Search = Search::Flat { playout_cost: 1 };

    /// The card-counting player's move ([`Cherki::counting_index`]).
    fn search_default_index(&self, seat: Seat, _rng: &mut Rng) -> usize {
        self.counting_index(seat)
    }

    fn search_candidates(&self, seat: Seat) -> Vec<usize> {
        self.counting_candidates(seat)
    }

    fn heuristic_index(&self, seat: Seat, _rng: &mut Rng) -> usize {
        if !self.acting(seat) {
            return 0;
        }
        match self.phase {
            Phase::Start => {
                let take = self.can_take(seat);
                if !self.called[seat] && self.hand_ready_kind(seat).is_some() {
                    return 1 + take as usize;
                }
                if take {
                    if self.called[seat] {
                        return 1;
                    }
                    let top = self.discards.last().map_or(0, |d| d.card);
                    let held = (self.hands[seat] & KIND_MASKS[card_kind(top)]).count_ones();
                    if held == 1 || held == 2 {
                        return 1;
                    }
                }
                0
            }
            Phase::Drawn if self.called[seat] => 0,
            Phase::Drawn => {
                let plain = self.discardable(seat);
                let callable = self.callable_discards(seat);
                if callable != 0 {
                    // Of the calls, keep the hand worth most: discard the cheapest card.
                    let best = bits(callable).min_by_key(|&c| card_points(c)).unwrap_or(0);
                    return plain.count_ones() as usize + (callable & (bit(best) - 1)).count_ones() as usize;
                }
                let counts = kind_counts(self.hands[seat]);
                let mut best = (0usize, 0u32, 0u32);
                for (index, card) in bits(plain).enumerate() {
                    let mut after = counts;
                    after[card_kind(card)] -= 1;
                    let key = (Self::shape_score(&after), 10 - card_points(card));
                    if index == 0 || key > (best.1, best.2) {
                        best = (index, key.0, key.1);
                    }
                }
                best.0
            }
            Phase::Over => 0,
        }
    }
}
