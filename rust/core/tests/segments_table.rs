//! The §1.10 transformation tables of the Matchstick Tycoon rules, copied verbatim, as an oracle for
//! `cardnet_core::segments`, plus the published examples of §1.3.

use std::collections::BTreeMap;

use cardnet_core::segments::{
    cheapest_orientation, cost, glyph, min_cost, rotate, segment_count, segments_from_str, shape, transforms,
    value_of_shape, CardType, Value, SEG_A, SEG_B, SEG_D, SEG_E, SEG_F, SEG_G,
};

/// §1.10, table by card type (rows copied from docs/rules/matchstick.md).
const BY_CARD: &str = "
| 0 | abcdef | 0 (abcdef) | 0:0UR  8:1UR |
| 1 | bc | — (ef) | 0:4UR  1:0U  3:3U  4:2U  6:4R  7:1U  8:5UR  9:4U  A:4UR  b:3R  C:2R  d:3U  E:3R  F:2R  G*:3R  H*:3UR |
| 2 | abdeg | 2 (abdeg) | 2:0UR  8:2UR |
| 3/E | abcdg | E (adefg) | 3:0U  6:1R  8:2UR  9:1U  E:0R |
| 4 | bcfg | — (cefg) | 4:0U  6:2R  8:3UR  9:2U  A:2UR  b:1R  H*:1UR |
| 5 | acdfg | 5 (acdfg) | 5:0UR  6:1UR  8:2UR  9:1UR |
| 6/9 | acdefg | 9 (abcdfg) | 6:0U  8:1UR  9:0R |
| 7 | abc | — (def) | 0:3UR  3:2U  6:3R  7:0U  8:4UR  9:3U  A:3U  b:2R  C:1R  E:2R  G*:2R |
| 8 | abcdefg | 8 | 8:0UR |
| A | abcefg | — (bcdefg) | 8:1UR  A:0U |
| b | cdefg | — (abcfg) | 6:1U  8:2UR  9:1R  A:1R  b:0U |
| C | adef | — (abcd) | 0:2UR  3:1R  6:2U  8:3UR  9:2R  C:0U  E:1U  G*:1U |
| d | bcdeg | — (abefg) | 8:2UR  A:1R  d:0U |
| F | aefg | — (bcdg) | 3:1R  6:2U  8:3UR  9:2R  A:2U  d:1R  E:1U  F:0U |
| G* | acdef | — (abcdf) | 0:1UR  6:1U  8:2UR  9:1R  G*:0U |
| H* | bcefg | H (bcefg) | 8:2UR  A:1UR  H*:0UR |
";

/// §1.10, table by target value (rows copied from docs/rules/matchstick.md).
const BY_TARGET: &str = "
| 0 | abcdef | 0:0UR  1:4UR  7:3UR  C:2UR  G*:1UR |
| 1 | bc | 1:0U |
| 2 | abdeg | 2:0UR |
| 3 | abcdg | 1:3U  3/E:0U  7:2U  C:1R  F:1R |
| 4 | bcfg | 1:2U  4:0U |
| 5 | acdfg | 5:0UR |
| 6 | acdefg | 1:4R  3/E:1R  4:2R  5:1UR  6/9:0U  7:3R  b:1U  C:2U  F:2U  G*:1U |
| 7 | abc | 1:1U  7:0U |
| 8 | abcdefg | every card type: 0:1 1:5 2:2 3/E:2 4:3 5:2 6/9:1 7:4 8:0 A:1 b:2 C:3 d:2 F:3 G*:2 H*:2 (all UR) |
| 9 | abcdfg | 1:4U  3/E:1U  4:2U  5:1UR  6/9:0R  7:3U  b:1R  C:2R  F:2R  G*:1R |
| A | abcefg | 1:4UR  4:2UR  7:3U  A:0U  b:1R  d:1R  F:2U  H*:1UR |
| b | cdefg | 1:3R  4:1R  7:2R  b:0U |
| C | adef | 1:2R  7:1R  C:0U |
| d | bcdeg | 1:3U  d:0U  F:1R |
| E | adefg | 1:3R  3/E:0R  7:2R  C:1U  F:1U |
| F | aefg | 1:2R  F:0U |
| G* | acdef | 1:3R  7:2R  C:1U  G*:0U |
| H* | bcefg | 1:3UR  4:1UR  H*:0UR |
";

