//! The committed C header is what cbindgen makes of the crate now: a changed signature without a
//! regenerated header fails here. `CARDNET_BLESS=1` rewrites the header instead of comparing.

use std::path::PathBuf;

#[test]
fn committed_header_is_up_to_date() {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("the header is UTF-8");
    let path = crate_dir.join("include").join("cardnet.h");
    if std::env::var_os("CARDNET_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/cardnet.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/cardnet.h is stale: run `CARDNET_BLESS=1 cargo test -p cardnet-ffi --test header`"
    );
}
