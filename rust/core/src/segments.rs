//! Seven-segment glyphs for Matchstick Tycoon (rules §1.2, §1.3, §1.6, §1.10).
//!
//! A card shows a set of lit segments. Turning it 180° permutes the segments; a matchstick fills one empty
//! segment. A card shows value `V` when its (possibly turned) shape plus the added matchsticks is exactly the
//! glyph of `V`. Everything here is derived from two small data tables ([`Value`] glyphs and the printed
//! [`CardType`]s); the per-pair costs are folded into a table at compile time so the engine's lookups are O(1).
//!
//! Turning a card never changes how many segments it lights, so reaching a value costs the same number of
//! matchsticks from either orientation; only *whether* an orientation works differs.

use std::fmt;

/// A set of segments, one bit per segment: bit 0 = `a` (top), 1 = `b` (upper right), 2 = `c` (lower right),
/// 3 = `d` (bottom), 4 = `e` (lower left), 5 = `f` (upper left), 6 = `g` (middle). Bit 7 is never set by this
/// module and is ignored by its functions.
pub type Segments = u8;

/// Segment `a`, the top bar.
pub const SEG_A: Segments = 1 << 0;
/// Segment `b`, the upper right bar.
pub const SEG_B: Segments = 1 << 1;
/// Segment `c`, the lower right bar.
pub const SEG_C: Segments = 1 << 2;
/// Segment `d`, the bottom bar.
pub const SEG_D: Segments = 1 << 3;
/// Segment `e`, the lower left bar.
pub const SEG_E: Segments = 1 << 4;
/// Segment `f`, the upper left bar.
pub const SEG_F: Segments = 1 << 5;
/// Segment `g`, the middle bar.
pub const SEG_G: Segments = 1 << 6;
/// All seven segments (the glyph of 8).
pub const ALL_SEGMENTS: Segments = 0x7f;

const SEGMENT_LETTERS: [char; 7] = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

/// The segment letters of `s` in `a`..`g` order, e.g. `"acdefg"` for the glyph of 6; `""` for no segment.
pub fn segments_to_str(s: Segments) -> String {
    let mut out = String::with_capacity(SEGMENT_LETTERS.len());
    write_segment_letters(&mut out, s);
    out
}

/// Appends the segment letters of `s` (as [`segments_to_str`] spells them) to `out`, allocating nothing.
pub fn write_segment_letters(out: &mut String, s: Segments) {
    out.extend(SEGMENT_LETTERS.iter().enumerate().filter(|&(bit, _)| s & (1 << bit) != 0).map(|(_, &letter)| letter));
}

/// Parses segment letters (`a`..`g`, lower case, any order) into a set.
///
/// Returns `None` for any other character or for a letter given twice; `""` is the empty set.
pub fn segments_from_str(text: &str) -> Option<Segments> {
    let mut set: Segments = 0;
    for ch in text.chars() {
        let bit = SEGMENT_LETTERS.iter().position(|&l| l == ch)?;
        let mask = 1 << bit;
        if set & mask != 0 {
            return None;
        }
        set |= mask;
    }
    Some(set)
}

/// The shape of `s` after turning the card 180°: `a`↔`d`, `b`↔`e`, `c`↔`f`, `g` stays.
pub const fn rotate(s: Segments) -> Segments {
    // a, b, c (bits 0..2) and d, e, f (bits 3..5) swap as two blocks of three.
    ((s & 0b000_0111) << 3) | ((s & 0b011_1000) >> 3) | (s & SEG_G)
}

/// How many segments of `s` are lit (bit 7 ignored).
pub const fn segment_count(s: Segments) -> u8 {
    (s & ALL_SEGMENTS).count_ones() as u8
}

/// Number of values with the expansion (0..=F, G, H).
const VALUE_COUNT: usize = 18;
/// Number of values in the base game (0..=F).
const BASE_VALUE_COUNT: usize = 16;
/// Number of printed card types with the expansion.
const CARD_TYPE_COUNT: usize = 16;
/// Number of printed card types in the base game.
const BASE_CARD_TYPE_COUNT: usize = 14;

