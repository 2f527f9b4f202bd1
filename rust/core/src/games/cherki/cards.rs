//! Cherki's deck: card ids, faces, kinds, points and names, and hands as bit sets.

use serde_json::{json, Value};

/// Cards in the deck.
pub const DECK_SIZE: usize = 120;

/// Kinds: nine ranks and three honours.
pub const KINDS: usize = 12;

/// Cards in a hand between turns.
pub const HAND_SIZE: usize = 8;

pub(super) const MAX_PLAYERS: usize = 6;

pub(super) const NONE: u8 = u8::MAX;

pub(super) const ALL_CARDS: u128 = (1u128 << DECK_SIZE) - 1;

pub(super) const FACE_NAMES: [&str; 30] = [
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

pub(super) const KIND_NAMES: [&str; KINDS] =
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", "white-flower", "red-flower", "old-thousand"];

pub(super) const fn face_kind(face: usize) -> usize {
    if face < 27 {
        face % 9
    } else {
        face - 18
    }
}

pub(super) const fn build_kind_masks() -> [u128; KINDS] {
    let mut masks = [0u128; KINDS];
    let mut id = 0;
    while id < DECK_SIZE {
        masks[face_kind(id / 4)] |= 1u128 << id;
        id += 1;
    }
    masks
}

/// Bit masks of the cards of each kind.
pub(super) const KIND_MASKS: [u128; KINDS] = build_kind_masks();

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
pub(super) const KIND_WORDS: [&str; KINDS] =
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

pub(super) fn kind_counts(hand: u128) -> [u8; KINDS] {
    let mut counts = [0u8; KINDS];
    for (count, mask) in counts.iter_mut().zip(KIND_MASKS.iter()) {
        *count = (hand & mask).count_ones() as u8;
    }
    counts
}

/// The pair kind of an 8-card count vector that splits into two triples and a pair, else `None`.
/// Every kind's count must be 2, 3, 5, 6 or 8 and exactly one of them 2, 5 or 8: that is precisely the
/// patterns {3,3,2}, {5,3}, {6,2} and {8}, and that one kind is the (unique) pair kind.
pub(super) fn ready_kind(counts: &[u8; KINDS]) -> Option<usize> {
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

pub(super) fn bits(mut set: u128) -> impl Iterator<Item = u8> {
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

pub(super) fn bit(card: u8) -> u128 {
    1u128 << card
}

pub(super) fn hand_list(hand: u128) -> Vec<u8> {
    bits(hand).collect()
}
