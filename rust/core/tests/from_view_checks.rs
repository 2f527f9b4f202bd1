//! `registry::from_view` refuses a view no state of the game could show: one that would build a state in which
//! nobody acts while the game is still on (found by tests/readerfuzz.py: Fistful's spectator view with
//! `"to_act": []` built a game a bot could never move in).

use cardnet_core::registry::{from_view, new_game};
use cardnet_core::GameError;
use serde_json::{json, Value};

fn midway(name: &str) -> Box<dyn cardnet_core::AnyGame> {
    let mut game = new_game(name, None, 7, &json!({})).expect("new game");
    for _ in 0..4 {
        let seat = game.to_act()[0];
        game.apply_index(seat, 0).expect("a legal move");
    }
    game
}

#[test]
fn a_view_whose_game_is_on_but_nobody_acts_is_corrupt() {
    for name in ["fistful", "matchstick", "cherki", "ten"] {
        let game = midway(name);
        let players = game.setup().players;
        for observer in [None, Some(0)] {
            let view = game.view(observer).expect("a seat of the table or a spectator");
            assert!(
                from_view(name, Some(players), &json!({}), observer, &view, 1).is_ok(),
                "{name}: the real view builds"
            );
            let mut emptied: Value = view.clone();
            emptied["public"]["to_act"] = json!([]);
            match from_view(name, Some(players), &json!({}), observer, &emptied, 1) {
                Err(GameError::CorruptState(_)) => {}
                Err(other) => panic!("{name} {observer:?}: another error {other:?}"),
                Ok(built) => panic!(
                    "{name} {observer:?}: built a game with to_act {:?}, over {}",
                    built.to_act(),
                    built.is_over()
                ),
            }
        }
    }
}

/// Found by the coverage-guided fuzzer (rust/fuzz, target `views`): a Fistful view for seat 1 whose public log
/// fits no history of seat 1's own cards (the Green 8 gives back card 5 in two rounds) was accepted for seat 1,
/// although the same table's spectator view was refused. Both are refused now.
#[test]
fn a_fistful_view_whose_log_fits_no_history_of_the_observer_is_corrupt() {
    let view: Value = serde_json::from_str(r#"{"private":{"discard":[1,2,3,4],"hand":[6,7,8],"pick":null},"public":{"barred":[null,null],"colours":["pink","green"],"discard_sizes":[4,4],"duel":3,"duels_in_round":4,"gold":[7,0],"green7_played_at":null,"green8_played":false,"hand_sizes":[2,3],"history":[{"played":[[1,3,6,7,8,9],[2,3,5,6,8,9]],"retrieved":{"card":5,"seat":1},"round":1},{"played":[[1,3,6,8,9],[5,6,7,8,9]],"retrieved":{"card":5,"seat":1},"round":2}],"last_duel":{"cards":[8,9],"duel":2,"gold":[7,0],"pot":0,"round":3,"steps":[{"gold":3,"seat":0,"step":"base"}]},"length":"short","phase":"pick","picked":[true,false],"played":[[1,8],[5,9]],"pot":0,"retrieved":null,"round":3,"six_played":false,"stars":[0,1],"target_stars":2,"to_act":[1]}}"#).expect("JSON");
    for observer in [Some(1), None] {
        let mut shown = view.clone();
        if observer.is_none() {
            shown["private"] = Value::Null;
        }
        match from_view("fistful", Some(2), &json!({}), observer, &shown, 9) {
            Err(GameError::CorruptState(reason)) => assert!(reason.contains("fits the public log"), "{reason}"),
            other => panic!("{observer:?}: expected corrupt_state, got {:?}", other.map(|g| g.state_hash())),
        }
    }
}

/// Found by the fuzzer too: Fistful's start with `"duel": 0` was accepted, and the round then ran a seventh duel,
/// leaving a seat to pick with no card it may play. Duels count from 1 to the round's number.
#[test]
fn a_fistful_view_with_a_duel_number_outside_the_round_is_corrupt() {
    let game = new_game("fistful", Some(2), 3, &json!({})).expect("new game");
    let view = game.view(None).expect("a spectator's view");
    for duel in [0, 7] {
        let mut shown = view.clone();
        shown["public"]["duel"] = json!(duel);
        match from_view("fistful", Some(2), &json!({}), None, &shown, 41) {
            Err(GameError::CorruptState(reason)) => assert!(reason.contains("duel"), "{reason}"),
            other => panic!("duel {duel}: expected corrupt_state, got {:?}", other.map(|g| g.state_hash())),
        }
    }
}
