"""A million hostile lines and more into the host's session: the long run of tests/test_fuzz_session.py.

    python bench/fuzz_session.py [--lines 1000000] [--seed 1] [--workers 1] [--report-every 100000]

Runs tests/sessionfuzz.py (several links per table: honest players, rogue players and strangers; lines that are
mutations of every message type, Unicode and number edges, deep nesting, wrong seats, stale and future
decisions, replayed and forged tokens, split reads) with every check after every line. With ``--workers N`` the
lines are shared among N processes with seeds ``seed .. seed + N - 1``.

Prints one JSON document: lines, lines/s, the run's length, tables, games finished, moves (honest ones too),
refusals, connections cut, full-table checks, the resident set size of each worker at its first and last
report (the session's memory stays bounded), and every failure (there should be none).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from sessionfuzz import SessionFuzz  # noqa: E402


def rss_kib() -> int:
    """The current resident set size of this process (Linux's /proc; ru_maxrss elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def worker(args: tuple[int, int, int]) -> dict[str, Any]:
    seed, lines, report_every = args
    fuzz = SessionFuzz(seed)
    started = time.perf_counter()
    rss: list[int] = []
    done = 0
    while done < lines:
        chunk = min(report_every, lines - done)
        fuzz.run(chunk)
        done += chunk
        rss.append(rss_kib())
        print(f"seed {seed}: {done} lines, {time.perf_counter() - started:.0f} s, rss {rss[-1]} KiB", file=sys.stderr)
    totals = fuzz.totals
    return {
        "seed": seed,
        "seconds": time.perf_counter() - started,
        "rss_kib": rss,
        **{k: v for k, v in vars(totals).items() if k != "failures"},
        "failures": [f.describe() for f in totals.failures],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--report-every", type=int, default=100_000)
    args = parser.parse_args()
    share = args.lines // args.workers
    jobs = [(args.seed + n, share, args.report_every) for n in range(args.workers)]
    started = time.perf_counter()
    if args.workers == 1:
        results = [worker(jobs[0])]
    else:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(worker, jobs)
    elapsed = time.perf_counter() - started
    lines = sum(r["lines"] for r in results)
    summary = {
        "lines": lines,
        "seconds": round(elapsed, 1),
        "lines_per_s": round(lines / elapsed),
        "workers": args.workers,
        "tables": sum(r["tables"] for r in results),
        "games_finished": sum(r["games_finished"] for r in results),
        "moves": sum(r["moves"] for r in results),
        "honest_moves": sum(r["honest_moves"] for r in results),
        "quick_moves": sum(r["quick_moves"] for r in results),
        "refusals": sum(r["refusals"] for r in results),
        "connections_cut": sum(r["closes"] for r in results),
        "table_checks": sum(r["checks"] for r in results),
        "rss_kib_first_last": [(r["rss_kib"][0], r["rss_kib"][-1]) for r in results],
        "failures": [f for r in results for f in r["failures"]],
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
