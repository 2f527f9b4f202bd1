//! The C ABI of cardnet-core, for C, C++, Go, C#, game engines and anything else that can call C.
//!
//! Built as a shared library (`libcardnet_ffi.so`) and a static one (`libcardnet_ffi.a`); the header is
//! `include/cardnet.h`, generated from this crate by cbindgen (`tests/header.rs` fails when it is stale;
//! `CARDNET_BLESS=1 cargo test -p cardnet-ffi --test header` rewrites it).
//!
//! # Shape of the API
//! - A game is an opaque `CardnetGame *` handle, started from a JSON setup document
//!   (`{"game": "matchstick", "players": 4, "seed": 7, "options": {}}`), loaded from a save, built from a
//!   seat's view, cloned or determinized, and released with `cardnet_game_free`.
//! - Setups, views, events, legal moves, moves, outcomes and saves cross as canonical JSON text (the same
//!   bytes the Python package and the network protocol use).
//! - The hot loop has typed calls that allocate nothing: `cardnet_decision`, `cardnet_to_act`,
//!   `cardnet_legal_count`, `cardnet_apply_index`, `cardnet_is_over`, `cardnet_state_hash`.
//! - The built-in players (`cardnet_choose`) and Matchstick's seven-segment transforms
//!   (`cardnet_segment_transforms_json`) are there too.
//!
//! # Errors
//! Every call that can fail returns a [`CardnetStatus`]; on failure its out-parameters are untouched,
//! the game is unchanged, and `cardnet_last_error_code()` / `cardnet_last_error_message()` give the stable
//! machine code (`not_your_turn`, `no_such_seat`, `bad_options`, ...) and a sentence for people. No Rust
//! panic crosses the boundary: one is caught and reported as `CARDNET_STATUS_INTERNAL`, and a handle whose
//! mutation panicked refuses further use.
//!
//! # Ownership: who frees what
//! - `CardnetGame *` returned through `CardnetGame **out_game`: the caller's; release it once with
//!   `cardnet_game_free`.
//! - `char *` returned through `char **out_json`: the caller's; free it once with `cardnet_string_free`
//!   (never with `free`: the library's allocator may differ from the caller's).
//! - `const char *` returned directly (`cardnet_version`, `cardnet_last_error_code`,
//!   `cardnet_last_error_message`): the library's; never free them. The version lives as long as the
//!   library; the two error strings until the next failing call on the same thread.
//! - Strings and buffers the caller passes in are only read (or, for `cardnet_state_hash`, written)
//!   during the call; the library keeps no pointer to them.
//!
//! # Threads
//! Calls on different handles may run on different threads at once. One handle must not be used by two
//! threads at the same time. The last error is per thread.

mod game;
mod handle;
mod players;
mod segments;
mod setup;
mod status;
mod strings;

pub use game::*;
pub use handle::{CardnetGame, CARDNET_SPECTATOR};
pub use players::*;
pub use segments::*;
pub use status::{cardnet_last_error_code, cardnet_last_error_message, CardnetStatus};
pub use strings::cardnet_string_free;

use cardnet_core::json::canonical;
use serde_json::Value;
use status::run;
use std::ffi::c_char;
use strings::{check_out, write_string};

/// The library's version, e.g. `"0.1.0"` (the workspace version, which cardnet-core shares).
///
/// Ownership: a static string of the library; never free it.
#[no_mangle]
pub extern "C" fn cardnet_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// Every game's description as a JSON array, in menu order: name, title, player counts, options with
/// their kinds, defaults and documentation, house-rule variants and a summary.
///
/// Ownership: on success `*out_json` is a new string the caller frees with `cardnet_string_free`.
///
/// # Safety
/// `out_json` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_games_json(out_json: *mut *mut c_char) -> CardnetStatus {
    run(|| {
        check_out(out_json)?;
        let infos: Vec<Value> = cardnet_core::infos().iter().map(|i| i.to_json()).collect();
        // SAFETY: checked above.
        unsafe { write_string(out_json, canonical(&Value::Array(infos))) }
    })
}