/// How one card type shows one value according to the oracle: fewest matchsticks, and which orientations
/// achieve it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Reach {
    k: u8,
    upright: bool,
    rotated: bool,
}

/// Splits a markdown table row into its trimmed cells.
fn cells(row: &str) -> Vec<&str> {
    let inner = row.trim().strip_prefix('|').and_then(|r| r.strip_suffix('|')).expect("a table row");
    inner.split('|').map(str::trim).collect()
}

fn rows(table: &str) -> impl Iterator<Item = Vec<&str>> {
    table.lines().filter(|l| !l.trim().is_empty()).map(cells)
}

/// A name as the tables print it, `*` marking expansion-only items; checks the mark against `is_expansion`.
fn starred<T>(text: &str, parse: fn(&str) -> Option<T>, is_expansion: fn(&T) -> bool) -> T {
    let (name, star) = match text.strip_suffix('*') {
        Some(name) => (name, true),
        None => (text, false),
    };
    let item = parse(name).unwrap_or_else(|| panic!("unknown name {text:?}"));
    assert_eq!(is_expansion(&item), star, "expansion mark on {text:?}");
    item
}

fn parse_value(text: &str) -> Value {
    starred(text, Value::parse, |v| v.is_expansion())
}

fn parse_card(text: &str) -> CardType {
    starred(text, CardType::parse, |t| t.is_expansion())
}

/// One `name:k orientation` entry; `default_orientation` serves entries written without one (the 8 row).
fn parse_entry<'a>(entry: &'a str, default_orientation: &'a str) -> (&'a str, Reach) {
    let (name, rest) = entry.split_once(':').expect("name:k");
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let (k, orientation) = rest.split_at(digits);
    let orientation = if orientation.is_empty() { default_orientation } else { orientation };
    assert!(matches!(orientation, "U" | "R" | "UR"), "orientation in {entry:?}");
    let k = k.parse().expect("a matchstick count");
    (name, Reach { k, upright: orientation.contains('U'), rotated: orientation.contains('R') })
}

fn segs(letters: &str) -> u8 {
    segments_from_str(letters).unwrap_or_else(|| panic!("bad segments {letters:?}"))
}

/// The by-card table as (card type, its entries in table order).
fn by_card() -> Vec<(CardType, Vec<(Value, Reach)>)> {
    let mut out = Vec::new();
    for row in rows(BY_CARD) {
        let [name, upright, turned, entries] = row[..] else { panic!("4 cells expected: {row:?}") };
        let t = parse_card(name);
        assert_eq!(t.upright(), segs(upright), "upright segments of {name}");

        // "Rotated shape reads": a value name (never starred) or "—", then the shape in brackets unless it is
        // the value's glyph.
        let mut words = turned.split_whitespace();
        let reads = words.next().expect("rotated reading");
        let turned_value = (reads != "—").then(|| Value::parse(reads).expect("rotated reading names a value"));
        let turned_shape = match words.next() {
            Some(bracketed) => segs(bracketed.trim_start_matches('(').trim_end_matches(')')),
            None => glyph(turned_value.expect("a bare reading names a value")),
        };
        assert_eq!(shape(t, true), turned_shape, "rotated shape of {name}");
        assert_eq!(value_of_shape(turned_shape, true), turned_value, "rotated reading of {name}");

        let entries = entries
            .split_whitespace()
            .map(|e| {
                let (v, reach) = parse_entry(e, "");
                (parse_value(v), reach)
            })
            .collect();
        out.push((t, entries));
    }
    out
}