/// Glyphs in strength order (§1.3); index = [`Value::index`].
const GLYPHS: [Segments; VALUE_COUNT] = [
    SEG_A | SEG_B | SEG_C | SEG_D | SEG_E | SEG_F, // 0
    SEG_B | SEG_C,                                 // 1
    SEG_A | SEG_B | SEG_D | SEG_E | SEG_G,         // 2
    SEG_A | SEG_B | SEG_C | SEG_D | SEG_G,         // 3
    SEG_B | SEG_C | SEG_F | SEG_G,                 // 4
    SEG_A | SEG_C | SEG_D | SEG_F | SEG_G,         // 5
    SEG_A | SEG_C | SEG_D | SEG_E | SEG_F | SEG_G, // 6
    SEG_A | SEG_B | SEG_C,                         // 7
    ALL_SEGMENTS,                                  // 8
    SEG_A | SEG_B | SEG_C | SEG_D | SEG_F | SEG_G, // 9
    SEG_A | SEG_B | SEG_C | SEG_E | SEG_F | SEG_G, // A
    SEG_C | SEG_D | SEG_E | SEG_F | SEG_G,         // b
    SEG_A | SEG_D | SEG_E | SEG_F,                 // C
    SEG_B | SEG_C | SEG_D | SEG_E | SEG_G,         // d
    SEG_A | SEG_D | SEG_E | SEG_F | SEG_G,         // E
    SEG_A | SEG_E | SEG_F | SEG_G,                 // F
    SEG_A | SEG_C | SEG_D | SEG_E | SEG_F,         // G (expansion)
    SEG_B | SEG_C | SEG_E | SEG_F | SEG_G,         // H (expansion)
];

const VALUE_NAMES: [&str; VALUE_COUNT] =
    ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "b", "C", "d", "E", "F", "G", "H"];

/// A value a card can show, in normal strength order (§1.6): indices 0..=15 are hex 0..F, 16 = G, 17 = H
/// (G and H only with the expansion). The derived `Ord` is the normal (non-revolution) order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Value(u8);

impl Value {
    /// Number of values with the expansion.
    pub const COUNT: usize = VALUE_COUNT;
    /// Number of values in the base game (0..=F).
    pub const BASE_COUNT: usize = BASE_VALUE_COUNT;
    /// Every value, weakest to strongest in the normal order.
    pub const ALL: [Value; VALUE_COUNT] = {
        let mut all = [Value(0); VALUE_COUNT];
        let mut i = 0;
        while i < VALUE_COUNT {
            all[i] = Value(i as u8);
            i += 1;
        }
        all
    };

    /// The value with strength index `index` (0..=17), or `None` when out of range.
    pub const fn new(index: usize) -> Option<Value> {
        if index < VALUE_COUNT {
            Some(Value(index as u8))
        } else {
            None
        }
    }

    /// Strength index in the normal order: 0 for `0`, 15 for `F`, 16 for `G`, 17 for `H`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// True for G and H, which exist only with the expansion.
    pub const fn is_expansion(self) -> bool {
        self.index() >= BASE_VALUE_COUNT
    }

