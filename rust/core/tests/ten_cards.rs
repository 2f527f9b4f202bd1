//! TEN card data: the compiled-in box and `data/ten.toml`, deck sizes per player count, names, and the loader's refusals.

use cardnet_core::games::ten::cards::{Colour, TenCard, TenData, TenKind, TEN_TOML, TOTAL_CARDS};

fn data() -> &'static TenData {
    TenData::embedded().expect("the embedded ten.toml is valid")
}

/// The embedded file with one piece of text replaced; the piece must occur in the file.
fn edited(from: &str, to: &str) -> String {
    assert!(TEN_TOML.contains(from), "{from:?} not found in ten.toml");
    TEN_TOML.replacen(from, to, 1)
}

fn load_error(text: &str) -> String {
    TenData::load(text).expect_err("the loader must refuse this file")
}

#[test]
fn embedded_file_has_129_cards_with_ids_in_file_order() {
    let d = data();
    assert_eq!(d.cards.len(), TOTAL_CARDS);
    for (i, card) in d.cards.iter().enumerate() {
        assert_eq!(usize::from(card.id), i);
        assert_eq!(d.card(card.id), Some(card));
    }
    assert_eq!(d.card(129), None);
    assert_eq!(d.kind(0), Some(TenKind::Number { colour: Colour::Red, value: 1 }));
    assert_eq!(d.kind(128), Some(TenKind::Currency { value: 5 }));
}

#[test]
fn embedded_file_matches_the_card_table() {
    let d = data();
    let count = |f: &dyn Fn(&TenKind) -> bool| d.cards.iter().filter(|c| f(&c.kind)).count();
    assert_eq!(count(&|k| matches!(k, TenKind::Number { .. })), 84);
    assert_eq!(count(&|k| matches!(k, TenKind::ColourWild { .. })), 8);
    assert_eq!(count(&|k| matches!(k, TenKind::NumberWild { .. })), 9);
    assert_eq!(count(&|k| matches!(k, TenKind::AnyWild)), 1);
    assert_eq!(count(&|k| matches!(k, TenKind::Currency { .. })), 27);
    for colour in Colour::ALL {
        for value in 1..=9u8 {
            let n = count(&|k| *k == TenKind::Number { colour, value });
            assert_eq!(n, if value <= 6 { 3 } else { 1 }, "{colour} {value}");
        }
    }
    // The provisional currency split 7/6/6/4/4.
    let split: Vec<usize> = (1..=5u8).map(|value| count(&|k| *k == TenKind::Currency { value })).collect();
    assert_eq!(split, [7, 6, 6, 4, 4]);
}

#[test]
fn embedded_constants() {
    let d = data();
    assert_eq!(d.start_tokens, 5);
    assert_eq!(d.token_cap, 10);
    assert_eq!(d.currency_token_supply, 50);
    assert_eq!(d.bust_token_value, 3);
    assert_eq!(d.bust_token_supply, 15);
    assert_eq!(d.bust_threshold, 11);
    assert_eq!(d.perfect_run_bonus, 1);
    assert_eq!(d.solo_target_score_default, 25);
    assert_eq!(d.solo_wild_price, 1);
}

#[test]
fn provisional_parts_are_marked_in_the_file() {
    let d = data();
    assert_eq!(d.provisional.len(), 3);
    assert!(d.provisional.iter().any(|n| n.contains("1x7, 2x6, 3x6, 4x4, 5x4")));
    assert!(d.provisional.iter().any(|n| n.contains("4.13.17")));
    // Every row with a player-count symbol and every currency row carries the marker.
    for line in TEN_TOML.lines().filter(|l| l.trim_start().starts_with("{ kind")) {
        let symbol = !line.contains("min_players = 1 ");
        if symbol || line.contains("\"currency\"") {
            assert!(line.contains("[PROVISIONAL]"), "unmarked provisional row: {line}");
        }
    }
}

#[test]
fn deck_sizes_for_every_player_count() {
    let d = data();
    let sizes: Vec<usize> = (1..=5).map(|p| d.deck_for(p).unwrap().len()).collect();
    assert_eq!(sizes, [89, 89, 105, 129, 129]);
    assert_eq!(d.deck_for(1).unwrap(), d.deck_for(2).unwrap());
    assert_eq!(d.deck_for(4).unwrap(), (0..=128).collect::<Vec<u8>>());
    for bad in [0, 6] {
        let e = d.deck_for(bad).unwrap_err();
        assert_eq!(e.code(), "bad_options");
        assert!(e.reason().contains("1 to 5 players"), "{e}");
    }
}

