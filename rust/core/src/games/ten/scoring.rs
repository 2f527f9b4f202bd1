//! TEN's end-of-game scoring with wilds placed optimally (§4.10) and the winner's tie-breaks (§4.11).
//!
//! Each colour scores its longest run of consecutive numbers (a full 1–9 run adds the perfect-run bonus), and
//! every wild may fill one gap of one run. Trying every placement explodes (18 wilds give ~10^15 cases), so the
//! search is split in two:
//! - per colour, every run window (45 of them, or none) is tried, and its gaps are filled by that colour's #
//!   wilds, the numbered multicolour wilds of the gap numbers, and the multicolour #; this gives, for each set
//!   of numbered wilds and each use of the multicolour #, the best that colour can score with exactly them;
//! - a DP over the four colours, keyed by the set of numbered wilds used so far (a mask over the owned ones)
//!   and whether the multicolour # is used, combines the colours without sharing a wild.
//!
//! Colour # wilds need no key: they can only serve their own colour. The DP costs about 3^k steps for k
//! numbered wilds held, so the time grows with those alone: well under a microsecond for a collection with
//! a few wilds, tens of microseconds if one player holds all nine (`examples/ten_scoring_speed.rs`).

use std::cmp::Reverse;
use std::fmt;
use std::sync::OnceLock;

use super::cards::{Colour, TenData, TenKind};

/// Why a collection cannot be scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreError {
    /// A number card or numbered wild whose number is not 1..=9.
    ValueOutOfRange(TenKind),
    /// Two numbered wilds with the same number: TEN has one of each, and the search relies on it.
    DuplicateNumberWild(u8),
    /// Two multicolour # wilds: TEN has one, and the search relies on it.
    DuplicateAnyWild,
    /// A card id that is not in the data.
    UnknownCard(u8),
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreError::ValueOutOfRange(kind) => write!(f, "{kind:?} has a number outside 1..=9"),
            ScoreError::DuplicateNumberWild(v) => {
                write!(f, "two numbered wilds {v}: TEN has one numbered wild per number")
            }
            ScoreError::DuplicateAnyWild => f.write_str("two multicolour # wilds: TEN has one"),
            ScoreError::UnknownCard(id) => write!(f, "no TEN card has id {id}"),
        }
    }
}

impl std::error::Error for ScoreError {}

/// Where one wild went in the best placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Placement {
    /// The wild: its position in the slice given to [`score`], or its card id for [`TenData::score_ids`].
    pub card: usize,
    /// The colour it takes.
    pub colour: Colour,
    /// The number it takes, 1..=9.
    pub value: u8,
}

/// A best score with the placement that reaches it, for showing players where each wild went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ScoreBreakdown {
    /// Sum of the colour scores.
    pub total: u16,
    /// Score of each colour, by [`Colour::index`].
    pub per_colour: [u16; 4],
    /// The scoring run of each colour as (lowest, highest) number, or `None` when the colour scores 0.
    pub runs: [Option<(u8, u8)>; 4],
    /// The wilds used, by colour and then number; wilds not listed are not needed.
    pub placements: Vec<Placement>,
}

/// What scoring needs to know about a collection: it is cheap to copy and to build up card by card.
///
/// Duplicate number cards change nothing (a run uses each number once), and colour # wilds are counted, but a
/// second numbered wild with the same number or a second multicolour # is refused, since TEN has one of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Per colour, bit `v - 1` is set when the collection holds that colour's number `v`.
    numbers: [u16; 4],
    /// Per colour, how many colour # wilds (saturating; more than 9 never helps).
    colour_wilds: [u8; 4],
    /// Bit `v - 1` is set when the collection holds the numbered wild `v`.
    number_wilds: u16,
    /// Whether the collection holds the multicolour # wild.
    any_wild: bool,
}

impl Tally {
    /// An empty collection.
    pub fn new() -> Tally {
        Tally::default()
    }

    /// The tally of a whole collection; currency cards are ignored, as they are never collected.
    pub fn from_kinds<I: IntoIterator<Item = TenKind>>(kinds: I) -> Result<Tally, ScoreError> {
        let mut tally = Tally::new();
        for kind in kinds {
            tally.add(kind)?;
        }
        Ok(tally)
    }

