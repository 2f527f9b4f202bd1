//! The C ABI's JSON entry points: `cardnet_game_new`, `cardnet_game_load`, `cardnet_game_from_view`,
//! `cardnet_apply_json` and `cardnet_index_of`, called as C calls them.
//!
//! Input: a byte picking the entry point, the header its arguments need (a [`Position`] and a seat for the
//! moves, game/options/players/observer/seed for a view), then the text, cut at its first NUL as C would.
//! Promises: no call ends in `CARDNET_STATUS_INTERNAL` (a panic caught at the boundary); text that is not
//! UTF-8 is `CARDNET_STATUS_INVALID_ARGUMENT` (unless another argument is refused first); every other failure is one of the entry point's documented
//! statuses with an error code set; a refused move changes nothing; a game that starts from a setup
//! starts again identically from the setup it reports; a loaded save saves to a save that loads.

use super::Position;
use crate::input::{self, Input};
use cardnet_core::json::canonical;
use cardnet_core::JsonValue;
use cardnet_ffi::{
    cardnet_apply_json, cardnet_game_free, cardnet_game_from_view, cardnet_game_load, cardnet_game_new,
    cardnet_game_save_json, cardnet_game_setup_json, cardnet_index_of, cardnet_last_error_code,
    cardnet_legal_move_json, cardnet_move_count, cardnet_state_hash, cardnet_string_free, CardnetGame, CardnetStatus,
    CARDNET_STATE_HASH_SIZE,
};
use std::ffi::{c_char, CStr, CString};
use std::ptr;

/// The target.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    match input.byte() % 5 {
        0 => start(input.rest()),
        1 => load(input.rest()),
        2 => from_view(&mut input),
        entry => play(&mut input, entry == 3),
    }
}

/// The text as C passes it: up to the first NUL.
fn c_text(bytes: &[u8]) -> CString {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    CString::new(&bytes[..end]).unwrap_or_else(|_| unreachable!("cut before the first NUL"))
}

/// Panics unless `status` is success or one of `allowed` (or a bad argument for text that is not UTF-8),
/// and a failure left an error code.
fn expect(status: CardnetStatus, text: &CString, allowed: &[CardnetStatus], what: &str) {
    if status == CardnetStatus::Ok {
        return;
    }
    // Text that is not UTF-8 is a bad argument, unless another argument was refused first.
    let mut fitting = allowed.to_vec();
    if text.to_str().is_err() {
        fitting.push(CardnetStatus::InvalidArgument);
    }
    // SAFETY: the library's own NUL-terminated string, read before the next call.
    let code = unsafe { CStr::from_ptr(cardnet_last_error_code()) }.to_string_lossy().into_owned();
    assert!(fitting.contains(&status), "{what}: status {status:?} (code {code:?}), not one of {fitting:?}");
    assert!(!code.is_empty(), "{what}: failed with {status:?} but no error code");
}

/// Owns a handle the library made, freeing it when dropped.
struct Handle(*mut CardnetGame);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: a live handle made by the library, freed once.
        unsafe { cardnet_game_free(self.0) }
    }
}

impl Handle {
    /// A string the library returns through `call`, copied and freed.
    fn text(&self, call: unsafe extern "C" fn(*const CardnetGame, *mut *mut c_char) -> CardnetStatus) -> String {
        let mut out: *mut c_char = ptr::null_mut();
        // SAFETY: a live handle and a writable out-pointer.
        let status = unsafe { call(self.0, &mut out) };
        assert_eq!(status, CardnetStatus::Ok, "a query of a live game failed");
        // SAFETY: the library's string, freed right after it is copied.
        let text = unsafe { CStr::from_ptr(out) }.to_string_lossy().into_owned();
        // SAFETY: returned by the library and not freed before.
        unsafe { cardnet_string_free(out) };
        text
    }

    fn hash(&self) -> String {
        let mut buffer = [0 as c_char; CARDNET_STATE_HASH_SIZE];
        // SAFETY: a live handle and a buffer of the size given.
        let status = unsafe { cardnet_state_hash(self.0, buffer.as_mut_ptr(), buffer.len()) };
        assert_eq!(status, CardnetStatus::Ok, "the state hash of a live game failed");
        // SAFETY: written NUL-terminated by the library.
        unsafe { CStr::from_ptr(buffer.as_ptr()) }.to_string_lossy().into_owned()
    }

    fn move_count(&self) -> usize {
        let mut count = 0usize;
        // SAFETY: a live handle and a writable out-parameter.
        let status = unsafe { cardnet_move_count(self.0, &mut count) };
        assert_eq!(status, CardnetStatus::Ok, "the move count of a live game failed");
        count
    }
}

/// A game from a setup document, which starts again identically from the setup the game reports.
fn start(bytes: &[u8]) {
    let text = c_text(bytes);
    let mut game: *mut CardnetGame = ptr::null_mut();
    // SAFETY: a NUL-terminated string and a writable out-pointer.
    let status = unsafe { cardnet_game_new(text.as_ptr(), &mut game) };
    let allowed = [CardnetStatus::UnknownGame, CardnetStatus::BadOptions];
    expect(status, &text, &allowed, "cardnet_game_new");
    if status != CardnetStatus::Ok {
        return;
    }
    let game = Handle(game);
    let setup = c_text(game.text(cardnet_game_setup_json).as_bytes());
    let mut again: *mut CardnetGame = ptr::null_mut();
    // SAFETY: as above.
    let status = unsafe { cardnet_game_new(setup.as_ptr(), &mut again) };
    assert_eq!(status, CardnetStatus::Ok, "the reported setup {setup:?} does not start a game");
    assert_eq!(Handle(again).hash(), game.hash(), "the reported setup {setup:?} starts another game");
}

