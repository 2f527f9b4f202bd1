//! TEN's cards and rule constants, as written in `data/ten.toml` (rules §4.2, §4.12, §4.13).
//!
//! The card list is data because parts of it are provisional (the currency split and the player-count
//! symbols). The crate compiles the box in as Rust constants (equal to the file, which a test checks) and
//! validates them on first use against the totals the rules confirm; with feature `toml`,
//! `TenData::load` reads and checks a corrected file the same way.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::error::GameError;
use serde_json::{json, Value};

/// The text of `data/ten.toml`, the readable form of the compiled-in box (what `TenData::load` reads).
pub const TEN_TOML: &str = include_str!("../../../data/ten.toml");

/// Total number of cards in the box; card ids are `0..TOTAL_CARDS`.
pub const TOTAL_CARDS: usize = 129;

/// One of the four card colours, in the fixed order used by every per-colour array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Colour {
    /// Index 0.
    Red,
    /// Index 1.
    Blue,
    /// Index 2.
    Orange,
    /// Index 3.
    Green,
}

impl Colour {
    /// All colours in index order.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Orange, Colour::Green];

    /// Position of the colour in per-colour arrays (0..=3).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour at `index`, if `index` is 0..=3.
    pub fn from_index(index: usize) -> Option<Colour> {
        Colour::ALL.get(index).copied()
    }

    /// Lower-case name as it appears in JSON and in the data file.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Orange => "orange",
            Colour::Green => "green",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Colour {
    type Err = String;

    fn from_str(s: &str) -> Result<Colour, String> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown colour {s:?} (expected red, blue, orange or green)"))
    }
}

/// What a card is. Serialises as `{"type": "number", "colour": "red", "value": 3}`,
/// `{"type": "colour_wild", "colour": "red"}`, `{"type": "number_wild", "value": 5}`,
/// `{"type": "any_wild"}` or `{"type": "currency", "value": 2}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum TenKind {
    /// A coloured number card, value 1..=9.
    Number {
        /// The card's colour.
        colour: Colour,
        /// The printed number.
        value: u8,
    },
    /// A colour "#" wild: any number, in its colour only.
    ColourWild {
        /// The only colour it can take.
        colour: Colour,
    },
    /// A numbered multicolour wild: its printed number (1..=9), in any colour.
    NumberWild {
        /// The only number it can take.
        value: u8,
    },
    /// The multicolour "#" wild: any colour, any number.
    AnyWild,
    /// A currency card, value 1..=5; it goes to the tableau and is never collected.
    Currency {
        /// The printed value.
        value: u8,
    },
}

impl TenKind {
    /// The `type` name used in JSON and in the data file.
    pub fn type_name(self) -> &'static str {
        match self {
            TenKind::Number { .. } => "number",
            TenKind::ColourWild { .. } => "colour_wild",
            TenKind::NumberWild { .. } => "number_wild",
            TenKind::AnyWild => "any_wild",
            TenKind::Currency { .. } => "currency",
        }
    }

    /// True for the three kinds of wild, whose draw starts an auction (§4.5).
    pub fn is_wild(self) -> bool {
        matches!(self, TenKind::ColourWild { .. } | TenKind::NumberWild { .. } | TenKind::AnyWild)
    }

    /// The printed value of a number or currency card (what it adds to the tableau and its market price).
    pub fn face_value(self) -> Option<u8> {
        match self {
            TenKind::Number { value, .. } | TenKind::Currency { value } => Some(value),
            _ => None,
        }
    }
}

/// One physical card of the box. Its JSON ([`TenCard::to_json`], and its serde form with feature `serde`)
/// is `{"id": 3, "type": "number_wild", "value": 9, "min_players": 1}`: the kind's fields flattened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TenCard {
    /// Position in the data file's expansion, 0..=128; stable for a given data file.
    pub id: u8,
    /// What the card is; flattened into the card's JSON object.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub kind: TenKind,
    /// The player-count symbol: the card is in the deck only with at least this many players
    /// (1 = no symbol; a 1-player game counts as 2, see [`TenData::deck_for`]).
    pub min_players: u8,
}

