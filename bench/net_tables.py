"""Many tables on one machine, and one table with many spectators, on loopback with raw-socket clients.

    python bench/net_tables.py [--tables 50] [--seconds 60] [--spectators 60] [--game matchstick:4] [--no-native-lane]

Part 1 starts ``--tables`` headless ``cardnet host`` processes (one table each) and seats raw clients at
every seat (the clients of ``bench/net_rtt.py``: a socket and json, written from docs/PROTOCOL.md); all
connections are served by one selector thread. Every seat answers its open decision at once with a random
legal index and votes for a rematch when a game ends, until ``--seconds`` are up; then each table plays its
current game to the end (bounded by ``--grace`` seconds) and votes no more. Printed per run:

- ``games_finished`` and ``tables_unfinished`` (tables whose last game did not end within the grace time);
- ``mover_rtt_ms`` p50/p99 over every move of every table, ``moves_per_s`` over all tables;
- ``host_rss_kib``: each host's resident set right after its clients joined and at the end (min/median/max
  of both, and the largest growth).

Part 2 hosts one table with its players and ``--spectators`` spectators: the host's CPU per move and the
spectators' lag (from the mover's write to a spectator's update for that state; p50/p99 over all
spectators and moves, and of the last spectator per move).

A benchmark, never a test: it prints figures and asserts nothing. The client thread is Python and shares
the machine with the hosts, so on a small machine it is part of what limits moves/s: say so when quoting.
"""

from __future__ import annotations

import argparse
import json
import random
import selectors
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from net_rtt import Client, connect, cpu_seconds, free_port, percentile, release_build, start_host, state_of


