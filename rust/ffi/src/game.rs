//! Starting, copying, saving and freeing games, and everything asked of one: turns, legal moves, moves,
//! views, events, outcome and state hash.

use crate::handle::{borrow, mutate, query, query_text, CardnetGame};
use crate::setup::{setup_json, SetupDoc};
use crate::status::{run, CardnetStatus, Failure};
use crate::strings::{check_out, parse_json, read_str, write_out};
use cardnet_core::json::canonical;
use cardnet_core::{registry, GameError};
use serde_json::Value;
use std::ffi::c_char;

/// Bytes a state hash takes in the caller's buffer: 64 hex digits and the terminating NUL.
pub const CARDNET_STATE_HASH_SIZE: usize = 65;

fn invalid_move(reason: String) -> Failure {
    GameError::InvalidMove(reason).into()
}

fn corrupt(reason: String) -> Failure {
    GameError::CorruptState(reason).into()
}

fn bad_options(reason: String) -> Failure {
    GameError::BadOptions(reason).into()
}

/// Starts a game from a setup document: `{"game": "matchstick", "players": 4, "seed": 7, "options": {}}`.
/// `players` (default: the game's usual count), `seed` (default 0) and `options` (default: every option's
/// default) may be left out; unknown keys are refused.
///
/// Ownership: on success `*out_game` is a new handle the caller releases with [`cardnet_game_free`].
///
/// # Safety
/// `setup_json` is a NUL-terminated string; `out_game` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_game_new(setup_json: *const c_char, out_game: *mut *mut CardnetGame) -> CardnetStatus {
    run(|| {
        check_out(out_game)?;
        // SAFETY: by this function's contract.
        let text = unsafe { read_str(setup_json, "setup_json") }?;
        let doc = SetupDoc::parse(&parse_json(text, bad_options)?)?;
        let game = registry::new_game(&doc.game, doc.players, doc.seed, &doc.options)?;
        // SAFETY: checked above.
        unsafe { write_out(out_game, CardnetGame::boxed(game)) }
    })
}

/// Loads a saved game (the text of [`cardnet_game_save_json`]): every move is replayed and the stored state
/// checked; anything wrong is `CARDNET_STATUS_CORRUPT_STATE` naming the first bad point.
///
/// Ownership: on success `*out_game` is a new handle the caller releases with [`cardnet_game_free`].
///
/// # Safety
/// `save_json` is a NUL-terminated string; `out_game` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_game_load(save_json: *const c_char, out_game: *mut *mut CardnetGame) -> CardnetStatus {
    run(|| {
        check_out(out_game)?;
        // SAFETY: by this function's contract.
        let text = unsafe { read_str(save_json, "save_json") }?;
        let game = registry::load_game(text)?;
        // SAFETY: checked above.
        unsafe { write_out(out_game, CardnetGame::boxed(game)) }
    })
}

/// A game built from what `seat` sees (`view_json` as [`cardnet_view_json`] gave it for that seat;
/// `CARDNET_SPECTATOR` for a spectator's), every hidden fact dealt from `seed`: what a bot that has only
/// its view searches on. `setup_json` gives the table's game, players and options (its seed is not used).
/// The copy has no deal to replay, so it cannot be saved (nor can copies determinized from it).
///
/// Ownership: on success `*out_game` is a new handle the caller releases with [`cardnet_game_free`].
///
/// # Safety
/// `setup_json` and `view_json` are NUL-terminated strings; `out_game` points to writable memory for one
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_game_from_view(
    setup_json: *const c_char,
    seat: i32,
    view_json: *const c_char,
    seed: u64,
    out_game: *mut *mut CardnetGame,
) -> CardnetStatus {
    run(|| {
        check_out(out_game)?;
        // SAFETY: by this function's contract.
        let setup_text = unsafe { read_str(setup_json, "setup_json") }?;
        // SAFETY: by this function's contract.
        let view_text = unsafe { read_str(view_json, "view_json") }?;
        let doc = SetupDoc::parse(&parse_json(setup_text, bad_options)?)?;
        let view = parse_json(view_text, corrupt)?;
        let observer = match seat {
            crate::handle::CARDNET_SPECTATOR => None,
            s => Some(
                usize::try_from(s)
                    .map_err(|_| Failure::argument(format!("seat {s}: use a seat number or -1 for a spectator")))?,
            ),
        };
        let game = registry::from_view(&doc.game, doc.players, &doc.options, observer, &view, seed)?;
        // SAFETY: checked above.
        unsafe { write_out(out_game, CardnetGame::boxed(game)) }
    })
}

