"""A night of tables: many hosts, each with its seats played by raw clients, for a long time, measured as it goes.

    python bench/soak.py [--tables 50] [--players 4] [--game matchstick] [--seconds 1800] [--report-every 60]

Starts ``--tables`` headless ``cardnet host`` processes and seats ``--players`` raw clients at each (the clients
of bench/net_tables.py, all served by one selector thread). Every seat answers its decision at once with a random
legal index and votes for a rematch when a game ends, for ``--seconds``; then each table plays its current game
to the end (``--grace`` seconds at most) and votes no more.

Every ``--report-every`` seconds one window is printed (stderr, and kept for the JSON document): moves and games
in the window, the mover's round trip p50/p99 in it (the p99 must not drift), and per host the resident set size,
open file descriptors and journal bytes, with journal bytes per move so far (they grow only with moves). The JSON
document at the end holds every window, the last window's p99 over the first's (the drift), the games finished,
the tables whose last game did not end, and the largest RSS and descriptor growth of any host between the first
window and the last.

A benchmark, never a test; tests/test_soak.py runs a short version and checks what must not grow.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from net_rtt import percentile  # noqa: E402
from net_tables import Figures, Table, close_tables, drive, open_tables, rss_kib  # noqa: E402


def open_fds(pid: int) -> int:
    """How many descriptors the process holds (Linux's /proc)."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def window(
    tables: list[Table], journals: list[Path], rtt: list[float], moves: int, games: int, t: float
) -> dict[str, Any]:
    """One report: this window's moves, games and round trips; every host's size now."""
    total_moves = sum(tb.moves for tb in tables)
    journal_bytes = [p.stat().st_size for p in journals]
    return {
        "t_s": round(t),
        "moves": moves,
        "games": games,
        "mover_rtt_ms": {
            "p50": round(percentile(rtt, 0.5) * 1000, 2) if rtt else None,
            "p99": round(percentile(rtt, 0.99) * 1000, 2) if rtt else None,
        },
        "rss_kib": [rss_kib(tb.host.pid) for tb in tables],
        "fds": [open_fds(tb.host.pid) for tb in tables],
        "journal_bytes": sum(journal_bytes),
        "journal_bytes_per_move": round(sum(journal_bytes) / total_moves, 1) if total_moves else None,
    }


def soak(
    tables: list[Table], journals: list[Path], seconds: float, grace: float, every: float, seed: int, quiet: bool
) -> tuple[list[dict[str, Any]], float]:
    """Serve every connection (bench/net_tables.py's loop) until time is up and each table's game has ended,
    reporting a window every ``every`` seconds."""
    windows: list[dict[str, Any]] = []
    start = time.perf_counter()
    marks = {"next": start + every, "rtt": 0, "moves": 0, "games": 0}

    def report(now: float, figures: Figures) -> float:
        if now >= marks["next"]:
            moves, games = sum(t.moves for t in tables), sum(t.games for t in tables)
            rtt = figures.mover_rtt[int(marks["rtt"]) :]
            windows.append(
                window(tables, journals, rtt, moves - int(marks["moves"]), games - int(marks["games"]), now - start)
            )
            if not quiet:
                print(json.dumps(windows[-1], separators=(",", ":"))[:400], file=sys.stderr)
            marks.update(next=marks["next"] + every, rtt=len(figures.mover_rtt), moves=moves, games=games)
        return marks["next"]

    _, elapsed = drive(tables, seconds, grace, seed, tick=report)
    return windows, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="matchstick")
    parser.add_argument("--seconds", type=float, default=1800.0)
    parser.add_argument("--report-every", type=float, default=60.0)
    parser.add_argument("--grace", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no window reports on stderr")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tables = open_tables(args.tables, args.game, args.players, 0, Path(tmp), args.seed)
        journals = [Path(tmp) / f"t{i}.journal" for i in range(args.tables)]
        try:
            first = window(tables, journals, [], 0, 0, 0.0)
            windows, elapsed = soak(
                tables, journals, args.seconds, args.grace, args.report_every, args.seed, args.quiet
            )
            last = window(tables, journals, [], 0, 0, elapsed)
        finally:
            close_tables(tables)
    moves = sum(t.moves for t in tables)
    p99s = [w["mover_rtt_ms"]["p99"] for w in windows if w["mover_rtt_ms"]["p99"] is not None]
    print(
        json.dumps(
            {
                "tables": args.tables,
                "connections": args.tables * args.players,
                "game": args.game,
                "seconds": round(elapsed, 1),
                "moves": moves,
                "moves_per_s": round(moves / elapsed, 1),
                "games_finished": sum(t.games for t in tables),
                "tables_unfinished": [t.index for t in tables if not t.over],
                "mover_rtt_p99_ms_per_window": p99s,
                # Drift: the last window's p99 over the first's (1.0: none). The first window includes the
                # hosts' warm-up, and on a shared machine both read its load as much as the hosts.
                "mover_rtt_p99_last_over_first": round(p99s[-1] / p99s[0], 2) if len(p99s) >= 2 and p99s[0] else None,
                "host_rss_kib_growth_max": max(e - s for s, e in zip(first["rss_kib"], last["rss_kib"])),
                "host_rss_kib_growth_after_first_window_max": max(
                    e - s for s, e in zip(windows[0]["rss_kib"], last["rss_kib"])
                )
                if windows
                else None,
                "host_fds_first_last": [first["fds"], last["fds"]],
                "journal_bytes_per_move_per_window": [w["journal_bytes_per_move"] for w in windows],
                "journal_bytes": last["journal_bytes"],
                "windows": windows,
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
