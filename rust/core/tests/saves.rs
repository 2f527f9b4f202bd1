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
