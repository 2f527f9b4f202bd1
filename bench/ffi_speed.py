"""The C ABI's hot loop beside Rust and Python: random 4-player Matchstick Tycoon games per second.

Every side plays the same loop (a new game per seed ``derive(seed, i)``, the lowest acting seat picks a
uniform random legal index until the game ends): Rust through the typed ``Game`` trait and through the
dynamic ``AnyGame`` the C ABI wraps (``rust/ffi/examples/hot_loop.rs``), C through ``cardnet_decision`` +
``cardnet_apply_index`` (``rust/ffi/examples/random_games.c``, gcc -O2, linked to the release cdylib), and
Python through ``Game.decision()`` + ``Game.apply_index``. Prints one JSON document with games/s and the
ratios against the typed Rust loop, all from one run.

    python bench/ffi_speed.py [--seconds 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cardnet

ROOT = Path(__file__).resolve().parent.parent


def run_json(command: list[str]) -> dict[str, Any]:
    done = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True)
    parsed: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return parsed


def python_loop(seconds: float, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    randrange = rng.randrange
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = cardnet.new_game("matchstick", players=4, seed=cardnet.derive(seed, games))
        decision = g.decision
        apply_index = g.apply_index
        while (d := decision()) is not None:
            apply_index(d[0], randrange(d[1]))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "decisions": decisions,
        "games_per_s": round(games / elapsed),
        "decisions_per_s": round(decisions / elapsed),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per side (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rust = run_json(
        [
            "cargo",
            "run",
            "--quiet",
            "--release",
            "--locked",
            "-p",
            "cardnet-ffi",
            "--example",
            "hot_loop",
            "--",
            str(args.seconds),
            str(args.seed),
        ]
    )
    rows: dict[str, dict[str, Any]] = {str(r["api"]): r for r in rust["results"]}
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(["bash", "scripts/build-c-example", out, "release"], cwd=ROOT, check=True)
        # As many games as the dynamic Rust loop played in the same time, so that C runs about as long.
        games = max(100, int(rows["rust_dynamic"]["games_per_s"] * args.seconds))
        c = run_json([os.path.join(out, "random_games"), str(games), str(args.seed)])
    rows["c_ffi"] = {"api": "c_ffi", **{k: c[k] for k in ("games", "decisions", "games_per_s", "decisions_per_s")}}
    rows["python"] = {"api": "python", **python_loop(args.seconds, args.seed)}
    base = float(rows["rust_typed"]["games_per_s"])
    for row in rows.values():
        row["vs_rust_typed"] = round(float(row["games_per_s"]) / base, 3)
    print(
        json.dumps(
            {
                "benchmark": "ffi_speed",
                "game": "matchstick",
                "players": 4,
                "seconds": args.seconds,
                "cpus": os.cpu_count(),
                "results": list(rows.values()),
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