    /// Adds one card.
    pub fn add(&mut self, kind: TenKind) -> Result<(), ScoreError> {
        match kind {
            TenKind::Number { colour, value } => self.numbers[colour.index()] |= value_bit(kind, value)?,
            TenKind::ColourWild { colour } => {
                let count = &mut self.colour_wilds[colour.index()];
                *count = count.saturating_add(1).min(9);
            }
            TenKind::NumberWild { value } => {
                let bit = value_bit(kind, value)?;
                if self.number_wilds & bit != 0 {
                    return Err(ScoreError::DuplicateNumberWild(value));
                }
                self.number_wilds |= bit;
            }
            TenKind::AnyWild => {
                if self.any_wild {
                    return Err(ScoreError::DuplicateAnyWild);
                }
                self.any_wild = true;
            }
            TenKind::Currency { .. } => {}
        }
        Ok(())
    }

    /// The best total over all placements of the wilds. Allocates nothing.
    pub fn best_total(&self, perfect_run_bonus: u8) -> u16 {
        if self.number_wilds == 0 && !self.any_wild {
            return self.colours_alone_total(perfect_run_bonus);
        }
        score_of_key(solve(self, perfect_run_bonus, false).key)
    }

    /// [`Tally::best_total`] when every wild held is a colour # wild: then no wild can serve two colours,
    /// so each colour scores its best window with no more gaps than its own # wilds, and the search over
    /// shared wilds is not needed (most collections of a game hold no wild, or colour # wilds only).
    fn colours_alone_total(&self, perfect_run_bonus: u8) -> u16 {
        static RUNS: OnceLock<Vec<[u8; 10]>> = OnceLock::new();
        let runs = RUNS.get_or_init(|| (0..512u16).map(longest_runs).collect());
        let mut total = 0;
        for (&numbers, &wilds) in self.numbers.iter().zip(&self.colour_wilds) {
            let run = runs[usize::from(numbers & FULL_RUN)][usize::from(wilds.min(9))];
            total += u16::from(run);
            if run == 9 {
                total += u16::from(perfect_run_bonus);
            }
        }
        total
    }

    /// The best total with a placement that reaches it; `source` maps each wild back to the caller's cards.
    fn breakdown(&self, perfect_run_bonus: u8, source: &WildSources) -> ScoreBreakdown {
        let outcome = solve(self, perfect_run_bonus, true);
        let mut out = ScoreBreakdown { total: score_of_key(outcome.key), ..ScoreBreakdown::default() };
        for (c, choice) in outcome.choices.into_iter().enumerate() {
            let Some((lo, hi)) = unpack_window(choice.window) else { continue };
            let colour = Colour::ALL[c];
            let window = window_mask(lo, hi);
            out.per_colour[c] = run_score(window, perfect_run_bonus);
            out.runs[c] = Some((lo + 1, hi + 1));
            let mut colour_wilds_left = self.colour_wilds[c];
            let mut colour_wilds_used = 0usize;
            let gaps = window & !self.numbers[c];
            for v in 0..9u8 {
                let bit = 1u16 << v;
                if gaps & bit == 0 {
                    continue;
                }
                // Inside one colour the order of fill does not matter; filling low gaps with # wilds first
                // just makes the shown placement stable.
                let card = if choice.number_wilds & bit != 0 {
                    source.number_wild[usize::from(v)]
                } else if colour_wilds_left > 0 {
                    colour_wilds_left -= 1;
                    colour_wilds_used += 1;
                    source.colour_wild(c, colour_wilds_used - 1)
                } else {
                    source.any_wild
                };
                out.placements.push(Placement { card, colour, value: v + 1 });
            }
        }
        out
    }
}

/// The best total of a collection (§4.10). Allocates nothing.
pub fn best_total(kinds: &[TenKind], perfect_run_bonus: u8) -> Result<u16, ScoreError> {
    Ok(Tally::from_kinds(kinds.iter().copied())?.best_total(perfect_run_bonus))
}

