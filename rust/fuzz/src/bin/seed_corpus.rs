//! Writes the seed corpus into a folder: `seed_corpus DIR [TARGET...]` makes `DIR/TARGET/seed-N` for every
//! target (or those named), each file one input taken from a real game.

use cardnet_fuzz::{seeds::seeds, TARGETS};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next().map(PathBuf::from) else {
        eprintln!("usage: seed_corpus DIR [TARGET...]   (targets: moves views saves rl_saves setups ffi)");
        return ExitCode::from(2);
    };
    let wanted: Vec<String> = args.collect();
    for (name, _) in TARGETS.iter().filter(|(name, _)| wanted.is_empty() || wanted.iter().any(|w| w == name)) {
        let folder = dir.join(name);
        let written = std::fs::create_dir_all(&folder).and_then(|()| {
            let inputs = seeds(name);
            for (i, input) in inputs.iter().enumerate() {
                std::fs::write(folder.join(format!("seed-{i:04}")), input)?;
            }
            Ok(inputs.len())
        });
        match written {
            Ok(count) => println!("{name}: {count} seeds in {}", folder.display()),
            Err(e) => {
                eprintln!("seed_corpus: cannot write {}: {e}", folder.display());
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