/// An independent copy of `game` (history included).
///
/// Ownership: on success `*out_game` is a new handle the caller releases with [`cardnet_game_free`].
///
/// # Safety
/// `game` is a live handle; `out_game` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_game_clone(
    game: *const CardnetGame,
    out_game: *mut *mut CardnetGame,
) -> CardnetStatus {
    run(|| {
        check_out(out_game)?;
        // SAFETY: by this function's contract.
        let handle = unsafe { borrow(game) }?;
        // SAFETY: checked above.
        unsafe { write_out(out_game, CardnetGame::boxed(handle.game.clone_box())) }
    })
}

/// A copy of `game` with every fact `observer` cannot know (other hands, the stock's order, pending
/// picks, the game's own random stream) dealt anew from `seed`; `observer`'s view is unchanged.
/// `CARDNET_SPECTATOR` keeps only public knowledge. The copy plays on, and saves and loads: its save
/// holds the recipe (the save of `game`, the observer and the seed, then the copy's own moves).
///
/// Ownership: on success `*out_game` is a new handle the caller releases with [`cardnet_game_free`].
///
/// # Safety
/// `game` is a live handle; `out_game` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_game_determinize(
    game: *const CardnetGame,
    observer: i32,
    seed: u64,
    out_game: *mut *mut CardnetGame,
) -> CardnetStatus {
    run(|| {
        check_out(out_game)?;
        // SAFETY: by this function's contract.
        let handle = unsafe { borrow(game) }?;
        let observer = handle.observer(observer)?;
        // SAFETY: checked above.
        unsafe { write_out(out_game, CardnetGame::boxed(handle.game.determinize(observer, seed))) }
    })
}

/// Releases a handle. Null is ignored.
///
/// # Safety
/// `game` is null or a handle of this library not freed before; it must not be used after.
#[no_mangle]
pub unsafe extern "C" fn cardnet_game_free(game: *mut CardnetGame) {
    if !game.is_null() {
        // Dropping a game runs no code of the games that could panic; the guard is for the rule's sake.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: made by `CardnetGame::boxed` and handed back once, by this function's contract.
            drop(unsafe { Box::from_raw(game) });
        }));
    }
}

/// The setup document that starts this game again: `{"game", "players", "seed", "options"}` with every
/// option resolved.
///
/// Ownership: on success `*out_json` is a new string the caller frees with `cardnet_string_free`.
///
/// # Safety
/// `game` is a live handle; `out_json` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_game_setup_json(
    game: *const CardnetGame,
    out_json: *mut *mut c_char,
) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query_text(game, out_json, |handle| {
            let text = canonical(&setup_json(handle.game.name(), handle.game.setup()));
            Ok(text)
        })
    }
}

/// The saved-game document (format version, setup, moves and the full state), for
/// [`cardnet_game_load`]. A determinized copy saves as its recipe and loads back exactly; a game
/// rebuilt from a view is refused (`CARDNET_STATUS_ILLEGAL_MOVE`, code `determinized`): its hidden
/// cards are invented and there is no deal to replay.
///
/// Ownership: on success `*out_json` is a new string the caller frees with `cardnet_string_free`.
///
/// # Safety
/// `game` is a live handle; `out_json` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_game_save_json(game: *const CardnetGame, out_json: *mut *mut c_char) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query_text(game, out_json, |handle| {
            let text = canonical(&handle.game.to_json()?);
            Ok(text)
        })
    }
}

/// The seats that must act now as a bit mask (bit `i` = seat `i`); 0 once the game is over.
///
/// # Safety
/// `game` is a live handle; `out_mask` points to a writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn cardnet_to_act(game: *const CardnetGame, out_mask: *mut u32) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query(game, out_mask, |handle| {
            let mask = handle.game.to_act().iter().fold(0u32, |mask, &seat| mask | (1 << seat));
            Ok(mask)
        })
    }
}