/// The best total of a collection with one placement of the wilds that reaches it (§4.10).
///
/// `Placement::card` is the wild's position in `kinds`.
pub fn score(kinds: &[TenKind], perfect_run_bonus: u8) -> Result<ScoreBreakdown, ScoreError> {
    let tally = Tally::from_kinds(kinds.iter().copied())?;
    let source = WildSources::new(kinds);
    Ok(tally.breakdown(perfect_run_bonus, &source))
}

impl TenData {
    /// The best total of the cards with these ids, using this data's perfect-run bonus. Allocates nothing.
    pub fn best_total_ids(&self, ids: &[u8]) -> Result<u16, ScoreError> {
        let mut tally = Tally::new();
        for &id in ids {
            tally.add(self.kind(id).ok_or(ScoreError::UnknownCard(id))?)?;
        }
        Ok(tally.best_total(self.perfect_run_bonus))
    }

    /// The best total of the cards with these ids and where each wild goes; `Placement::card` is a card id.
    pub fn score_ids(&self, ids: &[u8]) -> Result<ScoreBreakdown, ScoreError> {
        let kinds =
            ids.iter().map(|&id| self.kind(id).ok_or(ScoreError::UnknownCard(id))).collect::<Result<Vec<_>, _>>()?;
        let mut breakdown = score(&kinds, self.perfect_run_bonus)?;
        for placement in &mut breakdown.placements {
            placement.card = usize::from(ids[placement.card]);
        }
        Ok(breakdown)
    }
}

/// The order of §4.11 between players: higher is better. Compare keys, never the parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TieBreakKey {
    score: u16,
    tokens: u8,
    fewer_cards: Reverse<usize>,
}

/// The key ranking a player by total score, then currency tokens (bust tokens do not count), then the fewest
/// cards in the collection (§4.11).
pub fn tie_break_key(score: u16, tokens: u8, collection_size: usize) -> TieBreakKey {
    TieBreakKey { score, tokens, fewer_cards: Reverse(collection_size) }
}

/// The seats (indices into `keys`) that share the win: all those with the greatest key (§4.11 step 4).
pub fn winners(keys: &[TieBreakKey]) -> Vec<usize> {
    let Some(best) = keys.iter().max() else { return Vec::new() };
    keys.iter().enumerate().filter(|(_, k)| *k == best).map(|(seat, _)| seat).collect()
}

const FULL_RUN: u16 = 0x1FF;
const NO_WINDOW: u8 = 0xFF;
/// Marks a state no placement reaches. Reachable values are never negative, and this one is so far below them
/// that adding it to anything stays negative, so the DP can take maxima without testing reachability.
const UNREACHABLE: i32 = -(1 << 28);
/// Search values are `WILD_WEIGHT * score - wilds placed`: the most points first, then the fewest wilds, so a
/// shown placement never holds a wild that adds nothing. At most 36 wilds can be placed, fewer than the weight.
const WILD_WEIGHT: i32 = 64;

/// Bit `value - 1`, for a value that must be 1..=9.
fn value_bit(kind: TenKind, value: u8) -> Result<u16, ScoreError> {
    if (1..=9).contains(&value) {
        Ok(1 << (value - 1))
    } else {
        Err(ScoreError::ValueOutOfRange(kind))
    }
}

/// Per count of # wilds `w` (0..=9), the longest window of the nine numbers with at most `w` numbers
/// missing from `numbers`.
fn longest_runs(numbers: u16) -> [u8; 10] {
    let mut best = [0u8; 10];
    for lo in 0..9u8 {
        for hi in lo..9u8 {
            let gaps = (window_mask(lo, hi) & !numbers).count_ones() as usize;
            for entry in &mut best[gaps..] {
                *entry = (*entry).max(hi - lo + 1);
            }
        }
    }
    best
}

/// The numbers `lo..=hi` (0-based) as a mask.
fn window_mask(lo: u8, hi: u8) -> u16 {
    ((1u16 << (hi - lo + 1)) - 1) << lo
}