    /// The name as printed on the cards: `"0"`..`"9"`, `"A"`, `"b"`, `"C"`, `"d"`, `"E"`, `"F"`, `"G"`, `"H"`.
    pub const fn name(self) -> &'static str {
        VALUE_NAMES[self.index()]
    }

    /// Parses a value name in either case (`"b"` and `"B"` are both 11). `None` for anything else.
    pub fn parse(text: &str) -> Option<Value> {
        let [byte] = text.as_bytes() else {
            return None;
        };
        match byte.to_ascii_uppercase() {
            digit @ b'0'..=b'9' => Value::new(usize::from(digit - b'0')),
            letter @ b'A'..=b'H' => Value::new(usize::from(letter - b'A') + 10),
            _ => None,
        }
    }

    /// The segments lit when this value is shown.
    pub const fn glyph(self) -> Segments {
        GLYPHS[self.index()]
    }

    /// True when `self` is strictly stronger than `other` in the order in force (§1.6): the normal order, or
    /// the whole order reversed (G and H included) when `revolution` is set. Equal values never beat.
    pub const fn beats(self, other: Value, revolution: bool) -> bool {
        if revolution {
            self.0 < other.0
        } else {
            self.0 > other.0
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The segments lit when `v` is shown (§1.3).
pub const fn glyph(v: Value) -> Segments {
    v.glyph()
}

/// For each printed card type, the value it shows upright with no matchsticks.
const CARD_UPRIGHT_VALUES: [u8; CARD_TYPE_COUNT] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 15, 16, 17];

const CARD_NAMES: [&str; CARD_TYPE_COUNT] =
    ["0", "1", "2", "3E", "4", "5", "69", "7", "8", "A", "b", "C", "d", "F", "G", "H"];

/// A printed card type (§1.2), indexed 0..=15 in the order `0 1 2 3E 4 5 69 7 8 A b C d F G H`
/// (G and H only with the expansion). The 3E card reads 3 upright and E turned; the 69 card reads 6 and 9.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct CardType(u8);

impl CardType {
    /// Number of printed card types with the expansion.
    pub const COUNT: usize = CARD_TYPE_COUNT;
    /// Number of printed card types in the base game.
    pub const BASE_COUNT: usize = BASE_CARD_TYPE_COUNT;
    /// Every printed card type, in index order.
    pub const ALL: [CardType; CARD_TYPE_COUNT] = {
        let mut all = [CardType(0); CARD_TYPE_COUNT];
        let mut i = 0;
        while i < CARD_TYPE_COUNT {
            all[i] = CardType(i as u8);
            i += 1;
        }
        all
    };

    /// The card type with index `index` (0..=15), or `None` when out of range.
    pub const fn new(index: usize) -> Option<CardType> {
        if index < CARD_TYPE_COUNT {
            Some(CardType(index as u8))
        } else {
            None
        }
    }

    /// Index in the order `0 1 2 3E 4 5 69 7 8 A b C d F G H`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// True for the G and H cards, which exist only with the expansion.
    pub const fn is_expansion(self) -> bool {
        self.index() >= BASE_CARD_TYPE_COUNT
    }

    /// The printed name: `"0"`, `"1"`, `"2"`, `"3E"`, `"4"`, `"5"`, `"69"`, `"7"`, `"8"`, `"A"`, `"b"`, `"C"`,
    /// `"d"`, `"F"`, `"G"`, `"H"`.
    pub const fn name(self) -> &'static str {
        CARD_NAMES[self.index()]
    }

    /// Parses a printed card name in any case; the two-value cards also as `"3/E"` and `"6/9"`.
    ///
    /// Values without a card of their own (`"9"`, `"E"`) and lone halves (`"3"`, `"6"`) are refused, so a value
    /// passed where a card type is expected fails loudly instead of picking a card.
    pub fn parse(text: &str) -> Option<CardType> {
        let index = match text.as_bytes() {
            [b'3', b'e' | b'E'] | [b'3', b'/', b'e' | b'E'] => 3,
            [b'6', b'9'] | [b'6', b'/', b'9'] => 6,
            [b'3' | b'6'] => return None,
            _ => {
                let value = Value::parse(text)?;
                CARD_UPRIGHT_VALUES.iter().position(|&v| usize::from(v) == value.index())?
            }
        };
        CardType::new(index)
    }

    /// The value this card shows upright with no matchsticks (3 for the 3E card, 6 for the 69 card).
    pub const fn upright_value(self) -> Value {
        Value(CARD_UPRIGHT_VALUES[self.index()])
    }

    /// The segments printed on the card, seen upright.
    pub const fn upright(self) -> Segments {
        self.upright_value().glyph()
    }
}

impl fmt::Display for CardType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The segments a card shows in the given orientation, before any matchstick.
pub const fn shape(t: CardType, rotated: bool) -> Segments {
    if rotated {
        rotate(t.upright())
    } else {
        t.upright()
    }
}

/// Marks a shape that is no glyph in [`SHAPE_VALUES`].
const NO_VALUE: u8 = u8::MAX;

