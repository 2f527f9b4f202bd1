//! libFuzzer entry of the `saves` target (see `cardnet_fuzz::targets::saves`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| cardnet_fuzz::targets::saves::run(data));
