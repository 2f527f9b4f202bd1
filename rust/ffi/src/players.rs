//! The built-in players: the move a `random`, `heuristic`, `careless:P`, `ismcts:N`, `easy`, `normal` or
//! `hard` player picks.

use crate::handle::{borrow, CardnetGame};
use crate::status::{run, CardnetStatus};
use crate::strings::{check_out, read_str, write_out};
use cardnet_core::ai::Player;
use std::ffi::c_char;

/// The legal-move index the built-in `player` picks for `seat` (which must be to act), deterministic for
/// a given `seed`: `random`, `heuristic`, `careless:P` (the heuristic with P % of its moves random),
/// `ismcts`, `ismcts:N` (N iterations, 1–1 000 000) or a level (`easy`, `normal`, `hard`), played as the
/// handle's game defines it (in Cherki `easy` and `normal` are careless players, elsewhere `easy` is the
/// heuristic). An unknown name is `CARDNET_STATUS_BAD_OPTIONS`. The search levels take tens to hundreds of
/// milliseconds.
///
/// # Safety
/// `game` is a live handle; `player` a NUL-terminated string; `out_index` a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn cardnet_choose(
    game: *const CardnetGame,
    seat: u32,
    player: *const c_char,
    seed: u64,
    out_index: *mut usize,
) -> CardnetStatus {
    run(|| {
        check_out(out_index)?;
        // SAFETY: by this function's contract.
        let handle = unsafe { borrow(game) }?;
        // SAFETY: by this function's contract.
        let chosen = Player::parse(unsafe { read_str(player, "player") }?)?;
        let seat = handle.seat(seat)?;
        let index = handle.game.choose(seat, chosen, seed)?;
        // SAFETY: checked above.
        unsafe { write_out(out_index, index) }
    })
}

/// The seed of game `index` of a batch started with `seed` (the core's `rng::derive`), so that a C loop
/// deals the same games as `cardnet.derive` in Python.
#[no_mangle]
pub extern "C" fn cardnet_derive_seed(seed: u64, index: u64) -> u64 {
    cardnet_core::rng::derive(seed, index)
}
