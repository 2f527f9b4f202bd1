//! libFuzzer entry of the `views` target (see `cardnet_fuzz::targets::views`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| cardnet_fuzz::targets::views::run(data));