#[test]
fn smaller_decks_are_nested_and_keep_every_wild() {
    let d = data();
    let two = d.deck_for(2).unwrap();
    let three = d.deck_for(3).unwrap();
    assert!(two.iter().all(|id| three.contains(id)));
    for card in &d.cards {
        if card.kind.is_wild() {
            assert!(two.contains(&card.id), "wild {card:?} missing from the 2-player deck");
        }
    }
    // The 2-player deck of the provisional data: per colour 1 copy of 1-3, 2 of 4-6, 1 of 7-9 (4.13.17).
    let red =
        |v: u8| two.iter().filter(|&&id| d.kind(id) == Some(TenKind::Number { colour: Colour::Red, value: v })).count();
    assert_eq!((1..=9).map(red).collect::<Vec<_>>(), [1, 1, 1, 2, 2, 2, 1, 1, 1]);
    let currency: u32 = three
        .iter()
        .filter_map(|&id| match d.kind(id) {
            Some(TenKind::Currency { value }) => Some(u32::from(value)),
            _ => None,
        })
        .sum();
    assert_eq!(currency, 73, "the 3-player deck keeps every currency card");
}

#[test]
fn colour_names_and_indices() {
    for (i, colour) in Colour::ALL.into_iter().enumerate() {
        assert_eq!(colour.index(), i);
        assert_eq!(Colour::from_index(i), Some(colour));
        assert_eq!(colour.name().parse::<Colour>(), Ok(colour));
        assert_eq!(colour.to_string(), colour.name());
    }
    let names: Vec<&str> = Colour::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["red", "blue", "orange", "green"]);
    assert_eq!(Colour::from_index(4), None);
    assert!("purple".parse::<Colour>().unwrap_err().contains("unknown colour"));
}

