"""The mover's round trip over the web seat's WebSocket beside TCP, Matchstick for 4, in one run.

    python bench/web_rtt.py [--seconds S] [--seed N] [--rounds R]

bench/net_rtt.py's raw clients (a socket, json, no cardnet import), some of them speaking the WebSocket as a
browser does (a masked text frame a line, PROTOCOL.md § 16), play headless ``cardnet host`` tables on
127.0.0.1; each answers its open decision at once with a random legal index and everyone votes for a rematch
when a game ends, until the time is up. Each round measures, one after the other:

- ``mixed``: seats 0 and 1 over WebSockets, 2 and 3 over TCP, at one table: the WebSocket's movers beside the
  TCP's in the very same conditions (``mover_rtt_ms_by``: ``ws``, ``tcp``). This is the comparison the goal
  is about, printed as ``ws_over_tcp``;
- ``all_ws``: every seat over a WebSocket;
- ``tcp_fast``: every seat over TCP with ``--no-native-lane``: the fast path, which served every move of a table
  with a WebSocket peer at it until the native lane learnt WebSocket framing;
- ``tcp_native``: every seat over TCP, the host as it runs by default (its native lane on): ``ws_over_tcp_native``
  is a browser's seat of ``mixed`` against it.

The round trip is from the mover's ``move`` write to the arrival of the ``update`` carrying its ``ack`` in the
mover's socket (the kernel's receive timestamp), p50/p99; ``host_cpu_ms_per_move`` is the host's CPU a move.
Rounds alternate the tables so that a busy moment of the shared machine does not fall on one of them alone.

A benchmark, never a test: it prints figures and asserts nothing about them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from net_rtt import connect, drive, free_port, percentile, release_build, start_host, stop_host

GAME, PLAYERS = "matchstick", 4

#: The tables measured each round: (name, which seats speak WebSocket, more ``cardnet host`` arguments).
TABLES: list[tuple[str, set[int], tuple[str, ...]]] = [
    ("mixed", {0, 1}, ()),
    ("all_ws", {0, 1, 2, 3}, ()),
    ("tcp_fast", set(), ("--no-native-lane",)),
    ("tcp_native", set(), ()),
]


def run_table(ws_seats: set[int], seconds: float, seed: int, *extra: str) -> dict[str, Any]:
    """Hosts a Matchstick table for 4 with its web seat, seats ``ws_seats`` through WebSockets and the others
    through TCP, plays it for ``seconds`` and returns its figures."""
    port, web_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as tmp:
        host = start_host(GAME, PLAYERS, port, Path(tmp) / "t.journal", seed, "--web-port", str(web_port), *extra)
        try:
            # Seats are given in order of arrival: seat i is the i-th client.
            clients = [
                connect(web_port if i in ws_seats else port, f"rtt{i}", ws=i in ws_seats) for i in range(PLAYERS)
            ]
            groups = {"ws": ws_seats, "tcp": set(range(PLAYERS)) - ws_seats}
            return drive(clients, host.pid, seconds, random.Random(seed), {k: v for k, v in groups.items() if v})
        finally:
            stop_host(host)


def ratio(over: float, under: float) -> float:
    return round(over / under, 2) if under > 0 else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured time per table and round (default 5)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds over the tables (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="deal and move seed (default 1)")
    args = parser.parse_args()
    if not release_build("web_rtt"):
        return 1
    rounds: list[dict[str, Any]] = []
    for number in range(args.rounds):
        figures: dict[str, Any] = {}
        for name, ws_seats, extra in TABLES:
            figures[name] = run_table(ws_seats, args.seconds, args.seed + number, *extra)
        mixed = figures["mixed"]["mover_rtt_ms_by"]
        figures["ws_over_tcp"] = {q: ratio(mixed["ws"][q], mixed["tcp"][q]) for q in ("p50", "p99")}
        all_ws, fast = figures["all_ws"]["mover_rtt_ms"], figures["tcp_fast"]["mover_rtt_ms"]
        figures["all_ws_over_tcp_fast"] = {q: ratio(all_ws[q], fast[q]) for q in ("p50", "p99")}
        native = figures["tcp_native"]["mover_rtt_ms"]
        figures["ws_over_tcp_native"] = {q: ratio(mixed["ws"][q], native[q]) for q in ("p50", "p99")}
        rounds.append(figures)
    p50s = sorted(r["ws_over_tcp"]["p50"] for r in rounds)
    report = {
        "bench": "web_rtt",
        "table": f"{GAME}_{PLAYERS}p",
        "seconds": args.seconds,
        "rounds": rounds,
        "ws_over_tcp_p50_median": percentile(p50s, 0.5),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
