//! libFuzzer entry of the `rl_saves` target (see `cardnet_fuzz::targets::rl_saves`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| cardnet_fuzz::targets::rl_saves::run(data));