#[test]
fn kinds_and_cards_serialise_to_json() {
    let json = |k: TenKind| serde_json::to_string(&k).unwrap();
    assert_eq!(
        json(TenKind::Number { colour: Colour::Orange, value: 7 }),
        r#"{"type":"number","colour":"orange","value":7}"#
    );
    assert_eq!(json(TenKind::ColourWild { colour: Colour::Green }), r#"{"type":"colour_wild","colour":"green"}"#);
    assert_eq!(json(TenKind::NumberWild { value: 4 }), r#"{"type":"number_wild","value":4}"#);
    assert_eq!(json(TenKind::AnyWild), r#"{"type":"any_wild"}"#);
    assert_eq!(json(TenKind::Currency { value: 2 }), r#"{"type":"currency","value":2}"#);
    let back: TenKind = serde_json::from_str(r#"{"type":"colour_wild","colour":"blue"}"#).unwrap();
    assert_eq!(back, TenKind::ColourWild { colour: Colour::Blue });
    let card = TenCard { id: 3, kind: TenKind::NumberWild { value: 9 }, min_players: 1 };
    assert_eq!(
        serde_json::to_value(card).unwrap(),
        serde_json::json!({"id": 3, "type": "number_wild", "value": 9, "min_players": 1})
    );
    assert_eq!(TenKind::AnyWild.type_name(), "any_wild");
    assert_eq!(TenKind::Currency { value: 4 }.face_value(), Some(4));
    assert_eq!(TenKind::ColourWild { colour: Colour::Red }.face_value(), None);
    assert!(!TenKind::Number { colour: Colour::Red, value: 1 }.is_wild());
}

/// The box is compiled in as Rust constants (`games/ten/table.rs`); `data/ten.toml` is its readable form.
/// A correction to one that misses the other fails here.
#[test]
fn the_compiled_in_box_equals_data_ten_toml() {
    assert_eq!(&TenData::load(TEN_TOML).unwrap(), data());
}

#[test]
fn a_cards_json_is_its_serde_form() {
    for card in &data().cards {
        assert_eq!(card.to_json(), serde_json::to_value(card).unwrap(), "card {}", card.id);
    }
}

#[test]
fn malformed_toml_is_refused() {
    assert!(load_error("cards = [").starts_with("ten.toml:"));
    assert!(load_error("").contains("missing field"));
    assert!(load_error(&edited("[solo]", "[sollo]")).contains("unknown field"));
    assert!(load_error(&edited("wild_price = 1", "wild_price = \"one\"")).contains("wild_price"));
}

#[test]
fn bad_rows_are_refused_with_their_row_number() {
    let e = load_error(&edited(r#"colour = "red", value = 7"#, r#"colour = "red", value = 10"#));
    assert!(e.contains("card row 16") && e.contains("value = 10 is out of range 1..=9"), "{e}");
    let e = load_error(&edited(r#"kind = "currency", value = 5"#, r#"kind = "currency", value = 6"#));
    assert!(e.contains("out of range 1..=5"), "{e}");
    let e = load_error(&edited(r#"{ kind = "number", colour = "red", "#, r#"{ kind = "number", "#));
    assert!(e.contains("card row 1: this kind needs a colour"), "{e}");
    let e = load_error(&edited(r#"kind = "any_wild","#, r#"kind = "any_wild", value = 3,"#));
    assert!(e.contains("takes no value"), "{e}");
    let e = load_error(&edited(r#"kind = "number_wild","#, r#"kind = "number_wild", colour = "red","#));
    assert!(e.contains("takes no colour"), "{e}");
    let e = load_error(&edited(r#"kind = "any_wild""#, r#"kind = "joker""#));
    assert!(e.contains("unknown variant"), "{e}");
    let e = load_error(&edited(r#"colour = "red""#, r#"colour = "pink""#));
    assert!(e.contains("unknown variant"), "{e}");
    let e = load_error(&edited("copies = 2, min_players = 1 },", "copies = 0, min_players = 1 },"));
    assert!(e.contains("copies = 0 is out of range"), "{e}");
    let e = load_error(&edited("min_players = 3 }", "min_players = 2 }"));
    assert!(e.contains("min_players = 2 is not a player-count symbol"), "{e}");
    let e = load_error(&edited("copies = 1, min_players = 1 }", "copies = 1, min_players = 1, rare = true }"));
    assert!(e.contains("unknown field"), "{e}");
}

#[test]
fn wrong_card_counts_are_refused() {
    let e = load_error(&edited(r#"kind = "any_wild", copies = 1"#, r#"kind = "any_wild", copies = 2"#));
    assert!(e.contains("more than 129 cards"), "{e}");
    let e = load_error(&edited(
        r#"kind = "any_wild", copies = 1"#,
        r#"kind = "any_wild", copies = 1, min_players = 1 },
  { kind = "currency", value = 2, copies = 1"#,
    ));
    assert!(e.contains("more than 129 cards"), "{e}");
    let e = load_error(&edited("{ kind = \"any_wild\", copies = 1, min_players = 1 },\n", ""));
    assert!(e.contains("128 cards, TEN has 129"), "{e}");
    // Same total, but a red 8 turned into a second red 7.
    let e = load_error(&edited(r#"colour = "red", value = 8"#, r#"colour = "red", value = 7"#));
    assert!(e.contains("2 red 7 cards, expected 1"), "{e}");
    // Same total, but the multicolour # turned into a second numbered wild 9.
    let e = load_error(&edited(r#"{ kind = "any_wild","#, r#"{ kind = "number_wild", value = 9,"#));
    assert!(e.contains("2 numbered wilds 9, expected 1"), "{e}");
    let e = load_error(&edited(r#"kind = "colour_wild", colour = "green""#, r#"kind = "colour_wild", colour = "red""#));
    assert!(e.contains("4 red colour wilds, expected 2"), "{e}");
    let e = load_error(&edited(
        r#"{ kind = "currency", value = 5, copies = 4"#,
        r#"{ kind = "number_wild", value = 5, copies = 4"#,
    ));
    assert!(e.contains("numbered wilds 5"), "{e}");
}

#[test]
fn bad_constants_are_refused() {
    let e = load_error(&edited("start_tokens = 5", "start_tokens = 11"));
    assert!(e.contains("rules.start_tokens = 11 is out of range 0..=10"), "{e}");
    let e = load_error(&edited("currency_token_supply = 50", "currency_token_supply = 49"));
    assert!(e.contains("rules.currency_token_supply = 49 is out of range 50..=255"), "{e}");
    let e = load_error(&edited("bust_token_value = 3", "bust_token_value = -3"));
    assert!(e.contains("rules.bust_token_value = -3"), "{e}");
    let e = load_error(&edited("target_score_default = 25", "target_score_default = 41"));
    assert!(e.contains("solo.target_score_default = 41 is out of range 1..=40"), "{e}");
    let e = load_error(&edited("token_cap = 10 ", "token_cap = 1000000000000 "));
    assert!(e.contains("rules.token_cap"), "{e}");
    let e = load_error(&edited("wild_price = 1", "wild_price = 0"));
    assert!(e.contains("solo.wild_price = 0"), "{e}");
}
