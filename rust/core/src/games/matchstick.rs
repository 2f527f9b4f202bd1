//! Matchstick Tycoon (rules: `docs/rules/matchstick.md`), a climbing game played with
//! seven-segment cards that can be turned and completed with matchsticks.
//!
//! # Cards and hands
//! Card ids are `type * 4 + copy` for the 16 printed types of [`CardType`] (`0 1 2 3E 4 5 69 7 8 A b C d F`
//! are ids 0..=55; the expansion's G is 56.., H is 60..). Every card fits one `u64`, so a hand is a bitmask
//! and the cards of type `t` in a hand are the nibble `(hand >> 4t) & 0xF`.
//!
//! # Setup
//! The game's RNG (seeded with the setup seed) shuffles the deck, then picks the first player; cards are
//! dealt one at a time clockwise from the first player (15 each at 2–3 players unless `deal_all`, the
//! rest set aside unseen; the whole deck at 4–8). Everyone starts with one matchstick.
//!
//! # Moves
//! - `{"type": "play", "value": "8", "cards": [ids]}`, optionally with `"rotated": [bool per card]` and/or
//!   `"add": ["segments per card", ...]` (segment letters `a`..`g`). Turning a card never changes how many
//!   segments it lights, so a play is fully defined by the value shown and the multiset of printed types:
//!   its cost is `Σ min_cost` over its cards whatever the orientations. Each such play is listed once, with
//!   the lowest ids of each type in hand; any ids of the same types rank the same and are the ones that
//!   leave the hand. Given `rotated`/`add` details are checked exactly (the turned shape plus the added
//!   segments must be the value's glyph).
//! - `{"type": "pass"}`: take a matchstick (only when following, with cards in hand).
//! - `{"type": "discard_matchstick"}`: the forced turn of a player with no card but some matchsticks.
//!
//! # Legal-move order
//! 1. `pass`, when allowed (following);
//! 2. plays by card count (1..=5 when leading, the table's count when following), then by value in the
//!    normal strength order `0 1 … F G H` (whatever the revolution), then by the multiset of printed types,
//!    written as the sorted list of type indices and compared lexicographically (so `[0,0]` < `[0,3E]` <
//!    `[1,1]`: more copies of a lower type come first).
//!
//! A forced discard is the only move when it applies. The legal set is never built: per (count, value) the
//! number of type multisets within the matchstick budget is counted by a small dynamic programme over card
//! types (sizes ≤ 5, costs ≤ 25), cached for the player to act after every move, and unranked/ranked with
//! suffix tables of the same programme.

use std::sync::Arc;

use crate::error::GameError;
use crate::game::{Fields, Game, GameInfo, OptionKind, OptionSpec, Outcome, OutcomeKind, Seat, SeatSet, Setup};
use crate::json::{bool_str, write_array, write_list, write_opt, write_string, write_u64};
use crate::rng::Rng;
use crate::segments::{self, segments_from_str, segments_to_str, write_segment_letters, CardType, Segments, Value};
use serde_json::{json, Value as Json};

const TYPES: usize = CardType::COUNT;
const VALUES: usize = Value::COUNT;
/// Most cards in one play.
const MAX_PLAY: usize = 5;
/// Most matchsticks one play can need: five 1s shown as 8s.
const MAX_COST: usize = 25;
const LANES: usize = MAX_COST + 1;
const NO_COST: u8 = u8::MAX;
/// Most matchsticks one card can need (a 1 shown as 8).
const MAX_CARD_COST: usize = 5;

/// `COST[t][v]`: fewest matchsticks a card of type `t` needs to show `v`, or [`NO_COST`].
const COST: [[u8; VALUES]; TYPES] = {
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
const REACH_LE: [[u16; MAX_CARD_COST + 1]; VALUES] = {
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

fn card_type(id: u8) -> CardType {
    CardType::ALL[usize::from(id >> 2) & (TYPES - 1)]
}

/// Writes the segment letters of `s` as a JSON string (letters need no escaping).
fn write_segments(out: &mut String, s: Segments) {
    out.push('"');
    write_segment_letters(out, s);
    out.push('"');
}

/// The ids of the at most [`MAX_PLAY`] cards in `mask`, in increasing order, without allocating: the ids
/// fill the front of the returned array, and the count comes with it.
fn play_ids(mask: u64) -> ([u8; MAX_PLAY], usize) {
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

fn ids_of(mask: u64) -> Vec<u8> {
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
struct TablePlay {
    seat: u8,
    count: u8,
    value: Value,
    cards: [u8; MAX_PLAY],
    /// Bit i: card i is turned.
    rotated: u8,
    added: [Segments; MAX_PLAY],
    cost: u8,
}

/// What a move caused (kept typed; JSON is built only when asked for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Play(TablePlay),
    Pass { seat: u8, matchsticks: u32 },
    Discard { seat: u8, matchsticks: u32 },
    Revolution(bool),
    WentOut { seat: u8, position: u8 },
    TrickCleared { cards: u8, leader: u8 },
    GameOver,
}

/// Most events one move causes (a play: play, revolution, went out, game over).
const MAX_EVENTS: usize = 6;

/// What the player to act may do, with the number of legal plays per (count, value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    Over,
    Discard,
    Lead,
    Follow,
}

#[derive(Clone, Copy, Debug)]
struct LegalCache {
    turn: Turn,
    /// `plays[v][k]`: plays of `k` cards showing value `v`.
    plays: [[u16; MAX_PLAY + 1]; VALUES],
    total: u32,
}

/// Matchstick Tycoon: the full state of one game. See the module documentation for moves and their order.
#[derive(Clone, Debug)]
pub struct Matchstick {
    setup: Arc<Setup>,
    players: u8,
    /// Copies of G and of H in the deck (0, 2 or 4).
    expansion: u8,
    /// Values in play: 16, or 18 with the expansion.
    values: u8,
    hands: [u64; 8],
    type_counts: [[u8; TYPES]; 8],
    /// Bit t: the seat holds a card of type t.
    present: [u16; 8],
    matchsticks: [u32; 8],
    /// Finishing position per seat, 0 while in the game.
    finish: [u8; 8],
    finish_order: [u8; 8],
    finished: u8,
    /// Seats still in the game.
    active: u8,
    table: Option<TablePlay>,
    /// Every card played in the current trick (the top play included).
    pile: u64,
    removed: u64,
    set_aside: u64,
    revolution: bool,
    current: u8,
    /// Who made the first play of the current trick.
    leader: Option<u8>,
    /// Seats that had a turn without playing since the last play.
    passed: u8,
    rng: Rng,
    events: [Event; MAX_EVENTS],
    event_count: u8,
    legal: LegalCache,
}

/// Multisets of card types counted by size (rows 0..=5) and exact matchstick cost (lanes), for one
/// value. Three layouts: 16-bit lanes packed in one `u64` per row for budgets up to 3 and in one `u128`
/// for budgets up to 7 (the usual cases, all in registers), and plain arrays for larger budgets. Counts
/// never exceed C(20, 5) = 15504, so packed lanes never carry into each other.
trait CostRows: Copy {
    /// The table holding only the empty multiset.
    fn unit() -> Self;
    /// Adds one card type (`cap` copies, `w` matchsticks each), for sizes up to `kmax` and costs up to
    /// `bmax`.
    fn add_type(&mut self, cap: usize, w: usize, kmax: usize, bmax: usize);
    /// Multisets of size `j` costing at most `b`.
    fn within(&self, j: usize, b: usize) -> usize;
}

/// Budgets below this use [`Packed64`] rows.
const PACKED64_LANES: usize = 4;
/// Budgets below this use [`Packed128`] rows.
const PACKED128_LANES: usize = 8;

macro_rules! packed_rows {
    ($name:ident, $word:ty, $lanes:expr) => {
        #[derive(Clone, Copy)]
        struct $name([$word; MAX_PLAY + 1]);

        impl $name {
            /// The lanes for costs `0..=b`.
            fn lane_mask(b: usize) -> $word {
                if b + 1 >= $lanes {
                    <$word>::MAX
                } else {
                    (1 << (16 * (b + 1))) - 1
                }
            }
        }

        impl CostRows for $name {
            fn unit() -> Self {
                let mut rows = [0; MAX_PLAY + 1];
                rows[0] = 1;
                $name(rows)
            }

            fn add_type(&mut self, cap: usize, w: usize, kmax: usize, bmax: usize) {
                let mask = Self::lane_mask(bmax);
                for j in (1..=kmax).rev() {
                    let mut acc = self.0[j];
                    for n in 1..=cap.min(j) {
                        let s = n * w;
                        if s > bmax {
                            break;
                        }
                        acc = acc.wrapping_add(self.0[j - n] << (16 * s));
                    }
                    self.0[j] = acc & mask;
                }
            }

            fn within(&self, j: usize, b: usize) -> usize {
                let mut x = self.0[j] & Self::lane_mask(b);
                let mut sum = 0usize;
                while x != 0 {
                    sum += (x & 0xFFFF) as usize;
                    x >>= 16;
                }
                sum
            }
        }
    };
}

packed_rows!(Packed64, u64, PACKED64_LANES);
packed_rows!(Packed128, u128, PACKED128_LANES);

/// Plain-array rows for budgets of 8 matchsticks or more.
#[derive(Clone, Copy)]
struct Wide([[u16; LANES]; MAX_PLAY + 1]);

impl CostRows for Wide {
    fn unit() -> Self {
        let mut rows = [[0u16; LANES]; MAX_PLAY + 1];
        rows[0][0] = 1;
        Wide(rows)
    }

    fn add_type(&mut self, cap: usize, w: usize, kmax: usize, bmax: usize) {
        let bmax = bmax.min(MAX_COST);
        for j in (1..=kmax).rev() {
            for n in 1..=cap.min(j) {
                let s = n * w;
                if s > bmax {
                    break;
                }
                let (low, high) = self.0.split_at_mut(j);
                let src = &low[j - n];
                for (b, dst) in high[0].iter_mut().enumerate().take(bmax + 1).skip(s) {
                    *dst += src[b - s];
                }
            }
        }
    }

    fn within(&self, j: usize, b: usize) -> usize {
        self.0[j][..=b.min(MAX_COST)].iter().map(|&x| usize::from(x)).sum()
    }
}

/// Names for plays that an enumeration can add up as it chooses the cards (see
/// [`Matchstick::for_each_legal_play_name`]); the RL action ids are such names.
pub trait PlayNames {
    /// The name of the first choice for plays of `k` cards showing value index `v`.
    fn base(&self, v: usize, k: usize) -> u32;
    /// What taking `c ≥ 1` cards of type `t`, with `left` cards still to choose, adds to the name.
    fn part(&self, v: usize, t: usize, c: usize, left: usize) -> u32;
}

/// Lists the plays of one value by name, lowest type first (the order of `legal_move` within a value and
/// size), without building them: the counts and costs come straight from the hand and the cost table.
struct NamedPlays<'a, N, F> {
    names: &'a N,
    counts: &'a [u8; TYPES],
    v: usize,
    emit: F,
}

impl<N: PlayNames, F: FnMut(u32)> NamedPlays<'_, N, F> {
    /// Emits every way to add `left ≥ 1` cards of the types in `mask` within `budget` matchsticks to a
    /// choice named `name`: more copies of a lower type first, and every choice with a type before those
    /// without it.
    fn walk(&mut self, mask: u16, left: usize, budget: u32, name: u32) {
        let v = self.v;
        if left == 1 {
            // The last card: one play per type it can still pay for (no recursion on the deepest level).
            let mut m = mask & REACH_LE[v][(budget as usize).min(MAX_CARD_COST)];
            while m != 0 {
                let t = m.trailing_zeros() as usize;
                m &= m - 1;
                (self.emit)(name.wrapping_add(self.names.part(v, t, 1, 1)));
            }
            return;
        }
        let mut rest = mask;
        while rest != 0 {
            let t = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let cost = u32::from(COST[t][v]);
            let affordable = budget.checked_div(cost).map_or(left, |n| n as usize);
            for c in (1..=usize::from(self.counts[t]).min(left).min(affordable)).rev() {
                let named = name.wrapping_add(self.names.part(v, t, c, left));
                if c == left {
                    (self.emit)(named);
                } else {
                    self.walk(rest, left - c, budget - c as u32 * cost, named);
                }
            }
        }
    }
}

