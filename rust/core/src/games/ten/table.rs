//! TEN's box as Rust constants: the card rows, rule constants and provisional notes of `data/ten.toml`,
//! compiled in so that the rules need no TOML parser. The file stays the readable source the notes and
//! docs point to; `tests/ten_cards.rs` checks (feature `toml`) that the two are equal, so a correction
//! goes into both. [`super::cards::TenData::embedded`] validates these rows exactly as it would the file.

use super::cards::Colour::{self, Blue, Green, Orange, Red};
use super::cards::{RawFile, RawKind, RawRow, RawRules, RawSolo};

/// The rule constants of `[rules]` (rules §4.3, §4.5–§4.7, §4.10, §4.13.13).
const RULES: RawRules = RawRules {
    start_tokens: 5,
    token_cap: 10,
    currency_token_supply: 50,
    bust_token_value: 3,
    bust_token_supply: 15,
    bust_threshold: 11,
    perfect_run_bonus: 1,
};

/// The solo house variant's constants of `[solo]` (rules §4.12).
const SOLO: RawSolo = RawSolo { target_score_default: 25, wild_price: 1 };

/// The notes on the provisional parts of the data.
const PROVISIONAL: [&str; 3] = [
    "Currency card values 1x7, 2x6, 3x6, 4x4, 5x4 (27 cards, total value 73): only the count of 27 is confirmed.",
    "Player-count symbols: which cards carry '3' and '4+' is unknown; the assignment here gives decks of 129 / 105 / 89 cards for 4-5 / 3 / 1-2 players, 89 matching a DIY mapping of the 2-player deck.",
    "Rule 4.13.17: the provisional 2-player deck keeps 1 copy of 1-3 but 2 copies of 4-6 per colour, which the real deck may not do.",
];

