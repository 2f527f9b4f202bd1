#!/usr/bin/env bash
# Strength of the built-in players per game (heuristic vs random, ISMCTS vs heuristic), as JSON.
# Usage: bench/ai_strength.sh [--games G] [--iterations N]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --release --locked -p cardnet-core --example strength -- "$@"
