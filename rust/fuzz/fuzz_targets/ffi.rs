//! libFuzzer entry of the `ffi` target (see `cardnet_fuzz::targets::ffi`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| cardnet_fuzz::targets::ffi::run(data));
