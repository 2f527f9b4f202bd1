//! The opaque game handle and the checks every call on one makes (null, poisoned, seat in range).

use crate::status::{c_string_lossy, guard, run, CardnetStatus, Failure};
use crate::strings::{check_out, write_out};
use cardnet_core::{AnyGame, GameError, Seat};
use std::ffi::c_char;

/// A game in progress: any of the games, with its history. Opaque to C; made by `cardnet_game_new`,
/// `cardnet_game_load`, `cardnet_game_from_view`, `cardnet_game_clone` or `cardnet_game_determinize`, and
/// released with `cardnet_game_free`. A handle is not synchronised: use it from one thread at a time
/// (different handles may be used on different threads at once).
pub struct CardnetGame {
    pub(crate) game: Box<dyn AnyGame>,
    /// Set when a mutating call panicked half-way: the state may be inconsistent, so nothing reads it again.
    pub(crate) poisoned: bool,
}

/// The value that stands for "a spectator" where a call takes an observer seat.
pub const CARDNET_SPECTATOR: i32 = -1;

impl CardnetGame {
    /// A new handle on the heap, as the caller receives it.
    pub(crate) fn boxed(game: Box<dyn AnyGame>) -> *mut CardnetGame {
        Box::into_raw(Box::new(CardnetGame { game, poisoned: false }))
    }

    /// `seat` as a seat of this game: `no_such_seat` past the player count.
    pub(crate) fn seat(&self, seat: u32) -> Result<Seat, Failure> {
        let players = self.game.setup().players;
        match usize::try_from(seat) {
            Ok(s) if s < players => Ok(s),
            _ => Err(no_such_seat(i64::from(seat), players)),
        }
    }

    /// An observer seat (`CARDNET_SPECTATOR` = a spectator): other negatives are bad arguments, seats past
    /// the player count `no_such_seat`.
    pub(crate) fn observer(&self, seat: i32) -> Result<Option<Seat>, Failure> {
        if seat == CARDNET_SPECTATOR {
            return Ok(None);
        }
        let unsigned = u32::try_from(seat)
            .map_err(|_| Failure::argument(format!("observer {seat}: use a seat number or -1 for a spectator")))?;
        self.seat(unsigned).map(Some)
    }
}

fn no_such_seat(seat: i64, players: usize) -> Failure {
    GameError::illegal("no_such_seat", format!("seat {seat} does not exist in a {players}-player game")).into()
}

/// The handle behind `game` for reading.
///
/// # Safety
/// `game` is null or a live handle of this library not used by another thread during the call.
pub(crate) unsafe fn borrow<'a>(game: *const CardnetGame) -> Result<&'a CardnetGame, Failure> {
    // SAFETY: by the caller's contract.
    let handle = unsafe { game.as_ref() }.ok_or_else(|| Failure::argument("the game handle is a null pointer"))?;
    if handle.poisoned {
        return Err(Failure::internal("this game was left unusable by an earlier internal error"));
    }
    Ok(handle)
}

/// Runs a call that changes the game behind `game`; a panic inside it poisons the handle.
///
/// # Safety
/// As [`borrow`], and no other reference to the handle is alive during the call.
pub(crate) unsafe fn mutate(
    game: *mut CardnetGame,
    body: impl FnOnce(&mut CardnetGame) -> Result<(), Failure>,
) -> CardnetStatus {
    guard(
        || {
            // SAFETY: by the caller's contract; the reference ends with this closure.
            let handle =
                unsafe { game.as_mut() }.ok_or_else(|| Failure::argument("the game handle is a null pointer"))?;
            if handle.poisoned {
                return Err(Failure::internal("this game was left unusable by an earlier internal error"));
            }
            body(handle)
        },
        || {
            // SAFETY: the closure above unwound, so its reference is gone; `game` is non-null when it got
            // as far as a panic.
            if let Some(handle) = unsafe { game.as_mut() } {
                handle.poisoned = true;
            }
        },
    )
}

/// Runs a query on the game behind `game` whose answer goes to the caller through `out`; nothing is
/// written unless the query succeeds.
///
/// # Safety
/// As [`borrow`]; `out` is null or points to writable memory for one `T`.
pub(crate) unsafe fn query<T>(
    game: *const CardnetGame,
    out: *mut T,
    answer: impl FnOnce(&CardnetGame) -> Result<T, Failure>,
) -> CardnetStatus {
    run(|| {
        check_out(out)?;
        // SAFETY: by the caller's contract.
        let value = answer(unsafe { borrow(game) }?)?;
        // SAFETY: checked above.
        unsafe { write_out(out, value) }
    })
}

/// [`query`] for an answer in text: the caller receives a string it frees with `cardnet_string_free`.
///
/// # Safety
/// As [`query`].
pub(crate) unsafe fn query_text(
    game: *const CardnetGame,
    out_json: *mut *mut c_char,
    answer: impl FnOnce(&CardnetGame) -> Result<String, Failure>,
) -> CardnetStatus {
    // SAFETY: by the caller's contract; the string is only made once the out-pointer is known good.
    unsafe { query(game, out_json, |handle| answer(handle).map(|text| c_string_lossy(text).into_raw())) }
}