fn run_score(window: u16, perfect_run_bonus: u8) -> u16 {
    let len = window.count_ones() as u16;
    if window == FULL_RUN {
        len + u16::from(perfect_run_bonus)
    } else {
        len
    }
}

fn unpack_window(packed: u8) -> Option<(u8, u8)> {
    (packed != NO_WINDOW).then_some((packed >> 4, packed & 0xF))
}

fn score_of_key(key: i32) -> u16 {
    // key = 64 * score - wilds with 0 <= wilds < 64, so rounding up recovers the score.
    u16::try_from((key.max(0) + WILD_WEIGHT - 1) / WILD_WEIGHT).unwrap_or(u16::MAX)
}

/// Maps masks over the nine numbers onto masks over the owned numbered wilds only, so that every table is
/// as small as the number of numbered wilds owned allows (2^k entries for k wilds).
struct Compress {
    positions: [u8; 9],
    len: usize,
}

impl Compress {
    fn new(owned: u16) -> Compress {
        let mut positions = [0u8; 9];
        let mut len = 0;
        for v in 0..9u8 {
            if owned & (1 << v) != 0 {
                positions[len] = v;
                len += 1;
            }
        }
        Compress { positions, len }
    }

    fn compress(&self, mask: u16) -> usize {
        let mut out = 0;
        for (i, &v) in self.positions[..self.len].iter().enumerate() {
            if mask & (1 << v) != 0 {
                out |= 1 << i;
            }
        }
        out
    }

    fn expand(&self, compressed: usize) -> u16 {
        let mut out = 0;
        for (i, &v) in self.positions[..self.len].iter().enumerate() {
            if compressed & (1 << i) != 0 {
                out |= 1 << v;
            }
        }
        out
    }
}

/// What one colour uses in the best placement.
#[derive(Clone, Copy)]
struct Choice {
    window: u8,
    /// The numbered wilds it uses, as a mask over the nine numbers.
    number_wilds: u16,
}

const NO_CHOICE: Choice = Choice { window: NO_WINDOW, number_wilds: 0 };

/// The best search value and, when asked for, one choice per colour that reaches it.
struct Outcome {
    key: i32,
    choices: [Choice; 4],
}

/// Runs the search with tables just large enough for the numbered wilds owned: most collections hold few,
/// and filling 512-entry tables would then cost more than the search itself.
fn solve(tally: &Tally, bonus: u8, want_choices: bool) -> Outcome {
    let compress = Compress::new(tally.number_wilds);
    match compress.len {
        0 => Search::<1>::run(tally, bonus, compress, want_choices),
        1..=2 => Search::<4>::run(tally, bonus, compress, want_choices),
        3..=4 => Search::<16>::run(tally, bonus, compress, want_choices),
        5..=6 => Search::<64>::run(tally, bonus, compress, want_choices),
        7 => Search::<128>::run(tally, bonus, compress, want_choices),
        8 => Search::<256>::run(tally, bonus, compress, want_choices),
        _ => Search::<512>::run(tally, bonus, compress, want_choices),
    }
}

/// Values per (multicolour # used: 0 or 1, set of numbered wilds used, compressed).
type Layer<const N: usize> = [[i32; N]; 2];

/// Per colour: the best value using exactly each set of numbered wilds and multicolour # use, and the window
/// that reaches it.
struct ColourTable<const N: usize> {
    value: Layer<N>,
    window: [[u8; N]; 2],
}

