"""The host: serves one authoritative :class:`~cardnet.table.Table` over TCP with trio.

One task per connection reads and validates lines and applies moves synchronously (atomic in trio); one writer
task per connection drains a byte-bounded outbox; a committer releases acknowledgements only after the journal
write (and, with ``fsync``, after a group-committed fsync); built-in players run in worker threads on clones.
"""

from __future__ import annotations

import logging
import math
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

import trio

from . import protocol as P
from .journal import Journal
from .protocol import Encodable, ProtocolError
from .table import Table

log = logging.getLogger("cardnet.host")


@dataclass
class HostOptions:
    """Tunable limits and timeouts; the defaults are safe for a LAN party."""

    password: str | None = None
    handshake_timeout: float = 10.0
    keepalive_interval: float = 10.0
    idle_timeout: float = 30.0
    write_timeout: float = 20.0
    seat_timeout: float = 15.0
    bot_delay: float = 0.0
    outbox_bytes: int = 8 * 1024 * 1024
    outbox_messages: int = 256
    max_spectators: int = 32
    max_connections: int = 64
    msg_rate: float = 50.0
    msg_burst: float = 200.0
    chat_rate: float = 0.5
    chat_burst: float = 5.0
    max_strikes: int = 20
    ai_in_thread: bool = True
    capabilities: tuple[str, ...] = P.HOST_CAPABILITIES