/// A saved game, which saves to a save that loads to the same state.
fn load(bytes: &[u8]) {
    let text = c_text(bytes);
    let mut game: *mut CardnetGame = ptr::null_mut();
    // SAFETY: a NUL-terminated string and a writable out-pointer.
    let status = unsafe { cardnet_game_load(text.as_ptr(), &mut game) };
    expect(status, &text, &[CardnetStatus::CorruptState], "cardnet_game_load");
    if status != CardnetStatus::Ok {
        return;
    }
    let game = Handle(game);
    let saved = c_text(game.text(cardnet_game_save_json).as_bytes());
    let mut again: *mut CardnetGame = ptr::null_mut();
    // SAFETY: as above.
    let status = unsafe { cardnet_game_load(saved.as_ptr(), &mut again) };
    assert_eq!(status, CardnetStatus::Ok, "the library's own save does not load");
    assert_eq!(Handle(again).hash(), game.hash(), "save → load changed the state");
}

/// A game from a seat's view.
fn from_view(input: &mut Input<'_>) {
    let info = input::game(input.byte());
    let options = input::options(&info, input.byte());
    let players = input::players(&info, input.byte());
    let seat_byte = input.byte();
    let seed = u64::from(input.byte());
    let seat = match usize::from(seat_byte) % (players + 2) {
        s if s == players => -1,
        s => i32::try_from(s).unwrap_or(i32::MAX),
    };
    let mut setup = serde_json::Map::new();
    setup.insert("game".into(), info.name.into());
    setup.insert("players".into(), players.into());
    setup.insert("options".into(), options);
    let setup = c_text(canonical(&JsonValue::Object(setup)).as_bytes());
    let view = c_text(input.rest());
    let mut game: *mut CardnetGame = ptr::null_mut();
    // SAFETY: NUL-terminated strings and a writable out-pointer.
    let status = unsafe { cardnet_game_from_view(setup.as_ptr(), seat, view.as_ptr(), seed, &mut game) };
    expect(status, &view, &[CardnetStatus::CorruptState, CardnetStatus::BadOptions], "cardnet_game_from_view");
    if status == CardnetStatus::Ok {
        drop(Handle(game));
    }
}

/// A move given as JSON to `cardnet_apply_json` (`apply`) or `cardnet_index_of`, in a real position.
fn play(input: &mut Input<'_>, apply: bool) {
    let position = Position::read(input);
    let seat_byte = input.byte();
    let text = c_text(input.rest());
    let seat = u32::from(seat_byte) % (position.players as u32 + 2);
    let game = reach(&position);
    let (hash, count) = (game.hash(), game.move_count());
    let allowed = [CardnetStatus::InvalidMove, CardnetStatus::IllegalMove];
    if apply {
        // SAFETY: a live handle and a NUL-terminated string.
        let status = unsafe { cardnet_apply_json(game.0, seat, text.as_ptr()) };
        expect(status, &text, &allowed, "cardnet_apply_json");
        let expected = if status == CardnetStatus::Ok { count + 1 } else { count };
        assert_eq!(game.move_count(), expected, "cardnet_apply_json: {status:?} and {} moves", game.move_count());
        if status != CardnetStatus::Ok {
            assert_eq!(game.hash(), hash, "cardnet_apply_json: a refused move changed the state");
        }
    } else {
        let mut index = usize::MAX;
        // SAFETY: a live handle, a NUL-terminated string and a writable out-parameter.
        let status = unsafe { cardnet_index_of(game.0, seat, text.as_ptr(), &mut index) };
        expect(status, &text, &allowed, "cardnet_index_of");
        if status == CardnetStatus::Ok {
            let mut listed: *mut c_char = ptr::null_mut();
            // SAFETY: a live handle and a writable out-pointer.
            let status = unsafe { cardnet_legal_move_json(game.0, seat, index, &mut listed) };
            assert_eq!(status, CardnetStatus::Ok, "cardnet_index_of gave {index}, which is no legal move");
            // SAFETY: returned by the library and not freed before.
            unsafe { cardnet_string_free(listed) };
        }
    }
}

/// The position as a C handle: the game played there in Rust, then loaded from its save.
fn reach(position: &Position) -> Handle {
    let game = position.reach_any();
    let saved = c_text(canonical(&game.to_json().unwrap_or_else(|e| panic!("{e}"))).as_bytes());
    let mut handle: *mut CardnetGame = ptr::null_mut();
    // SAFETY: a NUL-terminated string and a writable out-pointer.
    let status = unsafe { cardnet_game_load(saved.as_ptr(), &mut handle) };
    assert_eq!(status, CardnetStatus::Ok, "the library does not load its own save");
    Handle(handle)
}
