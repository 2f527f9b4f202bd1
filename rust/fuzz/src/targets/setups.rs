//! Setups: games and RL states started by name with a player count and options, and the other names the
//! core reads (built-in players, Matchstick's card and value names).
//!
//! Input: a player-count byte (0: the game's usual count), a seed byte, then text: a name, and after the
//! first newline the options' JSON. Promises: a refusal is `unknown_game` or `bad_options`; options that
//! resolve resolve again to themselves; a game that starts is consistent and starts again identically from
//! the setup it reports; an RL state that starts saves and loads; a name that parses is written back to a
//! name that parses to the same thing.

use crate::check::{any_consistent, typed};
use cardnet_core::ai::Player;
use cardnet_core::json::canonical;
use cardnet_core::registry::info;
use cardnet_core::rl::{load_rl, new_rl};
use cardnet_core::segments::{CardType, Value};
use cardnet_core::{json, new_game, JsonValue};

/// The kinds of error a setup may be refused with.
const REFUSALS: [&str; 2] = ["unknown_game", "bad_options"];

/// The target.
pub fn run(data: &[u8]) {
    let (players_byte, seed) = match data {
        [p, s, ..] => (*p, u64::from(*s)),
        _ => return,
    };
    let players = (players_byte > 0).then(|| usize::from(players_byte) - 1);
    let Ok(text) = std::str::from_utf8(&data[2..]) else { return };
    let (name, options_text) = text.split_once('\n').unwrap_or((text, "null"));
    names(name);
    let Ok(options) = json::parse(options_text) else { return };
    resolve(name, players, &options);
    start(name, players, seed, &options);
}

/// Player, card and value names.
fn names(name: &str) {
    match Player::parse(name) {
        Ok(player) => assert_eq!(Player::parse(&player.name()).ok(), Some(player), "player {name:?}"),
        Err(e) => typed(&e, &["bad_options"], &format!("player {name:?}")),
    }
    if let Ok(player) = Player::for_level(name) {
        assert_eq!(Player::parse(name).ok(), Some(player), "level {name:?} reads differently as a player");
    }
    if let Some(value) = Value::parse(name) {
        assert_eq!(Value::parse(value.name()), Some(value), "value {name:?}");
    }
    if let Some(card) = CardType::parse(name) {
        assert_eq!(CardType::parse(card.name()), Some(card), "card type {name:?}");
    }
}

/// The game's own reading of players and options.
fn resolve(name: &str, players: Option<usize>, options: &JsonValue) {
    let game = match info(name) {
        Ok(game) => game,
        Err(e) => return typed(&e, &["unknown_game"], &format!("info({name:?})")),
    };
    match game.resolve_options(options) {
        Ok(resolved) => {
            let again = game.resolve_options(&JsonValue::Object(resolved.clone()));
            assert_eq!(again.ok(), Some(resolved), "{name} options {options} resolve differently a second time");
        }
        Err(e) => typed(&e, &["bad_options"], &format!("{name} options {options}")),
    }
    if let Err(e) = game.resolve_players(players) {
        typed(&e, &["bad_options"], &format!("{name} players {players:?}"));
    }
}

/// Games and RL states started from the setup.
fn start(name: &str, players: Option<usize>, seed: u64, options: &JsonValue) {
    let what = format!("{name:?} for {players:?} with {options}");
    match new_game(name, players, seed, options) {
        Ok(game) => {
            any_consistent(game.as_ref(), &what);
            let setup = game.setup();
            let options = JsonValue::Object(setup.options.clone());
            let again = new_game(name, Some(setup.players), setup.seed, &options)
                .unwrap_or_else(|e| panic!("{what}: its own setup does not start: {e}"));
            assert_eq!(again.state_hash(), game.state_hash(), "{what}: its own setup starts another game");
        }
        Err(e) => typed(&e, &REFUSALS, &what),
    }
    match new_rl(name, players, seed, options, true) {
        Ok(state) => {
            let saved = canonical(&state.to_json().unwrap_or_else(|e| panic!("{what}: RL save: {e}")));
            let loaded = load_rl(&saved).unwrap_or_else(|e| panic!("{what}: its RL save does not load: {e}"));
            assert_eq!(loaded.state_json(), state.state_json(), "{what}: RL save → load changed the state");
        }
        Err(e) => typed(&e, &REFUSALS, &format!("RL {what}")),
    }
}