/// The card types that can take part in plays of value `v` with the player's matchsticks, with their
/// copies in hand and unit costs, in increasing type order, and the budget that binds them (0 with all
/// costs dropped when the matchsticks cover any `k` of these cards).
struct Candidates {
    len: usize,
    types: [u8; TYPES],
    caps: [u8; TYPES],
    costs: [u8; TYPES],
    budget: usize,
}

impl Candidates {
    fn new(counts: &[u8; TYPES], present: u16, v: usize, k: usize, matchsticks: u32) -> Candidates {
        let mask = present & REACH_LE[v][(matchsticks as usize).min(MAX_CARD_COST)];
        let mut c = Candidates { len: 0, types: [0; TYPES], caps: [0; TYPES], costs: [0; TYPES], budget: 0 };
        let mut maxw = 0usize;
        let mut m = mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            c.types[c.len] = t as u8;
            c.caps[c.len] = counts[t];
            c.costs[c.len] = COST[t][v];
            maxw = maxw.max(usize::from(COST[t][v]));
            c.len += 1;
        }
        let budget = matchsticks as usize;
        if budget >= k * maxw {
            c.costs[..c.len].iter_mut().for_each(|w| *w = 0);
            c.budget = 0;
        } else {
            c.budget = budget;
        }
        c
    }

    /// Suffix tables: `tables[i]` counts the multisets made of candidates `i..`.
    fn suffix_tables<R: CostRows>(&self, k: usize) -> [R; TYPES + 1] {
        let mut tables = [R::unit(); TYPES + 1];
        for i in (0..self.len).rev() {
            tables[i] = tables[i + 1];
            tables[i].add_type(usize::from(self.caps[i]), usize::from(self.costs[i]), k, self.budget);
        }
        tables
    }

    /// The `index`-th multiset of `k` cards: copies per candidate.
    fn unrank(&self, k: usize, index: usize) -> Option<[u8; TYPES]> {
        if k == 1 {
            // Every candidate alone is affordable: the plays are the candidates in order.
            let mut copies = [0u8; TYPES];
            *copies.get_mut(index).filter(|_| index < self.len)? = 1;
            return Some(copies);
        }
        if self.budget < PACKED64_LANES {
            self.unrank_in::<Packed64>(k, index)
        } else if self.budget < PACKED128_LANES {
            self.unrank_in::<Packed128>(k, index)
        } else {
            self.unrank_in::<Wide>(k, index)
        }
    }

    fn unrank_in<R: CostRows>(&self, k: usize, mut index: usize) -> Option<[u8; TYPES]> {
        let tables = self.suffix_tables::<R>(k);
        let mut copies = [0u8; TYPES];
        let mut left = k;
        let mut budget = self.budget;
        for i in 0..self.len {
            let w = usize::from(self.costs[i]);
            let top = usize::from(self.caps[i]).min(left);
            let mut chosen = None;
            for n in (0..=top).rev() {
                if n * w > budget {
                    continue;
                }
                let ways = tables[i + 1].within(left - n, budget - n * w);
                if index < ways {
                    chosen = Some(n);
                    break;
                }
                index -= ways;
            }
            let n = chosen?;
            copies[i] = n as u8;
            left -= n;
            budget -= n * w;
        }
        (left == 0).then_some(copies)
    }

    /// The position of the multiset with `wanted[t]` cards of each type among the multisets of `k` cards.
    fn rank(&self, k: usize, wanted: &[u8; TYPES]) -> Option<usize> {
        let covered: usize = (0..self.len).map(|i| usize::from(wanted[usize::from(self.types[i])])).sum();
        if covered != k {
            return None;
        }
        if k == 1 {
            return (0..self.len).find(|&i| wanted[usize::from(self.types[i])] == 1);
        }
        if self.budget < PACKED64_LANES {
            self.rank_in::<Packed64>(k, wanted)
        } else if self.budget < PACKED128_LANES {
            self.rank_in::<Packed128>(k, wanted)
        } else {
            self.rank_in::<Wide>(k, wanted)
        }
    }

    fn rank_in<R: CostRows>(&self, k: usize, wanted: &[u8; TYPES]) -> Option<usize> {
        let tables = self.suffix_tables::<R>(k);
        let mut index = 0;
        let mut left = k;
        let mut budget = self.budget;
        for i in 0..self.len {
            let w = usize::from(self.costs[i]);
            let want = usize::from(wanted[usize::from(self.types[i])]);
            let top = usize::from(self.caps[i]).min(left);
            if want > top || want * w > budget {
                return None;
            }
            for more in want + 1..=top {
                if more * w <= budget {
                    index += tables[i + 1].within(left - more, budget - more * w);
                }
            }
            left -= want;
            budget -= want * w;
        }
        (left == 0).then_some(index)
    }
}

