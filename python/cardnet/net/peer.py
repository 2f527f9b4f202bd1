"""The peer's trio layer: a :class:`~cardnet.protocol.peer.PeerSession` over TCP (or any stream), reconnecting.

A :class:`Peer` connects, lets its session perform the handshake, delivers the session's events on a channel,
sends what the session asks (pongs, snapshot and page requests), and reconnects with exponential backoff and
its seat token when the connection drops, or, with ``wait_for_restart=False``, stops at once when the host closes
the table on purpose (``shutting_down``, or hanging up once the game is over) rather than losing it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import trio

from ..protocol import (
    HOST_CAPABILITIES,
    MAX_HOST_LINE,
    Bye,
    Chat,
    ChatMessage,
    ClientMessage,
    HostError,
    JSONValue,
    ProtocolError,
    Rematch,
    RematchVotes,
    SeatsChanged,
    SnapshotRequest,
    StateMessage,
    TableInfo,
    check_chat_text,
)
from ..protocol.peer import (
    CLIENT_NAME,
    PERMANENT_REFUSALS,
    ConnectionLost,
    PeerError,
    PeerEvent,
    PeerSession,
    PeerState,
    Reconnected,
    Reconnecting,
    Step,
)
from .lines import LineReader
from .seats import SeatStore

__all__ = [
    "CLIENT_NAME",
    "PERMANENT_REFUSALS",
    "ChatMessage",
    "ConnectionLost",
    "HostError",
    "Peer",
    "PeerError",
    "PeerEvent",
    "PeerState",
    "Reconnected",
    "Reconnecting",
    "RematchVotes",
    "SeatsChanged",
    "StateMessage",
    "open_peer",
]

#: What ends one connection (the peer then reconnects, unless told not to).
_LOST = (OSError, EOFError, trio.BrokenResourceError, trio.ClosedResourceError, trio.TooSlowError, ProtocolError)


class Peer:
    """One connection to a host, reconnecting as needed. Use :func:`open_peer` to run it.

    ``connect``, when given, opens each connection instead of TCP to ``host:port`` (local play passes the
    in-process host's :meth:`~cardnet.net.host.Host.open_local_stream`). ``wait_for_restart`` keeps reconnecting
    after the host closed the table on purpose, so a host restarted with ``--resume`` takes the peer back; a
    person's client (``cardnet join``) turns it off and ends there.
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
        capabilities: tuple[str, ...] = HOST_CAPABILITIES,
        reconnect: bool = True,
        max_backoff: float = 5.0,
        give_up_after: float = 120.0,
        connect_timeout: float = 10.0,
        idle_timeout: float | None = None,
        connect: Callable[[], Awaitable[trio.abc.Stream]] | None = None,
        wait_for_restart: bool = True,
        seats: SeatStore | None = None,
        locate: Callable[[str], Awaitable[tuple[str, int] | None]] | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.seats = seats
        # How to open a connection: TCP to host:port unless given (local play connects over memory streams).
        self._open = connect or self._open_tcp
        self.session = PeerSession(
            name=name,
            spectate=spectate,
            seat=seat,
            token=token,
            password=password,
            capabilities=capabilities,
            max_backoff=max_backoff,
            give_up_after=give_up_after,
            token_for=self._kept_token if seats is not None and token is None else None,
        )
        self.name, self.spectate = name, spectate
        self.locate = locate
        self.reconnect = reconnect
        self.wait_for_restart = wait_for_restart
        self.connect_timeout = connect_timeout
        self.idle_timeout = idle_timeout
        self._send_events, self.events = trio.open_memory_channel[PeerEvent](1024)
        self._stream: trio.abc.Stream | None = None
        self._send_lock = trio.Lock()
        self._connected = trio.Event()
        self._closed = False
        self._finished = False
        #: Why :meth:`run` ended with an error (set before the event stream closes), else None.
        self.failure: PeerError | None = None

    @property
    def state(self) -> PeerState:
        """What the peer mirrors of the table (seat, token, last state, counters)."""
        return self.session.state

    @property
    def _table_closed(self) -> bool:
        """Whether the host closed the table on purpose and the peer stops there."""
        return self.session.closed_by_host and not self.wait_for_restart

    # -- sending ----------------------------------------------------------------------------------------------

    async def _send(self, message: ClientMessage) -> None:
        await self._send_line(self.session.encode(message))

    async def _send_line(self, data: bytes) -> None:
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

    async def move(self, decision_id: int, move: JSONValue | None = None, *, index: int | None = None) -> int:
        """Answer ``decision_id`` with a move object or an index into its legal list; returns the ref used."""
        ref, data = self.session.move(decision_id, move, index)
        await self._send_line(data)
        return ref

    async def chat(self, text: str) -> None:
        """Send a chat line."""
        await self._send(Chat(check_chat_text(text)))

    async def rematch(self) -> None:
        """Vote for another game with the same seats."""
        await self._send(Rematch())

    async def request_snapshot(self) -> None:
        """Ask the host for a full snapshot."""
        await self._send(SnapshotRequest())

    async def bye(self) -> None:
        """Leave on purpose; the host hands the seat to a built-in player at once."""
        self._closed = True
        await self._send(Bye())
        if self._stream is not None:
            await self._stream.aclose()

    # -- receiving --------------------------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Connect (and reconnect) until closed; ``started()`` once the first handshake succeeded."""
        started = False
        try:
            while not self._closed:
                try:
                    stream, reader = await self._connect()
                except (*_LOST, ValueError, PeerError) as exc:
                    if started and self._table_closed:
                        # A reconnect found the host stopping on purpose: the table is closed, not lost.
                        return
                    if isinstance(exc, PeerError) and exc.code in PERMANENT_REFUSALS:
                        raise
                    if not (self.reconnect and started):
                        raise PeerError("connect_failed", str(exc)) from exc
                    attempt = self.session.reconnect_delay(trio.current_time(), exc)
                    await self._send_events.send(attempt)
                    if await self._relocated():
                        continue
                    await trio.sleep(attempt.delay)
                    continue
                back = self.session.connected()
                self._keep_token()
                if not started:
                    started = True
                    task_status.started()
                elif back is not None:
                    await self._send_events.send(back)
                try:
                    await self._read_loop(reader)
                finally:
                    lost = self.session.connection_lost()
                    self._connected = trio.Event()
                    self._stream = None
                    with trio.CancelScope(shield=True):
                        await trio.aclose_forcefully(stream)
                if not self.reconnect or self._table_closed:
                    return
                if not self._closed:
                    await self._send_events.send(lost)
        except PeerError as exc:
            self.failure = exc
            raise
        finally:
            self._finished = True
            self._stream = None
            self._connected.set()
            await self._send_events.aclose()

    def _kept_token(self, table: TableInfo) -> str | None:
        """The kept token for ``table``, unless its seat is held by a connection now (another client of this
        user, a second player on this machine: taking the seat would throw them out)."""
        assert self.seats is not None
        token, seat = self.seats.token(table.table_id), self.seats.seat(table.table_id)
        if token is None or seat is None or not 0 <= seat < len(table.seats):
            return token
        held = table.seats[seat]
        return None if isinstance(held, dict) and held.get("connected") is True else token

    def _keep_token(self) -> None:
        """Save the seat's token under the table's id, so the seat is taken back by any client later."""
        info, token = self.state.info, self.state.token
        if self.seats is not None and info is not None and token is not None and not self.spectate:
            self.seats.remember(
                info.table_id, token, seat=self.state.seat, name=info.name, address=f"{self.host}:{self.port}"
            )

    def forget_seat(self) -> None:
        """Drop the kept token (the seat was left on purpose)."""
        if self.seats is not None and self.state.info is not None:
            self.seats.forget(self.state.info.table_id)

    async def _relocated(self) -> bool:
        """Look the table up again by its id (``locate``, over mDNS); True when it answers somewhere else now
        (restarted on another port, or its host's address changed), and the peer is pointed there."""
        if self.locate is None or self.state.info is None:
            return False
        found = await self.locate(self.state.info.table_id)
        if found is None or found == (self.host, self.port):
            return False
        self.host, self.port = found
        return True

    async def _open_tcp(self) -> trio.abc.Stream:
        return await trio.open_tcp_stream(self.host, self.port)

    async def _connect(self) -> tuple[trio.abc.Stream, LineReader]:
        """Open a connection and run the handshake.

        A host that accepts the connection but does not finish the handshake within ``connect_timeout``, or within
        its own heartbeat window once it has told us that (a hung host's kernel still accepts connections), is
        not answering: TimeoutError.
        """
        limit = min(self.connect_timeout, self.session.idle_timeout(self.idle_timeout))
        try:
            return await self._handshake(limit)
        except trio.TooSlowError:
            raise TimeoutError(f"the host did not answer within {limit:g} s") from None

    async def _handshake(self, limit: float) -> tuple[trio.abc.Stream, LineReader]:
        with trio.fail_after(limit):
            stream = await self._open()
            reader = LineReader(stream, MAX_HOST_LINE)
            self.session.connection_made()
            try:
                while self.session.phase != "open":
                    line = await reader.read_line()
                    if line is None:
                        raise EOFError("host closed the connection")
                    for data in self.session.receive_line(line).send:
                        await stream.send_all(data)
            except BaseException:
                self.session.connection_lost()
                await trio.aclose_forcefully(stream)
                raise
        self._stream = stream
        self._connected.set()
        return stream, reader

    async def _read_loop(self, reader: LineReader) -> None:
        idle = self.session.idle_timeout(self.idle_timeout)
        while True:
            try:
                with trio.fail_after(idle):
                    line = await reader.read_line()
                if line is None:
                    self.session.host_hung_up()
                    return
                step = self.session.receive_line(line)
            except trio.TooSlowError:
                self.session.host_silent(idle)
                return
            except _LOST:
                return
            except PeerError:
                self._closed = True
                raise
            await self._carry_out(step)
            if step.lost:
                return

    async def _carry_out(self, step: Step) -> None:
        for data in step.send:
            await self._send_line(data)
        for event in step.events:
            await self._send_events.send(event)


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
