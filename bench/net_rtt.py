"""Round trip and host CPU per move of one table on loopback, measured by raw-socket clients.

    python bench/net_rtt.py [--seconds S] [--games matchstick:4,fistful:2] [--seed N] [--lanes native,python]
                            [--encoding canonical|python] [--placement free,shared,split] [--floor]

For each game a headless ``cardnet host`` is started on 127.0.0.1 and every seat is taken by a raw client
written from docs/PROTOCOL.md alone (a socket, json, no cardnet import). All clients run in one thread on a
selector; each answers its open decision at once with a random legal index, and everyone votes for a rematch
when a game ends, until the time is up. The clients write canonical JSON, or with ``--encoding python`` what
``json.dumps`` writes by default (``"type"`` first, a space after every separator). Each table is measured
with the host as it runs by default (its native lane on) and with ``--no-native-lane`` (every move through
trio and Python), one after the other. Printed as one JSON document, per table and host:

- ``mover_rtt_ms``: from the mover's ``move`` write to the arrival of the ``update`` carrying its ``ack`` in the
  mover's socket (the kernel's receive timestamp, ``SO_TIMESTAMPNS``), p50/p99;
- ``all_seats_ms``: from the same write to the arrival of the last seat's update at or past that state
  (p50/p99);
- ``mover_rtt_seen_ms`` and ``all_seats_seen_ms``: the same, timed when the client thread has read and parsed
  the lines. One Python thread parses every seat's lines, so these include the time it spends on the other
  seats' updates of the same move: with a fast host they measure the client more than the host;
- ``host_cpu_ms_per_move``: the host process's user+system CPU over the run, divided by accepted moves;
- ``moves_per_s``: accepted moves over wall-clock seconds;
- ``lines_per_move``, ``mean_line_bytes`` and ``clients_user_us_per_line``: what the clients read a move, and the
  user CPU their one thread spent on each line (reading, parsing, answering).

With ``--floor``, each table is followed by ``bench/host_floor.py``'s stand-in host in the same placement: its
``epoll`` loop does a move's socket work (read the mover's line, append a journal record, write a line to every
client) and nothing else, for as many clients as the table's, lines of the table's mean size, and clients that
spend ``clients_user_us_per_line`` on each line. ``floor_cpu_ms_per_move`` is its CPU a move, what any host
pays on this machine in that window; ``over_floor_ms_per_move`` is the host's CPU a move above it, its own.

On loopback the host's socket writes also run its clients' receive path, and what that costs depends on where
the scheduler puts the two processes. ``--placement`` measures each table under one or more of:

- ``free``: wherever the scheduler puts them (the default; it moves them, so figures vary between runs);
- ``shared``: host and clients pinned to one CPU, the waking of a client stays on that CPU;
- ``split``: host on one CPU and clients on another, every wake-up crosses CPUs (on a virtual machine, between
  two virtual CPUs, the costly case).

Between machines on a LAN neither happens on the host: a client's receive path runs on the client's machine.

A benchmark, never a test: it prints figures and asserts nothing about them. The machines are shared, so
compare figures measured in one run.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import resource
import selectors
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from placement import PLACEMENTS, pin_process, placement_cpus

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
#: Rematch votes a seat sends at most per second (the host's flood guard refills at 50 messages a second).
VOTES_PER_S = 30.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Client:
    """One seat: a socket, its read buffer and what it has answered."""

    sock: socket.socket
    seat: int = -1
    buffer: bytearray = field(default_factory=bytearray)
    answered: set[int] = field(default_factory=set)
    last_state: int = -1
    voted_for: int = -1
    last: dict[str, Any] = field(default_factory=dict)  # the last message received, for a failure's report
    vote_at: float = 0.0  # when this seat's next rematch vote goes out (0: none due)
    voted_at: float = 0.0
    #: How this client writes its lines: "canonical" (sorted keys, no spaces) or "python" (json.dumps' defaults).
    encoding: str = "canonical"
    #: Whether the client reached the table through its web seat's WebSocket (bench/web_rtt.py) rather than TCP.
    ws: bool = False

    def vote_soon(self, now: float) -> None:
        """Schedule a rematch vote, at most VOTES_PER_S a second: a fast host finishes short Fistful matches
        quicker than the host's flood guard (50 messages a second besides accepted moves) lets a seat vote."""
        self.vote_at = max(now, self.voted_at + 1 / VOTES_PER_S)

    def vote_if_due(self, now: float) -> None:
        if self.vote_at and now >= self.vote_at:
            self.vote_at = 0.0
            self.voted_at = now
            self.send({"type": "rematch"})

    def send(self, message: dict[str, Any]) -> None:
        if self.encoding == "python":
            text = json.dumps({"type": message["type"], **message})
        else:
            text = json.dumps(message, separators=(",", ":"), sort_keys=True)
        self.sock.sendall(ws_frame(text.encode()) if self.ws else text.encode() + b"\n")

    def take_line(self) -> bytes | None:
        """The next whole line in the buffer (a WebSocket's next text message), taken out of it; None for none."""
        if self.ws:
            return take_ws_message(self.buffer)
        cut = self.buffer.find(b"\n")
        if cut < 0:
            return None
        line = bytes(self.buffer[:cut])
        del self.buffer[: cut + 1]
        return line


