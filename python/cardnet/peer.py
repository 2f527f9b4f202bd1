"""The peer: a client session with a cardnet host over TCP (trio).

A :class:`Peer` connects, performs the handshake, keeps a mirrored copy of its seat's view (checking the public
hash of every state it receives), asks for a snapshot when it sees a gap or a hash mismatch, answers keepalive
pings, and reconnects with exponential backoff and its seat token when the connection drops. It never applies
a move locally: the host's next update is the only truth.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Union

import trio

from . import protocol as P
from .protocol import JSONValue, ProtocolError, StateMessage

CLIENT_NAME = "cardnet-peer/1"


#: Refusals that reconnecting cannot fix; any other refusal (e.g. ``shutting_down``) is retried with backoff.
PERMANENT_REFUSALS = frozenset({"auth_failed", "bad_token", "no_seat", "table_full", "unsupported_version", "replaced"})


class PeerError(Exception):
    """The host refused us for good (bad token, wrong password, table full, ...)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


@dataclass
class ChatMessage:
    """A chat line relayed by the host."""

    seat: int | None
    name: str
    spectator: bool
    text: str


@dataclass
class HostError:
    """A non-fatal error the host reported about something we sent."""

    code: str
    reason: str
    state_id: int
    decision_id: int | None
    ref: JSONValue = None
    detail: JSONValue = None


@dataclass
class SeatsChanged:
    """The seat list changed (someone joined, left, or is being played by a built-in player)."""

    seats: list[JSONValue]
    started: bool


@dataclass
class RematchVotes:
    """Who has asked for a rematch so far."""

    game_no: int
    votes: list[int]


@dataclass
class ConnectionLost:
    """The connection to the host dropped; the peer reconnects (when ``reconnect`` is on) with its token."""

    reason: str


@dataclass
class Reconnecting:
    """A reconnect attempt failed; the next one follows after ``delay`` seconds (exponential backoff)."""

    attempt: int
    delay: float
    reason: str


@dataclass
class Reconnected:
    """The connection is back (same seat, through the token); a snapshot follows."""

    attempts: int


PeerEvent = Union[
    StateMessage, ChatMessage, HostError, SeatsChanged, RematchVotes, ConnectionLost, Reconnecting, Reconnected
]


@dataclass
class PeerState:
    """What the peer mirrors of the table."""

    table: dict[str, JSONValue] = field(default_factory=dict)
    welcome: dict[str, JSONValue] = field(default_factory=dict)
    seat: int | None = None
    token: str | None = None
    capabilities: frozenset[str] = frozenset()
    last: StateMessage | None = None
    connects: int = 0
    hash_mismatches: int = 0
    gaps: int = 0