def rss_kib(pid: int) -> int:
    """Resident set size of a process in KiB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Table:
    """One hosted table and what its clients measured."""

    index: int
    host: Any
    players: list[Client] = field(default_factory=list)
    spectators: list[Client] = field(default_factory=list)
    rss_start: int = 0
    moves: int = 0
    games: int = 0
    #: (seat, decision id) -> when the move left.
    pending: dict[tuple[int, int], float] = field(default_factory=dict)
    #: state id -> when the move creating it left (for spectators' lag).
    sent_for_state: dict[int, float] = field(default_factory=dict)
    #: state id -> spectators still to see it.
    unseen: dict[int, int] = field(default_factory=dict)
    over: bool = False


@dataclass
class Figures:
    """Samples over every table of a run."""

    mover_rtt: list[float] = field(default_factory=list)
    #: When each of ``mover_rtt``'s acks arrived (``time.perf_counter``), to split a run into phases.
    mover_rtt_at: list[float] = field(default_factory=list)
    #: Snapshots spectators received: the host sends one to a peer that fell so far behind that it dropped the
    #: states queued for it (docs/PROTOCOL.md § 9).
    spectator_snapshots: int = 0
    #: States spectators never saw: the host dropped them from a lagging spectator's queue (the snapshot after
    #: them carries the state they led to).
    spectator_states_skipped: int = 0
    spectator_lag: list[float] = field(default_factory=list)
    last_spectator_lag: list[float] = field(default_factory=list)


def handle(
    table: Table, client: Client, msg: dict[str, Any], now: float, playing: bool, rng: random.Random, figures: Figures
) -> None:
    """One line from the host: time acks and spectators, answer decisions, vote rematches while playing."""
    state = state_of(client, msg)
    if state is None:
        return
    if client.seat < 0:
        if msg.get("type") == "snapshot":
            figures.spectator_snapshots += 1
        if client.last_state >= 0 and state > client.last_state + 1:
            figures.spectator_states_skipped += state - client.last_state - 1
    client.last_state = max(client.last_state, state)
    if client.seat < 0:
        sent = table.sent_for_state.get(state)
        if sent is not None:
            figures.spectator_lag.append(now - sent)
            table.unseen[state] -= 1
            if table.unseen[state] == 0:
                figures.last_spectator_lag.append(now - sent)
                del table.unseen[state], table.sent_for_state[state]
        return
    ack = msg.get("ack")
    if ack is not None:
        sent = table.pending.pop((client.seat, int(ack["decision_id"])), None)
        if sent is not None:
            figures.mover_rtt.append(now - sent)
            figures.mover_rtt_at.append(now)
            table.moves += 1
    table.over = bool(msg.get("over"))
    if table.over:
        if client.voted_for != msg["game_no"]:
            client.voted_for = msg["game_no"]
            if client.seat == 0:
                table.games += 1
            if playing:
                client.vote_soon(now)
        return
    decision = msg.get("decision")
    if decision is None or decision["id"] in client.answered:
        return
    client.answered.add(decision["id"])
    sent = time.perf_counter()
    table.pending[(client.seat, int(decision["id"]))] = sent
    if table.spectators and state + 1 not in table.sent_for_state:
        # One seat acts at a time in the default game, so this move creates state + 1; a spectator may see
        # that update before the mover's ack is read, hence the entry is made now.
        table.sent_for_state[state + 1] = sent
        table.unseen[state + 1] = len(table.spectators)
    client.send({"decision_id": decision["id"], "index": rng.randrange(decision["count"]), "type": "move"})


def drive(
    tables: list[Table],
    seconds: float,
    grace: float,
    seed: int,
    tick: Callable[[float, Figures], float] | None = None,
    reading: Callable[[Client, float], bool] | None = None,
) -> tuple[Figures, float]:
    """Serves every connection until time is up and each table's game has ended; (figures, elapsed).

    ``tick(now, figures)``, when given, runs once per pass and returns when it wants to run next (bench/soak.py
    reports there). ``reading(client, now)``, when given, says whether a client's socket is read in this pass:
    one it leaves unread stalls that link's host-to-peer direction (bench/net_stall.py)."""
    selector = selectors.DefaultSelector()
    unread: set[int] = set()
    for table in tables:
        for client in table.players + table.spectators:
            selector.register(client.sock, selectors.EVENT_READ, (table, client))
    rng = random.Random(seed)
    figures = Figures()
    start = time.perf_counter()
    deadline = start + seconds
    # Lines that arrived with the welcomes are in the buffers already.
    events = [(t, c, b"") for t in tables for c in t.players + t.spectators]
    while True:
        now = time.perf_counter()
        playing = now < deadline
        wake = tick(now, figures) if tick is not None else now + 0.5
        for table, client, data in events:
            client.buffer += data
            while (cut := client.buffer.find(b"\n")) >= 0:
                line = bytes(client.buffer[:cut])
                del client.buffer[: cut + 1]
                handle(table, client, json.loads(line), time.perf_counter(), playing, rng, figures)
        events = []
        # Checked once the bytes read in the last pass are handled, so that none is dropped at the end.
        if not playing and (now > deadline + grace or all(t.over and not t.pending for t in tables)):
            break
        now = time.perf_counter()
        due = []
        for table in tables:
            for client in table.players:
                client.vote_if_due(now)
                if client.vote_at:
                    due.append(client.vote_at)
        if reading is not None:
            for table in tables:
                for client in table.players + table.spectators:
                    wanted, fd = reading(client, now), client.sock.fileno()
                    if wanted and fd in unread:
                        unread.discard(fd)
                        selector.register(client.sock, selectors.EVENT_READ, (table, client))
                    elif not wanted and fd not in unread:
                        unread.add(fd)
                        selector.unregister(client.sock)
        for key, _ in selector.select(timeout=min([0.5, max(0.0, wake - now), *(max(0.0, t - now) for t in due)])):
            table, client = key.data
            try:
                data = client.sock.recv(1 << 20)
            except BlockingIOError:
                continue
            if not data:
                raise RuntimeError(f"table {table.index}: the host closed seat {client.seat}")
            events.append((table, client, data))
    return figures, time.perf_counter() - start


