//! Saved games: every kind of garbage is a `CorruptState` naming the problem, never a panic, and a
//! tampered save never loads as something else.

use cardnet_core::json::canonical;
use cardnet_core::{infos, load_game, new_game, GameError};
use proptest::prelude::*;
use serde_json::{json, Value};

fn saved_game(name: &str, moves: usize) -> Value {
    let mut game = new_game(name, None, 3, &Value::Null).expect("new game");
    for _ in 0..moves {
        let Some(&seat) = game.to_act().first() else { break };
        game.apply_index(seat, game.legal_count(seat) - 1).expect("legal move");
    }
    game.to_json().expect("save")
}

fn corrupt(text: &str) -> String {
    match load_game(text) {
        Err(GameError::CorruptState(reason)) => reason,
        Err(other) => panic!("expected corrupt_state, got {other}"),
        Ok(_) => panic!("garbage loaded: {text:.200}"),
    }
}

#[test]
fn every_game_round_trips() {
    for info in infos() {
        let doc = saved_game(info.name, 30);
        let loaded = load_game(&canonical(&doc)).expect("load");
        assert_eq!(canonical(&loaded.to_json().expect("save")), canonical(&doc), "{}", info.name);
    }
}

#[test]
fn not_a_save_at_all() {
    assert!(corrupt("").contains("not JSON"));
    assert!(corrupt("{\"format\":").contains("not JSON"));
    assert!(corrupt("[1,2,3]").contains("not a JSON object"));
    assert!(corrupt("{}").contains("format"));
    assert!(corrupt(r#"{"format":99,"game":"matchstick"}"#).contains("unsupported save format 99"));
    assert!(corrupt(r#"{"format":1,"game":"chess"}"#).contains("unknown game"));
    assert!(corrupt(r#"{"format":1,"game":7}"#).contains("no game name"));
}

#[test]
fn tampered_fields_are_named() {
    for info in infos() {
        let doc = saved_game(info.name, 12);
        let mut bad = doc.clone();
        bad["players"] = json!(99);
        assert!(corrupt(&canonical(&bad)).starts_with("setup"), "{}", info.name);
        let mut bad = doc.clone();
        bad["seed"] = json!("seven");
        assert!(corrupt(&canonical(&bad)).contains("seed"));
        let mut bad = doc.clone();
        bad["moves"][3]["move"] = json!({"type": "no_such_move"});
        assert!(corrupt(&canonical(&bad)).starts_with("move 3"), "{}", info.name);
        let mut bad = doc.clone();
        bad["moves"][0]["seat"] = json!(7);
        assert!(corrupt(&canonical(&bad)).starts_with("move 0"), "{}", info.name);
        let mut bad = doc.clone();
        bad["state"]["tampered"] = json!(1);
        assert!(corrupt(&canonical(&bad)).contains("state.tampered"), "{}", info.name);
        let mut bad = doc.clone();
        bad.as_object_mut().expect("object").remove("state");
        assert!(corrupt(&canonical(&bad)).contains("no state"));
        let mut bad = doc.clone();
        bad.as_object_mut().expect("object").remove("options");
        assert!(corrupt(&canonical(&bad)).contains("no options"));
        let mut bad = doc.clone();
        bad["comment"] = json!("hello");
        assert!(corrupt(&canonical(&bad)).contains("unknown key \"comment\""));
    }
}

#[test]
fn a_dropped_move_is_caught_by_the_state_check() {
    for info in infos() {
        let mut doc = saved_game(info.name, 20);
        let moves = doc["moves"].as_array_mut().expect("moves");
        moves.pop();
        let reason = corrupt(&canonical(&doc));
        assert!(reason.contains("differs") || reason.starts_with("move"), "{}: {reason}", info.name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Flipping, inserting or deleting bytes anywhere in a save either still loads to a game that saves
    /// back to the very same text (a change that meant nothing, such as in the key order) or is refused.
    #[test]
    fn mutated_saves_never_panic(game in 0usize..4, position in 0.0f64..1.0, byte in any::<u8>(), kind in 0u8..3) {
        let name = infos()[game].name;
        let text = canonical(&saved_game(name, 15));
        let mut bytes = text.clone().into_bytes();
        let at = ((bytes.len() - 1) as f64 * position) as usize;
        match kind {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => { bytes.remove(at); }
        }
        let Ok(mutated) = String::from_utf8(bytes) else { return Ok(()) };
        match load_game(&mutated) {
            Ok(game) => {
                let again = canonical(&game.to_json().expect("save"));
                let reparsed: Value = serde_json::from_str(&mutated).expect("it loaded, so it parses");
                prop_assert_eq!(again, canonical(&reparsed));
            }
            Err(e) => prop_assert_eq!(e.code(), "corrupt_state"),
        }
    }
}

/// A determinized copy with a few moves of its own, for every game and observer, drawn from a game in play.
fn determinized_copies() -> Vec<(String, Box<dyn cardnet_core::AnyGame>)> {
    let mut copies = Vec::new();
    for info in infos() {
        let doc = saved_game(info.name, 12);
        let game = load_game(&canonical(&doc)).expect("load");
        for observer in std::iter::once(None).chain((0..game.setup().players).map(Some)) {
            let mut copy = game.determinize(observer, 77);
            for _ in 0..3 {
                let Some(&seat) = copy.to_act().first() else { break };
                copy.apply_index(seat, 0).expect("legal move");
            }
            copies.push((format!("{} observer {observer:?}", info.name), copy));
        }
    }
    copies
}

#[test]
fn a_determinized_copy_saves_and_loads_back_exactly() {
    for (what, copy) in determinized_copies() {
        let doc = copy.to_json().unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(doc.get("seed").is_none() && doc["determinized"]["seed"] == json!(77), "{what}");
        let loaded = load_game(&canonical(&doc)).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(loaded.state_hash(), copy.state_hash(), "{what}");
        assert_eq!(loaded.to_json().expect("save"), doc, "{what}");
        assert_eq!(loaded.move_count(), copy.move_count(), "{what}");
        // What the copy invented is what loads: other seats' hands too, not only the public part.
        for seat in 0..copy.setup().players {
            assert_eq!(loaded.view(Some(seat)).unwrap(), copy.view(Some(seat)).unwrap(), "{what} seat {seat}");
        }
    }
}

#[test]
fn a_copy_of_a_copy_saves_its_whole_recipe() {
    let game = new_game("cherki", Some(4), 5, &Value::Null).expect("new game");
    let twice = game.determinize(Some(1), 8).determinize(Some(2), 9);
    let doc = twice.to_json().expect("save");
    assert_eq!(doc["determinized"]["state"]["determinized"]["observer"], json!(1));
    assert_eq!(load_game(&canonical(&doc)).expect("load").state_hash(), twice.state_hash());
}

#[test]
fn a_determinized_save_with_a_wrong_recipe_does_not_load() {
    let (_, copy) = determinized_copies().swap_remove(1);
    let doc = copy.to_json().expect("save");
    let edited = |pointer: &str, value: Value| {
        let mut doc = doc.clone();
        *doc.pointer_mut(pointer).expect("the save has this field") = value;
        corrupt(&canonical(&doc))
    };
    // Another seed or observer deals other cards, which the state check catches.
    assert!(edited("/determinized/seed", json!(78)).contains("differs"));
    assert!(edited("/determinized/observer", json!(99)).contains("observer is not a seat"));
    assert!(edited("/determinized/observer", json!("north")).contains("observer is not a seat"));
    assert!(edited("/determinized/state/game", json!("fistful")).contains("another game"));
    assert!(edited("/determinized/state/moves", json!([{"seat": 0, "move": {"type": "fly"}}])).contains("source"));
    assert!(edited("/determinized", json!([])).contains("not an object"));
    let mut with_seed = doc.clone();
    with_seed["seed"] = json!(3);
    assert!(corrupt(&canonical(&with_seed)).contains("setup in its source"));
}

#[test]
fn a_game_rebuilt_from_a_view_refuses_to_be_saved() {
    let game = new_game("fistful", None, 4, &Value::Null).expect("new game");
    let view = game.view(Some(0)).expect("view");
    let rebuilt = cardnet_core::game_from_view("fistful", None, &Value::Null, Some(0), &view, 1).expect("rebuilt");
    let refused = rebuilt.to_json().unwrap_err();
    assert_eq!(refused.code(), "determinized");
    assert!(refused.to_string().contains("no deal to replay"), "{refused}");
    assert_eq!(rebuilt.determinize(Some(0), 2).to_json().unwrap_err().code(), "determinized");
}