/// The by-target table as (value, its entries in table order).
fn by_target() -> Vec<(Value, Vec<(CardType, Reach)>)> {
    let mut out = Vec::new();
    for row in rows(BY_TARGET) {
        let [name, segments, entries] = row[..] else { panic!("3 cells expected: {row:?}") };
        let v = parse_value(name);
        assert_eq!(glyph(v), segs(segments), "segments of {name}");
        let (entries, default_orientation) = match entries.strip_prefix("every card type:") {
            Some(rest) => (rest.strip_suffix("(all UR)").expect("the 8 row ends with (all UR)"), "UR"),
            None => (entries, ""),
        };
        let entries = entries
            .split_whitespace()
            .map(|e| {
                let (t, reach) = parse_entry(e, default_orientation);
                (parse_card(t), reach)
            })
            .collect();
        out.push((v, entries));
    }
    out
}

/// Both tables as maps from (card type, value).
fn oracle_maps() -> [BTreeMap<(CardType, Value), Reach>; 2] {
    let cards: BTreeMap<_, _> =
        by_card().into_iter().flat_map(|(t, es)| es.into_iter().map(move |(v, r)| ((t, v), r))).collect();
    let targets: BTreeMap<_, _> =
        by_target().into_iter().flat_map(|(v, es)| es.into_iter().map(move |(t, r)| ((t, v), r))).collect();
    [cards, targets]
}

#[test]
fn tables_cover_every_card_and_value_once() {
    let cards: Vec<CardType> = by_card().into_iter().map(|(t, _)| t).collect();
    assert_eq!(cards, CardType::ALL);
    let values: Vec<Value> = by_target().into_iter().map(|(v, _)| v).collect();
    assert_eq!(values, Value::ALL);
    let [from_cards, from_targets] = oracle_maps();
    assert_eq!(from_cards.len(), 85);
    assert_eq!(from_cards, from_targets, "the two §1.10 tables agree");
}

#[test]
fn transforms_match_the_by_card_table() {
    for (t, entries) in by_card() {
        for expansion in [false, true] {
            let expected: Vec<(Value, bool, u8)> = entries
                .iter()
                .filter(|(v, _)| expansion || !v.is_expansion())
                .flat_map(|&(v, r)| {
                    let upright = r.upright.then_some((v, false, r.k));
                    let rotated = r.rotated.then_some((v, true, r.k));
                    upright.into_iter().chain(rotated)
                })
                .collect();
            let listed = transforms(t, expansion);
            let actual: Vec<(Value, bool, u8)> =
                listed.iter().map(|tr| (tr.value, tr.rotated, tr.matchsticks)).collect();
            assert_eq!(actual, expected, "transforms({t}, expansion={expansion})");
            for tr in listed {
                assert_eq!(shape(t, tr.rotated) | tr.added, glyph(tr.value));
                assert_eq!(segment_count(tr.added), tr.matchsticks);
            }
        }
    }
}

#[test]
fn min_cost_matches_the_tables_for_every_pair() {
    for oracle in oracle_maps() {
        for t in CardType::ALL {
            for v in Value::ALL {
                let reach = oracle.get(&(t, v));
                assert_eq!(min_cost(t, v), reach.map(|r| r.k), "min_cost({t}, {v})");
                assert_eq!(cheapest_orientation(t, v), reach.map(|r| (!r.upright, r.k)), "cheapest({t}, {v})");
                assert_eq!(cost(t, v, false), reach.filter(|r| r.upright).map(|r| r.k), "cost({t}, {v}, U)");
                assert_eq!(cost(t, v, true), reach.filter(|r| r.rotated).map(|r| r.k), "cost({t}, {v}, R)");
            }
        }
    }
}

