//! Records what `cardnet.build_info()` reports: the cargo profile and a digest of the Rust sources that
//! went into the extension, so a benchmark can refuse a debug build and a stale `.so` can be spotted.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let roots = [
        manifest.join("src"),
        manifest.join("Cargo.toml"),
        manifest.join("../core/src"),
        manifest.join("../core/data"),
        manifest.join("../core/Cargo.toml"),
    ];
    let mut files = Vec::new();
    for root in &roots {
        println!("cargo:rerun-if-changed={}", root.display());
        if root.is_dir() {
            collect(root, &mut files);
        } else if root.is_file() {
            files.push(root.clone());
        }
    }
    // Digest relative paths and contents in a fixed order so the value does not depend on the checkout path.
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&manifest).unwrap_or(&p).to_string_lossy().replace('\\', "/");
            (rel, p)
        })
        .collect();
    named.sort();
    let mut hasher = Sha256::new();
    for (rel, path) in &named {
        let bytes = std::fs::read(path).unwrap_or_default();
        hasher.update(rel.as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    let digest: String = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=CARDNET_SOURCE_DIGEST={digest}");
    println!("cargo:rustc-env=CARDNET_PROFILE={}", std::env::var("PROFILE").unwrap_or_default());
    println!("cargo:rustc-env=CARDNET_OPT_LEVEL={}", std::env::var("OPT_LEVEL").unwrap_or_default());
}