/// Counts the plays of each size 2..=kmax showing `v` made of the card types in `mask` (not empty), into
/// `out[2..=kmax]`, and the single cards into `out[1]`.
#[inline]
fn count_sizes(counts: &[u8; TYPES], mask: u16, v: usize, kmax: usize, matchsticks: u32, out: &mut [u16]) {
    if mask & (mask - 1) == 0 {
        let t = mask.trailing_zeros() as usize;
        let w = u32::from(COST[t][v]);
        let top = kmax.min(usize::from(counts[t]));
        let mut j = 1;
        while j <= top && j as u32 * w <= matchsticks {
            out[j] = 1;
            j += 1;
        }
        return;
    }
    count_several(counts, mask, v, kmax, matchsticks, out);
}

fn count_several(counts: &[u8; TYPES], mask: u16, v: usize, kmax: usize, matchsticks: u32, out: &mut [u16]) {
    let mut maxw = 0u32;
    let mut m = mask;
    while m != 0 {
        let t = m.trailing_zeros() as usize;
        m &= m - 1;
        maxw = maxw.max(u32::from(COST[t][v]));
    }
    if matchsticks >= kmax as u32 * maxw {
        // The budget cannot bind: count bounded multisets by size only.
        let mut p = [0u16; MAX_PLAY + 1];
        p[0] = 1;
        let mut m = mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            let cap = usize::from(counts[t]);
            for j in (1..=kmax).rev() {
                let mut add = 0;
                for n in 1..=cap.min(j) {
                    add += p[j - n];
                }
                p[j] += add;
            }
        }
        out[1..=kmax].copy_from_slice(&p[1..=kmax]);
    } else if (matchsticks as usize) < PACKED64_LANES {
        count_costed::<Packed64>(counts, mask, v, kmax, matchsticks as usize, out);
    } else if (matchsticks as usize) < PACKED128_LANES {
        count_costed::<Packed128>(counts, mask, v, kmax, matchsticks as usize, out);
    } else {
        count_costed::<Wide>(counts, mask, v, kmax, matchsticks as usize, out);
    }
}

fn count_costed<R: CostRows>(counts: &[u8; TYPES], mask: u16, v: usize, kmax: usize, bmax: usize, out: &mut [u16]) {
    let mut p = R::unit();
    let mut m = mask;
    while m != 0 {
        let t = m.trailing_zeros() as usize;
        m &= m - 1;
        p.add_type(usize::from(counts[t]), usize::from(COST[t][v]), kmax, bmax);
    }
    for (j, slot) in out.iter_mut().enumerate().take(kmax + 1).skip(1) {
        *slot = p.within(j, bmax) as u16;
    }
}

/// The given per-card details of a play, checked: for each card the orientation and added segments
/// that make it show the value, or `None` when they do not.
fn resolve_details(mv: &PlayMove) -> Option<(u8, [Segments; MAX_PLAY], u32)> {
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

/// Why one orientation of a card cannot show `value` with the given added segments (`None`: none given).
fn orientation_problem(t: CardType, rotated: bool, value: Value, add: Option<Segments>) -> Option<String> {
    let glyph = value.glyph();
    let shape = segments::shape(t, rotated);
    let fill = glyph & !shape;
    if shape & !glyph != 0 {
        return Some(format!(
            "it lights {}, but {value} has no {}",
            segments_to_str(shape),
            segments_to_str(shape & !glyph)
        ));
    }
    let add = add?;
    let needs = if fill == 0 { "nothing added".to_string() } else { format!("{} added", segments_to_str(fill)) };
    let lit = add & shape;
    if lit != 0 {
        let (noun, verb) = if lit.count_ones() == 1 { ("segment", "is") } else { ("segments", "are") };
        Some(format!(
            "{noun} {} {verb} already lit (matchsticks only fill empty segments); it needs {needs}",
            segments_to_str(lit)
        ))
    } else if add != fill {
        Some(format!("it needs {needs}, not {}", segments_to_str(add)))
    } else {
        None
    }
}

/// The first card of a play whose given orientation and added segments do not show the play's value, and
/// why, for `explain`.
fn detail_problem(mv: &PlayMove) -> String {
    for (i, &id) in mv.ids().iter().enumerate() {
        let t = card_type(id);
        let add = mv.add.map(|a| a[i]);
        let way = |rotated: bool| if rotated { "turned" } else { "upright" };
        match mv.rotated.map(|r| r[i]) {
            Some(rotated) => {
                if let Some(why) = orientation_problem(t, rotated, mv.value, add) {
                    return format!("card {id} ({t}) {} cannot show {}: {why}", way(rotated), mv.value);
                }
            }
            None => {
                let upright = orientation_problem(t, false, mv.value, add);
                let turned = orientation_problem(t, true, mv.value, add);
                if let (Some(up), Some(rot)) = (upright, turned) {
                    return format!(
                        "card {id} ({t}) cannot show {} with these added segments: upright, {up}; turned, {rot}",
                        mv.value
                    );
                }
            }
        }
    }
    format!("the given orientation and added segments do not make every card show exactly {}", mv.value)
}

fn corrupt(reason: impl Into<String>) -> GameError {
    GameError::CorruptState(format!("not a Matchstick Tycoon view: {}", reason.into()))
}

fn object<'a>(value: &'a Json, what: &str) -> Result<&'a serde_json::Map<String, Json>, GameError> {
    value.as_object().ok_or_else(|| corrupt(format!("{what} must be a JSON object")))
}

fn field<'a>(map: &'a serde_json::Map<String, Json>, key: &str) -> Result<&'a Json, GameError> {
    map.get(key).ok_or_else(|| corrupt(format!("field {key:?} is missing")))
}

/// A whole number in `0..=max`.
fn uint(map: &serde_json::Map<String, Json>, key: &str, max: u64) -> Result<u64, GameError> {
    field(map, key)?
        .as_u64()
        .filter(|&x| x <= max)
        .ok_or_else(|| corrupt(format!("field {key:?} must be a whole number from 0 to {max}")))
}

fn seat_of(value: &Json, key: &str, players: usize) -> Result<u8, GameError> {
    value
        .as_u64()
        .filter(|&s| s < players as u64)
        .map(|s| s as u8)
        .ok_or_else(|| corrupt(format!("{key:?} must hold seats below {players}")))
}

fn optional_seat(map: &serde_json::Map<String, Json>, key: &str, players: usize) -> Result<Option<u8>, GameError> {
    match field(map, key)? {
        Json::Null => Ok(None),
        value => seat_of(value, key, players).map(Some),
    }
}

fn seat_list(map: &serde_json::Map<String, Json>, key: &str, players: usize) -> Result<Vec<u8>, GameError> {
    let list = field(map, key)?.as_array().ok_or_else(|| corrupt(format!("{key:?} must be a list of seats")))?;
    let seats = list.iter().map(|v| seat_of(v, key, players)).collect::<Result<Vec<u8>, GameError>>()?;
    let distinct = seats.iter().fold(0u8, |m, &s| m | (1 << s));
    if distinct.count_ones() as usize != seats.len() {
        return Err(corrupt(format!("{key:?} lists a seat twice")));
    }
    Ok(seats)
}

/// A list of distinct card ids of `deck`, as a mask.
fn id_set(map: &serde_json::Map<String, Json>, key: &str, deck: u64) -> Result<u64, GameError> {
    let list = field(map, key)?.as_array().ok_or_else(|| corrupt(format!("{key:?} must be a list of card ids")))?;
    let mut mask = 0u64;
    for value in list {
        let bit = value.as_u64().filter(|&id| id < 64).map(|id| 1u64 << id).unwrap_or(0);
        if bit == 0 || deck & bit == 0 || mask & bit != 0 {
            return Err(corrupt(format!("{key:?} must list distinct cards of the deck")));
        }
        mask |= bit;
    }
    Ok(mask)
}

impl Matchstick {
    fn seat_bit(seat: usize) -> u8 {
        1u8 << seat
    }

    /// Every card id of this game's deck.
    fn deck_mask(&self) -> u64 {
        (0..u64::from(self.expansion)).fold((1u64 << 56) - 1, |m, c| m | 1u64 << (56 + c) | 1u64 << (60 + c))
    }

