//! Text across the boundary: reading the caller's C strings, handing out the library's own, and taking
//! them back.

use crate::status::{c_string_lossy, Failure};
use serde_json::Value;
use std::ffi::{c_char, CStr};

/// The caller's NUL-terminated UTF-8 string `ptr`, named `what` in errors.
///
/// # Safety
/// `ptr` is null or points to a NUL-terminated string that lives for the call.
pub(crate) unsafe fn read_str<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::argument(format!("{what} is a null pointer")));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    let bytes = unsafe { CStr::from_ptr(ptr) };
    bytes.to_str().map_err(|_| Failure::argument(format!("{what} is not UTF-8")))
}

/// Parses the caller's JSON text; `invalid` builds the error for text that is not JSON.
pub(crate) fn parse_json(text: &str, invalid: impl FnOnce(String) -> Failure) -> Result<Value, Failure> {
    serde_json::from_str(text).map_err(|e| invalid(format!("not JSON: {e}")))
}

/// Writes `value` through the out-pointer `out`, refusing a null one.
///
/// # Safety
/// `out` is null or points to writable memory for one `T`.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) -> Result<(), Failure> {
    if out.is_null() {
        return Err(Failure::argument("the out-parameter is a null pointer"));
    }
    // SAFETY: non-null and writable by the caller's contract.
    unsafe { out.write(value) };
    Ok(())
}

/// Checks an out-pointer before any work is done, so that a call with a null one changes nothing.
pub(crate) fn check_out<T>(out: *mut T) -> Result<(), Failure> {
    if out.is_null() {
        Err(Failure::argument("the out-parameter is a null pointer"))
    } else {
        Ok(())
    }
}

/// Hands `text` to the caller through `out` as a string the caller frees with [`cardnet_string_free`].
///
/// # Safety
/// As [`write_out`].
pub(crate) unsafe fn write_string(out: *mut *mut c_char, text: String) -> Result<(), Failure> {
    check_out(out)?;
    // SAFETY: `out` checked above; ownership of the new string passes to the caller.
    unsafe { write_out(out, c_string_lossy(text).into_raw()) }
}

/// Frees a string this library returned through a `char **` out-parameter. Null is ignored.
///
/// # Safety
/// `text` is null or a string returned by this library and not freed before; it must not be used after.
#[no_mangle]
pub unsafe extern "C" fn cardnet_string_free(text: *mut c_char) {
    if !text.is_null() {
        // SAFETY: the caller hands back a string made by `CString::into_raw` in `write_string`.
        drop(unsafe { std::ffi::CString::from_raw(text) });
    }
}
