//! The C ABI's contract seen from Rust: statuses and codes, untouched out-parameters on failure, the
//! per-thread last error, and the same state hashes as the core.

use cardnet_ffi::*;
use std::ffi::{c_char, CStr, CString};
use std::ptr;

fn last_code() -> String {
    // SAFETY: the library returns a valid NUL-terminated string it owns.
    unsafe { CStr::from_ptr(cardnet_last_error_code()) }.to_string_lossy().into_owned()
}

fn new_game(setup: &str) -> *mut CardnetGame {
    let setup = CString::new(setup).unwrap();
    let mut game = ptr::null_mut();
    // SAFETY: valid string and out-pointer.
    let status = unsafe { cardnet_game_new(setup.as_ptr(), &mut game) };
    assert_eq!(status, CardnetStatus::Ok, "{}", last_code());
    game
}

/// Takes a string the library returned and frees it the library's way.
fn take(text: *mut c_char) -> String {
    // SAFETY: a string returned by the library, freed once here.
    let owned = unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned();
    // SAFETY: as above.
    unsafe { cardnet_string_free(text) };
    owned
}

fn hash(game: *const CardnetGame) -> String {
    let mut buf = [0 as c_char; CARDNET_STATE_HASH_SIZE];
    // SAFETY: live handle, buffer of the stated size.
    assert_eq!(unsafe { cardnet_state_hash(game, buf.as_mut_ptr(), buf.len()) }, CardnetStatus::Ok);
    // SAFETY: the library wrote a NUL-terminated string.
    unsafe { CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned()
}

#[test]
fn a_seat_past_the_table_is_refused_and_leaves_the_out_parameter_alone() {
    let game = new_game(r#"{"game":"matchstick","players":4,"seed":3}"#);
    let sentinel = std::ptr::dangling_mut::<c_char>();
    let mut out = sentinel;
    // SAFETY: live handle and out-pointer.
    let status = unsafe { cardnet_view_json(game, 99, &mut out) };
    assert_eq!(status, CardnetStatus::IllegalMove);
    assert_eq!(last_code(), "no_such_seat");
    assert_eq!(out, sentinel);
    let mut count = 7usize;
    // SAFETY: as above.
    assert_eq!(unsafe { cardnet_legal_count(game, 4, &mut count) }, CardnetStatus::IllegalMove);
    assert_eq!(count, 7);
    // SAFETY: a handle of the library, freed once.
    unsafe { cardnet_game_free(game) };
}

#[test]
fn the_ffi_hash_and_views_are_the_cores() {
    let game = new_game(r#"{"game":"ten","players":3,"seed":9}"#);
    let core = cardnet_core::new_game("ten", Some(3), 9, &serde_json::Value::Null).unwrap();
    assert_eq!(hash(game), core.state_hash());
    let mut view = ptr::null_mut();
    // SAFETY: live handle and out-pointer.
    assert_eq!(unsafe { cardnet_view_json(game, 1, &mut view) }, CardnetStatus::Ok);
    assert_eq!(take(view), core.view_json(Some(1)).unwrap());
    // SAFETY: a handle of the library, freed once.
    unsafe { cardnet_game_free(game) };
}

#[test]
fn the_last_error_belongs_to_its_thread() {
    let mut game = ptr::null_mut();
    let bad = CString::new(r#"{"game":"chess"}"#).unwrap();
    // SAFETY: valid string and out-pointer.
    assert_eq!(unsafe { cardnet_game_new(bad.as_ptr(), &mut game) }, CardnetStatus::UnknownGame);
    std::thread::spawn(|| {
        let mut out = ptr::null_mut();
        // SAFETY: a null handle is refused, not read.
        assert_eq!(unsafe { cardnet_view_json(ptr::null(), -1, &mut out) }, CardnetStatus::InvalidArgument);
        assert_eq!(last_code(), "invalid_argument");
    })
    .join()
    .unwrap();
    assert_eq!(last_code(), "unknown_game");
    assert!(game.is_null());
}

#[test]
fn handles_play_on_several_threads_at_once() {
    let threads: Vec<_> = (0..4u64)
        .map(|seed| {
            std::thread::spawn(move || {
                let game = new_game(&format!(r#"{{"game":"cherki","players":4,"seed":{seed}}}"#));
                let (mut seat, mut count) = (0i32, 0usize);
                loop {
                    // SAFETY: live handle owned by this thread, valid out-pointers.
                    assert_eq!(unsafe { cardnet_decision(game, &mut seat, &mut count) }, CardnetStatus::Ok);
                    if seat < 0 {
                        break;
                    }
                    // SAFETY: as above.
                    assert_eq!(unsafe { cardnet_apply_index(game, seat as u32, 0) }, CardnetStatus::Ok);
                }
                let h = hash(game);
                // SAFETY: freed once.
                unsafe { cardnet_game_free(game) };
                h
            })
        })
        .collect();
    let hashes: Vec<String> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(hashes.len(), 4);
    assert!(hashes.iter().all(|h| h.len() == 64));
}