impl TenCard {
    /// The card as a JSON object: its id, the kind's `type` and fields, and its player-count symbol.
    pub fn to_json(&self) -> Value {
        let mut card = json!({"id": self.id, "type": self.kind.type_name(), "min_players": self.min_players});
        let (colour, value) = match self.kind {
            TenKind::Number { colour, value } => (Some(colour), Some(value)),
            TenKind::ColourWild { colour } => (Some(colour), None),
            TenKind::NumberWild { value } | TenKind::Currency { value } => (None, Some(value)),
            TenKind::AnyWild => (None, None),
        };
        if let Some(colour) = colour {
            card["colour"] = json!(colour.name());
        }
        if let Some(value) = value {
            card["value"] = json!(value);
        }
        card
    }
}

/// TEN's cards and rule constants, as validated from the data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TenData {
    /// Every card of the box, indexed by id.
    pub cards: Vec<TenCard>,
    /// Notes on the provisional parts of the data, for display next to the rules.
    pub provisional: Vec<String>,
    /// Currency tokens each player starts with (§4.3).
    pub start_tokens: u8,
    /// Most currency tokens a player may hold; bust tokens are outside the cap (§4.6).
    pub token_cap: u8,
    /// Currency tokens in the box.
    pub currency_token_supply: u8,
    /// What one bust token pays: exactly this, with no change (§4.7).
    pub bust_token_value: u8,
    /// Bust tokens in the box; a bust with none left gives none (§4.13.13).
    pub bust_token_supply: u8,
    /// A turn busts when `numbers − currency` or `currency` reaches this (§4.5).
    pub bust_threshold: u8,
    /// Extra points for a complete 1–9 run in one colour (§4.10).
    pub perfect_run_bonus: u8,
    /// Default target total of the solo house variant (§4.12).
    pub solo_target_score_default: u8,
    /// Price at which each drawn wild is offered in the solo house variant (§4.12).
    pub solo_wild_price: u8,
}

static EMBEDDED: OnceLock<Result<TenData, String>> = OnceLock::new();