impl<const N: usize> ColourTable<N> {
    fn build(tally: &Tally, c: usize, compress: &Compress, bonus: u8) -> ColourTable<N> {
        let mut table = ColourTable { value: [[UNREACHABLE; N]; 2], window: [[NO_WINDOW; N]; 2] };
        table.value[0][0] = 0;
        let numbers = tally.numbers[c];
        let colour_wilds = u32::from(tally.colour_wilds[c]);
        let any = u32::from(tally.any_wild);
        for lo in 0..9u8 {
            // A window that a held number would lengthen for free is beaten by the longer one.
            if lo > 0 && numbers & (1 << (lo - 1)) != 0 {
                continue;
            }
            for hi in lo..9u8 {
                let window = window_mask(lo, hi);
                let gaps = window & !numbers;
                let gap_count = gaps.count_ones();
                let fillable_mask = gaps & tally.number_wilds;
                let fillable_count = fillable_mask.count_ones();
                // Gaps without a numbered wild need # wilds, and widening the window never removes one.
                if gap_count - fillable_count > colour_wilds + any {
                    break;
                }
                if hi < 8 && numbers & (1 << (hi + 1)) != 0 {
                    continue;
                }
                // How many gaps numbered wilds take: the rest must fit the # wilds, and a numbered wild is
                // never used while a colour # wild sits idle (swapping them frees the numbered one).
                let fewest = gap_count.saturating_sub(colour_wilds + any);
                let most = if gap_count > colour_wilds { fillable_count.min(gap_count - colour_wilds) } else { 0 };
                let value = i32::from(run_score(window, bonus)) * WILD_WEIGHT - gap_count as i32;
                let packed = (lo << 4) | hi;
                let fillable = compress.compress(fillable_mask);
                // Usually all but a few fillable gaps take numbered wilds, so enumerate the few left out.
                let least_out = fillable_count - most;
                for_each_subset_up_to(fillable, fillable_count - fewest, &mut |out| {
                    let left_out = out.count_ones();
                    if left_out < least_out {
                        return;
                    }
                    let numbered = fillable ^ out;
                    let by_any = (gap_count - fillable_count + left_out).saturating_sub(colour_wilds) as usize;
                    if value > table.value[by_any][numbered] {
                        table.value[by_any][numbered] = value;
                        table.window[by_any][numbered] = packed;
                    }
                });
            }
        }
        table
    }
}

/// Calls `f` once with every subset of `mask` that has at most `limit` bits.
fn for_each_subset_up_to<F: FnMut(usize)>(mask: usize, limit: u32, f: &mut F) {
    fn extend<F: FnMut(usize)>(chosen: usize, candidates: usize, limit: u32, f: &mut F) {
        f(chosen);
        if limit == 0 {
            return;
        }
        // Each subset is built once, adding bits in increasing order.
        let mut rest = candidates;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            extend(chosen | bit, rest, limit - 1, f);
        }
    }
    extend(0, mask, limit, f);
}

/// `next[a + a'][m | t] = max(prev[a][m] + table[a'][t])` over disjoint `m`, `t` and `a + a' <= 1`: one more
/// colour in the DP. This loop is the 3^k part of the search, so it is kept free of branches: unreachable
/// entries just lose every maximum, and masking indices with `N - 1` (N is a power of two, `size <= N`)
/// lets the compiler drop the bounds checks.
fn combine<const N: usize>(prev: &Layer<N>, table: &Layer<N>, next: &mut Layer<N>, size: usize) {
    let all = size - 1;
    let [prev0, prev1] = prev;
    let [table0, table1] = table;
    let [next0, next1] = next;
    for mask in 0..size {
        let (base0, base1) = (prev0[mask], prev1[mask]);
        if base0 < 0 && base1 < 0 {
            continue;
        }
        let free = all & !mask;
        let mut add = free;
        loop {
            let (t, to) = (add & (N - 1), (mask | add) & (N - 1));
            next0[to] = next0[to].max(base0 + table0[t]);
            next1[to] = next1[to].max(base0 + table1[t]).max(base1 + table0[t]);
            if add == 0 {
                break;
            }
            add = (add - 1) & free;
        }
    }
}

/// The DP over the colours: `layers[c][any][mask]` is the best value of colours `0..=c` using exactly the
/// numbered wilds `mask` and `any` multicolour # wilds. The last colour is folded in through a subset-max
/// table, which costs 2^k instead of 3^k.
struct Search<const N: usize> {
    compress: Compress,
    tables: [ColourTable<N>; 4],
    layers: [Layer<N>; 3],
}

