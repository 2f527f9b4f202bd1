//! Error mapping and the panic guard every entry point runs under.
//!
//! The exception classes live in Python (`cardnet/errors.py`, where they are documented and can be raised
//! by Python code too); they are looked up once and cached. Each `GameError` variant maps to exactly one
//! class, and a panic becomes `CardnetError` with code `internal` instead of pyo3's `PanicException`,
//! which derives from `BaseException` and would slip past `except Exception` in the host.

use cardnet_core::GameError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

static CARDNET_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ILLEGAL_MOVE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static INVALID_MOVE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static UNKNOWN_GAME: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static BAD_OPTIONS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static CORRUPT_STATE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

const ERRORS_MODULE: &str = "cardnet.errors";

fn class<'py>(py: Python<'py>, cell: &'static PyOnceLock<Py<PyType>>, name: &str) -> PyResult<&'py Bound<'py, PyType>> {
    cell.import(py, ERRORS_MODULE, name)
}

/// The Python exception for a core error.
pub fn to_pyerr(py: Python<'_>, error: &GameError) -> PyErr {
    let made = match error {
        GameError::IllegalMove { code, reason } => {
            class(py, &ILLEGAL_MOVE, "IllegalMove").and_then(|c| c.call1((*code, reason.as_str())))
        }
        GameError::InvalidMove(reason) => class(py, &INVALID_MOVE, "InvalidMove").and_then(|c| c.call1((reason,))),
        GameError::UnknownGame(reason) => class(py, &UNKNOWN_GAME, "UnknownGame").and_then(|c| c.call1((reason,))),
        GameError::BadOptions(reason) => class(py, &BAD_OPTIONS, "BadOptions").and_then(|c| c.call1((reason,))),
        GameError::CorruptState(reason) => class(py, &CORRUPT_STATE, "CorruptState").and_then(|c| c.call1((reason,))),
        GameError::Internal(reason) => {
            class(py, &CARDNET_ERROR, "CardnetError").and_then(|c| c.call1(("internal", reason.as_str())))
        }
        // `GameError` is non-exhaustive: a kind added later is a CardnetError with its own code until it
        // gets a class of its own.
        other => class(py, &CARDNET_ERROR, "CardnetError").and_then(|c| c.call1((other.code(), other.reason()))),
    };
    match made {
        Ok(exception) => PyErr::from_value(exception),
        // The errors module failed to import or a class misbehaved: report that rather than hide it.
        Err(err) => err,
    }
}

/// A `CardnetError` with code `internal`.
pub fn internal(py: Python<'_>, reason: String) -> PyErr {
    to_pyerr(py, &GameError::Internal(reason))
}

/// Converts a core result, raising the mapped exception on error.
pub fn check<T>(py: Python<'_>, result: Result<T, GameError>) -> PyResult<T> {
    result.map_err(|e| to_pyerr(py, &e))
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

/// Runs `body`, turning a panic into `CardnetError("internal", ...)`.
pub fn guard<T>(py: Python<'_>, body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(payload) => Err(internal(py, format!("internal error in cardnet-core: {}", panic_message(&*payload)))),
    }
}
