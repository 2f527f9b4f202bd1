//! The seven-segment transforms of Matchstick Tycoon's cards.

use crate::status::{run, CardnetStatus, Failure};
use crate::strings::{check_out, read_str, write_string};
use cardnet_core::json::canonical;
use cardnet_core::segments::{segments_to_str, transforms_iter, CardType};
use serde_json::{json, Value};
use std::ffi::c_char;

/// Every way a printed card type (`"0"`, `"1"`, `"3E"`, `"69"`, ...; `"3/E"` and `"6/9"` too) can show a
/// value, weakest value first: a JSON array of `{"value", "rotated", "matchsticks", "added"}`, `added`
/// being the segment letters (`a`..`g`) the matchsticks fill. `expansion` adds the values G and H.
/// An unknown card type is `CARDNET_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: on success `*out_json` is a new string the caller frees with `cardnet_string_free`.
///
/// # Safety
/// `card_type` is a NUL-terminated string; `out_json` points to writable memory for one pointer.
#[no_mangle]
pub unsafe extern "C" fn cardnet_segment_transforms_json(
    card_type: *const c_char,
    expansion: bool,
    out_json: *mut *mut c_char,
) -> CardnetStatus {
    run(|| {
        check_out(out_json)?;
        // SAFETY: by this function's contract.
        let name = unsafe { read_str(card_type, "card_type") }?;
        let card = CardType::parse(name).ok_or_else(|| {
            Failure::argument(format!("{name:?} is not a printed card type (0, 1, 2, 3E, 4, 5, 69, ...)"))
        })?;
        let list: Vec<Value> = transforms_iter(card, expansion)
            .map(|t| {
                json!({"value": t.value.name(), "rotated": t.rotated, "matchsticks": t.matchsticks,
                       "added": segments_to_str(t.added)})
            })
            .collect();
        // SAFETY: checked above.
        unsafe { write_string(out_json, canonical(&Value::Array(list))) }
    })
}