impl TenData {
    /// The data compiled into the crate (`data/ten.toml` as Rust constants), validated on first use and
    /// shared afterwards.
    pub fn embedded() -> Result<&'static TenData, String> {
        EMBEDDED
            .get_or_init(|| {
                TenData::validate(super::table::box_file()).map_err(|e| format!("TEN's built-in data: {e}"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Parses and validates a data file in the format of `data/ten.toml` (feature `toml`).
    ///
    /// Fails with a message naming the problem when the TOML is malformed, a row is inconsistent, a value is
    /// out of range, or the card counts differ from the ones the rules confirm (§4.2).
    #[cfg(feature = "toml")]
    pub fn load(text: &str) -> Result<TenData, String> {
        let raw: RawFile = toml::from_str(text).map_err(|e| format!("ten.toml: {e}"))?;
        TenData::validate(raw).map_err(|e| format!("ten.toml: {e}"))
    }

    /// Expands the rows into cards and checks them and the constants.
    fn validate(raw: RawFile) -> Result<TenData, String> {
        let mut cards = Vec::with_capacity(TOTAL_CARDS);
        for (row_index, row) in raw.cards.iter().enumerate() {
            let row_no = row_index + 1;
            let (kind, copies, min_players) = row.check().map_err(|e| format!("card row {row_no}: {e}"))?;
            for _ in 0..copies {
                if cards.len() == TOTAL_CARDS {
                    return Err(format!("card row {row_no}: the rows describe more than {TOTAL_CARDS} cards"));
                }
                let id = cards.len() as u8;
                cards.push(TenCard { id, kind, min_players });
            }
        }
        check_counts(&cards)?;
        raw.constants(cards)
    }

    /// The card with this id, if there is one.
    pub fn card(&self, id: u8) -> Option<&TenCard> {
        self.cards.get(usize::from(id))
    }

    /// What the card with this id is, if there is one.
    pub fn kind(&self, id: u8) -> Option<TenKind> {
        self.card(id).map(|c| c.kind)
    }

    /// The ids of the cards used with `players` players (1..=5), in id order, unshuffled.
    ///
    /// Solo play uses the 2-player deck (§4.12), so 1 and 2 players give the same deck. Any other player
    /// count is [`GameError::BadOptions`].
    pub fn deck_for(&self, players: u8) -> Result<Vec<u8>, GameError> {
        if !(1..=5).contains(&players) {
            return Err(GameError::BadOptions(format!("TEN takes 1 to 5 players, not {players}")));
        }
        let effective = players.max(2);
        Ok(self.cards.iter().filter(|c| c.min_players <= effective).map(|c| c.id).collect())
    }
}

/// The file as written (or the compiled-in table as given), before validation.
#[cfg_attr(feature = "toml", derive(serde::Deserialize))]
#[cfg_attr(feature = "toml", serde(deny_unknown_fields))]
pub(super) struct RawFile {
    pub(super) provisional: Vec<String>,
    pub(super) cards: Vec<RawRow>,
    pub(super) rules: RawRules,
    pub(super) solo: RawSolo,
}

#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "toml", derive(serde::Deserialize))]
#[cfg_attr(feature = "toml", serde(rename_all = "snake_case"))]
pub(super) enum RawKind {
    Number,
    ColourWild,
    NumberWild,
    AnyWild,
    Currency,
}

/// Integers are read as i64 so that an out-of-range value gets our own message instead of a type error.
#[derive(Clone, Copy)]
#[cfg_attr(feature = "toml", derive(serde::Deserialize))]
#[cfg_attr(feature = "toml", serde(deny_unknown_fields))]
pub(super) struct RawRow {
    pub(super) kind: RawKind,
    pub(super) colour: Option<Colour>,
    pub(super) value: Option<i64>,
    pub(super) copies: i64,
    pub(super) min_players: i64,
}

#[cfg_attr(feature = "toml", derive(serde::Deserialize))]
#[cfg_attr(feature = "toml", serde(deny_unknown_fields))]
pub(super) struct RawRules {
    pub(super) start_tokens: i64,
    pub(super) token_cap: i64,
    pub(super) currency_token_supply: i64,
    pub(super) bust_token_value: i64,
    pub(super) bust_token_supply: i64,
    pub(super) bust_threshold: i64,
    pub(super) perfect_run_bonus: i64,
}

#[cfg_attr(feature = "toml", derive(serde::Deserialize))]
#[cfg_attr(feature = "toml", serde(deny_unknown_fields))]
pub(super) struct RawSolo {
    pub(super) target_score_default: i64,
    pub(super) wild_price: i64,
}

/// `value` as a u8 if it lies in `lo..=hi`.
fn in_range(name: &str, value: i64, lo: u8, hi: u8) -> Result<u8, String> {
    u8::try_from(value)
        .ok()
        .filter(|v| (lo..=hi).contains(v))
        .ok_or_else(|| format!("{name} = {value} is out of range {lo}..={hi}"))
}

impl RawRow {
    /// The row's kind, copy count and player-count symbol, after checking the fields fit the kind.
    fn check(&self) -> Result<(TenKind, u8, u8), String> {
        let needs_colour = matches!(self.kind, RawKind::Number | RawKind::ColourWild);
        let value_range = match self.kind {
            RawKind::Number | RawKind::NumberWild => Some((1, 9)),
            RawKind::Currency => Some((1, 5)),
            RawKind::ColourWild | RawKind::AnyWild => None,
        };
        let colour = match (needs_colour, self.colour) {
            (true, Some(c)) => Some(c),
            (true, None) => return Err("this kind needs a colour".into()),
            (false, Some(_)) => return Err("this kind takes no colour".into()),
            (false, None) => None,
        };
        let value = match (value_range, self.value) {
            (Some((lo, hi)), Some(v)) => Some(in_range("value", v, lo, hi)?),
            (Some(_), None) => return Err("this kind needs a value".into()),
            (None, Some(_)) => return Err("this kind takes no value".into()),
            (None, None) => None,
        };
        let kind = match (self.kind, colour, value) {
            (RawKind::Number, Some(colour), Some(value)) => TenKind::Number { colour, value },
            (RawKind::ColourWild, Some(colour), None) => TenKind::ColourWild { colour },
            (RawKind::NumberWild, None, Some(value)) => TenKind::NumberWild { value },
            (RawKind::AnyWild, None, None) => TenKind::AnyWild,
            (RawKind::Currency, None, Some(value)) => TenKind::Currency { value },
            _ => return Err("inconsistent row".into()),
        };
        let copies = in_range("copies", self.copies, 1, TOTAL_CARDS as u8)?;
        let min_players = match self.min_players {
            1 => 1,
            3 => 3,
            4 => 4,
            other => {
                return Err(format!(
                    "min_players = {other} is not a player-count symbol (1 = none, 3 = \"3\", 4 = \"4+\")"
                ))
            }
        };
        Ok((kind, copies, min_players))
    }
}

/// Checks the card counts of §4.2 that the sources confirm; the provisional parts are left free.
fn check_counts(cards: &[TenCard]) -> Result<(), String> {
    if cards.len() != TOTAL_CARDS {
        return Err(format!("the rows describe {} cards, TEN has {TOTAL_CARDS}", cards.len()));
    }
    let mut numbers = [[0usize; 9]; 4];
    let mut colour_wilds = [0usize; 4];
    let mut number_wilds = [0usize; 9];
    let mut any_wilds = 0usize;
    let mut currency = 0usize;
    for card in cards {
        match card.kind {
            TenKind::Number { colour, value } => numbers[colour.index()][usize::from(value - 1)] += 1,
            TenKind::ColourWild { colour } => colour_wilds[colour.index()] += 1,
            TenKind::NumberWild { value } => number_wilds[usize::from(value - 1)] += 1,
            TenKind::AnyWild => any_wilds += 1,
            TenKind::Currency { .. } => currency += 1,
        }
    }
    for colour in Colour::ALL {
        for value in 1..=9u8 {
            let expected = if value <= 6 { 3 } else { 1 };
            let found = numbers[colour.index()][usize::from(value - 1)];
            if found != expected {
                return Err(format!("{found} {colour} {value} cards, expected {expected}"));
            }
        }
        let found = colour_wilds[colour.index()];
        if found != 2 {
            return Err(format!("{found} {colour} colour wilds, expected 2"));
        }
    }
    for value in 1..=9u8 {
        let found = number_wilds[usize::from(value - 1)];
        if found != 1 {
            return Err(format!("{found} numbered wilds {value}, expected 1"));
        }
    }
    if any_wilds != 1 {
        return Err(format!("{any_wilds} multicolour # wilds, expected 1"));
    }
    if currency != 27 {
        return Err(format!("{currency} currency cards, expected 27"));
    }
    Ok(())
}

impl RawFile {
    /// Range-checks the rule constants and assembles the data.
    fn constants(self, cards: Vec<TenCard>) -> Result<TenData, String> {
        let r = &self.rules;
        let token_cap = in_range("rules.token_cap", r.token_cap, 1, 50)?;
        let start_tokens = in_range("rules.start_tokens", r.start_tokens, 0, token_cap)?;
        // Five players at the cap must fit in the supply, so a capped gain never finds the supply empty.
        let min_supply = token_cap.saturating_mul(5);
        let currency_token_supply =
            in_range("rules.currency_token_supply", r.currency_token_supply, min_supply, u8::MAX)?;
        let bust_token_value = in_range("rules.bust_token_value", r.bust_token_value, 1, 9)?;
        let bust_token_supply = in_range("rules.bust_token_supply", r.bust_token_supply, 0, u8::MAX)?;
        let bust_threshold = in_range("rules.bust_threshold", r.bust_threshold, 1, 100)?;
        let perfect_run_bonus = in_range("rules.perfect_run_bonus", r.perfect_run_bonus, 0, 9)?;
        let best_possible = 4 * (9 + perfect_run_bonus);
        let solo_target_score_default =
            in_range("solo.target_score_default", self.solo.target_score_default, 1, best_possible)?;
        let solo_wild_price = in_range("solo.wild_price", self.solo.wild_price, 1, 9)?;
        Ok(TenData {
            cards,
            provisional: self.provisional,
            start_tokens,
            token_cap,
            currency_token_supply,
            bust_token_value,
            bust_token_supply,
            bust_threshold,
            perfect_run_bonus,
            solo_target_score_default,
            solo_wild_price,
        })
    }
}

/// A set of card ids (0..192) as a bitmask: collections and the market, iterated in id order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CardSet([u64; 3]);

impl CardSet {
    /// Whether `id` is in the set.
    pub fn contains(self, id: u8) -> bool {
        let i = usize::from(id);
        i < 192 && self.0[i / 64] & (1 << (i % 64)) != 0
    }

    pub(crate) fn insert(&mut self, id: u8) {
        let i = usize::from(id);
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(crate) fn remove(&mut self, id: u8) {
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
