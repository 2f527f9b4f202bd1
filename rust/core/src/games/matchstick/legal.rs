//! Matchstick Tycoon's legal moves, counted, unranked and ranked without building the set (see the
//! module documentation of [`super`] for the order), and the plays a seat may make.

use super::rules::*;
use crate::error::GameError;
use crate::game::{Game, Seat};
use crate::segments::{self, Value};

/// Multisets of card types counted by size (rows 0..=5) and exact matchstick cost (lanes), for one
/// value. Three layouts: 16-bit lanes packed in one `u64` per row for budgets up to 3 and in one `u128`
/// for budgets up to 7 (the usual cases, all in registers), and plain arrays for larger budgets. Counts
/// never exceed C(20, 5) = 15504, so packed lanes never carry into each other.
pub(super) trait CostRows: Copy {
    /// The table holding only the empty multiset.
    fn unit() -> Self;
    /// Adds one card type (`cap` copies, `w` matchsticks each), for sizes up to `kmax` and costs up to
    /// `bmax`.
    fn add_type(&mut self, cap: usize, w: usize, kmax: usize, bmax: usize);
    /// Multisets of size `j` costing at most `b`.
    fn within(&self, j: usize, b: usize) -> usize;
}

/// Budgets below this use [`Packed64`] rows.
pub(super) const PACKED64_LANES: usize = 4;

/// Budgets below this use [`Packed128`] rows.
pub(super) const PACKED128_LANES: usize = 8;

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
pub(super) struct Wide([[u16; LANES]; MAX_PLAY + 1]);

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
pub(super) struct NamedPlays<'a, N, F> {
    pub(super) names: &'a N,
    pub(super) counts: &'a [u8; TYPES],
    pub(super) v: usize,
    pub(super) emit: F,
}

impl<N: PlayNames, F: FnMut(u32)> NamedPlays<'_, N, F> {
    /// Emits every way to add `left ≥ 1` cards of the types in `mask` within `budget` matchsticks to a
    /// choice named `name`: more copies of a lower type first, and every choice with a type before those
    /// without it.
    pub(super) fn walk(&mut self, mask: u16, left: usize, budget: u32, name: u32) {
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
pub(super) struct Candidates {
    pub(super) len: usize,
    pub(super) types: [u8; TYPES],
    pub(super) caps: [u8; TYPES],
    pub(super) costs: [u8; TYPES],
    pub(super) budget: usize,
}

impl Candidates {
    pub(super) fn new(counts: &[u8; TYPES], present: u16, v: usize, k: usize, matchsticks: u32) -> Candidates {
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
    pub(super) fn suffix_tables<R: CostRows>(&self, k: usize) -> [R; TYPES + 1] {
        let mut tables = [R::unit(); TYPES + 1];
        for i in (0..self.len).rev() {
            tables[i] = tables[i + 1];
            tables[i].add_type(usize::from(self.caps[i]), usize::from(self.costs[i]), k, self.budget);
        }
        tables
    }

    /// The `index`-th multiset of `k` cards: copies per candidate.
    pub(super) fn unrank(&self, k: usize, index: usize) -> Option<[u8; TYPES]> {
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

    pub(super) fn unrank_in<R: CostRows>(&self, k: usize, mut index: usize) -> Option<[u8; TYPES]> {
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
    pub(super) fn rank(&self, k: usize, wanted: &[u8; TYPES]) -> Option<usize> {
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

    pub(super) fn rank_in<R: CostRows>(&self, k: usize, wanted: &[u8; TYPES]) -> Option<usize> {
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
pub(super) fn count_sizes(counts: &[u8; TYPES], mask: u16, v: usize, kmax: usize, matchsticks: u32, out: &mut [u16]) {
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

pub(super) fn count_several(counts: &[u8; TYPES], mask: u16, v: usize, kmax: usize, matchsticks: u32, out: &mut [u16]) {
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

pub(super) fn count_costed<R: CostRows>(
    counts: &[u8; TYPES],
    mask: u16,
    v: usize,
    kmax: usize,
    bmax: usize,
    out: &mut [u16],
) {
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

impl Matchstick {
    /// Recomputes the legal-move counts of the player to act.
    pub(super) fn refresh_legal(&mut self) {
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

    pub(super) fn pass_offset(&self) -> usize {
        usize::from(self.legal.turn == Turn::Follow)
    }

    pub(super) fn play_sizes(&self) -> std::ops::RangeInclusive<usize> {
        let (low, high) = match (self.legal.turn, self.table) {
            (Turn::Follow, Some(top)) => (usize::from(top.count), usize::from(top.count)),
            (Turn::Lead, _) => (1, MAX_PLAY),
            _ => (1, 0),
        };
        low..=high
    }

    /// The `index`-th play as (value, cards): unrank.
    pub(super) fn unrank_play(&self, mut index: usize) -> Option<(usize, u64)> {
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
    pub(super) fn rank_play(&self, v: usize, copies: &[u8; TYPES], k: usize) -> Option<usize> {
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
    pub(super) fn play_copies(&self, seat: usize, mv: &PlayMove) -> Option<[u8; TYPES]> {
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
    pub(super) fn legal_play_copies(&self, seat: usize, p: &PlayMove) -> Option<[u8; TYPES]> {
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
}

impl Matchstick {
    /// [`Game::legal_move`] of this game.
    pub(super) fn unrank_move(&self, seat: Seat, index: usize) -> Option<MatchstickMove> {
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

    /// [`Game::index_of`] of this game.
    pub(super) fn rank_move(&self, seat: Seat, mv: &MatchstickMove) -> Option<usize> {
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

    /// [`Game::apply_index`] of this game.
    pub(super) fn apply_ranked(&mut self, seat: Seat, index: usize) -> Result<(), GameError> {
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
}

#[doc(hidden)]
impl Matchstick {
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
}