/// Every 7-bit shape mapped to the value whose glyph it is exactly, or [`NO_VALUE`].
const SHAPE_VALUES: [u8; 128] = {
    let mut table = [NO_VALUE; 128];
    let mut v = 0;
    while v < VALUE_COUNT {
        table[GLYPHS[v] as usize] = v as u8;
        v += 1;
    }
    table
};

/// The value whose glyph is exactly `s`, if any. G and H are recognised only when `expansion` is set.
pub const fn value_of_shape(s: Segments, expansion: bool) -> Option<Value> {
    if s & !ALL_SEGMENTS != 0 {
        return None;
    }
    match SHAPE_VALUES[s as usize] {
        NO_VALUE => None,
        index => {
            let v = Value(index);
            if v.is_expansion() && !expansion {
                None
            } else {
                Some(v)
            }
        }
    }
}

/// Matchsticks needed to turn `shape` into the glyph of `v`: `None` unless `shape` lies inside the glyph.
const fn shape_cost(shape: Segments, v: Value) -> Option<u8> {
    let target = v.glyph();
    if shape & !target != 0 {
        None
    } else {
        Some(segment_count(target & !shape))
    }
}

/// Matchsticks a card of type `t` needs to show `v` in the given orientation, or `None` when that shape has a
/// segment the glyph of `v` lacks. Does not look at the expansion flag: callers decide whether G/H are in play.
pub const fn cost(t: CardType, v: Value, rotated: bool) -> Option<u8> {
    shape_cost(shape(t, rotated), v)
}

// A [`REACH`] entry packs the cost (low bits) with one flag per working orientation; no flag = unreachable.
const REACH_UPRIGHT: u8 = 0x10;
const REACH_ROTATED: u8 = 0x20;
const REACH_COST_MASK: u8 = 0x0f;
const UNREACHABLE: u8 = 0;

/// `REACH[t][v]`: how card type `t` can show value `v`. Built at compile time; both orientations always cost
/// the same when both work, since turning keeps the number of lit segments.
const REACH: [[u8; VALUE_COUNT]; CARD_TYPE_COUNT] = {
    let mut table = [[UNREACHABLE; VALUE_COUNT]; CARD_TYPE_COUNT];
    let mut t = 0;
    while t < CARD_TYPE_COUNT {
        let card = CardType(t as u8);
        let mut v = 0;
        while v < VALUE_COUNT {
            let value = Value(v as u8);
            let mut entry = UNREACHABLE;
            if let Some(k) = cost(card, value, false) {
                entry = REACH_UPRIGHT | k;
            }
            if let Some(k) = cost(card, value, true) {
                entry |= REACH_ROTATED | k;
            }
            table[t][v] = entry;
            v += 1;
        }
        t += 1;
    }
    table
};

/// Fewest matchsticks a card of type `t` needs to show `v` in either orientation; `None` if it never can.
/// O(1) table lookup. Does not look at the expansion flag.
pub const fn min_cost(t: CardType, v: Value) -> Option<u8> {
    match REACH[t.index()][v.index()] {
        UNREACHABLE => None,
        entry => Some(entry & REACH_COST_MASK),
    }
}

/// The cheapest way for a card of type `t` to show `v`: `(rotated, matchsticks)`, upright when both
/// orientations work (they then cost the same). `None` if the card can never show `v`. O(1).
pub const fn cheapest_orientation(t: CardType, v: Value) -> Option<(bool, u8)> {
    match REACH[t.index()][v.index()] {
        UNREACHABLE => None,
        entry => Some((entry & REACH_UPRIGHT == 0, entry & REACH_COST_MASK)),
    }
}

/// One way to show a value with one card: the orientation and the matchsticks placed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Transform {
    /// The value shown.
    pub value: Value,
    /// True when the card is turned 180°.
    pub rotated: bool,
    /// Number of matchsticks placed (`segment_count(added)`).
    pub matchsticks: u8,
    /// The empty segments the matchsticks fill.
    pub added: Segments,
}

