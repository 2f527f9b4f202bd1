#!/usr/bin/env bash
# Coverage-guided fuzzing of what the Rust core and its C ABI read from outside, with libFuzzer on stable Rust.
#
#   bench/fuzz_core.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s each, every target)
#   targets: moves views saves rl_saves setups ffi          (rust/fuzz/src/targets/)
#
# The targets are built with rustc's own SanitizerCoverage pass, all stable `-C` flags, the same
# instrumentation cargo-fuzz uses with `--sanitizer none`, and linked with libfuzzer-sys (which builds libFuzzer
# from source): no nightly compiler and no tool beyond cargo. Debug assertions and overflow checks are on, so an
# arithmetic overflow is a crash too. The corpus starts from seeds taken from real games and grows across runs
# in $CARGO_TARGET_DIR/fuzz/corpus; a crashing input lands in $CARGO_TARGET_DIR/fuzz/artifacts/TARGET/. Once fixed,
# copy it into rust/fuzz/regressions/TARGET/: `cargo test -p cardnet-fuzz` replays it from then on.
# Runs at the lowest priority (nice 19) on one core at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(moves views saves rl_saves setups ffi)
base=${CARGO_TARGET_DIR:-$PWD/target}
work=$base/fuzz
triple=$(rustc -vV | sed -n 's/^host: //p')

# The seed corpus, from an ordinary build.
cargo run --quiet --release --locked -p cardnet-fuzz --bin seed_corpus -- "$work/seeds" "${targets[@]}"

flags=(-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table
  -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks)
# `--target` keeps the flags off build scripts; thin LTO and one codegen unit only slow the build down here.
RUSTFLAGS="${flags[*]}" CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  nice -n 19 cargo build --release --locked -p cardnet-fuzz --features libfuzzer --target "$triple" \
  --target-dir "$work/build" $(printf -- '--bin fuzz_%s ' "${targets[@]}")

printf '%-9s %9s %9s %8s %8s %7s %8s %7s\n' target seconds execs execs/s edges features corpus crashes
for target in "${targets[@]}"; do
  corpus=$work/corpus/$target
  artifacts=$work/artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  log=$work/$target.log
  status=0
  nice -n 19 "$work/build/$triple/release/fuzz_$target" "$corpus" "$work/seeds/$target" \
    -max_total_time="$seconds" -print_final_stats=1 -timeout=20 -rss_limit_mb=4096 \
    -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  edges=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  features=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  kept=$(find "$corpus" -type f | wc -l)
  crashes=$(find "$artifacts" -type f | wc -l)
  # The time it ran (shorter than asked when it stopped at a crash).
  ran=$(awk -v e="${execs:-0}" -v r="${rate:-0}" 'BEGIN { print (r > 0 ? int(e / r + 0.5) : "?") }')
  printf '%-9s %9s %9s %8s %8s %7s %8s %7s\n' "$target" "$ran" "${execs:-?}" "${rate:-?}" \
    "${edges:-?}" "${features:-?}" "$kept" "$crashes"
  if [ "$status" -ne 0 ]; then
    echo "  $target stopped with status $status: see $log and $artifacts/" >&2
  fi
done