#[test]
fn sources_match_the_by_target_table() {
    for (v, entries) in by_target() {
        for expansion in [false, true] {
            if v.is_expansion() && !expansion {
                continue;
            }
            let expected: Vec<(CardType, Reach)> =
                entries.iter().copied().filter(|(t, _)| expansion || !t.is_expansion()).collect();
            let actual: Vec<(CardType, Reach)> = CardType::ALL
                .into_iter()
                .filter(|t| expansion || !t.is_expansion())
                .filter_map(|t| {
                    let shown: Vec<_> = transforms(t, expansion).into_iter().filter(|tr| tr.value == v).collect();
                    let first = shown.first()?;
                    let reach = Reach {
                        k: first.matchsticks,
                        upright: shown.iter().any(|tr| !tr.rotated),
                        rotated: shown.iter().any(|tr| tr.rotated),
                    };
                    Some((t, reach))
                })
                .collect();
            assert_eq!(actual, expected, "sources of {v}, expansion={expansion}");
        }
    }
}

#[test]
fn notes_of_section_1_10() {
    let sources = |v: &str| -> Vec<CardType> {
        let v = Value::parse(v).expect("value");
        CardType::ALL.into_iter().filter(|&t| min_cost(t, v).is_some()).collect()
    };
    for only in ["1", "2", "5"] {
        assert_eq!(sources(only), [CardType::parse(only).expect("card")], "{only} comes only from its own card");
    }
    assert_eq!(sources("8"), CardType::ALL);
    // A card never shows a value in two orientations at different prices: turning keeps the segment count.
    for t in CardType::ALL {
        for v in Value::ALL {
            if let (Some(up), Some(turned)) = (cost(t, v, false), cost(t, v, true)) {
                assert_eq!(up, turned, "{t} -> {v}");
            }
        }
    }
}

fn card(name: &str) -> CardType {
    CardType::parse(name).expect("card name")
}

fn value(name: &str) -> Value {
    Value::parse(name).expect("value name")
}

/// The examples that fix the glyph shapes (§1.3, §1.7, §1.11 point 2).
#[test]
fn published_examples() {
    // 6 + 1 matchstick = 8.
    assert_eq!(value_of_shape(shape(card("6/9"), false) | SEG_B, false), Some(value("8")));
    assert_eq!(cost(card("69"), value("8"), false), Some(1));
    // 6 rotated = 9.
    assert_eq!(value_of_shape(shape(card("69"), true), false), Some(value("9")));
    // 1 rotated + 2 matchsticks = F; a rotated 1 alone is no value.
    assert_eq!(value_of_shape(shape(card("1"), true) | SEG_A | SEG_G, false), Some(value("F")));
    assert_eq!(cost(card("1"), value("F"), true), Some(2));
    assert_eq!(value_of_shape(shape(card("1"), true), true), None);
    // 3 -> 9 and 7 -> 3.
    assert_eq!(value_of_shape(shape(card("3/E"), false) | SEG_F, false), Some(value("9")));
    assert_eq!(value_of_shape(shape(card("7"), false) | SEG_D | SEG_G, false), Some(value("3")));
    // 0 + middle stick = 8; 4 with its three gaps filled = 8.
    assert_eq!(value_of_shape(shape(card("0"), false) | SEG_G, false), Some(value("8")));
    assert_eq!(value_of_shape(shape(card("4"), false) | SEG_A | SEG_D | SEG_E, false), Some(value("8")));
    assert_eq!(min_cost(card("4"), value("8")), Some(3));
    // 3/E and 6/9 read their second value when turned; 0, 2, 5, 8 and H turn onto themselves.
    assert_eq!(rotate(glyph(value("3"))), glyph(value("E")));
    assert_eq!(rotate(glyph(value("9"))), glyph(value("6")));
    for same in ["0", "2", "5", "8", "H"] {
        assert_eq!(rotate(glyph(value(same))), glyph(value(same)), "{same}");
    }
}
