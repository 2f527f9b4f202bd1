//! Saved games given to `load_game`.
//!
//! Input: the save's text. Promises: a save that is refused is `corrupt_state`; a save that loads is saved
//! again to the same document, which loads to the same state, and the game passes the consistency checks
//! and keeps playing.

use crate::check::{any_consistent, play_on, typed};
use cardnet_core::json::canonical;
use cardnet_core::load_game;

/// Random moves played on from a loaded save.
const PLAY_ON: usize = 40;

/// The target.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match load_game(text) {
        Ok(mut game) => {
            let what = format!("{} save of {} moves", game.name(), game.move_count());
            let saved = canonical(&game.to_json().unwrap_or_else(|e| panic!("{what}: does not save again: {e}")));
            let again = load_game(&saved).unwrap_or_else(|e| panic!("{what}: its own save does not load: {e}"));
            assert_eq!(again.state_hash(), game.state_hash(), "{what}: save → load changed the state");
            let resaved = canonical(&again.to_json().unwrap_or_else(|e| panic!("{what}: {e}")));
            assert_eq!(resaved, saved, "{what}: save → load → save changed the document");
            any_consistent(game.as_ref(), &what);
            play_on(game.as_mut(), PLAY_ON, 7, &what);
        }
        Err(e) => typed(&e, &["corrupt_state"], "load_game"),
    }
}
