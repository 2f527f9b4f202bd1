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