def ws_frame(payload: bytes) -> bytes:
    """A client's text frame (RFC 6455 § 5.2): masked with a fresh key, as a browser sends it."""
    key = os.urandom(4)
    size = len(payload)
    header = bytes((0x81, 0x80 | size)) if size < 126 else bytes((0x81, 0x80 | 126)) + size.to_bytes(2, "big")
    whole = (key * (size // 4 + 1))[:size]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(whole, "big")).to_bytes(size, "big")
    return header + key + masked


def take_ws_message(buffer: bytearray) -> bytes | None:
    """The next whole text frame of a server's (unmasked, unfragmented: PROTOCOL.md § 16) taken out of
    ``buffer``; None until one is whole. Raises RuntimeError for a close frame or anything else."""
    if len(buffer) < 2:
        return None
    opcode, size = buffer[0] & 0x0F, buffer[1] & 0x7F
    start = 2
    if size == 126:
        size, start = int.from_bytes(buffer[2:4], "big"), 4
    elif size == 127:
        size, start = int.from_bytes(buffer[2:10], "big"), 10
    if len(buffer) < start + size:
        return None
    payload = bytes(buffer[start : start + size])
    del buffer[: start + size]
    if opcode != 0x1:
        raise RuntimeError(f"the host sent a WebSocket frame of opcode {opcode}: {payload[2:]!r}")
    return payload


@dataclass
class PendingMove:
    """A move on the wire: when it left and the state it will create."""

    sent: float
    target_state: int
    acked: bool = False


def connect(port: int, name: str, role: str = "player", encoding: str = "canonical", ws: bool = False) -> Client:
    """Opens a connection (with ``ws``, ``port`` is the web seat's and the connection its WebSocket), completes
    the handshake and returns the seated client (seat -1: a spectator)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    client = Client(sock, encoding=encoding, ws=ws)
    if ws:
        upgrade(client, port)
    read_line(client)  # the table line
    client.send(
        {"capabilities": ["index_moves", "rematch"], "name": name, "protocol": 1, "role": role, "type": "hello"}
    )
    welcome = read_line(client)
    if welcome.get("type") != "welcome":
        raise RuntimeError(f"refused: {welcome}")
    seat = welcome.get("seat")
    client.seat = -1 if seat is None else int(seat)
    sock.setblocking(False)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    return client


#: Linux's SO_TIMESTAMPNS (and SCM_TIMESTAMPNS): receive timestamps in nanoseconds, CLOCK_REALTIME.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
TIMESPEC = struct.Struct("@qq")


def receive(client: Client) -> tuple[bytes, float]:
    """What the socket holds now, and when its last bytes reached the socket (``time.time`` seconds; now when
    the kernel gives no timestamp)."""
    data, ancillary, _, _ = client.sock.recvmsg(1 << 20, socket.CMSG_SPACE(TIMESPEC.size))
    for level, kind, raw in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(raw) >= TIMESPEC.size:
            seconds, nanoseconds = TIMESPEC.unpack_from(raw)
            return data, seconds + nanoseconds * 1e-9
    return data, time.time()


def upgrade(client: Client, port: int) -> None:
    """The WebSocket's opening handshake on a blocking socket (RFC 6455 § 4.1); bytes past it stay buffered."""
    key = base64.b64encode(os.urandom(16)).decode()
    client.sock.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    while (cut := client.buffer.find(b"\r\n\r\n")) < 0:
        data = client.sock.recv(65536)
        if not data:
            raise RuntimeError("the host closed the connection during the WebSocket handshake")
        client.buffer += data
    if not client.buffer.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(f"the web seat refused the WebSocket: {bytes(client.buffer[:cut])!r}")
    del client.buffer[: cut + 4]


def read_line(client: Client) -> dict[str, Any]:
    """The next line from a blocking socket; bytes past it stay in the client's buffer."""
    while (line := client.take_line()) is None:
        data = client.sock.recv(65536)
        if not data:
            raise RuntimeError("the host closed the connection during the handshake")
        client.buffer += data
    message: dict[str, Any] = json.loads(line)
    return message


def start_host(game: str, players: int, port: int, journal: Path, seed: int, *extra: str) -> subprocess.Popen[str]:
    """Starts a headless ``cardnet host`` on 127.0.0.1:``port`` and returns once it serves."""
    env = dict(os.environ, CARDNET_TEST="1")
    host = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardnet",
            "host",
            game,
            "--headless",
            "--players",
            str(players),
            "--port",
            str(port),
            "--interface",
            "127.0.0.1",
            "--journal",
            str(journal),
            "--seed",
            str(seed),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert host.stdout is not None
    for line in host.stdout:
        if line.startswith("journal:"):
            return host
    raise RuntimeError(f"cardnet host exited with {host.wait()} before serving")


def state_of(client: Client, msg: dict[str, Any]) -> int | None:
    """The state id of an ``update`` or ``snapshot``; None for anything else (a keepalive ping is answered)."""
    kind = msg.get("type")
    if kind == "ping":
        client.send({"id": msg["id"], "type": "pong"})
    if kind not in ("update", "snapshot"):
        return None
    return int(msg["state_id"])


@contextmanager
def placed(host_pid: int, placement: str) -> Iterator[None]:
    """Runs the block with the host process and this one (the clients) placed as ``placement`` says; this
    process's own CPUs are given back afterwards."""
    mine = os.sched_getaffinity(0)
    host_cpus, client_cpus = placement_cpus(placement)
    if host_cpus is not None:
        pin_process(host_pid, host_cpus)
    if client_cpus is not None:
        os.sched_setaffinity(0, client_cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, mine)


def run_table(
    game: str, players: int, seconds: float, seed: int, encoding: str, placement: str, *extra: str
) -> dict[str, Any]:
    """Hosts one table (``extra``: more ``cardnet host`` arguments), plays it for ``seconds`` with raw clients
    writing JSON in ``encoding``, host and clients placed on CPUs as ``placement`` says, and returns its
    figures."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        host = start_host(game, players, port, Path(tmp) / "t.journal", seed, *extra)
        try:
            with placed(host.pid, placement):
                clients = [connect(port, f"rtt{i}", encoding=encoding) for i in range(players)]
                return drive(clients, host.pid, seconds, random.Random(seed))
        finally:
            stop_host(host)


def stop_host(host: subprocess.Popen[str]) -> None:
    """Stops a host :func:`start_host` started: SIGTERM (its clean stop), then SIGKILL after 10 s."""
    host.terminate()
    try:
        host.wait(timeout=10)
    except subprocess.TimeoutExpired:
        host.kill()


def drive(
    clients: list[Client], host_pid: int, seconds: float, rng: random.Random, groups: dict[str, set[int]] | None = None
) -> dict[str, Any]:
    """The selector loop: answer decisions, time acks and fan-out, vote rematches until time is up. ``groups``
    names sets of seats whose movers' round trips are also reported apart (``mover_rtt_ms_by``)."""
    selector = selectors.DefaultSelector()
    for client in clients:
        selector.register(client.sock, selectors.EVENT_READ, client)
    pending: dict[tuple[int, int], PendingMove] = {}
    by_state: dict[int, list[PendingMove]] = {}
    arrived: dict[int, float] = {}  # per seat: when its latest state reached its socket
    mover_rtt: list[float] = []
    mover_rtt_of: dict[int, list[float]] = {}
    all_seats: list[float] = []
    mover_seen: list[float] = []
    all_seen: list[float] = []
    moves = games = 0
    lines = line_bytes = 0
    cpu_start = cpu_seconds(host_pid)
    clients_start = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    start = time.perf_counter()
    deadline = start + seconds

    def handle(client: Client, msg: dict[str, Any], landed: float) -> None:
        nonlocal moves, games
        state = state_of(client, msg)
        if state is None:
            return
        seen = time.time()
        client.last_state = max(client.last_state, state)
        arrived[client.seat] = landed
        ack = msg.get("ack")
        if ack is not None:
            sent = pending.pop((client.seat, int(ack["decision_id"])), None)
            if sent is not None:
                mover_rtt.append(landed - sent.sent)
                mover_rtt_of.setdefault(client.seat, []).append(landed - sent.sent)
                mover_seen.append(seen - sent.sent)
                moves += 1
                sent.target_state = state
                by_state.setdefault(state, []).append(sent)
        for target in [s for s in by_state if s <= min(c.last_state for c in clients)]:
            last_arrival = max(arrived.values())
            for done in by_state.pop(target):
                all_seats.append(last_arrival - done.sent)
                all_seen.append(seen - done.sent)
        if msg.get("over"):
            if client.voted_for != msg["game_no"]:
                client.voted_for = msg["game_no"]
                if client.seat == 0:
                    games += 1
                client.vote_soon(time.perf_counter())
            return
        decision = msg.get("decision")
        if decision is None or decision["id"] in client.answered or time.perf_counter() > deadline:
            return
        client.answered.add(decision["id"])
        pending[(client.seat, int(decision["id"]))] = PendingMove(time.time(), -1)
        client.send({"decision_id": decision["id"], "index": rng.randrange(decision["count"]), "type": "move"})

    # Decisions that arrived with the welcome are in the buffers already.
    events: list[tuple[Client, bytes, float]] = [(c, b"", time.time()) for c in clients]
    while time.perf_counter() < deadline + 1.0 and (time.perf_counter() < deadline or pending):
        for client, data, landed in events:
            client.buffer += data
            while (line := client.take_line()) is not None:
                lines += 1
                line_bytes += len(line) + 1
                client.last = json.loads(line)
                handle(client, client.last, landed)
        events = []
        now = time.perf_counter()
        for client in clients:
            client.vote_if_due(now)
        due = [c.vote_at for c in clients if c.vote_at]
        for key, _ in selector.select(timeout=min([0.5, *(max(0.0, t - now) for t in due)])):
            client = key.data
            try:
                data, landed = receive(client)
            except BlockingIOError:
                continue
            if not data:
                last = {k: client.last.get(k) for k in ("type", "code", "reason", "state_id")}
                raise RuntimeError(f"the host closed seat {client.seat} after {last}")
            events.append((client, data, landed))
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds(host_pid) - cpu_start
    clients_cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime - clients_start
    for client in clients:
        client.sock.close()
    by_group = {
        name: quantiles_ms([rtt for seat in seats for rtt in mover_rtt_of.get(seat, [])])
        for name, seats in (groups or {}).items()
    }
    return {
        **({"mover_rtt_ms_by": by_group} if groups else {}),
        "moves": moves,
        "games_finished": games,
        "moves_per_s": round(moves / elapsed, 1),
        "mover_rtt_ms": quantiles_ms(mover_rtt),
        "all_seats_ms": quantiles_ms(all_seats),
        "mover_rtt_seen_ms": quantiles_ms(mover_seen),
        "all_seats_seen_ms": quantiles_ms(all_seen),
        "host_cpu_ms_per_move": round(cpu * 1000.0 / max(1, moves), 3),
        "lines_per_move": round(lines / max(1, moves), 2),
        "mean_line_bytes": round(line_bytes / max(1, lines)),
        "clients_user_us_per_line": round(clients_cpu * 1e6 / max(1, lines), 1),
    }


def floor_ms_per_move(players: int, table: dict[str, Any], placement: str) -> float:
    """CPU milliseconds a move of ``bench/host_floor.py``'s stand-in host (its ``epoll`` loop, which does a move's
    socket work and nothing else), measured now with the table's players as clients, lines of the table's mean
    size, each client spending on every line the user CPU this process's clients spent on one, placed alike."""
    from host_floor import Setup, run_loop

    host_cpus, client_cpus = placement_cpus(placement)
    moves = max(2_000, min(20_000, int(table["moves"])))
    setup = Setup(
        players, moves, int(table["mean_line_bytes"]), float(table["clients_user_us_per_line"]), host_cpus, client_cpus
    )
    mine = os.sched_getaffinity(0)
    if host_cpus is not None:
        os.sched_setaffinity(0, host_cpus)
    try:
        figures = run_loop("epoll", setup)
    finally:
        os.sched_setaffinity(0, mine)
    return (figures["user_us"] + figures["system_us"]) / 1000.0


def quantiles_ms(values: list[float]) -> dict[str, float]:
    """p50 and p99 of seconds, in milliseconds."""
    return {"p50": round(percentile(values, 0.5) * 1000.0, 3), "p99": round(percentile(values, 0.99) * 1000.0, 3)}


def release_build(bench: str) -> bool:
    """Whether the imported cardnet._core is a release build (says why not on stderr)."""
    import cardnet

    if cardnet.build_info().get("profile") == "release":
        return True
    print(f"{bench}: refusing to measure a debug build of cardnet._core", file=sys.stderr)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured time per table (default 10)")
    parser.add_argument("--games", default="matchstick:4,fistful:2", help="GAME:PLAYERS,... (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="deal and move seed (default 1)")
    parser.add_argument(
        "--lanes",
        default="native,python",
        help="hosts to measure, taking turns: native (the default host, its native lane on) and/or python"
        " (--no-native-lane); default %(default)s",
    )
    parser.add_argument(
        "--encoding",
        choices=("canonical", "python"),
        default="canonical",
        help="how the clients write JSON: canonical, or json.dumps' defaults (default %(default)s)",
    )
    parser.add_argument(
        "--placement",
        default="free",
        help="where host and clients run, taking turns: free, shared (one CPU) and/or split (two CPUs);"
        " default %(default)s",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="after each table, measure bench/host_floor.py's stand-in host in the same placement with clients"
        " as busy as the table's (floor_cpu_ms_per_move, over_floor_ms_per_move)",
    )
    args = parser.parse_args()
    placements = args.placement.split(",")
    if not set(placements) <= set(PLACEMENTS):
        parser.error(f"--placement takes {', '.join(PLACEMENTS)}")
    if not release_build("net_rtt"):
        return 1
    lanes = {"native": (), "python": ("--no-native-lane",)}
    figures: dict[str, Any] = {}
    for spec in args.games.split(","):
        game, _, players = spec.partition(":")
        for lane in args.lanes.split(","):
            for placement in placements:
                table = run_table(game, int(players), args.seconds, args.seed, args.encoding, placement, *lanes[lane])
                if args.floor:
                    floor = floor_ms_per_move(int(players), table, placement)
                    table["floor_cpu_ms_per_move"] = round(floor, 3)
                    table["over_floor_ms_per_move"] = round(table["host_cpu_ms_per_move"] - floor, 3)
                key = lane if placements == ["free"] else f"{lane}_{placement}"
                figures.setdefault(f"{game}_{players}p", {})[key] = table
    report = {
        "bench": "net_rtt",
        "seconds": args.seconds,
        "encoding": args.encoding,
        "placement": args.placement,
        "tables": figures,
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
