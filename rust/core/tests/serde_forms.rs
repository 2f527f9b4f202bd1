//! The `serde` feature: a move's serde form is the core's written move JSON, and moves, outcomes and
//! setups read back what they wrote.
#![cfg(feature = "serde")]

use cardnet_core::games::{cherki::Cherki, fistful::Fistful, matchstick::Matchstick, ten::Ten};
use cardnet_core::rng::Rng;
use cardnet_core::{Game, Outcome, Setup};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// Plays `games` seeded random games of `G`, checking the serde form of every legal move at every
/// decision, then of the setup and the outcome.
fn check_forms<G: Game>(games: u64)
where
    G::Move: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let info = G::info();
    for seed in 0..games {
        let mut game = fresh::<G>(seed);
        let mut rng = Rng::new(seed);
        let mut moves = 0;
        while let Some(seat) = game.to_act().first() {
            let count = game.legal_count(seat);
            for index in 0..count {
                let mv = game.legal_move(seat, index).expect("an index below the count");
                let form = serde_json::to_value(&mv).expect("a move serializes");
                assert_eq!(form, game.move_to_json(&mv), "{}: seed {seed}, move {index}", info.name);
                assert_eq!(serde_json::from_value::<G::Move>(form).expect("a written move reads back"), mv);
            }
            game.apply_index(seat, rng.index(count)).expect("a listed move applies");
            moves += 1;
        }
        assert!(moves > 0, "{}: seed {seed} ended before any move", info.name);
        let outcome = game.outcome().expect("a finished game has an outcome");
        let form = serde_json::to_value(&outcome).expect("an outcome serializes");
        assert_eq!(form, outcome.to_json());
        assert_eq!(serde_json::from_value::<Outcome>(form).expect("an outcome reads back"), outcome);
        let setup_form = serde_json::to_string(game.setup()).expect("a setup serializes");
        assert_eq!(&serde_json::from_str::<Setup>(&setup_form).expect("a setup reads back"), game.setup());
    }
}

#[test]
fn matchstick_forms_are_the_written_json() {
    check_forms::<Matchstick>(3);
}

#[test]
fn fistful_forms_are_the_written_json() {
    check_forms::<Fistful>(3);
}

#[test]
fn cherki_forms_are_the_written_json() {
    check_forms::<Cherki>(3);
}

#[test]
fn ten_forms_are_the_written_json() {
    check_forms::<Ten>(2);
}

#[test]
fn a_malformed_move_is_refused_with_the_core_s_reason() {
    let refused = serde_json::from_value::<<Fistful as Game>::Move>(serde_json::json!({"type": "pick", "card": 12}))
        .expect_err("card 12 does not exist");
    assert!(refused.to_string().contains("card ids are 1-8"), "{refused}");
}

/// A game of `G` from its defaults.
fn fresh<G: Game>(seed: u64) -> G {
    G::start(None, seed, &serde_json::Value::Null).expect("a game from its defaults")
}

#[test]
fn typed_views_serialize_field_by_field() {
    let duel = fresh::<Fistful>(4);
    let sight = duel.sight(1);
    let form = serde_json::to_value(sight).expect("a sight serializes");
    assert_eq!(form["hand"], sight.hand);
    assert_eq!(form["to_act"], sight.to_act.0);
    assert_eq!(form["gold"], serde_json::json!(sight.gold));
    assert_eq!(form["earlier"].as_array().map(Vec::len), Some(2));

    let ten = fresh::<Ten>(4);
    let table = serde_json::to_value(ten.public_table()).expect("a public table serializes");
    let public = &ten.view(None)["public"];
    assert_eq!(table["draw_pile"], public["draw_pile"]);
    assert_eq!(table["token_supply"], public["token_supply"]);
}
