#!/usr/bin/env bash
# In-Rust self-play speed of every game (release build, one core), as JSON on stdout.
# Usage: bench/core_selfplay.sh [--seconds S] [--game NAME] [--players N] [--player random|heuristic|ismcts:N]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --release --locked -p cardnet-core --example selfplay -- "$@"
