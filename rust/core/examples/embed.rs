//! Embedding the core in a Rust program: both faces of the engine.
//!
//! 1. Typed: a game's own type and the `Game` trait — no JSON, no allocation on the hot path.
//! 2. By name: `cardnet_core::new_game` gives any game behind `AnyGame`, speaking JSON, with saves.
//!
//! `cargo run --release -p cardnet-core --example embed`

use cardnet_core::ai::Player;
use cardnet_core::games::fistful::Fistful;
use cardnet_core::rng::Rng;
use cardnet_core::session::Session;
use cardnet_core::{load_game, new_game, Game, GameError};
use serde_json::json;

fn main() -> Result<(), GameError> {
    // Typed: a seeded duel between the heuristic player and a short ISMCTS search.
    let mut duel = Session::<Fistful>::start(None, 42, &json!({"length": "short"}))?;
    let mut rng = Rng::new(7);
    let players = [Player::Heuristic, Player::Ismcts { iterations: 200 }];
    while let Some(seat) = duel.game().to_act().first() {
        let index = players[seat].choose(duel.game(), seat, &mut rng)?;
        duel.apply_index(seat, index)?;
    }
    if let Some(outcome) = duel.game().outcome() {
        println!("fistful: {}", outcome.to_json());
    }

    // By name: moves as JSON, refusals as typed errors that change nothing.
    let mut game = new_game("matchstick", Some(3), 7, &json!({"expansion": 2}))?;
    let seat = game.to_act()[0];
    let hash_before = game.state_hash();
    match game.apply(seat, &json!({"type": "pass"})) {
        Err(e) => println!("refused as expected: {} ({})", e.reason(), e.code()),
        Ok(()) => println!("a pass was accepted on a lead?"),
    }
    assert_eq!(game.state_hash(), hash_before);
    let first = game.legal_move(seat, 0).ok_or_else(|| GameError::Internal("no legal move".into()))?;
    game.apply(seat, &first)?;
    println!("seat {seat} played {first}; spectator sees {}", serde_json::Value::Array(game.events(None)?));

    // Saves replay every move and check the stored state.
    let saved = cardnet_core::json::canonical(&game.to_json()?);
    let loaded = load_game(&saved)?;
    assert_eq!(loaded.state_hash(), game.state_hash());
    println!("saved {} bytes and loaded them back (hash {})", saved.len(), &loaded.state_hash()[..12]);
    Ok(())
}