/// Every value a card of type `t` can show, in each orientation that works, weakest value first and upright
/// before rotated (the §1.10 table row, one entry per orientation). G and H appear only with `expansion`.
/// Allocation-free; see [`transforms`] for a `Vec`.
pub fn transforms_iter(t: CardType, expansion: bool) -> impl Iterator<Item = Transform> {
    let values = if expansion { VALUE_COUNT } else { BASE_VALUE_COUNT };
    Value::ALL[..values].iter().flat_map(move |&value| {
        [false, true].into_iter().filter_map(move |rotated| {
            let from = shape(t, rotated);
            let matchsticks = shape_cost(from, value)?;
            Some(Transform { value, rotated, matchsticks, added: value.glyph() & !from })
        })
    })
}

/// Every value a card of type `t` can show, as in [`transforms_iter`].
pub fn transforms(t: CardType, expansion: bool) -> Vec<Transform> {
    transforms_iter(t, expansion).collect()
}

/// What one character position of a rendered card shows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// Nothing there (background).
    Blank,
    /// Part of a segment printed on the card.
    Lit,
    /// Part of a segment filled by a matchstick.
    Added,
}

/// Size of a rendered card.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum RenderSize {
    /// 3 rows x 3 columns, bars drawn with `_` and `|`; for crowded screens.
    Compact,
    /// 5 rows x 4 columns, bars drawn with `-` and `|`.
    #[default]
    Normal,
}

impl RenderSize {
    /// Rows and columns of one card at this size.
    pub const fn dimensions(self) -> (usize, usize) {
        match self {
            RenderSize::Compact => (3, 3),
            RenderSize::Normal => (5, 4),
        }
    }

    /// Where each segment `a`..`g` is drawn: (row, first column, last column).
    const fn layout(self) -> [(usize, usize, usize); 7] {
        match self {
            // a, b, c, d, e, f, g
            RenderSize::Compact => [(0, 1, 1), (1, 2, 2), (2, 2, 2), (2, 1, 1), (2, 0, 0), (1, 0, 0), (1, 1, 1)],
            RenderSize::Normal => [(0, 1, 2), (1, 3, 3), (3, 3, 3), (4, 1, 2), (3, 0, 0), (1, 0, 0), (2, 1, 2)],
        }
    }

    const fn horizontal_char(self) -> char {
        match self {
            RenderSize::Compact => '_',
            RenderSize::Normal => '-',
        }
    }
}

/// Segments `a`, `d`, `g` are horizontal bars; the others vertical.
const HORIZONTAL: Segments = SEG_A | SEG_D | SEG_G;
/// What [`render_ascii`] draws for a horizontal bar filled by a matchstick.
pub const ADDED_HORIZONTAL: char = '=';
/// What [`render_ascii`] draws for a vertical bar filled by a matchstick.
pub const ADDED_VERTICAL: char = '!';

/// Draws a card at [`RenderSize::Normal`]: one row per line, one `(char, Cell)` per column; blank cells hold
/// `' '`. `lit` is the card's shape as it lies (already turned if rotated); `added` the matchsticks on it. A
/// segment in both counts as lit. Pure ASCII.
pub fn render(lit: Segments, added: Segments) -> Vec<Vec<(char, Cell)>> {
    render_sized(lit, added, RenderSize::Normal)
}

/// Draws a card at the given size, as [`render`] does.
pub fn render_sized(lit: Segments, added: Segments, size: RenderSize) -> Vec<Vec<(char, Cell)>> {
    let (rows, cols) = size.dimensions();
    let mut grid = vec![vec![(' ', Cell::Blank); cols]; rows];
    for (bit, &(row, first, last)) in size.layout().iter().enumerate() {
        let mask = 1 << bit;
        let cell = if lit & mask != 0 {
            Cell::Lit
        } else if added & mask != 0 {
            Cell::Added
        } else {
            continue;
        };
        let ch = if HORIZONTAL & mask != 0 { size.horizontal_char() } else { '|' };
        for slot in &mut grid[row][first..=last] {
            *slot = (ch, cell);
        }
    }
    grid
}

