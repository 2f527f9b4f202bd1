//! Status codes, the thread's last error, and the guard every entry point runs under.

use cardnet_core::GameError;
use std::any::Any;
use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a call returned. Every function of this library that can fail returns one; on anything but
/// `CARDNET_STATUS_OK` its out-parameters are left untouched and [`cardnet_last_error_code`] and
/// [`cardnet_last_error_message`] say why.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardnetStatus {
    /// Success.
    Ok = 0,
    /// No game of that name exists.
    UnknownGame = 1,
    /// Player count, options, a player name or a setup document do not fit.
    BadOptions = 2,
    /// A move that is not well-formed (not JSON, wrong types, unknown keys or names).
    InvalidMove = 3,
    /// A well-formed move or request the rules refuse now (`not_your_turn`, `game_over`, `no_such_seat`,
    /// `no_such_move`, or a game's own code); the last error code names which.
    IllegalMove = 4,
    /// A saved game or a view that cannot be loaded.
    CorruptState = 5,
    /// A bug inside the library (a panic was caught at the boundary); the handle involved in a mutating
    /// call that failed this way refuses every later call except `cardnet_game_free`.
    Internal = 6,
    /// A null pointer where a value is required, text that is not UTF-8, or a seat number below -1.
    InvalidArgument = 7,
}

struct LastError {
    code: CString,
    message: CString,
}

thread_local! {
    static LAST_ERROR: RefCell<LastError> = RefCell::new(LastError { code: CString::default(), message: CString::default() });
}

/// A failure on its way to the caller: the status and the stable code and message it leaves behind.
#[derive(Debug)]
pub(crate) struct Failure {
    status: CardnetStatus,
    code: String,
    message: String,
}

impl Failure {
    /// A bad argument (null pointer, bad UTF-8, negative seat).
    pub(crate) fn argument(message: impl Into<String>) -> Self {
        Failure { status: CardnetStatus::InvalidArgument, code: "invalid_argument".into(), message: message.into() }
    }

    /// A failure of an unusable (poisoned) handle or a caught panic.
    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Failure { status: CardnetStatus::Internal, code: "internal".into(), message: message.into() }
    }
}

impl From<GameError> for Failure {
    fn from(error: GameError) -> Self {
        let status = match &error {
            GameError::UnknownGame(_) => CardnetStatus::UnknownGame,
            GameError::BadOptions(_) => CardnetStatus::BadOptions,
            GameError::InvalidMove(_) => CardnetStatus::InvalidMove,
            GameError::IllegalMove { .. } => CardnetStatus::IllegalMove,
            GameError::CorruptState(_) => CardnetStatus::CorruptState,
            GameError::Internal(_) => CardnetStatus::Internal,
            // `GameError` may grow; a new kind is reported as internal until it gets a status of its own.
            _ => CardnetStatus::Internal,
        };
        Failure { status, code: error.code().to_string(), message: error.reason().to_string() }
    }
}

/// A C string of `text` with any NUL byte replaced, since C cannot hold it.
pub(crate) fn c_string_lossy(text: String) -> CString {
    CString::new(text).unwrap_or_else(|e| {
        let cleaned: Vec<u8> = e.into_vec().into_iter().map(|b| if b == 0 { b'?' } else { b }).collect();
        CString::new(cleaned).unwrap_or_default()
    })
}

fn remember(failure: Failure) -> CardnetStatus {
    LAST_ERROR.with(|last| {
        let mut last = last.borrow_mut();
        last.code = c_string_lossy(failure.code);
        last.message = c_string_lossy(failure.message);
    });
    failure.status
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Runs `body` and turns its result into a status, remembering the error; a panic never crosses the
/// boundary: it becomes `CARDNET_STATUS_INTERNAL`, and `on_panic` runs (to poison the handle involved).
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Failure>, on_panic: impl FnOnce()) -> CardnetStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => CardnetStatus::Ok,
        Ok(Err(failure)) => remember(failure),
        Err(payload) => {
            on_panic();
            remember(Failure::internal(format!("internal error in cardnet: {}", panic_message(&*payload))))
        }
    }
}

/// [`guard`] for calls that change nothing, so a panic has no handle to poison.
pub(crate) fn run(body: impl FnOnce() -> Result<(), Failure>) -> CardnetStatus {
    guard(body, || {})
}

/// The stable machine code of this thread's last failure (`"not_your_turn"`, `"bad_options"`,
/// `"invalid_argument"`, ...; `""` before any failure).
///
/// Ownership: the string belongs to the library and stays valid until the next failing call on this
/// thread; copy it to keep it. Never free it. Successful calls leave it unchanged.
#[no_mangle]
pub extern "C" fn cardnet_last_error_code() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().code.as_ptr())
}

/// The human-readable reason of this thread's last failure (`""` before any failure).
///
/// Ownership: as [`cardnet_last_error_code`]: the library's, valid until the next failing call on this
/// thread; never free it.
#[no_mangle]
pub extern "C" fn cardnet_last_error_message() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().message.as_ptr())
}
