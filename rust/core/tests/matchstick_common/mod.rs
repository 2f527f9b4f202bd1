//! Position builders and move helpers both Matchstick Tycoon rule suites (`matchstick_rules.rs` and
//! `matchstick_audit.rs`) use, so that a position means the same thing in each.

use cardnet_core::game::{Game, Setup};
use cardnet_core::games::matchstick::Matchstick;
use cardnet_core::segments::{CardType, Value};
use cardnet_core::GameError;
use serde_json::{json, Value as Json};

/// The id of copy `copy` of the printed card `name`.
pub fn c(name: &str, copy: u8) -> u8 {
    CardType::parse(name).expect("card name").index() as u8 * 4 + copy
}

pub fn new_game(players: usize, expansion: u64, deal_all: bool, seed: u64) -> Matchstick {
    let options =
        Matchstick::info().resolve_options(&json!({"expansion": expansion, "deal_all": deal_all})).expect("options");
    Matchstick::new(&Setup { players, seed, options }).expect("new game")
}

/// A position: hands and matchsticks per seat, the table `(owner, value, cards)`, revolution, seat to act.
pub fn pos(
    players: usize,
    hands: &[&[u8]],
    sticks: &[u32],
    table: Option<(usize, &str, &[u8])>,
    revolution: bool,
    current: usize,
) -> Matchstick {
    pos_exp(players, 0, hands, sticks, table, revolution, current)
}

/// A position with `expansion` cards in play: hands and matchsticks per seat, the table
/// `(owner, value, cards)`, revolution, seat to act.
pub fn pos_exp(
    players: usize,
    expansion: u64,
    hands: &[&[u8]],
    sticks: &[u32],
    table: Option<(usize, &str, &[u8])>,
    revolution: bool,
    current: usize,
) -> Matchstick {
    let hands: Vec<Vec<u8>> = hands.iter().map(|h| h.to_vec()).collect();
    let table = table.map(|(s, v, cards)| (s, Value::parse(v).expect("value name"), cards));
    new_game(players, expansion, false, 1).test_position(&hands, sticks, table, revolution, current)
}

/// Validates and applies a JSON move as a session would.
pub fn act(game: &mut Matchstick, seat: usize, mv: Json) -> Result<(), GameError> {
    if !game.to_act().contains(seat) {
        return Err(GameError::illegal("not_your_turn", "not your turn"));
    }
    let typed = game.move_from_json(seat, &mv)?;
    if game.index_of(seat, &typed).is_none() {
        return Err(game.explain(seat, &typed));
    }
    game.apply_legal(seat, &typed);
    Ok(())
}

pub fn play(game: &mut Matchstick, seat: usize, value: &str, cards: &[u8]) -> Result<(), GameError> {
    act(game, seat, json!({"type": "play", "value": value, "cards": cards}))
}

pub fn pass(game: &mut Matchstick, seat: usize) -> Result<(), GameError> {
    act(game, seat, json!({"type": "pass"}))
}

/// The types of the spectator's events, in order.
pub fn event_types(game: &Matchstick) -> Vec<String> {
    game.events(None).iter().map(|e| e["type"].as_str().unwrap_or("").to_string()).collect()
}
