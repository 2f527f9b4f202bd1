"""The floor under a host's CPU per move: the same socket work with no game and no protocol, per event loop.

    python bench/host_floor.py [--moves N] [--clients 4] [--line-bytes 700] [--rounds 3] [--client-work-us 0]
                               [--placement free|shared|split]

A stand-in host does, per "move", what ``cardnet host`` must do at the least: wait for one client's line, read it,
append a record to a journal file, and write a reply line to every client (the mover's first). Clients live in a
child process and take turns, as players of a one-seat-at-a-time game do: the next one sends when every client
has the previous reply. The stand-in host runs that loop three ways:

  - ``blocking``: it knows who moves next and blocks in ``read`` on that socket (no readiness wait at all);
  - ``epoll``:    one ``select.epoll`` over every client socket (the cheapest event loop Python has);
  - ``trio``:     one task per client in ``trio.lowlevel.wait_readable`` (how ``cardnet host`` waits).

Two knobs show what the clients cost the host on loopback, where its socket writes run their receive path:
``--client-work-us`` has each client spend that long on every reply line it reads, as a client that parses JSON
does, and ``--placement`` pins the host and the clients to one CPU (``shared``), to two (``split``), or leaves
them to the scheduler (``free``, the default).

Prints JSON: user and system CPU microseconds per move of the stand-in host for each loop (best of
``--rounds``, the loops taking turns), so ``trio`` minus ``epoll`` is what the event loop itself costs a move
and ``epoll`` is what the kernel and a minimal loop cost. Compare with ``bench/host_profile.py --no-profile``
(the real host, same machine, same window).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import select
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import trio
from placement import PLACEMENTS, placement_cpus


@dataclass(frozen=True)
class Setup:
    """One measurement's table: how many clients, their lines, their work per line and where everyone runs."""

    clients: int
    moves: int
    line_bytes: int
    client_work_us: float
    host_cpus: set[int] | None
    client_cpus: set[int] | None


def _busy(seconds: float) -> None:
    """Spends ``seconds`` of CPU in this thread."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        pass


def _clients(port: int, setup: Setup, ready: Connection) -> None:
    """The child: ``clients`` sockets take turns sending a line; each turn ends when every socket has a reply."""
    if setup.client_cpus is not None:
        os.sched_setaffinity(0, setup.client_cpus)
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(setup.clients)]
    for sock in socks:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    ready.send("connected")
    line = b"m" * (setup.line_bytes - 1) + b"\n"
    work = setup.client_work_us * 1e-6
    for move in range(setup.moves):
        socks[move % setup.clients].sendall(line)
        for sock in socks:
            got = b""
            while not got.endswith(b"\n"):
                got += sock.recv(1 << 16)
            if work:
                _busy(work)
    for sock in socks:
        sock.close()


def _cpu() -> tuple[float, float]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


class StandIn:
    """The stand-in host's per-move work over its accepted sockets and a journal file."""

    def __init__(self, socks: list[socket.socket], journal_fd: int, line_bytes: int) -> None:
        self.fds = [sock.fileno() for sock in socks]
        self.journal_fd = journal_fd
        self.reply = b"r" * (line_bytes - 1) + b"\n"
        self.record = b"j" * 80

    def move(self, fd: int) -> bool:
        """Read the mover's line, journal it, reply to every client (the mover first); False at end of stream."""
        if not os.read(fd, 1 << 16):
            return False
        os.write(self.journal_fd, self.record)
        os.write(fd, self.reply)
        for other in self.fds:
            if other != fd:
                os.write(other, self.reply)
        return True


def _blocking(host: StandIn, moves: int) -> None:
    for move in range(moves):
        host.move(host.fds[move % len(host.fds)])


def _epoll(host: StandIn, moves: int) -> None:
    poller = select.epoll()
    for fd in host.fds:
        poller.register(fd, select.EPOLLIN)
    done = 0
    while done < moves:
        for fd, _ in poller.poll():
            if host.move(fd):
                done += 1
    poller.close()


def _trio(host: StandIn, moves: int) -> None:
    async def reader(fd: int, counter: list[int], all_done: trio.Event) -> None:
        while counter[0] < moves:
            await trio.lowlevel.wait_readable(fd)
            if host.move(fd):
                counter[0] += 1
        all_done.set()

    async def main() -> None:
        counter = [0]
        all_done = trio.Event()
        async with trio.open_nursery() as nursery:
            for fd in host.fds:
                nursery.start_soon(reader, fd, counter, all_done)
            await all_done.wait()
            nursery.cancel_scope.cancel()

    trio.run(main)


LOOPS: dict[str, Callable[[StandIn, int], None]] = {"blocking": _blocking, "epoll": _epoll, "trio": _trio}


def run_loop(name: str, setup: Setup) -> dict[str, float]:
    """One round of one loop: CPU microseconds per move of this process, user and system."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    parent, child = multiprocessing.Pipe()
    proc = multiprocessing.Process(target=_clients, args=(port, setup, child))
    proc.start()
    socks = []
    for _ in range(setup.clients):
        sock, _ = listener.accept()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        socks.append(sock)
    listener.close()
    # Accept order is connect order: socket i is client i, whose turn is every clients-th move.
    parent.recv()
    with tempfile.TemporaryFile() as journal:
        host = StandIn(socks, journal.fileno(), setup.line_bytes)
        user0, sys0 = _cpu()
        LOOPS[name](host, setup.moves)
        user1, sys1 = _cpu()
    proc.join(timeout=60)
    for sock in socks:
        sock.close()
    scale = 1e6 / setup.moves
    return {"user_us": (user1 - user0) * scale, "system_us": (sys1 - sys0) * scale}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20_000, help="moves per round (default %(default)s)")
    parser.add_argument("--clients", type=int, default=4, help="clients at the table (default %(default)s)")
    parser.add_argument("--line-bytes", type=int, default=700, help="reply line size (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per loop, best counts (default %(default)s)")
    parser.add_argument(
        "--client-work-us", type=float, default=0.0, help="CPU each client spends on a reply line (default 0)"
    )
    parser.add_argument("--placement", choices=PLACEMENTS, default="free", help="host and clients on CPUs")
    args = parser.parse_args()
    host_cpus, client_cpus = placement_cpus(args.placement)
    setup = Setup(args.clients, args.moves, args.line_bytes, args.client_work_us, host_cpus, client_cpus)
    if host_cpus is not None:
        os.sched_setaffinity(0, host_cpus)
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.rounds):
        for name in LOOPS:
            figures = run_loop(name, setup)
            total = figures["user_us"] + figures["system_us"]
            if name not in best or total < best[name]["user_us"] + best[name]["system_us"]:
                best[name] = figures
    result: dict[str, Any] = {
        "bench": "host_floor",
        "clients": args.clients,
        "line_bytes": args.line_bytes,
        "moves_per_round": args.moves,
        "client_work_us": args.client_work_us,
        "placement": args.placement,
        "cpu_us_per_move": {
            name: {
                "user": round(f["user_us"], 1),
                "system": round(f["system_us"], 1),
                "total": round(f["user_us"] + f["system_us"], 1),
            }
            for name, f in best.items()
        },  # fmt: skip
    }
    loops = result["cpu_us_per_move"]
    result["event_loop_cost_us"] = {"trio_minus_epoll": round(loops["trio"]["total"] - loops["epoll"]["total"], 1)}
    print(json.dumps(result, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
