"""A short night of tables (bench/soak.py, about 25 s here): several hosts, four raw clients each, games and
rematches back to back. Every game finishes, and what must grow only with moves does: host memory and open
descriptors stay flat after the first window, journal bytes per move stay the same. The half-hour, 50-table run
is the benchmark itself; its figures are in bench/RESULTS.md."""

from __future__ import annotations

import json
import subprocess
import sys

from nethelpers import ROOT


def test_a_short_soak_finishes_every_game_and_grows_only_with_moves() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "soak.py"),
            "--tables",
            "4",
            "--seconds",
            "15",
            "--report-every",
            "5",
            "--grace",
            "30",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    figures = json.loads(done.stdout)
    assert figures["tables_unfinished"] == [] and figures["games_finished"] >= 4 and figures["moves"] > 1000
    windows = figures["windows"]
    assert len(windows) >= 2 and all(w["moves"] > 0 for w in windows)
    # A host holds 20 or 21 descriptors as it works (a connection being served, a worker thread's); a leak of one
    # per game would add dozens over this run's games.
    first_fds, last_fds = figures["host_fds_first_last"]
    # Compared with the most any host held at the first reading: a host read while its clients were still
    # connecting holds fewer than it will.
    assert max(last_fds) <= max(first_fds) + 2
    assert all(max(w["fds"]) <= max(first_fds) + 2 for w in windows)
    # After the first window (imports, caches, the first games) a host's memory stays flat: well under 1 KiB
    # per game it played would still be a leak of 1 MiB over this run's games; allow 2 MiB of noise.
    assert figures["host_rss_kib_growth_after_first_window_max"] < 2048
    per_move = figures["journal_bytes_per_move_per_window"]
    assert max(per_move) < 1.1 * min(per_move)