    /// The table's top play read back from its view, checking that every card shows the value; its
    /// cards are added to `known`.
    fn table_from_json(&self, value: &Json, deck: u64, known: &mut u64) -> Result<TablePlay, GameError> {
        let table = object(value, "\"table\"")?;
        let name = field(table, "value")?.as_str().unwrap_or_default();
        let shown = Value::parse(name)
            .filter(|v| v.index() < usize::from(self.values))
            .ok_or_else(|| corrupt(format!("{name:?} is not a value of this deck")))?;
        let cards = field(table, "cards")?.as_array().ok_or_else(|| corrupt("the table's cards must be a list"))?;
        if cards.is_empty() || cards.len() > MAX_PLAY {
            return Err(corrupt("the table holds 1 to 5 cards"));
        }
        let mut top = TablePlay {
            seat: seat_of(field(table, "seat")?, "seat", usize::from(self.players))?,
            count: cards.len() as u8,
            value: shown,
            cards: [0; MAX_PLAY],
            rotated: 0,
            added: [0; MAX_PLAY],
            cost: 0,
        };
        for (i, card) in cards.iter().enumerate() {
            let card = object(card, "a table card")?;
            let id = uint(card, "id", 63)? as u8;
            let bit = 1u64 << id;
            if deck & bit == 0 || *known & bit != 0 {
                return Err(corrupt(format!("card {id} cannot be on the table")));
            }
            *known |= bit;
            let rotated = field(card, "rotated")?.as_bool().ok_or_else(|| corrupt("\"rotated\" must be a boolean"))?;
            let added = field(card, "added")?
                .as_str()
                .and_then(segments_from_str)
                .ok_or_else(|| corrupt("\"added\" must be segment letters a-g"))?;
            let shape = segments::shape(card_type(id), rotated);
            if shape & added != 0 || shape | added != shown.glyph() {
                return Err(corrupt(format!("card {id} does not show {shown} as drawn")));
            }
            top.cards[i] = id;
            if rotated {
                top.rotated |= 1 << i;
            }
            top.added[i] = added;
            top.cost += added.count_ones() as u8;
        }
        Ok(top)
    }

    fn is_active(&self, seat: usize) -> bool {
        self.active & Self::seat_bit(seat) != 0
    }

    /// The next seat clockwise after `seat` that is still in the game.
    fn next_active(&self, seat: usize) -> usize {
        let n = usize::from(self.players);
        (1..=n).map(|d| (seat + d) % n).find(|&s| self.is_active(s)).unwrap_or(seat)
    }

    fn push_event(&mut self, event: Event) {
        if usize::from(self.event_count) < MAX_EVENTS {
            self.events[usize::from(self.event_count)] = event;
            self.event_count += 1;
        }
    }

