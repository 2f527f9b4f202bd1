"""The full-screen client's language sweep, printed as JSON: a whole game of each of the four games in each of the
four languages in an 80x24 tmux pane (16 games), each checked for English words left and rows cut mid-word.

CI plays four of them (one language per game, rotated: ``tests/test_tui_languages.py``); this runs all sixteen
through the same test with ``CARDNET_LANGUAGE_SWEEP=all`` and prints how long each game took from the keyboard.

Usage: python bench/tui_languages.py
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    env = dict(os.environ, CARDNET_LANGUAGE_SWEEP="all")
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-s",
            "-p",
            "no:cacheprovider",
            "-k",
            "whole_game",
            "tests/test_tui_languages.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    games = {f"{m[0]} {m[1]}": float(m[2]) for m in re.findall(r"^\.?(\w+) (\w\w): ([\d.]+) s$", done.stdout, re.M)}
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    print(
        json.dumps(
            {
                "games": games,
                "played": len(games),
                "total_s": round(time.monotonic() - started, 1),
                "pytest": summary,
                "ok": done.returncode == 0,
            },
            indent=1,
        )
    )
    if done.returncode != 0:
        print(done.stdout[-4000:], file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
