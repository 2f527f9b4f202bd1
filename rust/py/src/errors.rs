//! Error mapping and the panic guard every entry point runs under.
//!
//! The exception classes live in Python (`cardnet/errors.py`, where they are documented and can be raised
//! by Python code too). The binding does not import the package: `cardnet` hands them over once, at its own
//! import (`_core.bind_python`, [`bind`]). Each `GameError` variant maps to exactly one class, and a panic
//! becomes `CardnetError` with code `internal` instead of pyo3's `PanicException`, which derives from
//! `BaseException` and would slip past `except Exception` in the host.

use cardnet_core::GameError;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// cardnet's exception classes, as `cardnet` handed them over.
struct Classes {
    cardnet_error: Py<PyType>,
    illegal_move: Py<PyType>,
    invalid_move: Py<PyType>,
    unknown_game: Py<PyType>,
    bad_options: Py<PyType>,
    corrupt_state: Py<PyType>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

/// Takes cardnet's exception classes from `classes` (name to class, every one an `Exception` subclass); a
/// second call changes nothing.
pub fn bind(py: Python<'_>, classes: &Bound<'_, PyDict>) -> PyResult<()> {
    let take = |name: &str| -> PyResult<Py<PyType>> {
        let class =
            classes.get_item(name)?.ok_or_else(|| PyTypeError::new_err(format!("no exception class {name}")))?;
        let class = class.cast_into::<PyType>().map_err(|_| PyTypeError::new_err(format!("{name} is not a class")))?;
        if !class.is_subclass_of::<pyo3::exceptions::PyException>()? {
            return Err(PyTypeError::new_err(format!("{name} is not an Exception subclass")));
        }
        Ok(class.unbind())
    };
    let bound = Classes {
        cardnet_error: take("CardnetError")?,
        illegal_move: take("IllegalMove")?,
        invalid_move: take("InvalidMove")?,
        unknown_game: take("UnknownGame")?,
        bad_options: take("BadOptions")?,
        corrupt_state: take("CorruptState")?,
    };
    let _ = CLASSES.set(py, bound);
    Ok(())
}

fn classes(py: Python<'_>) -> PyResult<&Classes> {
    CLASSES
        .get(py)
        .ok_or_else(|| PyRuntimeError::new_err("cardnet._core is used before `import cardnet` bound its exceptions"))
}

/// The Python exception for a core error.
pub fn to_pyerr(py: Python<'_>, error: &GameError) -> PyErr {
    let made = classes(py).and_then(|c| match error {
        GameError::IllegalMove { code, reason } => c.illegal_move.bind(py).call1((*code, reason.as_str())),
        GameError::InvalidMove(reason) => c.invalid_move.bind(py).call1((reason,)),
        GameError::UnknownGame(reason) => c.unknown_game.bind(py).call1((reason,)),
        GameError::BadOptions(reason) => c.bad_options.bind(py).call1((reason,)),
        GameError::CorruptState(reason) => c.corrupt_state.bind(py).call1((reason,)),
        GameError::Internal(reason) => c.cardnet_error.bind(py).call1(("internal", reason.as_str())),
        // `GameError` is non-exhaustive: a kind added later is a CardnetError with its own code until it
        // gets a class of its own.
        other => c.cardnet_error.bind(py).call1((other.code(), other.reason())),
    });
    match made {
        Ok(exception) => PyErr::from_value(exception),
        // The classes were not handed over or one misbehaved: report that rather than hide it.
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
