//! libFuzzer entry of the `setups` target (see `cardnet_fuzz::targets::setups`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| cardnet_fuzz::targets::setups::run(data));