/// Draws a card at [`RenderSize::Normal`] as plain text lines, added matchsticks as [`ADDED_HORIZONTAL`] and
/// [`ADDED_VERTICAL`] so they show without colour. Lines keep their trailing spaces (all equally wide).
pub fn render_ascii(lit: Segments, added: Segments) -> Vec<String> {
    render_ascii_sized(lit, added, RenderSize::Normal)
}

/// Draws a card at the given size as plain text lines, as [`render_ascii`] does.
pub fn render_ascii_sized(lit: Segments, added: Segments, size: RenderSize) -> Vec<String> {
    render_sized(lit, added, size)
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|(ch, cell)| match cell {
                    Cell::Added if ch == '|' => ADDED_VERTICAL,
                    Cell::Added => ADDED_HORIZONTAL,
                    Cell::Blank | Cell::Lit => ch,
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(name: &str) -> Value {
        Value::parse(name).expect("test uses valid value names")
    }

    fn card(name: &str) -> CardType {
        CardType::parse(name).expect("test uses valid card names")
    }

    fn segs(letters: &str) -> Segments {
        segments_from_str(letters).expect("test uses valid segment letters")
    }

    #[test]
    fn glyph_table_matches_rules_1_3() {
        let table = [
            ("0", "abcdef"),
            ("1", "bc"),
            ("2", "abdeg"),
            ("3", "abcdg"),
            ("4", "bcfg"),
            ("5", "acdfg"),
            ("6", "acdefg"),
            ("7", "abc"),
            ("8", "abcdefg"),
            ("9", "abcdfg"),
            ("A", "abcefg"),
            ("b", "cdefg"),
            ("C", "adef"),
            ("d", "bcdeg"),
            ("E", "adefg"),
            ("F", "aefg"),
            ("G", "acdef"),
            ("H", "bcefg"),
        ];
        assert_eq!(table.len(), Value::COUNT);
        for (i, (name, letters)) in table.iter().enumerate() {
            let v = Value::ALL[i];
            assert_eq!(v.name(), *name);
            assert_eq!(segments_to_str(glyph(v)), *letters, "glyph of {name}");
            assert_eq!(value_of_shape(glyph(v), true), Some(v));
        }
    }

    #[test]
    fn glyphs_are_distinct_and_lit_counts_match_rules() {
        let lit = [6, 2, 5, 5, 4, 5, 6, 3, 7, 6, 6, 5, 4, 5, 5, 4, 5, 5];
        for v in Value::ALL {
            assert_eq!(segment_count(glyph(v)), lit[v.index()], "{v}");
            assert_eq!(SHAPE_VALUES[usize::from(glyph(v))], v.0);
        }
        let known = SHAPE_VALUES.iter().filter(|&&v| v != NO_VALUE).count();
        assert_eq!(known, Value::COUNT);
    }

    #[test]
    fn segment_strings_round_trip_for_every_set() {
        for s in 0..=ALL_SEGMENTS {
            let text = segments_to_str(s);
            assert_eq!(segments_from_str(&text), Some(s));
        }
        assert_eq!(segments_from_str("gfedcba"), Some(ALL_SEGMENTS));
        assert_eq!(segments_from_str(""), Some(0));
        for bad in ["aa", "h", "A", "ab c", "a,b", "é"] {
            assert_eq!(segments_from_str(bad), None, "{bad:?}");
        }
        assert_eq!(segments_to_str(0x80 | SEG_A), "a");
    }

    #[test]
    fn rotation_swaps_opposite_segments() {
        let pairs = [("a", "d"), ("b", "e"), ("c", "f"), ("g", "g")];
        for (from, to) in pairs {
            assert_eq!(rotate(segs(from)), segs(to));
            assert_eq!(rotate(segs(to)), segs(from));
        }
        for s in 0..=ALL_SEGMENTS {
            assert_eq!(rotate(rotate(s)), s);
            assert_eq!(segment_count(rotate(s)), segment_count(s));
        }
    }

    #[test]
    fn rotation_pairs_and_self_symmetric_glyphs() {
        assert_eq!(rotate(glyph(value("3"))), glyph(value("E")));
        assert_eq!(rotate(glyph(value("6"))), glyph(value("9")));
        let symmetric: Vec<&str> =
            Value::ALL.iter().filter(|v| rotate(glyph(**v)) == glyph(**v)).map(|v| v.name()).collect();
        assert_eq!(symmetric, ["0", "2", "5", "8", "H"]);
        // Only 3/E and 6/9 turn into another glyph; every other non-symmetric glyph turns into no value.
        let turned: Vec<(&str, &str)> = Value::ALL
            .iter()
            .filter_map(|v| {
                let other = value_of_shape(rotate(glyph(*v)), true)?;
                (other != *v).then(|| (v.name(), other.name()))
            })
            .collect();
        assert_eq!(turned, [("3", "E"), ("6", "9"), ("9", "6"), ("E", "3")]);
    }

    #[test]
    fn value_names_and_parsing() {
        for v in Value::ALL {
            assert_eq!(Value::parse(v.name()), Some(v));
            assert_eq!(Value::parse(&v.name().to_ascii_lowercase()), Some(v));
            assert_eq!(Value::parse(&v.name().to_ascii_uppercase()), Some(v));
            assert_eq!(Value::new(v.index()), Some(v));
            assert_eq!(v.to_string(), v.name());
            assert_eq!(v.is_expansion(), v.index() >= 16);
        }
        assert_eq!(value("B").index(), 11);
        assert_eq!(value("d").index(), 13);
        assert_eq!(Value::new(18), None);
        for bad in ["", "I", "10", " 1", "x", "ー"] {
            assert_eq!(Value::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn strength_order_and_revolution() {
        assert!(value("F") > value("E") && value("H") > value("G") && value("G") > value("F"));
        assert!(value("8").beats(value("7"), false));
        assert!(!value("8").beats(value("8"), false));
        assert!(!value("8").beats(value("8"), true));
        assert!(value("0").beats(value("1"), true));
        assert!(!value("H").beats(value("0"), true));
    }

    #[test]
    fn card_type_names_and_parsing() {
        let names = ["0", "1", "2", "3E", "4", "5", "69", "7", "8", "A", "b", "C", "d", "F", "G", "H"];
        for (t, name) in CardType::ALL.iter().zip(names) {
            assert_eq!(t.name(), name);
            assert_eq!(CardType::parse(name), Some(*t));
            assert_eq!(CardType::parse(&name.to_ascii_lowercase()), Some(*t));
            assert_eq!(CardType::parse(&name.to_ascii_uppercase()), Some(*t));
            assert_eq!(value_of_shape(t.upright(), true), Some(t.upright_value()));
            assert_eq!(t.is_expansion(), matches!(name, "G" | "H"));
        }
        assert_eq!(card("3/E"), card("3E"));
        assert_eq!(card("3/e"), card("3E"));
        assert_eq!(card("6/9"), card("69"));
        for bad in ["3", "6", "9", "E", "e", "E3", "96", "3//E", "I", "", "10"] {
            assert_eq!(CardType::parse(bad), None, "{bad:?}");
        }
        assert_eq!(CardType::new(16), None);
        assert_eq!(CardType::ALL.iter().filter(|t| !t.is_expansion()).count(), CardType::BASE_COUNT);
    }

    #[test]
    fn expansion_values_need_the_expansion() {
        assert_eq!(value_of_shape(segs("acdef"), false), None);
        assert_eq!(value_of_shape(segs("acdef"), true), Some(value("G")));
        assert_eq!(value_of_shape(segs("bcefg"), false), None);
        assert_eq!(value_of_shape(segs("bcefg"), true), Some(value("H")));
        assert_eq!(value_of_shape(0x80 | glyph(value("8")), true), None);
        assert!(transforms(card("1"), false).iter().all(|tr| !tr.value.is_expansion()));
        assert!(transforms(card("1"), true).iter().any(|tr| tr.value == value("H")));
    }

    #[test]
    fn cost_agrees_with_value_of_shape_for_every_card_and_value() {
        for t in CardType::ALL {
            for v in Value::ALL {
                for rotated in [false, true] {
                    let from = shape(t, rotated);
                    let expected = (from & !glyph(v) == 0).then(|| segment_count(glyph(v) & !from));
                    assert_eq!(cost(t, v, rotated), expected);
                    if expected.is_some() {
                        assert_eq!(value_of_shape(from | glyph(v), true), Some(v));
                    }
                }
                let both = [cost(t, v, false), cost(t, v, true)];
                let cheapest = both.iter().flatten().min().copied();
                assert_eq!(min_cost(t, v), cheapest);
                let expected = match both {
                    [Some(k), _] => Some((false, k)),
                    [None, Some(k)] => Some((true, k)),
                    [None, None] => None,
                };
                assert_eq!(cheapest_orientation(t, v), expected);
            }
        }
    }

    #[test]
    fn transforms_are_ordered_and_consistent() {
        for t in CardType::ALL {
            let list = transforms(t, true);
            assert!(list.windows(2).all(|w| (w[0].value, w[0].rotated) < (w[1].value, w[1].rotated)));
            for tr in &list {
                let from = shape(t, tr.rotated);
                assert_eq!(from & tr.added, 0);
                assert_eq!(from | tr.added, glyph(tr.value));
                assert_eq!(segment_count(tr.added), tr.matchsticks);
                assert_eq!(min_cost(t, tr.value), Some(tr.matchsticks));
            }
            assert_eq!(list.iter().filter(|tr| tr.value == value("8")).count(), 2, "8 from both sides of {t}");
        }
    }

    #[test]
    fn render_normal_eight_and_one() {
        assert_eq!(render_ascii(glyph(value("8")), 0), [" -- ", "|  |", " -- ", "|  |", " -- "]);
        assert_eq!(render_ascii(glyph(value("1")), 0), ["    ", "   |", "    ", "   |", "    "]);
        let grid = render(glyph(value("1")), 0);
        assert_eq!(grid[1][3], ('|', Cell::Lit));
        assert_eq!(grid[0][1], (' ', Cell::Blank));
    }

    #[test]
    fn render_marks_added_matchsticks() {
        // 6 plus one matchstick in b reads 8.
        let six = glyph(value("6"));
        assert_eq!(render_ascii(six, SEG_B), [" -- ", "|  !", " -- ", "|  |", " -- "]);
        let grid = render(six, SEG_B);
        assert_eq!(grid[1][3], ('|', Cell::Added));
        assert_eq!(grid[1][0], ('|', Cell::Lit));
        // A turned 1 plus a and g reads F.
        let turned_one = shape(card("1"), true);
        assert_eq!(render_ascii(turned_one, SEG_A | SEG_G), [" == ", "|   ", " == ", "|   ", "    "]);
        // A segment given as both lit and added is drawn lit.
        assert_eq!(render(SEG_A, SEG_A)[0][1], ('-', Cell::Lit));
    }

    #[test]
    fn render_compact() {
        assert_eq!(RenderSize::default(), RenderSize::Normal);
        assert_eq!(render_ascii_sized(glyph(value("8")), 0, RenderSize::Compact), [" _ ", "|_|", "|_|"]);
        let seven = glyph(value("7"));
        assert_eq!(render_ascii_sized(seven, SEG_D | SEG_G, RenderSize::Compact), [" _ ", " =|", " =|"]);
        let grid = render_sized(seven, SEG_D, RenderSize::Compact);
        assert_eq!(grid[2][1], ('_', Cell::Added));
        assert_eq!(grid[2][2], ('|', Cell::Lit));
    }

    #[test]
    fn rendering_is_ascii_and_rectangular() {
        for size in [RenderSize::Compact, RenderSize::Normal] {
            let (rows, cols) = size.dimensions();
            for lit in 0..=ALL_SEGMENTS {
                let lines = render_ascii_sized(lit, ALL_SEGMENTS & !lit, size);
                assert_eq!(lines.len(), rows);
                assert!(lines.iter().all(|l| l.len() == cols && l.is_ascii()));
            }
        }
    }
}