/// The next decision: the lowest seat to act and its number of legal moves, or seat -1 and 0 moves once
/// the game is over. One call per step of a playing loop.
///
/// # Safety
/// `game` is a live handle; `out_seat` and `out_count` point to writable values.
#[no_mangle]
pub unsafe extern "C" fn cardnet_decision(
    game: *const CardnetGame,
    out_seat: *mut i32,
    out_count: *mut usize,
) -> CardnetStatus {
    run(|| {
        check_out(out_seat)?;
        check_out(out_count)?;
        // SAFETY: by this function's contract.
        let handle = unsafe { borrow(game) }?;
        let (seat, count) = match handle.game.to_act().first() {
            // Seats are below 8, so the cast cannot truncate.
            Some(&seat) => (seat as i32, handle.game.legal_count(seat)),
            None => (-1, 0),
        };
        // SAFETY: checked above.
        unsafe {
            write_out(out_seat, seat)?;
            write_out(out_count, count)
        }
    })
}

/// Whether the game is over.
///
/// # Safety
/// `game` is a live handle; `out_over` points to a writable `bool`.
#[no_mangle]
pub unsafe extern "C" fn cardnet_is_over(game: *const CardnetGame, out_over: *mut bool) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe { query(game, out_over, |handle| Ok(handle.game.is_over())) }
}

/// How many legal moves `seat` has (0 when it is not to act).
///
/// # Safety
/// `game` is a live handle; `out_count` points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn cardnet_legal_count(
    game: *const CardnetGame,
    seat: u32,
    out_count: *mut usize,
) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query(game, out_count, |handle| {
            let seat = handle.seat(seat)?;
            Ok(handle.game.legal_count(seat))
        })
    }
}

/// Applies the `index`-th legal move of `seat` (the order of [`cardnet_legal_moves_json`]). Refused with
/// `CARDNET_STATUS_ILLEGAL_MOVE` (codes `not_your_turn`, `game_over`, `no_such_seat`, `no_such_move`),
/// leaving the game unchanged.
///
/// # Safety
/// `game` is a live handle used by no one else during the call.
#[no_mangle]
pub unsafe extern "C" fn cardnet_apply_index(game: *mut CardnetGame, seat: u32, index: usize) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        mutate(game, |handle| {
            let seat = handle.seat(seat)?;
            handle.game.apply_index(seat, index).map_err(Failure::from)
        })
    }
}

/// Validates and applies a move given as JSON (`{"type": ..., ...}`, as the legal moves are listed).
/// Malformed moves are `CARDNET_STATUS_INVALID_MOVE`, refused ones `CARDNET_STATUS_ILLEGAL_MOVE` with the
/// game's code; either way the game is unchanged.
///
/// # Safety
/// `game` is a live handle used by no one else during the call; `move_json` a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn cardnet_apply_json(
    game: *mut CardnetGame,
    seat: u32,
    move_json: *const c_char,
) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        mutate(game, |handle| {
            let seat = handle.seat(seat)?;
            let text = read_str(move_json, "move_json")?;
            let mv = parse_json(text, invalid_move)?;
            handle.game.apply(seat, &mv).map_err(Failure::from)
        })
    }
}

/// The index of a JSON move among `seat`'s legal moves, or why it is refused (as [`cardnet_apply_json`]).
///
/// # Safety
/// `game` is a live handle; `move_json` a NUL-terminated string; `out_index` a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn cardnet_index_of(
    game: *const CardnetGame,
    seat: u32,
    move_json: *const c_char,
    out_index: *mut usize,
) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query(game, out_index, |handle| {
            let seat = handle.seat(seat)?;
            let text = read_str(move_json, "move_json")?;
            Ok(handle.game.index_of(seat, &parse_json(text, invalid_move)?)?)
        })
    }
}

/// The `index`-th legal move of `seat` as canonical JSON; `no_such_move` past the end.
///
/// Ownership: on success `*out_json` is a new string the caller frees with `cardnet_string_free`.
///
/// # Safety
/// `game` is a live handle; `out_json` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_legal_move_json(
    game: *const CardnetGame,
    seat: u32,
    index: usize,
    out_json: *mut *mut c_char,
) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query_text(game, out_json, |handle| {
            let seat = handle.seat(seat)?;
            let mv = handle.game.legal_move(seat, index).ok_or_else(|| {
                Failure::from(GameError::illegal(
                    "no_such_move",
                    format!(
                        "seat {seat} has {} legal moves; index {index} is out of range",
                        handle.game.legal_count(seat)
                    ),
                ))
            })?;
            Ok(canonical(&mv))
        })
    }
}