def open_tables(
    count: int, game: str, players: int, spectators: int, tmp: Path, seed: int, host_args: tuple[str, ...] = ()
) -> list[Table]:
    """Starts ``count`` hosts, then seats every client.

    Every host is up before the first client joins: a seated client is not read until play starts, and starting
    50 interpreters on a loaded machine can take longer than the host's idle timeout (30 s without a line).
    """
    tables: list[Table] = []
    ports: list[int] = []
    extra = (("--max-spectators", str(spectators)) if spectators else ()) + host_args
    for i in range(count):
        ports.append(free_port())
        tables.append(Table(i, start_host(game, players, ports[i], tmp / f"t{i}.journal", seed + i, *extra)))
    for table, port in zip(tables, ports):
        table.spectators = [connect(port, f"watch{k}", role="spectator") for k in range(spectators)]
        table.players = [connect(port, f"t{table.index}s{k}") for k in range(players)]
    for table in tables:
        table.rss_start = rss_kib(table.host.pid)
    return tables


def close_tables(tables: list[Table]) -> None:
    for table in tables:
        for client in table.players + table.spectators:
            client.sock.close()
        table.host.terminate()
    for table in tables:
        try:
            table.host.wait(timeout=10)
        except Exception:
            table.host.kill()


def ms(values: list[float]) -> dict[str, float]:
    return {"p50": round(percentile(values, 0.5) * 1000, 3), "p99": round(percentile(values, 0.99) * 1000, 3)}


def spread(values: list[int]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def host_args(args: argparse.Namespace) -> tuple[str, ...]:
    """Extra ``cardnet host`` arguments for this run."""
    return ("--no-native-lane",) if args.no_native_lane else ()


def many_tables(args: argparse.Namespace, game: str, players: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        tables = open_tables(args.tables, game, players, 0, Path(tmp), args.seed, host_args(args))
        try:
            figures, elapsed = drive(tables, args.seconds, args.grace, args.seed)
            rss_end = [rss_kib(t.host.pid) for t in tables]
        finally:
            close_tables(tables)
    moves = sum(t.moves for t in tables)
    rss_start = [t.rss_start for t in tables]
    return {
        "tables": len(tables),
        "connections": len(tables) * players,
        "games_finished": sum(t.games for t in tables),
        "tables_unfinished": [t.index for t in tables if not t.over],
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "mover_rtt_ms": ms(figures.mover_rtt),
        "host_rss_kib": {
            "start": spread(rss_start),
            "end": spread(rss_end),
            "largest_growth": max(e - s for s, e in zip(rss_start, rss_end)),
        },
    }


def spectated_table(args: argparse.Namespace, game: str, players: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        tables = open_tables(1, game, players, args.spectators, Path(tmp), args.seed, host_args(args))
        try:
            cpu_start = cpu_seconds(tables[0].host.pid)
            figures, elapsed = drive(tables, args.seconds, args.grace, args.seed)
            cpu = cpu_seconds(tables[0].host.pid) - cpu_start
        finally:
            close_tables(tables)
    moves = tables[0].moves
    return {
        "spectators": args.spectators,
        "moves": moves,
        "games_finished": tables[0].games,
        "moves_per_s": round(moves / elapsed, 1),
        "mover_rtt_ms": ms(figures.mover_rtt),
        "host_cpu_ms_per_move": round(cpu * 1000 / max(1, moves), 3),
        "spectator_lag_ms": ms(figures.spectator_lag),
        "last_spectator_lag_ms": ms(figures.last_spectator_lag),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables in part 1 (default 50)")
    parser.add_argument("--seconds", type=float, default=60.0, help="playing time of each part (default 60)")
    parser.add_argument("--grace", type=float, default=60.0, help="time to finish the last games (default 60)")
    parser.add_argument("--spectators", type=int, default=60, help="spectators in part 2 (default 60; 0 skips)")
    parser.add_argument("--game", default="matchstick:4", help="GAME:PLAYERS (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="deal and move seed (default 1)")
    parser.add_argument(
        "--no-native-lane", action="store_true", help="hosts serve every move through Python (for comparing)"
    )
    args = parser.parse_args()
    if not release_build("net_tables"):
        return 1
    game, _, players = args.game.partition(":")
    report: dict[str, Any] = {
        "bench": "net_tables",
        "game": args.game,
        "seconds": args.seconds,
        "native_lane": not args.no_native_lane,
    }
    if args.tables:
        report["many_tables"] = many_tables(args, game, int(players))
    if args.spectators:
        report["spectated_table"] = spectated_table(args, game, int(players))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