class Peer:
    """One connection to a host, reconnecting as needed. Use :func:`open_peer` to run it.

    ``connect``, when given, opens each connection instead of TCP to ``host:port`` (local play passes the
    in-process host's :meth:`~cardnet.host.Host.open_local_stream`).
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: str,
        spectate: bool = False,
        seat: int | None = None,
        token: str | None = None,
        password: str | None = None,
        capabilities: tuple[str, ...] = ("chat", "index_moves", "rematch", "spectate", "turn_timer"),
        reconnect: bool = True,
        max_backoff: float = 5.0,
        give_up_after: float = 120.0,
        connect_timeout: float = 10.0,
        idle_timeout: float | None = None,
        connect: Callable[[], Awaitable[trio.abc.Stream]] | None = None,
    ) -> None:
        self.host, self.port = host, port
        # How to open a connection: TCP to host:port unless given (local play connects over memory streams).
        self._open = connect or self._open_tcp
        self.name, self.spectate, self.wanted_seat = name, spectate, seat
        self.password = password
        self.capabilities = capabilities
        self.reconnect = reconnect
        self.max_backoff, self.give_up_after, self.connect_timeout = max_backoff, give_up_after, connect_timeout
        self.idle_timeout = idle_timeout
        self.state = PeerState(token=token)
        self._send_events, self.events = trio.open_memory_channel[PeerEvent](1024)
        self._stream: trio.abc.Stream | None = None
        self._reader: _Lines | None = None
        self._paging: StateMessage | None = None
        self._paged: tuple[int, list[JSONValue]] | None = None
        self._send_lock = trio.Lock()
        self._connected = trio.Event()
        self._closed = False
        self._finished = False
        self._ref = 0
        self._lost_reason = "the host closed the connection"
        #: Why :meth:`run` ended with an error (set before the event stream closes), else None.
        self.failure: PeerError | None = None

    # -- sending ----------------------------------------------------------------------------------------------

    async def _send(self, message: P.ClientMessage) -> None:
        data = P.encode(P.client_message_dict(message), P.MAX_PEER_LINE)
        while True:
            await self._connected.wait()
            stream = self._stream
            if stream is None:
                if self._finished:
                    # The session ended for good: waiting for a connection that never comes would hang the caller.
                    raise PeerError("closed", "the session with the host has ended")
                continue
            try:
                async with self._send_lock:
                    await stream.send_all(data)
                return
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                if not self.reconnect:
                    raise
                # The reader notices the drop and reconnects; a move is not resent (it may be stale by then).
                return

    def _next_ref(self) -> int:
        self._ref += 1
        return self._ref

    async def move(self, decision_id: int, move: JSONValue | None = None, *, index: int | None = None) -> int:
        """Answer ``decision_id`` with a move object or an index into its legal list; returns the ref used."""
        if (move is None) == (index is None):
            raise ValueError("give exactly one of move and index")
        if move is not None and not isinstance(move, dict):
            raise ValueError("a move is a JSON object")
        ref = self._next_ref()
        await self._send(P.Move(decision_id, move, index, ref))
        return ref

    async def chat(self, text: str) -> None:
        """Send a chat line."""
        await self._send(P.Chat(P.check_chat_text(text)))

    async def rematch(self) -> None:
        """Vote for another game with the same seats."""
        await self._send(P.Rematch())

    async def request_snapshot(self) -> None:
        """Ask the host for a full snapshot."""
        await self._send(P.SnapshotRequest())

    async def bye(self) -> None:
        """Leave on purpose; the host hands the seat to a built-in player at once."""
        self._closed = True
        await self._send(P.Bye())
        if self._stream is not None:
            await self._stream.aclose()

    # -- receiving --------------------------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Connect (and reconnect) until closed; ``started()`` once the first handshake succeeded."""
        backoff = 0.1
        started = False
        lost_at: float | None = None
        attempts = 0
        try:
            while not self._closed:
                try:
                    stream = await self._connect()
                except (
                    OSError,
                    EOFError,
                    ValueError,
                    trio.BrokenResourceError,
                    trio.TooSlowError,
                    ProtocolError,
                    PeerError,
                ) as exc:
                    if isinstance(exc, PeerError) and exc.code in PERMANENT_REFUSALS:
                        raise
                    if not (self.reconnect and started):
                        raise PeerError("connect_failed", str(exc)) from exc
                    now = trio.current_time()
                    lost_at = lost_at if lost_at is not None else now
                    if now - lost_at > self.give_up_after:
                        raise PeerError("connect_failed", f"gave up reconnecting: {exc}") from exc
                    attempts += 1
                    delay = backoff * (0.5 + random.random())
                    await self._emit(Reconnecting(attempts, delay, str(exc)))
                    await trio.sleep(delay)
                    backoff = min(self.max_backoff, backoff * 2)
                    continue
                backoff, lost_at = 0.1, None
                if not started:
                    started = True
                    task_status.started()
                else:
                    await self._emit(Reconnected(attempts))
                attempts = 0
                try:
                    await self._read_loop(stream)
                finally:
                    self._connected = trio.Event()
                    self._stream = None
                    with trio.CancelScope(shield=True):
                        await trio.aclose_forcefully(stream)
                if not self.reconnect:
                    return
                if not self._closed:
                    await self._emit(ConnectionLost(self._lost_reason))
        except PeerError as exc:
            self.failure = exc
            raise
        finally:
            self._finished = True
            self._stream = None
            self._connected.set()
            await self._send_events.aclose()

    async def _open_tcp(self) -> trio.abc.Stream:
        return await trio.open_tcp_stream(self.host, self.port)

    async def _connect(self) -> trio.abc.Stream:
        with trio.fail_after(self.connect_timeout):
            stream = await self._open()
            reader = _Lines(stream)
            try:
                table = await reader.next()
                if table.get("type") != "table":
                    raise ProtocolError("bad_message", "expected the table message")
                self.state.table = table
                token = self.state.token if not self.spectate else None
                auth: str | None = None
                if table.get("password"):
                    if self.password is None:
                        raise PeerError("auth_failed", "this table needs a password")
                    auth = P.auth_mac(self.password, str(table["table_id"]), str(table["challenge"]))
                hello = P.Hello(
                    protocol=P.PROTOCOL_VERSION,
                    name=self.name,
                    role="spectator" if self.spectate else "player",
                    capabilities=tuple(self.capabilities),
                    seat=self.wanted_seat if token is None else None,
                    token=token,
                    auth=auth,
                    client=CLIENT_NAME,
                )
                await stream.send_all(P.encode(P.client_message_dict(hello), P.MAX_PEER_LINE))
                welcome = await reader.next()
                if welcome.get("type") == "error":
                    raise PeerError(str(welcome.get("code")), str(welcome.get("reason")))
                if welcome.get("type") != "welcome":
                    raise ProtocolError("bad_message", "expected a welcome")
            except BaseException:
                await trio.aclose_forcefully(stream)
                raise
        self.state.welcome = welcome
        seat = welcome.get("seat")
        self.state.seat = seat if isinstance(seat, int) else None
        token = welcome.get("token")
        if isinstance(token, str):
            self.state.token = token
        caps = welcome.get("capabilities")
        self.state.capabilities = (
            frozenset(c for c in caps if isinstance(c, str)) if isinstance(caps, list) else frozenset()
        )
        self.state.connects += 1
        self._reader = reader
        self._stream = stream
        self._connected.set()
        return stream

    async def _read_loop(self, stream: trio.abc.Stream) -> None:
        reader = self._reader
        assert reader is not None
        # A host that pings every keepalive_ms and has sent nothing for three of them is gone.
        keepalive = self.state.welcome.get("keepalive_ms")
        idle = self.idle_timeout or (3 * keepalive / 1000 if isinstance(keepalive, int) and keepalive > 0 else 30.0)
        self._lost_reason = "the host closed the connection"
        while True:
            try:
                with trio.fail_after(idle):
                    msg = await reader.next()
            except trio.TooSlowError:
                self._lost_reason = f"no word from the host for {idle:g} s"
                return
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError, EOFError, ValueError):
                return
            kind = msg.get("type")
            if kind in ("update", "snapshot"):
                await self._on_state(P.parse_state_message(msg))
            elif kind == "legal":
                await self._on_legal_page(msg)
            elif kind == "ping":
                ping_id = msg.get("id")
                await self._send(P.Pong(ping_id if isinstance(ping_id, int) and ping_id >= 0 else 0))
            elif kind == "chat":
                await self._emit(
                    ChatMessage(
                        _opt_int(msg.get("seat")),
                        str(msg.get("name")),
                        bool(msg.get("spectator")),
                        str(msg.get("text")),
                    )
                )
            elif kind == "error":
                if msg.get("fatal"):
                    if msg.get("code") in ("replaced", "bad_token", "auth_failed"):
                        self._closed = True
                        raise PeerError(str(msg.get("code")), str(msg.get("reason")))
                    self._lost_reason = str(msg.get("reason"))
                    return
                await self._emit(
                    HostError(
                        str(msg.get("code")),
                        str(msg.get("reason")),
                        _opt_int(msg.get("state_id")) or 0,
                        _opt_int(msg.get("decision_id")),
                        msg.get("ref"),
                        msg.get("detail"),
                    )
                )
            elif kind == "seats":
                seats = msg.get("seats")
                await self._emit(SeatsChanged(seats if isinstance(seats, list) else [], bool(msg.get("started"))))
            elif kind == "rematch":
                votes = msg.get("votes")
                await self._emit(
                    RematchVotes(
                        _opt_int(msg.get("game_no")) or 0,
                        [v for v in votes if isinstance(v, int)] if isinstance(votes, list) else [],
                    )
                )

    async def _on_state(self, state: StateMessage) -> None:
        last = self.state.last
        if not state.hash_ok():
            self.state.hash_mismatches += 1
            await self.request_snapshot()
            return
        if (
            state.kind == "update"
            and last is not None
            and state.game_no == last.game_no
            and state.state_id != last.state_id + 1
        ):
            self.state.gaps += 1
            await self.request_snapshot()
        self.state.last = state
        if state.paged and self._paged is not None and self._paged[0] == state.decision_id:
            # Every state repeats the open decision; its pages were already fetched.
            state.legal = list(self._paged[1])
        elif state.paged and state.decision_id is not None and state.count > 0:
            # The list was too long to inline: fetch it page by page and deliver the state once complete.
            self._paging = state
            await self._request_page(state.decision_id, 0)
            return
        if (
            state.decision_id is not None
            or state.kind == "snapshot"
            or state.game_no != (self._paging or state).game_no
        ):
            self._paging = None
        await self._emit(state)

    async def _request_page(self, decision_id: int, offset: int) -> None:
        await self._send(P.LegalRequest(decision_id, offset))

    async def _on_legal_page(self, msg: dict[str, Any]) -> None:
        state = self._paging
        moves = msg.get("moves")
        if state is None or msg.get("decision_id") != state.decision_id or not isinstance(moves, list):
            return
        if msg.get("offset") != len(state.legal):
            return
        state.legal.extend(moves)
        if len(state.legal) >= state.count:
            self._paging = None
            if state.decision_id is not None:
                self._paged = (state.decision_id, list(state.legal))
            latest = self.state.last
            if latest is not None and latest is not state:
                # Newer states arrived meanwhile; the decision is still open if we are still to act.
                if latest.game_no != state.game_no or self.state.seat not in latest.to_act:
                    return
                state = dataclasses.replace(
                    latest,
                    decision_id=state.decision_id,
                    legal=state.legal,
                    count=state.count,
                    paged=True,
                    deadline_ms=state.deadline_ms,
                    events=[],
                    ack=None,
                )
            await self._emit(state)
        elif moves and state.decision_id is not None:
            await self._request_page(state.decision_id, len(state.legal))

    async def _emit(self, event: PeerEvent) -> None:
        await self._send_events.send(event)


def _opt_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class _Lines:
    """Reads the host's lines (up to the host-to-peer limit) and decodes them."""

    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self.stream = stream
        self.lines = P.LineBuffer(P.MAX_HOST_LINE)

    async def next(self) -> dict[str, Any]:
        """The next message as a dict (ValueError if the host sent something that is not JSON)."""
        while (line := self.lines.next_line()) is None:
            chunk = await self.stream.receive_some(1 << 16)
            if not chunk:
                raise EOFError("host closed the connection")
            self.lines.feed(chunk)
        value = json.loads(line)
        if not isinstance(value, dict):
            raise ValueError("the host sent a line that is not a JSON object")
        return value


@asynccontextmanager
async def open_peer(host: str, port: int, **kwargs: Any) -> AsyncIterator[Peer]:
    """Run a :class:`Peer` in the background for the duration of the block (connected on entry)."""
    peer = Peer(host, port, **kwargs)
    async with trio.open_nursery() as nursery:
        await nursery.start(peer.run)
        try:
            yield peer
        finally:
            peer._closed = True
            nursery.cancel_scope.cancel()