/// Every legal move of `seat` as one canonical JSON array, in index order. A seat that may not move now
/// is refused as [`cardnet_apply_json`] would refuse it (`not_your_turn`, `game_over`, `no_such_seat`):
/// an empty list would read as a stuck game.
///
/// Ownership: on success `*out_json` is a new string the caller frees with `cardnet_string_free`.
///
/// # Safety
/// `game` is a live handle; `out_json` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_legal_moves_json(
    game: *const CardnetGame,
    seat: u32,
    out_json: *mut *mut c_char,
) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query_text(game, out_json, |handle| {
            let seat = handle.seat(seat)?;
            Ok(handle.game.legal_moves_json(seat)?)
        })
    }
}

/// What `seat` may see, as canonical JSON `{"private": ..., "public": ...}`; `CARDNET_SPECTATOR` gives a
/// spectator's view (`private` null). A seat past the player count is `no_such_seat`.
///
/// Ownership: on success `*out_json` is a new string the caller frees with `cardnet_string_free`.
///
/// # Safety
/// `game` is a live handle; `out_json` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_view_json(
    game: *const CardnetGame,
    seat: i32,
    out_json: *mut *mut c_char,
) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query_text(game, out_json, |handle| {
            let observer = handle.observer(seat)?;
            Ok(handle.game.view_json(observer)?)
        })
    }
}

/// The events of the last move as `seat` may learn them (`CARDNET_SPECTATOR`: as a spectator), a
/// canonical JSON array.
///
/// Ownership: on success `*out_json` is a new string the caller frees with `cardnet_string_free`.
///
/// # Safety
/// `game` is a live handle; `out_json` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_events_json(
    game: *const CardnetGame,
    seat: i32,
    out_json: *mut *mut c_char,
) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query_text(game, out_json, |handle| {
            let observer = handle.observer(seat)?;
            Ok(handle.game.events_json(observer)?)
        })
    }
}

/// The result as canonical JSON `{"kind", "winners", "scores", "order", "detail"}`, or `null` while the
/// game goes on.
///
/// Ownership: on success `*out_json` is a new string the caller frees with `cardnet_string_free`.
///
/// # Safety
/// `game` is a live handle; `out_json` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_outcome_json(game: *const CardnetGame, out_json: *mut *mut c_char) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe {
        query_text(game, out_json, |handle| {
            let outcome = handle.game.outcome().map_or(Value::Null, |o| o.to_json());
            Ok(canonical(&outcome))
        })
    }
}

/// The state hash (hex SHA-256 of the canonical public view, the same in Rust, Python and C) written as
/// 64 hex digits and a NUL into the caller's buffer of `size` bytes (at least `CARDNET_STATE_HASH_SIZE`).
///
/// # Safety
/// `game` is a live handle; `out_hex` points to `size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn cardnet_state_hash(
    game: *const CardnetGame,
    out_hex: *mut c_char,
    size: usize,
) -> CardnetStatus {
    run(|| {
        check_out(out_hex)?;
        if size < CARDNET_STATE_HASH_SIZE {
            return Err(Failure::argument(format!(
                "the hash buffer has {size} bytes; it needs {CARDNET_STATE_HASH_SIZE}"
            )));
        }
        // SAFETY: by this function's contract.
        let handle = unsafe { borrow(game) }?;
        let hash = handle.game.state_hash();
        // SAFETY: `out_hex` has room for `size >= 65` bytes; the hash is 64 ASCII bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(hash.as_ptr().cast::<c_char>(), out_hex, hash.len());
            out_hex.add(hash.len()).write(0);
        }
        Ok(())
    })
}

/// How many moves were made so far.
///
/// # Safety
/// `game` is a live handle; `out_count` points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn cardnet_move_count(game: *const CardnetGame, out_count: *mut usize) -> CardnetStatus {
    // SAFETY: by this function's contract.
    unsafe { query(game, out_count, |handle| Ok(handle.game.move_count())) }
}