class _Bucket:
    """A token bucket: ``take()`` is False once the peer exceeds its rate."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, trio.current_time()

    def refund(self) -> None:
        """Give back a token (an accepted move: play paced by the table is never a flood)."""
        self.tokens = min(self.burst, self.tokens + 1.0)

    def take(self) -> bool:
        now = trio.current_time()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


Ack = dict[str, Encodable]
#: One seat's part of a commit: (seat or None for spectators, its message or "resync"/"over", the mover's ack).
_BatchItem = tuple[int | None, bytes | str, Ack | None]


class _Closed(Exception):
    """The connection is done (already reported to the peer where possible)."""


class JournalFailure(Exception):
    """The journal could not be written: the host stops rather than acknowledge what it cannot keep."""


@dataclass
class Connection:
    """One TCP peer: its stream, role, outbox and accounting."""

    id: int
    stream: trio.abc.Stream
    seat: int | None = None
    spectator: bool = False
    name: str = ""
    capabilities: frozenset[str] = frozenset()
    # (kind, bytes, the mover's ack the message carries): a dropped state must not take an ack with it.
    outbox: deque[tuple[str, bytes, Ack | None]] = field(default_factory=deque)
    outbox_size: int = 0
    needs_snapshot: bool = False
    unsent_ack: Ack | None = None  # an ack whose update was never sent: the next snapshot carries it
    wake: trio.Event = field(default_factory=trio.Event)
    closing: str | None = None
    strikes: int = 0
    ready: bool = False
    admitted_at: int = 0  # the table's state_id at this connection's welcome
    scope: trio.CancelScope | None = None  # cancelling it ends the connection's reader and writer at once


class Host:
    """A running table: accepts peers, validates moves, runs built-in players, journals and broadcasts."""

    def __init__(
        self,
        table: Table,
        *,
        journal: Journal | None = None,
        options: HostOptions | None = None,
    ) -> None:
        self.table = table
        self.journal = journal
        self.opts = options or HostOptions()
        self.conns: dict[int, Connection] = {}
        self._next_conn = 1
        self._pending: list[list[_BatchItem]] = []
        self._commit_wake = trio.Event()
        self._committed = trio.Event()
        self._committed.set()
        self._changed = trio.Event()
        self._bot_busy: set[tuple[int, int]] = set()
        self._gone_since: dict[int, float] = {}
        self._nursery: trio.Nursery | None = None
        self.port: int | None = None
        self.finished_games = 0
        self.game_over = trio.Event()
        self.stopping = False

    # -- lifecycle --------------------------------------------------------------------------------------------

    async def serve(
        self,
        host: str | Sequence[str] = "127.0.0.1",
        port: int = 0,
        *,
        task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Listen on each address at ``port`` and run the table until cancelled; ``started()`` gives the port."""
        addresses = [host] if isinstance(host, str) else list(host)
        listeners: list[trio.SocketListener] = []
        for address in addresses:
            opened = await trio.open_tcp_listeners(port, host=address)
            listeners.extend(opened)
            # With an ephemeral port, every further interface listens on the port the first one got.
            port = int(opened[0].socket.getsockname()[1])
        self.port = port
        await self._run(listeners, lambda: task_status.started(port))

    async def serve_in_process(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run the table without listening: peers connect only through :meth:`open_local_stream` (local play)."""
        await self._run([], task_status.started)

    async def _run(self, listeners: list[trio.SocketListener], started: Callable[[], None]) -> None:
        for seat in self.table.seats:
            # Seats resumed from a journal start absent: their players have seat_timeout to come back.
            if seat.kind == "human" and not seat.connected:
                self._gone_since.setdefault(seat.index, trio.current_time())
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._committer)
            nursery.start_soon(self._scheduler)
            nursery.start_soon(self._keepalive)
            if listeners:
                await nursery.start(trio.serve_listeners, self._handle, listeners)
            self._after_change()
            started()

    async def shutdown(self, grace: float = 1.0) -> None:
        """Tell every peer the host is stopping (``shutting_down``) and give the writers ``grace`` seconds."""
        self.stopping = True
        for conn in list(self.conns.values()):
            self._error(conn, ProtocolError("shutting_down", "the host is stopping"), None)
            conn.closing = "shutting_down"
            conn.wake.set()
        with trio.move_on_after(grace):
            while self.conns:
                await trio.sleep(0.01)

    async def accept_stream(self, stream: trio.abc.Stream) -> None:
        """Serve one already-connected stream until it ends."""
        await self._handle(stream)

    def open_local_stream(self) -> trio.abc.Stream:
        """A new in-process connection to this running table: the peer's end of a memory stream pair.

        The host's end is served like any TCP connection (same handshake, limits and keepalive), in the table's
        own nursery, so stopping the table ends it too.
        """
        if self._nursery is None:
            raise RuntimeError("the table is not running")
        import trio.testing

        peer_end, host_end = trio.testing.memory_stream_pair()
        self._nursery.start_soon(self._handle, host_end)
        return peer_end

    # -- connection handling ----------------------------------------------------------------------------------

    async def _handle(self, stream: trio.abc.Stream) -> None:
        if len(self.conns) >= self.opts.max_connections:
            # Half-open or idle connections must not grow the host without bound: refuse before any state.
            refusal = P.error_message(
                "table_full", "too many connections", state_id=self.table.state_id, decision_id=None
            )
            with trio.move_on_after(1):
                await stream.send_all(P.encode(refusal))
            await trio.aclose_forcefully(stream)
            return
        conn = Connection(self._next_conn, stream)
        self._next_conn += 1
        self.conns[conn.id] = conn
        try:
            async with trio.open_nursery() as nursery:
                conn.scope = nursery.cancel_scope
                nursery.start_soon(self._writer, conn, nursery.cancel_scope)
                try:
                    await self._session(conn)
                except _Closed:
                    pass
                except JournalFailure:
                    raise
                except Exception:
                    log.exception("connection %d failed", conn.id)
                # Let the writer flush the final error, bounded by the write timeout.
                conn.closing = conn.closing or "done"
                conn.wake.set()
        finally:
            self._drop(conn)
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(stream)

    def _drop(self, conn: Connection) -> None:
        self.conns.pop(conn.id, None)
        if conn.seat is not None and conn.ready:
            seat = self.table.seats[conn.seat]
            if not any(c.seat == conn.seat and c.ready for c in self.conns.values()):
                log.info("seat %d (%s) disconnected", conn.seat, seat.name)
                seat.connected = False
                self._gone_since.setdefault(conn.seat, trio.current_time())
                self._broadcast_seats()
                record = None if self.stopping else self.table.rematch_if_agreed(self._present_humans())
                if record is not None:
                    self._commit([record], kind="snapshot")
                self._after_change()

    def _present_humans(self) -> list[int]:
        """The human seats whose players are here (their votes decide a rematch)."""
        return [s.index for s in self.table.seats if s.kind == "human" and s.connected and not s.auto]

    async def _session(self, conn: Connection) -> None:
        reader = _LineReader(conn.stream, P.MAX_PEER_LINE)
        challenge = secrets.token_hex(16)
        self._send(
            conn, "ctl", self.table.table_message(challenge, self.opts.capabilities, self.opts.password is not None)
        )
        hello: P.Hello | None = None
        with trio.move_on_after(self.opts.handshake_timeout):
            while hello is None:
                line = await self._read(conn, reader)
                if line is None:
                    return
                try:
                    msg = P.parse_client_message(P.decode_line(line))
                except ProtocolError as exc:
                    self._fail(conn, ProtocolError("handshake_required", exc.reason) if not exc.fatal else exc)
                if not isinstance(msg, P.Hello):
                    self._fail(conn, ProtocolError("handshake_required", "the first message must be a hello"))
                hello = msg
        if hello is None:
            self._fail(conn, ProtocolError("handshake_timeout", "no hello within the handshake timeout"))
        if self.stopping:
            self._fail(conn, ProtocolError("shutting_down", "the host is stopping"))
        token, started = self._admit(conn, hello, challenge)
        if token is not None and self.journal is not None and self.journal.fsync_enabled:
            # The seat's token hash must be durable before the peer is told its token.
            await trio.to_thread.run_sync(self.journal.fsync)
        self._welcome(conn, hello, token, started)
        bucket = _Bucket(self.opts.msg_rate, self.opts.msg_burst)
        chat_bucket = _Bucket(self.opts.chat_rate, self.opts.chat_burst)
        while True:
            with trio.move_on_after(self.opts.idle_timeout) as idle:
                line = await self._read(conn, reader)
            if idle.cancelled_caught:
                self._fail(conn, ProtocolError("idle_timeout", "nothing received within the idle timeout"))
            if line is None or self.stopping or not conn.ready:
                return
            if not bucket.take():
                self._fail(conn, ProtocolError("rate_limited", "too many messages"))
            ref: int | str | None = None
            try:
                msg = P.parse_client_message(P.decode_line(line))
                ref = getattr(msg, "ref", None)
                self._dispatch(conn, msg, chat_bucket)
                if isinstance(msg, P.Move):
                    bucket.refund()
            except (_Closed, JournalFailure):
                raise
            except ProtocolError as exc:
                if exc.code in ("bad_utf8", "bad_json", "bad_message", "unknown_type"):
                    conn.strikes += 1
                    if conn.strikes > self.opts.max_strikes:
                        self._fail(conn, ProtocolError("too_many_errors", "too many malformed messages"))
                self._error(conn, exc, ref)
                if exc.fatal:
                    raise _Closed from None
            except Exception as exc:
                # A bug must cost one message, not the table: the peer hears "internal" and play goes on.
                log.exception("internal error on connection %d", conn.id)
                self._error(conn, ProtocolError("internal", f"{type(exc).__name__} in the host"), ref)

    async def _read(self, conn: Connection, reader: _LineReader) -> bytes | None:
        try:
            return await reader.read_line()
        except ProtocolError as exc:
            self._fail(conn, exc)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return None

    def _fail(self, conn: Connection, exc: ProtocolError) -> NoReturn:
        self._error(conn, exc, None)
        raise _Closed

    def _error(self, conn: Connection, exc: ProtocolError, ref: int | str | None) -> None:
        decision = self.table.decision_for(conn.seat)
        self._send(
            conn,
            "ctl",
            P.error_message(
                exc.code,
                exc.reason,
                state_id=self.table.state_id,
                decision_id=None if decision is None else decision.id,
                ref=ref,
                detail=exc.detail,
            ),
        )

    def _admit(self, conn: Connection, hello: P.Hello, challenge: str) -> tuple[str | None, bool]:
        """Check the hello and give the connection its role; returns (new seat token, whether the game started)."""
        if hello.protocol not in P.SUPPORTED_VERSIONS:
            self._fail(conn, ProtocolError("unsupported_version", f"this host speaks {list(P.SUPPORTED_VERSIONS)}"))
        if self.opts.password is not None:
            if hello.auth is None or not P.check_auth(
                self.opts.password, self.table.config.table_id, challenge, hello.auth
            ):
                self._fail(conn, ProtocolError("auth_failed", "wrong or missing password proof"))
        conn.name = hello.name
        conn.capabilities = frozenset(hello.capabilities) & frozenset(self.opts.capabilities)
        token: str | None = None
        started = False
        if hello.role == "spectator":
            if sum(1 for c in self.conns.values() if c.spectator and c.ready) >= self.opts.max_spectators:
                self._fail(conn, ProtocolError("table_full", "no room for more spectators"))
            conn.spectator = True
            log.info("spectator %r joined", hello.name)
        elif hello.token is not None:
            seat = self.table.seat_for_token(hello.token)
            if seat is None:
                self._fail(conn, ProtocolError("bad_token", "this token holds no seat at this table"))
            assert seat is not None
            for other in list(self.conns.values()):
                if other is not conn and other.seat == seat.index and other.ready:
                    other.ready = False
                    self._error(other, ProtocolError("replaced", "your seat was resumed by another connection"), None)
                    other.closing = "replaced"
                    other.wake.set()
            conn.seat = seat.index
            seat.connected = True
            seat.auto = False
            log.info("seat %d (%s) resumed", seat.index, seat.name)
            self._gone_since.pop(seat.index, None)
        else:
            try:
                seat, token, record, started = self.table.claim_seat(hello.seat, hello.name)
            except ProtocolError as exc:
                self._fail(conn, exc)
            self._journal(record)
            conn.seat = seat.index
            log.info("seat %d taken by %r", seat.index, hello.name)
        return token, started

    def _welcome(self, conn: Connection, hello: P.Hello, token: str | None, started: bool) -> None:
        # Only now does the connection receive broadcasts: the welcome must be its first message after "table".
        conn.ready = True
        conn.admitted_at = self.table.state_id
        welcome: dict[str, Encodable] = {
            "type": "welcome",
            "protocol": hello.protocol,
            "capabilities": sorted(conn.capabilities),
            "seat": conn.seat,
            "token": token,
            "keepalive_ms": int(self.opts.keepalive_interval * 1000),
            "idle_timeout_ms": int(self.opts.idle_timeout * 1000),
            "turn_timer_ms": None if self.table.config.turn_timer is None else int(self.table.config.turn_timer * 1000),
        }
        self._send(conn, "ctl", welcome)
        if self.table.rematch_votes:
            # A player back after a drop or a host restart learns which votes (its own too) still stand.
            self._send(conn, "ctl", self.table.rematch_message())
        self._broadcast_seats()
        if started:
            self._broadcast_state(kind="snapshot")
        else:
            conn.needs_snapshot = True
            conn.wake.set()
        self._after_change()

    # -- dispatch ---------------------------------------------------------------------------------------------

    def _dispatch(self, conn: Connection, msg: P.ClientMessage, chat_bucket: _Bucket) -> None:
        if isinstance(msg, P.Move):
            self._move(conn.seat, msg, conn)
        elif isinstance(msg, P.Chat):
            if "chat" not in conn.capabilities:
                raise ProtocolError("chat_disabled", "ask for the 'chat' capability in your hello")
            text = P.check_chat_text(msg.text)
            if not chat_bucket.take():
                raise ProtocolError("chat_rate", "slow down")
            out: dict[str, Encodable] = {
                "type": "chat",
                "seat": conn.seat,
                "name": conn.name,
                "spectator": conn.spectator,
                "text": text,
            }
            for other in self.conns.values():
                if other.ready and "chat" in other.capabilities:
                    self._send(other, "chat", out)
        elif isinstance(msg, P.LegalRequest):
            self._send(conn, "ctl", self.table.legal_page(conn.seat, msg))
        elif isinstance(msg, P.SnapshotRequest):
            conn.needs_snapshot = True
            conn.wake.set()
        elif isinstance(msg, P.Rematch):
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators do not vote for rematches")
            records = self.table.vote_rematch(conn.seat, self._present_humans())
            if records and records[-1]["kind"] == "game":
                self._commit(records, kind="snapshot")
            else:
                for record in records:
                    self._journal(record)
                self._broadcast_ctl(self.table.rematch_message())
        elif isinstance(msg, P.Ping):
            self._send(conn, "ctl", {"type": "pong", "id": msg.id})
        elif isinstance(msg, P.Pong):
            pass
        elif isinstance(msg, P.Bye):
            if conn.seat is not None:
                self._gone_since[conn.seat] = -math.inf
            raise _Closed
        else:
            raise ProtocolError("handshake_required", "already joined")

    def _move(self, seat: int | None, msg: P.Move, conn: Connection | None) -> None:
        table = self.table
        if conn is not None and self._ack_repeated_move(conn, msg):
            return
        decision = table.check_move(seat, msg)
        assert seat is not None
        applied = table.apply_move(seat, decision, msg.move, msg.index)
        ack: dict[str, Encodable] = {"decision_id": applied.decision_id, "ref": msg.ref}
        self._commit([applied.record], kind="update", ack_seat=seat, ack=ack)

    def _ack_repeated_move(self, conn: Connection, msg: P.Move) -> bool:
        """Answer a move repeating one this seat made before this connection's welcome with a snapshot carrying its
        ack, changing nothing; True if it was such a repeat.

        That ack went to a connection that is gone, or was never sent by a host that died right after journalling
        the move: PROTOCOL.md section 7. A repeat of a move acknowledged on this very connection stays stale.
        """
        answered_at = None if conn.seat is None else self.table.answered_at(conn.seat, msg.decision_id)
        if answered_at is None or answered_at > conn.admitted_at:
            return False
        conn.needs_snapshot = True
        self._owe_ack(conn, {"decision_id": msg.decision_id, "ref": msg.ref})
        return True

    # -- journal, commit and broadcast ------------------------------------------------------------------------

    def _journal(self, record: dict[str, Encodable]) -> None:
        if self.journal is not None:
            try:
                self.journal.append(record)
            except OSError as exc:
                raise JournalFailure(f"cannot write the journal {self.journal.path}: {exc.strerror}") from exc

    def _commit(
        self,
        records: Sequence[dict[str, Encodable]],
        *,
        kind: str,
        ack_seat: int | None = None,
        ack: dict[str, Encodable] | None = None,
    ) -> None:
        """Journal the records, build every seat's message now, and release them once durable."""
        for record in records:
            self._journal(record)
        batch: list[_BatchItem] = []
        state_hash = self.table.game.state_hash()
        wanted = {c.seat for c in self.conns.values() if c.ready and not c.spectator}
        for seat in sorted(s for s in wanted if s is not None):
            seat_ack = ack if seat == ack_seat else None
            batch.append((seat, self._state_or_resync(seat, kind, state_hash, seat_ack), seat_ack))
        if any(c.ready and c.spectator for c in self.conns.values()):
            batch.append((None, self._state_or_resync(None, kind, state_hash, None), None))
        if self.table.game.is_over():
            batch.append((None, "over", None))
        if self.journal is not None and self.journal.fsync_enabled:
            self._pending.append(batch)
            if self._committed.is_set():
                # Replace only a set event: writers already waiting on the unset one must be woken by it.
                self._committed = trio.Event()
            self._commit_wake.set()
        else:
            self._release(batch)
        self._after_change()

    def _state_or_resync(
        self, seat: int | None, kind: str, state_hash: str, ack: dict[str, Encodable] | None
    ) -> bytes | str:
        """The seat's state message, or "resync" when building it failed.

        The state has changed (and is journalled) by now, so a failure for one seat must neither hide the change
        from the others nor be reported as if nothing happened: that seat gets a fresh snapshot instead, and
        when it is the mover, that snapshot carries its ack (see :meth:`_release`).
        """
        try:
            return self.table.state_message(seat, kind, state_hash=state_hash, ack=ack)
        except Exception:
            log.exception("cannot build the %s for seat %s; it gets a snapshot instead", kind, seat)
            return "resync"

    def _release(self, batch: list[_BatchItem]) -> None:
        for seat, data, ack in batch:
            if isinstance(data, str) and data == "over":
                self.finished_games += 1
                self.game_over.set()
                self.game_over = trio.Event()
                continue
            for conn in self.conns.values():
                if conn.ready and conn.seat == seat and (seat is not None or conn.spectator):
                    if isinstance(data, bytes):
                        self._queue(conn, "state", data, ack)
                    else:
                        conn.needs_snapshot = True
                        self._owe_ack(conn, ack)
                        conn.wake.set()

    async def _committer(self) -> None:
        """Group commit: one fsync covers every batch journalled while the previous fsync ran."""
        while True:
            await self._commit_wake.wait()
            self._commit_wake = trio.Event()
            batches, self._pending = self._pending, []
            if not batches:
                continue
            assert self.journal is not None
            await trio.to_thread.run_sync(self.journal.fsync)
            for batch in batches:
                self._release(batch)
            if not self._pending:
                self._committed.set()

    def _broadcast_state(self, kind: str) -> None:
        self._commit([], kind=kind)

    def _broadcast_seats(self) -> None:
        self._broadcast_ctl({"type": "seats", "seats": self.table.seats_public(), "started": self.table.started})

    def _broadcast_ctl(self, msg: dict[str, Encodable]) -> None:
        data = P.encode(msg)
        for conn in self.conns.values():
            if conn.ready:
                self._queue(conn, "ctl", data)

    @staticmethod
    def _owe_ack(conn: Connection, ack: Ack | None) -> None:
        """Remember an ack whose update will not be sent: the snapshot that replaces it carries it instead."""
        if ack is not None:
            conn.unsent_ack = ack
            conn.wake.set()

    def _send(self, conn: Connection, kind: str, msg: dict[str, Encodable]) -> None:
        self._queue(conn, kind, P.encode(msg))

    def _queue(self, conn: Connection, kind: str, data: bytes, ack: Ack | None = None) -> None:
        """Queue bytes for a peer without ever blocking the table.

        States supersede each other, so a peer that falls behind loses its queued states and gets one fresh
        snapshot when it catches up; chat is best effort; control messages are kept, and a peer whose control
        backlog alone exceeds the budget is not reading at all and is disconnected. A dropped update's ack
        is not lost: the snapshot carries it.
        """
        if conn.closing is not None:
            return
        if kind == "state" and conn.needs_snapshot:
            self._owe_ack(conn, ack)
            return
        if conn.outbox_size + len(data) > self.opts.outbox_bytes or len(conn.outbox) >= self.opts.outbox_messages:
            for item in conn.outbox:
                self._owe_ack(conn, item[2])
            conn.outbox = deque(item for item in conn.outbox if item[0] == "ctl")
            conn.outbox_size = sum(len(item[1]) for item in conn.outbox)
            conn.needs_snapshot = True
            conn.wake.set()
            if kind in ("state", "chat"):
                self._owe_ack(conn, ack)
                return
            if conn.outbox_size + len(data) > self.opts.outbox_bytes or len(conn.outbox) >= self.opts.outbox_messages:
                # Not reading at all: drop it now rather than hold its backlog until a write times out.
                conn.closing = "backlog"
                conn.outbox.clear()
                conn.outbox_size = 0
                if conn.scope is not None:
                    conn.scope.cancel()
                return
        conn.outbox.append((kind, data, ack))
        conn.outbox_size += len(data)
        conn.wake.set()

    async def _writer(self, conn: Connection, scope: trio.CancelScope) -> None:
        """Drain the outbox; a peer that does not read within the write timeout, or whose write fails in any
        way, is disconnected (never the host)."""
        try:
            while True:
                await conn.wake.wait()
                conn.wake = trio.Event()
                while conn.outbox or (conn.needs_snapshot and conn.ready):
                    if conn.outbox:
                        _, data, _ = conn.outbox.popleft()
                        conn.outbox_size -= len(data)
                    else:
                        # A snapshot must not reveal a state whose journal record is not yet durable.
                        await self._committed.wait()
                        conn.needs_snapshot = False
                        data = self._snapshot_or_error(conn)
                    with trio.move_on_after(self.opts.write_timeout) as timeout:
                        await conn.stream.send_all(data)
                    if timeout.cancelled_caught:
                        conn.closing = "write_timeout"
                        scope.cancel()
                        return
                if conn.closing is not None:
                    scope.cancel()
                    return
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            conn.closing = "broken"
            scope.cancel()
        except Exception:
            # Anything else that goes wrong while writing (a stream or a bug in the host) is this connection's
            # problem alone: it is dropped like a broken one, and the table and the other peers play on.
            log.exception("writing to connection %d failed; dropping it", conn.id)
            conn.closing = "write_failed"
            scope.cancel()

    def _snapshot_or_error(self, conn: Connection) -> bytes:
        """The connection's snapshot, with the ack of an update it never got; a bug building it costs this one
        message (``internal``), not the host, and the ack waits for the next snapshot."""
        try:
            data = self.table.state_message(conn.seat, "snapshot", ack=conn.unsent_ack)
            conn.unsent_ack = None
            return data
        except Exception as exc:
            log.exception("cannot build a snapshot for connection %d", conn.id)
            decision = self.table.decision_for(conn.seat)
            return P.encode(
                P.error_message(
                    "internal",
                    f"{type(exc).__name__} in the host",
                    state_id=self.table.state_id,
                    decision_id=None if decision is None else decision.id,
                )
            )

    # -- built-in players, timers, keepalive ------------------------------------------------------------------

    def _after_change(self) -> None:
        self._changed.set()
        if self._nursery is None:
            return
        table = self.table
        now = trio.current_time()
        for seat, decision in table.decisions.items():
            builtin = table.controlled_by_builtin(seat) or decision.timed_out
            if not builtin and decision.deadline is not None and now >= decision.deadline:
                decision.timed_out = builtin = True
            key = (seat, decision.id)
            if builtin and key not in self._bot_busy:
                self._bot_busy.add(key)
                self._nursery.start_soon(self._bot_move, seat, decision.id)

    async def _bot_move(self, seat: int, decision_id: int) -> None:
        try:
            if self.opts.bot_delay:
                await trio.sleep(self.opts.bot_delay)
            decision = self.table.decisions.get(seat)
            if decision is None or decision.id != decision_id:
                return
            player = self.table.seats[seat].player or "heuristic"
            clone = self.table.game.clone()
            seed = secrets.randbits(63) if not self.table.config.seeded else decision_id
            choose: Callable[[], Any] = lambda: self.table.engine.choose(clone, seat, player, seed)  # noqa: E731
            try:
                move = await trio.to_thread.run_sync(choose) if self.opts.ai_in_thread else choose()
            except Exception:
                # The seat must not hang on a failed search: fall back to the first legal move.
                log.exception("built-in player %s failed for seat %d", player, seat)
                move = self.table.game.legal_move(seat, 0)
            decision = self.table.decisions.get(seat)
            if decision is None or decision.id != decision_id:
                return
            if self.stopping or not (self.table.controlled_by_builtin(seat) or decision.timed_out):
                return
            try:
                self._move(seat, P.Move(decision_id, move=move), None)
            except ProtocolError:
                # The built-in player is the core's own; a refusal here means the decision moved on.
                return
            except JournalFailure:
                raise
            except Exception:
                # As on a peer's connection, a bug costs this one move, not the table: the seat falls back to
                # its first legal move (the core applies a move wholly or not at all).
                log.exception("built-in move for seat %d failed; playing the first legal move", seat)
                try:
                    self._move(seat, P.Move(decision_id, index=0), None)
                except JournalFailure:
                    raise
                except Exception:
                    log.exception("the fallback move for seat %d failed too; the decision stays open", seat)
        finally:
            self._bot_busy.discard((seat, decision_id))

    async def _scheduler(self) -> None:
        """Turn timers and absent seats: wake at the next deadline or whenever the table changes."""
        while True:
            now = trio.current_time()
            deadlines = [
                d.deadline
                for s, d in self.table.decisions.items()
                if d.deadline is not None and not d.timed_out and not self.table.controlled_by_builtin(s)
            ]
            for seat, since in list(self._gone_since.items()):
                if self.table.seats[seat].connected:
                    self._gone_since.pop(seat)
                elif now - since >= self.opts.seat_timeout:
                    self._gone_since.pop(seat)
                    self.table.seats[seat].auto = True
                    log.info("seat %d is absent: a built-in player takes over", seat)
                    self._broadcast_seats()
                    # Its player no longer counts for a rematch: the votes of those here may now suffice (after
                    # a host restart, an absent player never "leaves", so this is where their votes are checked).
                    record = None if self.stopping else self.table.rematch_if_agreed(self._present_humans())
                    if record is not None:
                        self._commit([record], kind="snapshot")
                else:
                    deadlines.append(since + self.opts.seat_timeout)
            self._after_change()
            self._changed = trio.Event()
            with trio.move_on_at(min(deadlines) if deadlines else math.inf):
                await self._changed.wait()

    async def _keepalive(self) -> None:
        ping_id = 0
        while True:
            await trio.sleep(self.opts.keepalive_interval)
            ping_id += 1
            self._broadcast_ctl({"type": "ping", "id": ping_id})


class _LineReader:
    """Reads a peer's lines from its stream through a :class:`~cardnet.protocol.LineBuffer`."""

    def __init__(self, stream: trio.abc.ReceiveStream, limit: int) -> None:
        self.stream = stream
        self.lines = P.LineBuffer(limit)

    async def read_line(self) -> bytes | None:
        """The next line without its newline; None at a clean end of stream."""
        while (line := self.lines.next_line()) is None:
            chunk = await self.stream.receive_some(65536)
            if not chunk:
                return None
            self.lines.feed(chunk)
        return line