    fn set_hand(&mut self, seat: usize, hand: u64) {
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

    fn remove_card(&mut self, seat: usize, id: u8) {
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

    /// Recomputes the legal-move counts of the player to act.
    fn refresh_legal(&mut self) {
        // Filled in place: the cache is written every decision and copying it costs more than counting.
        let legal = &mut self.legal;
        legal.turn = Turn::Over;
        legal.plays = [[0; MAX_PLAY + 1]; VALUES];
        legal.total = 0;
        if self.finished < self.players && self.active.count_ones() > 1 {
            let s = usize::from(self.current);
            let sticks = self.matchsticks[s];
            let reach = (sticks as usize).min(MAX_CARD_COST);
            let counts = &self.type_counts[s];
            let present = self.present[s];
            let values = usize::from(self.values);
            if self.hands[s] == 0 {
                legal.turn = Turn::Discard;
                legal.total = 1;
            } else if let Some(top) = self.table {
                legal.turn = Turn::Follow;
                let k = usize::from(top.count);
                // The values that beat the table form one range of the strength order.
                let range = if self.revolution { 0..top.value.index() } else { top.value.index() + 1..values };
                let mut total = 1u32;
                for v in range {
                    let mask = present & REACH_LE[v][reach];
                    if mask == 0 {
                        continue;
                    }
                    let n = if k == 1 {
                        mask.count_ones() as u16
                    } else {
                        let mut col = [0u16; MAX_PLAY + 1];
                        count_sizes(counts, mask, v, k, sticks, &mut col);
                        col[k]
                    };
                    legal.plays[v][k] = n;
                    total += u32::from(n);
                }
                legal.total = total;
            } else {
                legal.turn = Turn::Lead;
                let mut total = 0u32;
                for (v, col) in legal.plays.iter_mut().enumerate().take(values) {
                    let mask = present & REACH_LE[v][reach];
                    if mask == 0 {
                        continue;
                    }
                    count_sizes(counts, mask, v, MAX_PLAY, sticks, col);
                    total += col.iter().map(|&n| u32::from(n)).sum::<u32>();
                }
                legal.total = total;
            }
        }
    }

    fn pass_offset(&self) -> usize {
        usize::from(self.legal.turn == Turn::Follow)
    }

    fn play_sizes(&self) -> std::ops::RangeInclusive<usize> {
        let (low, high) = match (self.legal.turn, self.table) {
            (Turn::Follow, Some(top)) => (usize::from(top.count), usize::from(top.count)),
            (Turn::Lead, _) => (1, MAX_PLAY),
            _ => (1, 0),
        };
        low..=high
    }

    /// The `index`-th play as (value, cards): unrank.
    fn unrank_play(&self, mut index: usize) -> Option<(usize, u64)> {
        let s = usize::from(self.current);
        let values = usize::from(self.values);
        for k in self.play_sizes() {
            for (v, row) in self.legal.plays.iter().enumerate().take(values) {
                let n = usize::from(row[k]);
                if index >= n {
                    index -= n;
                    continue;
                }
                if k == 1 {
                    // Single cards: the index-th type that can show `v`, in type order.
                    let reach = (self.matchsticks[s] as usize).min(MAX_CARD_COST);
                    let mut mask = self.present[s] & REACH_LE[v][reach];
                    for _ in 0..index {
                        mask &= mask - 1;
                    }
                    let t = mask.trailing_zeros() as usize;
                    let nibble = (self.hands[s] >> (4 * t)) & 0xF;
                    return (mask != 0).then_some((v, (nibble & nibble.wrapping_neg()) << (4 * t)));
                }
                let cand = Candidates::new(&self.type_counts[s], self.present[s], v, k, self.matchsticks[s]);
                let copies = cand.unrank(k, index)?;
                let mut cards = 0u64;
                for (&t, &n) in cand.types.iter().zip(&copies).take(cand.len) {
                    let t = usize::from(t);
                    let mut nibble = (self.hands[s] >> (4 * t)) & 0xF;
                    for _ in 0..n {
                        let low = nibble & nibble.wrapping_neg();
                        cards |= low << (4 * t);
                        nibble &= !low;
                    }
                }
                return Some((v, cards));
            }
        }
        None
    }

    /// The index of a play of `copies[t]` cards of each type showing `v`: rank.
    fn rank_play(&self, v: usize, copies: &[u8; TYPES], k: usize) -> Option<usize> {
        let s = usize::from(self.current);
        let mut index = self.pass_offset();
        let values = usize::from(self.values);
        for kk in self.play_sizes() {
            for vv in 0..values {
                if (kk, vv) == (k, v) {
                    let cand = Candidates::new(&self.type_counts[s], self.present[s], v, k, self.matchsticks[s]);
                    return cand.rank(k, copies).map(|i| index + i);
                }
                index += usize::from(self.legal.plays[vv][kk]);
            }
        }
        None
    }

    /// Checks a play's cards against the hand: per-type copies, or `None` if an id is not in hand or
    /// repeated.
    fn play_copies(&self, seat: usize, mv: &PlayMove) -> Option<[u8; TYPES]> {
        let mut seen = 0u64;
        let mut copies = [0u8; TYPES];
        for &id in mv.ids() {
            let bit = 1u64 << id;
            if seen & bit != 0 || self.hands[seat] & bit == 0 {
                return None;
            }
            seen |= bit;
            copies[usize::from(id >> 2)] += 1;
        }
        Some(copies)
    }

    /// The copies per type of a play `seat` may make now, `None` when it may not: every check of `index_of`
    /// but the ranking, which cannot fail once these pass (each card's cheapest cost is within the
    /// matchsticks, so every type of the play is among the candidates its value and size rank over).
    fn legal_play_copies(&self, seat: usize, p: &PlayMove) -> Option<[u8; TYPES]> {
        if self.legal_count(seat) == 0 || !matches!(self.legal.turn, Turn::Lead | Turn::Follow) {
            return None;
        }
        if p.value.index() >= usize::from(self.values) {
            return None;
        }
        if let Some(top) = self.table {
            if p.count != top.count || !p.value.beats(top.value, self.revolution) {
                return None;
            }
        }
        let copies = self.play_copies(seat, p)?;
        let (_, _, cost) = resolve_details(p)?;
        (cost <= self.matchsticks[seat]).then_some(copies)
    }

    /// Puts the cards on the table and runs every consequence of the play.
    fn do_play(&mut self, seat: usize, top: TablePlay) {
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
    fn after_turn(&mut self, seat: usize) {
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

    fn go_out(&mut self, seat: usize) {
        self.active &= !Self::seat_bit(seat);
        self.finished += 1;
        self.finish[seat] = self.finished;
        self.finish_order[usize::from(self.finished) - 1] = seat as u8;
        self.push_event(Event::WentOut { seat: seat as u8, position: self.finished });
    }

    fn begin_move(&mut self) {
        self.event_count = 0;
    }

    fn mask_json(mask: u64) -> Json {
        json!(ids_of(mask))
    }

    fn seats_json(mask: u8) -> Json {
        json!((0..8).filter(|s| mask & (1 << s) != 0).collect::<Vec<u8>>())
    }

    fn explain_play(&self, seat: usize, mv: &PlayMove) -> GameError {
        let hand = self.hands[seat];
        if hand == 0 {
            return GameError::illegal("must_discard", "your hand is empty: your turn is to discard one matchstick");
        }
        if mv.value.is_expansion() && self.expansion == 0 {
            return GameError::illegal(
                "no_such_value",
                format!("{} exists only with the expansion, which is not in play", mv.value),
            );
        }
        let mut seen = 0u64;
        for &id in mv.ids() {
            let bit = 1u64 << id;
            if seen & bit != 0 {
                return GameError::illegal("duplicate_card", format!("card {id} is listed twice"));
            }
            seen |= bit;
            if hand & bit == 0 {
                return GameError::illegal("not_in_hand", format!("card {id} is not in your hand"));
            }
        }
        if let Some(top) = self.table {
            if mv.count != top.count {
                let cards = if top.count == 1 { "card" } else { "cards" };
                return GameError::illegal(
                    "wrong_count",
                    format!("the table holds {} {cards}: you must play exactly {} or pass", top.count, top.count),
                );
            }
            if !mv.value.beats(top.value, self.revolution) {
                return GameError::illegal("not_stronger", self.what_beats(top.value, mv.value));
            }
        }
        let mut cheapest = 0u32;
        for &id in mv.ids() {
            let t = card_type(id);
            match segments::min_cost(t, mv.value) {
                Some(k) => cheapest += u32::from(k),
                None => {
                    return GameError::illegal(
                        "cannot_show",
                        format!("a {} card can never show {}, turned or with matchsticks", t, mv.value),
                    )
                }
            }
        }
        let Some((_, _, cost)) = resolve_details(mv) else {
            return GameError::illegal("bad_detail", detail_problem(mv));
        };
        let sticks = self.matchsticks[seat];
        if cost.max(cheapest) > sticks {
            let noun = if sticks == 1 { "matchstick" } else { "matchsticks" };
            return GameError::illegal(
                "too_few_matchsticks",
                format!("you have {sticks} {noun}; this play needs {}", cost.max(cheapest)),
            );
        }
        GameError::illegal("illegal_play", "this play is not legal now")
    }

    /// The reason a play showing `shown` does not beat the table's `top`: the weakest value that would,
    /// in the order in force, or that nothing can.
    fn what_beats(&self, top: Value, shown: Value) -> String {
        let under = if self.revolution { " under a revolution" } else { "" };
        let next = if self.revolution { top.index().checked_sub(1) } else { Some(top.index() + 1) };
        match next.filter(|&i| i < usize::from(self.values)).and_then(Value::new) {
            Some(need) => {
                let way = if self.revolution { "weaker" } else { "stronger" };
                format!("the table shows {top}{under}: you need {need} or {way} ({shown} is not)")
            }
            None => format!("the table shows {top}{under}, the strongest value: nothing beats it, so pass"),
        }
    }
}

impl Game for Matchstick {
    type Move = MatchstickMove;

    fn info() -> GameInfo {
        GameInfo {
            name: "matchstick",
            title: "Matchstick Tycoon",
            min_players: 2,
            max_players: 8,
            default_players: 4,
            options: vec![
                OptionSpec {
                    name: "expansion",
                    kind: OptionKind::IntChoice(vec![0, 2, 4]),
                    default: json!(0),
                    doc: "copies of each expansion card G and H shuffled into the deck (0 = none)",
                    house_rules: false,
                },
                OptionSpec {
                    name: "deal_all",
                    kind: OptionKind::Bool,
                    default: json!(false),
                    doc: "at 2-3 players, deal the whole deck instead of 15 cards each (ignored at 4+)",
                    house_rules: true,
                },
            ],
            house_rules_players: Vec::new(),
            summary: "Climbing game with seven-segment cards: turn cards and add matchsticks to change \
                      their values, beat the table with the same number of cards, pass to take a \
                      matchstick, and be the first to empty your hand and your matchsticks.",
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
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

    fn setup(&self) -> &Setup {
        &self.setup
    }

    fn to_act(&self) -> SeatSet {
        if self.legal.turn == Turn::Over {
            SeatSet::EMPTY
        } else {
            SeatSet::single(usize::from(self.current))
        }
    }

    /// Without building the outcome (the RL step asks after every move).
    fn is_over(&self) -> bool {
        self.legal.turn == Turn::Over
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.legal.turn != Turn::Over {
            return None;
        }
        let n = usize::from(self.players);
        let order: Vec<Seat> = self.finish_order[..n].iter().map(|&s| usize::from(s)).collect();
        let scores: Vec<i64> = self.finish[..n].iter().map(|&p| i64::from(p)).collect();
        Some(Outcome {
            kind: OutcomeKind::Ranking,
            winners: vec![order[0]],
            scores,
            order,
            detail: json!({"revolution": self.revolution}),
        })
    }

    fn legal_count(&self, seat: Seat) -> usize {
        if self.legal.turn == Turn::Over || seat != usize::from(self.current) {
            0
        } else {
            self.legal.total as usize
        }
    }

    fn legal_move(&self, seat: Seat, index: usize) -> Option<MatchstickMove> {
        if index >= self.legal_count(seat) {
            return None;
        }
        match self.legal.turn {
            Turn::Discard => return Some(MatchstickMove::DiscardMatchstick),
            Turn::Follow if index == 0 => return Some(MatchstickMove::Pass),
            _ => {}
        }
        let (v, cards) = self.unrank_play(index - self.pass_offset())?;
        if cards.count_ones() as usize > MAX_PLAY {
            return None;
        }
        let (ids, count) = play_ids(cards);
        PlayMove::new(Value::ALL[v], &ids[..count]).map(MatchstickMove::Play)
    }

    fn index_of(&self, seat: Seat, mv: &MatchstickMove) -> Option<usize> {
        if self.legal_count(seat) == 0 {
            return None;
        }
        match (mv, self.legal.turn) {
            (MatchstickMove::DiscardMatchstick, Turn::Discard) => Some(0),
            (MatchstickMove::Pass, Turn::Follow) => Some(0),
            (MatchstickMove::Play(p), Turn::Lead | Turn::Follow) => {
                let copies = self.legal_play_copies(seat, p)?;
                self.rank_play(p.value.index(), &copies, usize::from(p.count))
            }
            _ => None,
        }
    }

    fn explain(&self, seat: Seat, mv: &MatchstickMove) -> GameError {
        if seat != usize::from(self.current) || self.legal.turn == Turn::Over {
            return GameError::illegal("not_your_turn", format!("it is not seat {seat}'s turn"));
        }
        match mv {
            MatchstickMove::DiscardMatchstick => GameError::illegal(
                "not_forced",
                "you discard a matchstick only when your hand is empty; play or pass instead",
            ),
            MatchstickMove::Pass if self.legal.turn == Turn::Discard => GameError::illegal(
                "must_discard",
                "your hand is empty: you cannot pass, your turn is to discard one matchstick",
            ),
            MatchstickMove::Pass => GameError::illegal(
                "must_lead",
                "the table is empty: you lead and must play 1 to 5 cards (passing is not allowed)",
            ),
            MatchstickMove::Play(p) => self.explain_play(seat, p),
        }
    }

    fn apply_legal(&mut self, seat: Seat, mv: &MatchstickMove) {
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

    fn apply_index(&mut self, seat: Seat, index: usize) -> Result<(), GameError> {
        let count = self.legal_count(seat);
        if index >= count {
            return Err(GameError::illegal(
                "no_such_move",
                format!("seat {seat} has {count} legal moves; index {index} is out of range"),
            ));
        }
        match self.legal.turn {
            Turn::Discard => self.apply_legal(seat, &MatchstickMove::DiscardMatchstick),
            Turn::Follow if index == 0 => self.apply_legal(seat, &MatchstickMove::Pass),
            _ => {
                let (v, cards) = self
                    .unrank_play(index - self.pass_offset())
                    .ok_or_else(|| GameError::Internal(format!("play {index} could not be unranked")))?;
                let value = Value::ALL[v];
                let mut top = TablePlay {
                    seat: seat as u8,
                    count: 0,
                    value,
                    cards: [0; MAX_PLAY],
                    rotated: 0,
                    added: [0; MAX_PLAY],
                    cost: 0,
                };
                let mut m = cards;
                while m != 0 {
                    let id = m.trailing_zeros() as u8;
                    m &= m - 1;
                    let t = card_type(id);
                    let (rot, k) = segments::cheapest_orientation(t, value).unwrap_or((false, 0));
                    let i = usize::from(top.count);
                    top.cards[i] = id;
                    if rot {
                        top.rotated |= 1 << i;
                    }
                    top.added[i] = value.glyph() & !segments::shape(t, rot);
                    top.cost += k;
                    top.count += 1;
                }
                self.begin_move();
                self.do_play(seat, top);
                self.refresh_legal();
            }
        }
        Ok(())
    }

    fn write_move(&self, mv: &MatchstickMove, out: &mut String) {
        match mv {
            MatchstickMove::Pass => out.push_str("{\"type\":\"pass\"}"),
            MatchstickMove::DiscardMatchstick => out.push_str("{\"type\":\"discard_matchstick\"}"),
            MatchstickMove::Play(p) => {
                let n = usize::from(p.count);
                out.push('{');
                if let Some(add) = p.add {
                    out.push_str("\"add\":");
                    write_array(out, &add[..n], |out, &segments| write_segments(out, segments));
                    out.push(',');
                }
                out.push_str("\"cards\":");
                write_list(out, p.ids().iter().map(|&id| u64::from(id)));
                if let Some(rotated) = p.rotated {
                    out.push_str(",\"rotated\":");
                    write_array(out, &rotated[..n], |out, &r| out.push_str(bool_str(r)));
                }
                out.push_str(",\"type\":\"play\",\"value\":");
                write_string(out, p.value.name());
                out.push('}');
            }
        }
    }

    fn move_from_json(&self, _seat: Seat, value: &Json) -> Result<MatchstickMove, GameError> {
        let kind = Fields::new(value, &["type", "value", "cards", "rotated", "add"])?.kind()?;
        match kind {
            "pass" => {
                Fields::new(value, &["type"])?;
                Ok(MatchstickMove::Pass)
            }
            "discard_matchstick" => {
                Fields::new(value, &["type"])?;
                Ok(MatchstickMove::DiscardMatchstick)
            }
            "play" => {
                let f = Fields::new(value, &["type", "value", "cards", "rotated", "add"])?;
                let name = f.str("value")?;
                let shown = Value::parse(name)
                    .ok_or_else(|| GameError::invalid(format!("{name:?} is not a card value (0-9, A-H)")))?;
                let ids = f.uint_list("cards")?;
                if ids.is_empty() || ids.len() > MAX_PLAY {
                    return Err(GameError::invalid(format!("a play has 1 to 5 cards, not {}", ids.len())));
                }
                let mut small = [0u8; MAX_PLAY];
                for (slot, &id) in small.iter_mut().zip(&ids) {
                    if id >= 64 {
                        return Err(GameError::invalid(format!("{id} is not a card id (0-63)")));
                    }
                    *slot = id as u8;
                }
                let mut play =
                    PlayMove::new(shown, &small[..ids.len()]).ok_or_else(|| GameError::invalid("bad card list"))?;
                if let Some(r) = f.get("rotated") {
                    let list = r
                        .as_array()
                        .filter(|l| l.len() == ids.len())
                        .ok_or_else(|| GameError::invalid("\"rotated\" must be a list of booleans, one per card"))?;
                    let mut flags = [false; MAX_PLAY];
                    for (slot, item) in flags.iter_mut().zip(list) {
                        *slot =
                            item.as_bool().ok_or_else(|| GameError::invalid("\"rotated\" must hold true or false"))?;
                    }
                    play.rotated = Some(flags);
                }
                if let Some(a) = f.get("add") {
                    let list = a
                        .as_array()
                        .filter(|l| l.len() == ids.len())
                        .ok_or_else(|| GameError::invalid("\"add\" must be a list of segment strings, one per card"))?;
                    let mut segs = [0u8; MAX_PLAY];
                    for (slot, item) in segs.iter_mut().zip(list) {
                        let text = item.as_str().ok_or_else(|| GameError::invalid("\"add\" must hold strings"))?;
                        *slot = segments_from_str(text).ok_or_else(|| {
                            GameError::invalid(format!("{text:?} is not a set of segment letters a-g"))
                        })?;
                    }
                    play.add = Some(segs);
                }
                Ok(MatchstickMove::Play(play))
            }
            other => Err(GameError::invalid(format!("unknown move type {other:?} (play, pass, discard_matchstick)"))),
        }
    }

    fn write_public_view(&self, out: &mut String) {
        self.write_public(out);
    }

    fn write_private_view(&self, seat: Option<Seat>, out: &mut String) {
        self.write_private(seat, out);
    }

    fn events_are_public(&self) -> bool {
        true
    }

    fn write_events(&self, _seat: Option<Seat>, out: &mut String) {
        write_array(out, &self.events[..usize::from(self.event_count)], |out, event| event.write(out));
    }

    fn determinize(&self, observer: Option<Seat>, rng: &mut Rng) -> Self {
        let mut game = self.clone();
        let n = usize::from(self.players);
        let hidden_seats: Vec<usize> = (0..n).filter(|&s| Some(s) != observer).collect();
        let mut pool: Vec<u8> = ids_of(self.set_aside);
        for &s in &hidden_seats {
            pool.extend(ids_of(self.hands[s]));
        }
        rng.shuffle(&mut pool);
        let mut next = pool.into_iter();
        for &s in &hidden_seats {
            let size = self.hands[s].count_ones() as usize;
            let hand = next.by_ref().take(size).fold(0u64, |m, id| m | (1u64 << id));
            game.set_hand(s, hand);
        }
        game.set_aside = next.fold(0u64, |m, id| m | (1u64 << id));
        game.rng = rng.fork();
        game.refresh_legal();
        game
    }

    fn from_view(setup: &Setup, seat: Option<Seat>, view: &Json, rng: &mut Rng) -> Result<Self, GameError> {
        let mut game = Self::new(setup)?;
        let n = usize::from(game.players);
        if seat.is_some_and(|s| s >= n) {
            return Err(corrupt(format!("seat {seat:?} is not one of the {n} seats")));
        }
        let root = object(view, "the view")?;
        if root.len() != 2 {
            return Err(corrupt("the view must hold exactly \"public\" and \"private\""));
        }
        let public = object(field(root, "public")?, "\"public\"")?;
        let deck = game.deck_mask();

        let players = field(public, "players")?.as_array().ok_or_else(|| corrupt("\"players\" must be a list"))?;
        if players.len() != n {
            return Err(corrupt(format!("\"players\" lists {} seats; the setup has {n}", players.len())));
        }
        let mut sizes = [0u64; 8];
        game.active = 0;
        game.finished = 0;
        for (s, entry) in players.iter().enumerate() {
            let p = object(entry, "a player")?;
            if uint(p, "seat", 7)? != s as u64 {
                return Err(corrupt(format!("player {s} is listed with another seat number")));
            }
            sizes[s] = uint(p, "hand_size", 64)?;
            game.matchsticks[s] = uint(p, "matchsticks", u64::from(u32::MAX))? as u32;
            let out = field(p, "out")?.as_bool().ok_or_else(|| corrupt("\"out\" must be true or false"))?;
            let finish = match field(p, "finish")? {
                Json::Null => 0,
                _ => match uint(p, "finish", n as u64)? {
                    0 => return Err(corrupt(format!("seat {s}'s finishing position must be 1 or more"))),
                    f => f as u8,
                },
            };
            if out != (finish != 0) {
                return Err(corrupt(format!("seat {s} is out exactly when it has a finishing position")));
            }
            if finish == 0 {
                game.active |= Self::seat_bit(s);
                if sizes[s] == 0 && game.matchsticks[s] == 0 {
                    return Err(corrupt(format!("seat {s} has no card and no matchstick but is not out")));
                }
            } else {
                game.finished += 1;
            }
            game.finish[s] = finish;
        }
        let order = seat_list(public, "finish_order", n)?;
        if order.len() != usize::from(game.finished) {
            return Err(corrupt("\"finish_order\" must list exactly the seats that are out"));
        }
        for (i, &s) in order.iter().enumerate() {
            if usize::from(game.finish[usize::from(s)]) != i + 1 {
                return Err(corrupt(format!("seat {s} is not in position {} of \"finish_order\"", i + 1)));
            }
            game.finish_order[i] = s;
        }

        let mut known = 0u64;
        game.table = match field(public, "table")? {
            Json::Null => None,
            table => Some(game.table_from_json(table, deck, &mut known)?),
        };
        let top_cards = known;
        let pile_size = uint(public, "pile_size", 64)?;
        let table_count = game.table.map_or(0, |t| u64::from(t.count));
        if pile_size < table_count || (table_count == 0) != (pile_size == 0) {
            return Err(corrupt("\"pile_size\" must count the table's cards and only be 0 with an empty table"));
        }
        let removed = uint(public, "removed", 64)?;
        let set_aside = uint(public, "set_aside", 64)?;
        // Every card played this trick and every card of a cleared trick was played face up.
        let trick_cards = id_set(public, "trick_cards", deck)?;
        let removed_cards = id_set(public, "removed_cards", deck)?;
        if trick_cards & removed_cards != 0
            || u64::from(trick_cards.count_ones()) != pile_size
            || u64::from(removed_cards.count_ones()) != removed
            || top_cards & !trick_cards != 0
        {
            return Err(corrupt(
                "\"trick_cards\" and \"removed_cards\" must list the counted cards, the table's among them",
            ));
        }
        known |= trick_cards | removed_cards;
        game.revolution =
            field(public, "revolution")?.as_bool().ok_or_else(|| corrupt("\"revolution\" must be true or false"))?;
        match optional_seat(public, "turn", n)? {
            Some(s) if game.active & Self::seat_bit(usize::from(s)) == 0 => {
                return Err(corrupt(format!("the turn is seat {s}'s, but that seat is out")));
            }
            Some(s) => game.current = s,
            None => game.current = game.finish_order.first().copied().unwrap_or(0),
        }
        game.leader = optional_seat(public, "leader", n)?;
        game.passed = seat_list(public, "passed", n)?.iter().fold(0u8, |m, &s| m | Self::seat_bit(usize::from(s)));

        let hidden_seats: Vec<usize> = (0..n).filter(|&s| Some(s) != seat).collect();
        match (seat, root.get("private")) {
            (None, Some(Json::Null)) => {}
            (Some(s), Some(private)) => {
                let private = object(private, "\"private\"")?;
                if private.len() != 2 || uint(private, "seat", 7)? != s as u64 {
                    return Err(corrupt(format!("\"private\" must hold seat {s}'s \"seat\" and \"hand\"")));
                }
                let cards = field(private, "hand")?.as_array().ok_or_else(|| corrupt("\"hand\" must be a list"))?;
                let mut hand = 0u64;
                for card in cards {
                    let id = uint(object(card, "a hand card")?, "id", 63)?;
                    let bit = 1u64 << id;
                    if deck & bit == 0 || (hand | known) & bit != 0 {
                        return Err(corrupt(format!("card {id} cannot be in the hand")));
                    }
                    hand |= bit;
                }
                if u64::from(hand.count_ones()) != sizes[s] {
                    return Err(corrupt(format!("seat {s}'s hand does not hold its \"hand_size\" cards")));
                }
                known |= hand;
                game.set_hand(s, hand);
            }
            _ => return Err(corrupt("\"private\" must be null for a spectator and an object for a seat")),
        }

        let hidden: u64 = hidden_seats.iter().map(|&s| sizes[s]).sum();
        let mut pool = ids_of(deck & !known);
        if pool.len() as u64 != hidden + set_aside {
            return Err(corrupt(format!(
                "the counts do not add up to the deck: {} unseen cards, {hidden} in hidden hands, {set_aside} set aside",
                pool.len()
            )));
        }
        rng.shuffle(&mut pool);
        let mut next = pool.into_iter();
        let mut take = |count: u64| next.by_ref().take(count as usize).fold(0u64, |m, id| m | (1u64 << id));
        for &s in &hidden_seats {
            let hand = take(sizes[s]);
            game.set_hand(s, hand);
        }
        game.pile = trick_cards;
        game.removed = removed_cards;
        game.set_aside = take(set_aside);
        game.rng = rng.fork();
        game.event_count = 0;
        game.refresh_legal();
        if game.view(seat) != *view {
            return Err(corrupt("the view contradicts itself (it is not one this game could show)"));
        }
        Ok(game)
    }

    fn state_json(&self) -> Json {
        let n = usize::from(self.players);
        let players: Vec<Json> = (0..n)
            .map(|s| {
                json!({"hand": Self::mask_json(self.hands[s]), "matchsticks": self.matchsticks[s],
                       "finish": self.finish[s]})
            })
            .collect();
        json!({
            "players": players,
            "active": Self::seats_json(self.active),
            "table": self.table.map(|t| crate::json::written(|out| t.write(out))),
            "pile": Self::mask_json(self.pile),
            "removed": Self::mask_json(self.removed),
            "set_aside": Self::mask_json(self.set_aside),
            "revolution": self.revolution,
            "current": self.current,
            "leader": self.leader,
            "passed": Self::seats_json(self.passed),
            "finish_order": self.finish_order[..usize::from(self.finished)],
            "expansion": self.expansion,
            "events": self.events(None),
            "rng": self.rng.state_hex(),
        })
    }

    fn heuristic_index(&self, seat: Seat, _rng: &mut Rng) -> usize {
        let count = self.legal_count(seat);
        if count <= 1 {
            return 0;
        }
        let first = self.pass_offset();
        let hand = self.hands[seat].count_ones();
        let sticks = self.matchsticks[seat];
        // Matchsticks left when the hand is empty cost a turn each, so spending them is cheap once they
        // outnumber the cards; before that they buy flexibility and are worth keeping.
        let stick_weight = if sticks >= hand { 1 } else { 4 };
        let score = |p: &PlayMove| -> i64 {
            let rank = if self.revolution { 17 - p.value.index() } else { p.value.index() } as i64;
            let cost: u32 =
                p.ids().iter().filter_map(|&id| segments::min_cost(card_type(id), p.value)).map(u32::from).sum();
            i64::from(p.count) * 40 - rank * 2 - i64::from(cost) * stick_weight
        };
        // Plays are ordered by size then value, so the head and the tail of a long list hold the
        // weakest single cards and the biggest groups: the candidates worth weighing.
        let scan: Box<dyn Iterator<Item = usize>> = if count - first <= HEURISTIC_SCAN * 2 {
            Box::new(first..count)
        } else {
            Box::new((first..first + HEURISTIC_SCAN).chain(count - HEURISTIC_SCAN..count))
        };
        let best = scan
            .filter_map(|i| match self.legal_move(seat, i) {
                Some(MatchstickMove::Play(p)) => Some((score(&p), i, p.value)),
                _ => None,
            })
            .max_by_key(|&(s, i, _)| (s, std::cmp::Reverse(i)));
        match best {
            // Following with a strong card while holding many others gives away control cheaply:
            // keep the top of the order for leads unless the hand is nearly out.
            Some((_, i, value)) if first == 1 => {
                let rank = if self.revolution { 17 - value.index() } else { value.index() };
                if rank >= 13 && hand > 4 {
                    0
                } else {
                    i
                }
            }
            Some((_, i, _)) => i,
            None => 0,
        }
    }
}

/// How many plays at each end of a long legal list the heuristic player weighs.
const HEURISTIC_SCAN: usize = 128;

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

    /// Calls `emit(name)` once for every legal play of `seat` (the plays `legal_move` lists), naming each
    /// as it is built, without ranking or building it: a play of `k` cards showing value `v` is named
    /// `names.base(v, k)` plus `names.part(v, t, c, left)` for every card type `t` it takes `c ≥ 1` copies
    /// of, `left` being the cards still to choose when types go in increasing order (sums wrap). The plays
    /// come by value, then by size, then with more copies of a lower card type first (the order of the
    /// RL action ids).
    pub fn for_each_legal_play_name<N: PlayNames>(&self, seat: Seat, names: &N, emit: impl FnMut(u32)) {
        if self.legal_count(seat) == 0 || !matches!(self.legal.turn, Turn::Lead | Turn::Follow) {
            return;
        }
        let values = usize::from(self.values);
        let sizes = self.play_sizes();
        let sticks = self.matchsticks[seat];
        let reach = (sticks as usize).min(MAX_CARD_COST);
        let mut plays = NamedPlays { names, counts: &self.type_counts[seat], v: 0, emit };
        for (v, counted) in self.legal.plays.iter().enumerate().take(values) {
            let mask = self.present[seat] & REACH_LE[v][reach];
            plays.v = v;
            for k in sizes.clone().filter(|&k| counted[k] > 0) {
                plays.walk(mask, k, sticks, names.base(v, k));
            }
        }
    }

    /// Whether `seat` may make play `p` now: the same as `index_of(seat, Play(p)).is_some()`, without
    /// ranking the play.
    pub fn play_is_legal(&self, seat: Seat, p: &PlayMove) -> bool {
        self.legal_play_copies(seat, p).is_some()
    }

    /// Whether `seat` may pass now (it follows a play on the table).
    pub fn may_pass(&self, seat: Seat) -> bool {
        self.legal_count(seat) > 0 && self.legal.turn == Turn::Follow
    }

    /// Whether `seat`'s only move is to discard a matchstick.
    pub fn must_discard(&self, seat: Seat) -> bool {
        self.legal_count(seat) > 0 && self.legal.turn == Turn::Discard
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

/// Canonical JSON of the views written without a `serde_json::Value` (the network host's per-move path).
/// Keys are written in byte order by hand; `direct_views_match_values` in the tests proves the bytes equal
/// `canonical(&public_view())` and `canonical(&private_view(seat))`.
impl Matchstick {
    fn write_public(&self, out: &mut String) {
        let over = self.legal.turn == Turn::Over;
        out.push_str("{\"expansion\":");
        write_u64(out, u64::from(self.expansion));
        out.push_str(",\"finish_order\":");
        write_list(out, self.finish_order[..usize::from(self.finished)].iter().map(|&s| u64::from(s)));
        out.push_str(",\"last_play_seat\":");
        write_opt(out, self.table.map(|t| u64::from(t.seat)));
        out.push_str(",\"leader\":");
        write_opt(out, self.leader.map(u64::from));
        out.push_str(",\"over\":");
        out.push_str(bool_str(over));
        out.push_str(",\"passed\":");
        write_list(out, (0..8u64).filter(|s| self.passed & (1 << s) != 0));
        out.push_str(",\"pile_size\":");
        write_u64(out, u64::from(self.pile.count_ones()));
        out.push_str(",\"players\":[");
        for s in 0..usize::from(self.players) {
            if s > 0 {
                out.push(',');
            }
            out.push_str("{\"finish\":");
            write_opt(out, (self.finish[s] != 0).then(|| u64::from(self.finish[s])));
            out.push_str(",\"hand_size\":");
            write_u64(out, u64::from(self.hands[s].count_ones()));
            out.push_str(",\"matchsticks\":");
            write_u64(out, u64::from(self.matchsticks[s]));
            out.push_str(",\"out\":");
            out.push_str(bool_str(!self.is_active(s)));
            out.push_str(",\"seat\":");
            write_u64(out, s as u64);
            out.push('}');
        }
        out.push_str("],\"removed\":");
        write_u64(out, u64::from(self.removed.count_ones()));
        out.push_str(",\"removed_cards\":");
        write_mask(out, self.removed);
        out.push_str(",\"revolution\":");
        out.push_str(bool_str(self.revolution));
        out.push_str(",\"set_aside\":");
        write_u64(out, u64::from(self.set_aside.count_ones()));
        out.push_str(",\"table\":");
        match &self.table {
            Some(t) => t.write(out),
            None => out.push_str("null"),
        }
        out.push_str(",\"trick_cards\":");
        write_mask(out, self.pile);
        out.push_str(",\"turn\":");
        write_opt(out, (!over).then(|| u64::from(self.current)));
        out.push('}');
    }

    fn write_private(&self, seat: Option<Seat>, out: &mut String) {
        let s = match seat {
            Some(s) if s < usize::from(self.players) => s,
            _ => return out.push_str("null"),
        };
        out.push_str("{\"hand\":[");
        let mut m = self.hands[s];
        while m != 0 {
            let id = m.trailing_zeros() as u8;
            m &= m - 1;
            out.push_str("{\"card\":");
            write_string(out, card_type(id).name());
            out.push_str(",\"id\":");
            write_u64(out, u64::from(id));
            out.push('}');
            if m != 0 {
                out.push(',');
            }
        }
        out.push_str("],\"seat\":");
        write_u64(out, s as u64);
        out.push('}');
    }
}

impl TablePlay {
    /// The play as canonical JSON: the table in views and saves.
    fn write(&self, out: &mut String) {
        self.write_as(out, None);
    }

    /// [`TablePlay::write`] with a `type` key added (the play as an event).
    fn write_as(&self, out: &mut String, kind: Option<&str>) {
        out.push_str("{\"cards\":");
        write_array(out, 0..usize::from(self.count), |out, i| {
            let id = self.cards[i];
            let rotated = self.rotated & (1 << i) != 0;
            out.push_str("{\"added\":");
            write_segments(out, self.added[i]);
            out.push_str(",\"card\":");
            write_string(out, card_type(id).name());
            out.push_str(",\"id\":");
            write_u64(out, u64::from(id));
            out.push_str(",\"lit\":");
            write_segments(out, segments::shape(card_type(id), rotated));
            out.push_str(",\"rotated\":");
            out.push_str(bool_str(rotated));
            out.push('}');
        });
        out.push_str(",\"cost\":");
        write_u64(out, u64::from(self.cost));
        out.push_str(",\"count\":");
        write_u64(out, u64::from(self.count));
        out.push_str(",\"seat\":");
        write_u64(out, u64::from(self.seat));
        if let Some(kind) = kind {
            out.push_str(",\"type\":");
            write_string(out, kind);
        }
        out.push_str(",\"value\":");
        write_string(out, self.value.name());
        out.push('}');
    }
}

impl Event {
    /// The event as canonical JSON.
    fn write(&self, out: &mut String) {
        // Every event's other keys sort before `type`, which therefore comes last.
        let fields = |out: &mut String, pairs: &[(&str, u64)], kind: &str| {
            out.push('{');
            for (key, value) in pairs {
                write_string(out, key);
                out.push(':');
                write_u64(out, *value);
                out.push(',');
            }
            out.push_str("\"type\":");
            write_string(out, kind);
            out.push('}');
        };
        match self {
            Event::Play(top) => top.write_as(out, Some("play")),
            Event::Pass { seat, matchsticks } => {
                fields(out, &[("matchsticks", u64::from(*matchsticks)), ("seat", u64::from(*seat))], "pass")
            }
            Event::Discard { seat, matchsticks } => fields(
                out,
                &[("matchsticks", u64::from(*matchsticks)), ("seat", u64::from(*seat))],
                "discard_matchstick",
            ),
            Event::Revolution(on) => {
                out.push_str("{\"revolution\":");
                out.push_str(bool_str(*on));
                out.push_str(",\"type\":\"revolution\"}");
            }
            Event::WentOut { seat, position } => {
                fields(out, &[("position", u64::from(*position)), ("seat", u64::from(*seat))], "went_out")
            }
            Event::TrickCleared { cards, leader } => {
                fields(out, &[("leader", u64::from(*leader)), ("removed", u64::from(*cards))], "trick_cleared")
            }
            Event::GameOver => fields(out, &[], "game_over"),
        }
    }
}

/// The card ids of `mask` in increasing order, as `mask_json` lists them.
fn write_mask(out: &mut String, mask: u64) {
    let mut m = mask;
    write_list(
        out,
        std::iter::from_fn(|| {
            (m != 0).then(|| {
                let id = m.trailing_zeros();
                m &= m - 1;
                u64::from(id)
            })
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{canonical, written};

    #[test]
    fn events_are_written_as_canonical_json_of_their_kind() {
        let play = TablePlay {
            seat: 2,
            count: 2,
            value: Value::ALL[9],
            cards: [5, 40, 0, 0, 0],
            rotated: 0b10,
            added: [0, 0b0100_0001, 0, 0, 0],
            cost: 1,
        };
        let events = [
            (Event::Play(play), "play"),
            (Event::Pass { seat: 1, matchsticks: 7 }, "pass"),
            (Event::Discard { seat: 0, matchsticks: 0 }, "discard_matchstick"),
            (Event::Revolution(true), "revolution"),
            (Event::Revolution(false), "revolution"),
            (Event::WentOut { seat: 3, position: 2 }, "went_out"),
            (Event::TrickCleared { cards: 4, leader: 1 }, "trick_cleared"),
            (Event::GameOver, "game_over"),
        ];
        for (event, kind) in &events {
            let mut out = String::new();
            event.write(&mut out);
            let value = written(|o| o.push_str(&out));
            assert_eq!(canonical(&value), out, "{event:?}");
            assert_eq!(value["type"], *kind, "{event:?}");
        }
    }
}