impl<const N: usize> Search<N> {
    fn run(tally: &Tally, bonus: u8, compress: Compress, want_choices: bool) -> Outcome {
        let size = 1usize << compress.len;
        let all = size - 1;
        let any = usize::from(tally.any_wild);
        let tables = [0, 1, 2, 3].map(|c| ColourTable::<N>::build(tally, c, &compress, bonus));
        let mut layers = [[[UNREACHABLE; N]; 2]; 3];
        layers[0] = tables[0].value;
        for c in 1..3 {
            let (done, rest) = layers.split_at_mut(c);
            combine(&done[c - 1], &tables[c].value, &mut rest[0], size);
        }
        // closure[a][s] = best of the last colour using a subset of s.
        let mut closure = tables[3].value;
        for row in closure.iter_mut().take(any + 1) {
            for bit in 0..compress.len {
                for s in 0..size {
                    if s & (1 << bit) != 0 {
                        row[s] = row[s].max(row[s ^ (1 << bit)]);
                    }
                }
            }
        }
        let mut key = UNREACHABLE;
        let mut state = (0, 0, 0);
        for (a_prev, layer) in layers[2].iter().enumerate().take(any + 1) {
            for (mask, &base) in layer.iter().enumerate().take(size) {
                if base < 0 {
                    continue;
                }
                for (a_last, row) in closure.iter().enumerate().take(any - a_prev + 1) {
                    let v = row[all & !mask];
                    if v >= 0 && base + v > key {
                        key = base + v;
                        state = (a_prev, mask, a_last);
                    }
                }
            }
        }
        let choices =
            if want_choices { Search { compress, tables, layers }.choices(key, state, all) } else { [NO_CHOICE; 4] };
        Outcome { key, choices }
    }

    /// Walks back from the best final state to one choice per colour.
    fn choices(&self, key: i32, state: (usize, usize, usize), all: usize) -> [Choice; 4] {
        let mut out = [NO_CHOICE; 4];
        let (mut a, mut mask, a_last) = state;
        let last = &self.tables[3];
        let target = key - self.layers[2][a][mask];
        let free = all & !mask;
        let mut sub = free;
        loop {
            if last.value[a_last][sub] == target {
                out[3] = Choice { window: last.window[a_last][sub], number_wilds: self.compress.expand(sub) };
                break;
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & free;
        }
        for c in (1..3).rev() {
            let value = self.layers[c][a][mask];
            let table = &self.tables[c];
            let mut found = None;
            let mut own = mask;
            'search: loop {
                for a_here in 0..=a {
                    let prev = self.layers[c - 1][a - a_here][mask & !own];
                    let here = table.value[a_here][own];
                    if prev >= 0 && here >= 0 && prev + here == value {
                        found = Some((a_here, own));
                        break 'search;
                    }
                }
                if own == 0 {
                    break;
                }
                own = (own - 1) & mask;
            }
            if let Some((a_here, own)) = found {
                out[c] = Choice { window: table.window[a_here][own], number_wilds: self.compress.expand(own) };
                a -= a_here;
                mask &= !own;
            }
        }
        out[0] = Choice { window: self.tables[0].window[a][mask], number_wilds: self.compress.expand(mask) };
        out
    }
}

/// Where each wild of a `&[TenKind]` collection sits, to turn a placement back into a card position.
struct WildSources<'a> {
    kinds: &'a [TenKind],
    number_wild: [usize; 9],
    any_wild: usize,
}

impl<'a> WildSources<'a> {
    fn new(kinds: &'a [TenKind]) -> WildSources<'a> {
        let mut number_wild = [0; 9];
        let mut any_wild = 0;
        for (i, kind) in kinds.iter().enumerate() {
            match *kind {
                TenKind::NumberWild { value: v @ 1..=9 } => number_wild[usize::from(v - 1)] = i,
                TenKind::AnyWild => any_wild = i,
                _ => {}
            }
        }
        WildSources { kinds, number_wild, any_wild }
    }

    /// The position of the `nth` colour # wild of colour `c`.
    fn colour_wild(&self, c: usize, nth: usize) -> usize {
        self.kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| matches!(k, TenKind::ColourWild { colour } if colour.index() == c))
            .nth(nth)
            .map_or(0, |(i, _)| i)
    }
}
