"""Helpers for the network tests: a host in a nursery and a bare line client for hostile input."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import trio

import cardnet
from cardnet import protocol as P
from cardnet.net.host import Host, HostOptions
from cardnet.journal import Journal
from cardnet.net.peer import Peer
from cardnet.protocol import StateMessage, state_hash_of
from cardnet.table import Engine, Table, TableConfig


@asynccontextmanager
async def running_host(
    engine: Engine,
    *,
    game: str = "callpick",
    players: int = 2,
    seed: int = 1,
    bots: dict[int, str] | None = None,
    options: dict[str, Any] | None = None,
    host_options: HostOptions | None = None,
    journal: Journal | None = None,
    table: Table | None = None,
    turn_timer: float | None = None,
    web: bool = False,
) -> AsyncIterator[Host]:
    """A host serving a fresh table on 127.0.0.1 (an ephemeral port) for the duration of the block; with ``web``,
    its web seat too (on ``host.session.web_port``)."""
    if table is None:
        config = TableConfig(
            game=game,
            players=players,
            seed=seed,
            seeded=True,
            options=dict(options or {}),
            table_id="t" + str(seed),
            bots=dict(bots or {}),
            turn_timer=turn_timer,
        )
        table = Table(config, engine, clock=trio.current_time)
    host = Host(table, journal=journal, options=host_options or HostOptions())
    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve, "127.0.0.1", 0)
        if web:
            from cardnet.web.server import WebSeat

            await nursery.start(WebSeat(host).serve, "127.0.0.1", 0)
        yield host
        nursery.cancel_scope.cancel()


def strict_loads(line: bytes) -> dict[str, Any]:
    """Decode a line from the host as a strict client would: pure ASCII (PROTOCOL.md section 1), and JSON that
    serde_json accepts (the core's ``json_loads``), which refuses, for one, an escaped lone surrogate."""
    value = cardnet.json_loads(line.decode("ascii"))
    assert isinstance(value, dict)
    return value


class MoveSender(Protocol):
    """Any test client that sends the host one message (TCP or WebSocket)."""

    async def send(self, message: dict[str, Any]) -> None: ...


class RawClient:
    """A bare TCP line client: sends whatever bytes a test wants, reads the host's lines as dicts (strictly)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buf = bytearray()

    @classmethod
    async def connect(cls, port: int) -> RawClient:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        await self.stream.send_all(data)

    async def recv(self, timeout: float = 5.0) -> dict[str, Any] | None:
        """The next line as a dict, or None at end of stream."""
        with trio.fail_after(timeout):
            while b"\n" not in self.buf:
                try:
                    chunk = await self.stream.receive_some(1 << 16)
                except trio.BrokenResourceError:
                    return None
                if not chunk:
                    return None
                self.buf += chunk
        line, _, rest = bytes(self.buf).partition(b"\n")
        self.buf = bytearray(rest)
        return strict_loads(line)

    async def recv_type(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """Skip lines until one of the given type (pings, seats and chat are skipped)."""
        with trio.fail_after(timeout):
            while True:
                msg = await self.recv(timeout)
                assert msg is not None, f"connection closed while waiting for {kind}"
                if msg["type"] == kind:
                    return msg

    async def recv_type_in(self, kinds: tuple[str, ...], timeout: float = 5.0) -> dict[str, Any]:
        """Skip lines until one whose type is any of ``kinds``."""
        with trio.fail_after(timeout):
            while True:
                msg = await self.recv(timeout)
                assert msg is not None, f"connection closed while waiting for {kinds}"
                if msg["type"] in kinds:
                    return msg

    async def closed(self, timeout: float = 5.0) -> bool:
        """Read until the host closes the connection; True if it did within the timeout."""
        with trio.move_on_after(timeout):
            while await self.recv(timeout) is not None:
                pass
            return True
        return False

    async def join(self, name: str = "raw", **fields: Any) -> dict[str, Any]:
        """Read the table message, send a hello, return the welcome (or error)."""
        table = await self.recv()
        assert table is not None and table["type"] == "table"
        hello = {"type": "hello", "protocol": P.PROTOCOL_VERSION, "name": name, "capabilities": ["chat"], **fields}
        await self.send(hello)
        reply = await self.recv()
        assert reply is not None
        return reply

    async def aclose(self) -> None:
        await self.stream.aclose()


async def play_first_moves(table: Table, clients: Sequence[MoveSender], timeout: float = 10.0) -> None:
    """Each seat's client answers that seat's decisions with the first legal move until the game is over; the
    host has applied each move before the next is sent (bounded by ``timeout``)."""
    with trio.fail_after(timeout):
        while not table.game.is_over():
            seat = min(table.decisions)
            before = table.state_id
            await clients[seat].send({"type": "move", "decision_id": table.decisions[seat].id, "index": 0})
            while table.state_id == before:
                await trio.sleep(0.001)


ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent

#: Runs one of cardnet's network subcommands in a child process without depending on the CLI module.
NET_COMMAND = (
    "import argparse, sys\n"
    "from cardnet.commands import net\n"
    "parser = argparse.ArgumentParser(prog='cardnet')\n"
    "net.add_parsers(parser.add_subparsers(dest='command', required=True))\n"
    "args = parser.parse_args(sys.argv[1:])\n"
    "sys.exit(args.func(args))\n"
)


def child_env() -> dict[str, str]:
    """Environment for child processes: they import the very cardnet this test process imported.

    That is the installed package in CI (whose source tree has no built extension) and the editable
    checkout on a developer's machine.
    """
    import os

    import cardnet

    package_parent = str(__import__("pathlib").Path(cardnet.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([package_parent, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["CARDNET_TEST"] = "1"
    return env


def bot_command(kind: str, port: int, games: int = 1, name: str | None = None) -> list[str]:
    """The argv of an example bot (``sdk``, ``raw`` or ``node``) playing at 127.0.0.1:port."""
    import sys

    target = f"127.0.0.1:{port}"
    label = name or f"{kind}bot"
    if kind == "sdk":
        return [
            sys.executable,
            "-c",
            NET_COMMAND,
            "bot",
            str(ROOT / "examples" / "sdk_bot.py"),
            target,
            "--games",
            str(games),
            "--name",
            label,
            "--json",
        ]
    if kind == "raw":
        return [
            sys.executable,
            str(ROOT / "examples" / "raw_socket_bot.py"),
            target,
            "--games",
            str(games),
            "--name",
            label,
        ]
    if kind == "node":
        return ["node", str(ROOT / "examples" / "node_bot.js"), target, "--games", str(games), "--name", label]
    raise ValueError(kind)


def free_port() -> int:
    """A loopback TCP port that was free a moment ago (for child processes that need a fixed --port)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def watch(
    port: int, seen: list[StateMessage], task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
) -> None:
    """A spectator that follows the table until the game is over, checking every public hash."""
    peer = Peer("127.0.0.1", port, name="watcher", spectate=True)
    async with trio.open_nursery() as nursery:
        await nursery.start(peer.run)
        task_status.started()
        async for event in peer.events:
            if isinstance(event, StateMessage):
                assert event.view["private"] is None
                assert state_hash_of(event.view["public"]) == event.hash
                seen.append(event)
                if event.over:
                    break
        nursery.cancel_scope.cancel()
    assert peer.state.hash_mismatches == 0


class HungHost:
    """A relay in front of a host on loopback that can hang the way a stopped host process does (SIGSTOP): while
    frozen it forwards nothing in either direction, closes nothing, and still accepts new connections without a
    word; thawed, everything held is delivered in order, as by a host that resumes (SIGCONT)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._flowing = trio.Event()
        self._flowing.set()

    def freeze(self) -> None:
        """Stop relaying (the connections stay open)."""
        if self._flowing.is_set():
            self._flowing = trio.Event()

    def thaw(self) -> None:
        """Relay again, starting with what was held."""
        self._flowing.set()

    async def serve(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        """Accept on an ephemeral loopback port (``started()`` with it) until cancelled."""
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started(self.port)
        await trio.serve_listeners(self._relay, listeners)

    async def _relay(self, peer: trio.SocketStream) -> None:
        async with peer, await trio.open_tcp_stream("127.0.0.1", self.target_port) as host:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._pump, peer, host, nursery.cancel_scope)
                nursery.start_soon(self._pump, host, peer, nursery.cancel_scope)

    async def _pump(self, source: trio.SocketStream, sink: trio.SocketStream, done: trio.CancelScope) -> None:
        try:
            while True:
                data = await source.receive_some(1 << 16)
                # A hung host neither hears nor notices anything, a closed connection included, until it resumes.
                await self._flowing.wait()
                if not data:
                    break
                await sink.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        done.cancel()
