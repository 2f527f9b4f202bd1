"""Back-pressure measured: one link stops reading for seconds while the table plays on.

    python bench/net_stall.py [--game matchstick:4] [--before 8] [--stall 8] [--after 8] [--json]

One headless ``cardnet host`` with its seats played by raw clients (bench/net_tables.py's, one selector thread)
and one spectator whose socket is simply not read for ``--stall`` seconds, with a small receive buffer
(``--rcvbuf``) so that the kernel holds little and the host's own queue for that peer fills: the host-to-peer
direction of that link stalls, as behind a dead Wi-Fi. Nothing in the game waits on a spectator, so the host
must keep the players at full speed. A player's own link stalling would stop a turn-based table by the rules
(its turn comes and it cannot hear it), which is no test of the host.

Printed: the mover's round trip p50/p99 and moves/s before the stall, during it and after it, with the ratios
during/before (1.0: the stall costs the other seats nothing); whether the host dropped the states queued for the
stalled peer and sent it one snapshot when it read again (docs/PROTOCOL.md § 9); whether every move was
acknowledged and the stalled spectator ended on the players' final state without being cut off.

A benchmark, never a timed test; tests/test_net_stall.py runs a short version and checks only the behaviour.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from net_rtt import Client, percentile, release_build, state_of  # noqa: E402
from net_tables import close_tables, drive, open_tables, rss_kib  # noqa: E402


def phase(rtt: list[float], at: list[float], start: float, end: float) -> dict[str, Any]:
    """The round trips whose acks arrived in ``start..end``."""
    inside = [r for r, t in zip(rtt, at) if start <= t < end]
    return {
        "moves": len(inside),
        "moves_per_s": round(len(inside) / (end - start), 1),
        "p50_ms": round(percentile(inside, 0.5) * 1000, 2) if inside else None,
        "p99_ms": round(percentile(inside, 0.99) * 1000, 2) if inside else None,
    }


def ratio(during: dict[str, Any], before: dict[str, Any], key: str) -> float | None:
    """``during[key] / before[key]``, None when either is missing."""
    if during[key] is None or not before[key]:
        return None
    return round(float(during[key]) / float(before[key]), 2)


def catch_up(client: Client, final_state: int, limit: float) -> int:
    """Reads the client's link until it reaches ``final_state`` (or ``limit`` seconds pass); its last state."""
    client.sock.setblocking(True)
    deadline = time.monotonic() + limit
    while client.last_state < final_state and time.monotonic() < deadline:
        while (cut := client.buffer.find(b"\n")) >= 0:
            message = json.loads(bytes(client.buffer[:cut]))
            del client.buffer[: cut + 1]
            state = state_of(client, message)
            if state is not None:
                client.last_state = max(client.last_state, state)
        if client.last_state >= final_state:
            break
        client.sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            data = client.sock.recv(1 << 20)
        except TimeoutError:
            break
        if not data:
            break
        client.buffer += data
    return client.last_state


def run(game: str, players: int, before: float, stall: float, after: float, rcvbuf: int, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        tables = open_tables(1, game, players, 1, Path(tmp), seed)
        table = tables[0]
        stalled = table.spectators[0]
        if rcvbuf:
            stalled.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        start = time.perf_counter()
        stall_start, stall_end = start + before, start + before + stall
        rss: dict[str, int] = {}

        def reading(client: Client, now: float) -> bool:
            return client is not stalled or not stall_start <= now < stall_end

        def tick(now: float, _: Any) -> float:
            # The host's memory just before the stall ends, when its queue for the stalled peer is fullest.
            if stall_end - 0.5 <= now < stall_end and "stall" not in rss:
                rss["stall"] = rss_kib(table.host.pid)
            if now < stall_start and "before" not in rss:
                rss["before"] = rss_kib(table.host.pid)
            return min(t for t in (stall_start, stall_end - 0.5, now + 0.5) if t > now)

        try:
            figures, elapsed = drive(tables, before + stall + after, 30.0, seed, tick=tick, reading=reading)
            final_state = max(c.last_state for c in table.players)
            spectator_state = catch_up(stalled, final_state, 10.0)
            host_alive = table.host.poll() is None
        finally:
            close_tables(tables)
    phases = {
        "before": phase(figures.mover_rtt, figures.mover_rtt_at, start, stall_start),
        "during": phase(figures.mover_rtt, figures.mover_rtt_at, stall_start, stall_end),
        "after": phase(figures.mover_rtt, figures.mover_rtt_at, stall_end, start + elapsed),
    }
    return {
        "bench": "net_stall",
        "game": f"{game}:{players}",
        "stall_s": stall,
        "rcvbuf": rcvbuf,
        "mover_rtt": phases,
        "p50_during_over_before": ratio(phases["during"], phases["before"], "p50_ms"),
        "p99_during_over_before": ratio(phases["during"], phases["before"], "p99_ms"),
        "moves_per_s_during_over_before": ratio(phases["during"], phases["before"], "moves_per_s"),
        "host_rss_kib_before_and_in_stall": [rss.get("before"), rss.get("stall")],
        "stalled_peer_snapshots": figures.spectator_snapshots,
        "stalled_peer_states_dropped_by_host": figures.spectator_states_skipped,
        "moves_unacknowledged": len(table.pending),
        "final_state": final_state,
        "stalled_peer_final_state": spectator_state,
        "games_finished": table.games,
        "host_alive": host_alive,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="matchstick:4", help="GAME:PLAYERS (default %(default)s)")
    parser.add_argument("--before", type=float, default=8.0, help="seconds of play before the stall")
    parser.add_argument("--stall", type=float, default=8.0, help="seconds the peer does not read")
    parser.add_argument("--after", type=float, default=8.0, help="seconds of play after it")
    parser.add_argument(
        "--rcvbuf", type=int, default=0, help="the stalled peer's socket receive buffer (default: the kernel's)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="only the JSON document (for tests)")
    args = parser.parse_args()
    if not args.json and not release_build("net_stall"):
        return 1
    game, _, players = args.game.partition(":")
    report = run(game, int(players or 4), args.before, args.stall, args.after, args.rcvbuf, args.seed)
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