/// The card rows in file order; card ids follow their expansion (each row gives `copies` cards in a row).
#[rustfmt::skip]
const ROWS: [RawRow; 95] = [
    // red number cards: 21 = 3 copies of 1-6, 1 copy of 7-9
    number(Red, 1, 1, 1),
    number(Red, 1, 1, 3), // [PROVISIONAL] "3" symbol
    number(Red, 1, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Red, 2, 1, 1),
    number(Red, 2, 1, 3), // [PROVISIONAL] "3" symbol
    number(Red, 2, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Red, 3, 1, 1),
    number(Red, 3, 1, 3), // [PROVISIONAL] "3" symbol
    number(Red, 3, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Red, 4, 2, 1),
    number(Red, 4, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Red, 5, 2, 1),
    number(Red, 5, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Red, 6, 2, 1),
    number(Red, 6, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Red, 7, 1, 1),
    number(Red, 8, 1, 1),
    number(Red, 9, 1, 1),
    // blue number cards: 21 = 3 copies of 1-6, 1 copy of 7-9
    number(Blue, 1, 1, 1),
    number(Blue, 1, 1, 3), // [PROVISIONAL] "3" symbol
    number(Blue, 1, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Blue, 2, 1, 1),
    number(Blue, 2, 1, 3), // [PROVISIONAL] "3" symbol
    number(Blue, 2, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Blue, 3, 1, 1),
    number(Blue, 3, 1, 3), // [PROVISIONAL] "3" symbol
    number(Blue, 3, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Blue, 4, 2, 1),
    number(Blue, 4, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Blue, 5, 2, 1),
    number(Blue, 5, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Blue, 6, 2, 1),
    number(Blue, 6, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Blue, 7, 1, 1),
    number(Blue, 8, 1, 1),
    number(Blue, 9, 1, 1),
    // orange number cards: 21 = 3 copies of 1-6, 1 copy of 7-9
    number(Orange, 1, 1, 1),
    number(Orange, 1, 1, 3), // [PROVISIONAL] "3" symbol
    number(Orange, 1, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Orange, 2, 1, 1),
    number(Orange, 2, 1, 3), // [PROVISIONAL] "3" symbol
    number(Orange, 2, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Orange, 3, 1, 1),
    number(Orange, 3, 1, 3), // [PROVISIONAL] "3" symbol
    number(Orange, 3, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Orange, 4, 2, 1),
    number(Orange, 4, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Orange, 5, 2, 1),
    number(Orange, 5, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Orange, 6, 2, 1),
    number(Orange, 6, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Orange, 7, 1, 1),
    number(Orange, 8, 1, 1),
    number(Orange, 9, 1, 1),
    // green number cards: 21 = 3 copies of 1-6, 1 copy of 7-9
    number(Green, 1, 1, 1),
    number(Green, 1, 1, 3), // [PROVISIONAL] "3" symbol
    number(Green, 1, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Green, 2, 1, 1),
    number(Green, 2, 1, 3), // [PROVISIONAL] "3" symbol
    number(Green, 2, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Green, 3, 1, 1),
    number(Green, 3, 1, 3), // [PROVISIONAL] "3" symbol
    number(Green, 3, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Green, 4, 2, 1),
    number(Green, 4, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Green, 5, 2, 1),
    number(Green, 5, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Green, 6, 2, 1),
    number(Green, 6, 1, 4), // [PROVISIONAL] "4+" symbol
    number(Green, 7, 1, 1),
    number(Green, 8, 1, 1),
    number(Green, 9, 1, 1),
    // colour wilds "#": that colour, any number
    colour_wild(Red, 2, 1),
    colour_wild(Blue, 2, 1),
    colour_wild(Orange, 2, 1),
    colour_wild(Green, 2, 1),
    // numbered multicolour wilds: any colour, the printed number (9 cards; the seed's "ten" also counts the multicolour #)
    number_wild(1, 1, 1),
    number_wild(2, 1, 1),
    number_wild(3, 1, 1),
    number_wild(4, 1, 1),
    number_wild(5, 1, 1),
    number_wild(6, 1, 1),
    number_wild(7, 1, 1),
    number_wild(8, 1, 1),
    number_wild(9, 1, 1),
    // the multicolour wild "#": any colour, any number
    any_wild(1, 1),
    // currency cards: 27 confirmed; the split by value is [PROVISIONAL]
    currency(1, 6, 1), // [PROVISIONAL] split
    currency(1, 1, 3), // [PROVISIONAL] split, "3" symbol
    currency(2, 5, 1), // [PROVISIONAL] split
    currency(2, 1, 3), // [PROVISIONAL] split, "3" symbol
    currency(3, 5, 1), // [PROVISIONAL] split
    currency(3, 1, 3), // [PROVISIONAL] split, "3" symbol
    currency(4, 3, 1), // [PROVISIONAL] split
    currency(4, 1, 3), // [PROVISIONAL] split, "3" symbol
    currency(5, 4, 1), // [PROVISIONAL] split
];

/// The box as a data file would give it, before validation.
pub(super) fn box_file() -> RawFile {
    RawFile {
        provisional: PROVISIONAL.iter().map(|note| note.to_string()).collect(),
        cards: ROWS.to_vec(),
        rules: RULES,
        solo: SOLO,
    }
}

const fn row(kind: RawKind, colour: Option<Colour>, value: Option<i64>, copies: i64, min_players: i64) -> RawRow {
    RawRow { kind, colour, value, copies, min_players }
}

const fn number(colour: Colour, value: i64, copies: i64, min_players: i64) -> RawRow {
    row(RawKind::Number, Some(colour), Some(value), copies, min_players)
}

const fn colour_wild(colour: Colour, copies: i64, min_players: i64) -> RawRow {
    row(RawKind::ColourWild, Some(colour), None, copies, min_players)
}

const fn number_wild(value: i64, copies: i64, min_players: i64) -> RawRow {
    row(RawKind::NumberWild, None, Some(value), copies, min_players)
}

const fn any_wild(copies: i64, min_players: i64) -> RawRow {
    row(RawKind::AnyWild, None, None, copies, min_players)
}

const fn currency(value: i64, copies: i64, min_players: i64) -> RawRow {
    row(RawKind::Currency, None, Some(value), copies, min_players)
}
