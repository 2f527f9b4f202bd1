//! libFuzzer entry of the `moves` target (see `cardnet_fuzz::targets::moves`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| cardnet_fuzz::targets::moves::run(data));
