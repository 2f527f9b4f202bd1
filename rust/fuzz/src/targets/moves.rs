//! Moves as JSON into a real position of every game: each game's move parser (`wire.rs`), the rules'
//! lookup and the refusal's explanation, for every seat, out-of-range ones included.
//!
//! Input: a [`Position`] header, a seat byte, then the move's JSON text. Promises: the text is refused as
//! `invalid_move` or an illegal move with the rules' code, by `index_of` and `apply` alike, and a refused
//! move changes nothing; an accepted move's index lists a move found at that index again (which, given as
//! JSON, does exactly what the index does), and the position after it passes the core's consistency check;
//! a move that parses is written back by the game's writer to JSON that parses to the same move.

use super::Position;
use crate::check::{consistent, for_game, typed, ForGame};
use crate::input::Input;
use cardnet_core::json::{self, canonical};
use cardnet_core::session::Session;
use cardnet_core::{AnyGame, Game, JsonValue, Seat};

/// The kinds of error a move may be refused with.
const REFUSALS: [&str; 2] = ["invalid_move", "illegal_move"];

/// The target.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let position = Position::read(&mut input);
    let seat_byte = input.byte();
    let Ok(text) = std::str::from_utf8(input.rest()) else { return };
    let Ok(value) = json::parse(text) else { return };
    let name = position.info.name;
    for_game(name, MoveInto { position, seat_byte, value });
}

struct MoveInto {
    position: Position,
    seat_byte: u8,
    value: JsonValue,
}

impl ForGame for MoveInto {
    type Out = ();
    fn call<G: Game>(self) -> Self::Out {
        let session = self.position.reach::<G>();
        let players = self.position.players;
        // Every seat and two past the end.
        let seat: Seat = usize::from(self.seat_byte) % (players + 2);
        let what = format!("{} move {} by seat {seat}", self.position.info.name, canonical(&self.value));
        parse_round_trip(session.game(), seat, &self.value, &what);
        apply_or_refuse(&session, seat, &self.value, &what);
    }
}

/// A move that parses is written back to JSON that parses to the same typed move.
fn parse_round_trip<G: Game>(game: &G, seat: Seat, value: &JsonValue, what: &str) {
    match game.move_from_json(seat, value) {
        Ok(mv) => {
            let written = game.move_to_json(&mv);
            let again = game
                .move_from_json(seat, &written)
                .unwrap_or_else(|e| panic!("{what}: the written form {written} does not parse: {e}"));
            assert_eq!(again, mv, "{what}: changed meaning through its written form {written}");
        }
        Err(e) => typed(&e, &["invalid_move"], &format!("{what}: move_from_json")),
    }
}

/// `index_of` and `apply` agree; a refusal changes nothing; an accepted move is a listed one.
fn apply_or_refuse<G: Game>(session: &Session<G>, seat: Seat, value: &JsonValue, what: &str) {
    let before = session.state_hash();
    let found = AnyGame::index_of(session, seat, value);
    let mut after = session.clone();
    let applied = AnyGame::apply(&mut after, seat, value);
    match (found, applied) {
        (Ok(index), Ok(())) => {
            let listed = AnyGame::legal_move(session, seat, index)
                .unwrap_or_else(|| panic!("{what}: index_of gave {index}, past the legal moves"));
            assert_eq!(AnyGame::index_of(session, seat, &listed).ok(), Some(index), "{what}: listed {listed}");
            let mut by_index = session.clone();
            AnyGame::apply_index(&mut by_index, seat, index).unwrap_or_else(|e| panic!("{what}: by index: {e}"));
            // Equivalent moves share an index (Matchstick: other ids of the same printed cards), so only the
            // listed move itself must do exactly what its index does.
            if canonical(value) == canonical(&listed) {
                assert_eq!(by_index.state_hash(), after.state_hash(), "{what}: differs from listed move {index}");
            }
            assert_eq!(after.move_count(), session.move_count() + 1, "{what}: the history did not grow by one");
            consistent(after.game(), what);
        }
        (Err(refused), Err(also)) => {
            typed(&refused, &REFUSALS, &format!("{what}: index_of"));
            assert_eq!(refused, also, "{what}: index_of and apply refuse it differently");
            assert_eq!(after.state_hash(), before, "{what}: a refused move changed the state");
            assert_eq!(after.move_count(), session.move_count(), "{what}: a refused move entered the history");
        }
        (found, applied) => panic!("{what}: index_of says {found:?} but apply says {applied:?}"),
    }
}
