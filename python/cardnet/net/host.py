"""The host's trio layer: serves one :class:`~cardnet.protocol.host.HostSession` over TCP or memory streams.

One task per connection reads lines into the session. A message for a TCP peer whose outbox is empty and whose
writer is idle is written straight to the socket (non-blocking, from the task that produced it); whatever the
kernel does not take at once, and everything for in-process memory streams, goes through the connection's
byte-bounded outbox, drained by its writer task. A committer releases acknowledgements only after the journal
write (and, with ``fsync``, after a group-committed fsync); built-in players run in worker threads on clones;
timers (turn timers, absent seats, keepalive) wake the session. Every message is built and parsed by the
session, never here.

Most lines are moves, so they have faster paths than the session's general one: which path serves a move is
decided in one place, :func:`cardnet.net.paths.choose_path`. On the fast path a welcomed player's index move
(any key order and spacing) for its own open decision is checked, played and turned into its journal record and
every seat's ``update`` line in one native call (:meth:`HostSession.quick_move`), then journalled and written out
here with no effect objects in between; on the native path (:mod:`cardnet.net.lane`) the core serves the sockets
itself while trio is idle. The bytes are those of the general path (tests/test_fast_lane.py plays the same games
every way); any other line, or a move the fast path does not take, goes the general way.
"""

from __future__ import annotations

import logging
import math
import os
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import trio

from ..journal import Journal, JournalFailure
from ..native import write_lines
from ..protocol import MAX_PEER_LINE, Move, ProtocolError
from ..protocol.host import (
    Ack,
    Append,
    Changed,
    Close,
    Commit,
    Delivery,
    Durable,
    Effect,
    HostOptions,
    HostSession,
    Link,
    Resync,
    Send,
)
from ..table import Table
from .lane import Lane, LaneReport, on_system_clock
from .lines import LineReader, LineStream
from .paths import MovePath, PathConditions, PathLog, may_go_native

__all__ = ["Connection", "Host", "HostOptions", "JournalFailure"]

log = logging.getLogger("cardnet.host")

#: How far (seconds) a connection's armed read timeout may lag its real deadline before it is moved.
DEADLINE_SLACK = 1.0


@dataclass(eq=False)
class Connection:
    """One peer's stream, outbox and writer state (its protocol state is ``link``)."""

    link: Link
    stream: trio.abc.Stream
    # (kind, bytes, the mover's ack the message carries): a dropped state must not take an ack with it.
    outbox: deque[tuple[str, bytes, Ack | None]] = field(default_factory=deque)
    outbox_size: int = 0
    needs_snapshot: bool = False
    unsent_ack: Ack | None = None  # an ack whose update was never sent: the next snapshot carries it
    #: A rematch tally was dropped with the states: the snapshot is followed by the tally current then.
    owes_votes: bool = False
    wake: trio.Event = field(default_factory=trio.Event)
    closing: str | None = None
    scope: trio.CancelScope | None = None  # cancelling it ends the connection's reader and writer at once
    #: The socket's descriptor for direct writes; -1 for a stream without one (memory streams) or once the
    #: direct path is off for good (the connection broke).
    fd: int = -1
    #: The writer task is draining (between its wake and its next wait): a direct write now would overtake it.
    busy: bool = False
    #: How the connection's bytes carry lines: newline-delimited (TCP, memory streams) or WebSocket messages.
    #: The native lane serves it while nothing read waits in it (``lane_ready``).
    reader: LineStream | None = None
    #: Whether every line goes through the reader's ``frame`` before it is written (a WebSocket's).
    framed: bool = False

    @property
    def id(self) -> int:
        """The connection's number."""
        return self.link.id

    @property
    def seat(self) -> int | None:
        """The seat this connection plays (None for a spectator or before admission)."""
        return self.link.seat

    @property
    def spectator(self) -> bool:
        """Whether this connection watches."""
        return self.link.spectator

    @property
    def ready(self) -> bool:
        """Whether this connection was welcomed and receives broadcasts."""
        return self.link.ready


class Host:
    """A running table: accepts peers, feeds their lines to the session, runs built-in players, journals and
    writes out what the session produces."""

    def __init__(self, table: Table, *, journal: Journal | None = None, options: HostOptions | None = None) -> None:
        self.table = table
        self.journal = journal
        self.opts = options or HostOptions()
        fsync = journal is not None and journal.fsync_enabled
        self.session = HostSession(table, self.opts, durable_tokens=fsync)
        #: The path each move takes (:mod:`cardnet.net.paths`), logged when it changes.
        self.paths = PathLog()
        #: The conditions fixed for the table's run (the clock's is known once trio runs: :meth:`_run`).
        self._conditions = self._fixed_conditions(fsync, system_clock=False)
        self.conns: dict[int, Connection] = {}
        self._pending: list[Commit] = []
        self._commit_wake = trio.Event()
        self._committed = trio.Event()
        self._committed.set()
        self._changed = trio.Event()
        self._bot_busy: set[tuple[int, int]] = set()
        self._nursery: trio.Nursery | None = None
        self.port: int | None = None
        self.finished_games = 0
        #: Moves accepted on the fast lane or the native lane (the rest of the lines took the general path).
        self.quick_moves = 0
        self.game_over = trio.Event()
        #: The native lane (:mod:`cardnet.net.lane`), once the table runs and if trio and the game allow it.
        self.lane: Lane | None = None
        #: The connections the native lane serves in its current run.
        self._lane_conns: list[Connection] = []
        #: The listening sockets' descriptors: a new connection ends the native lane's run.
        self._listener_fds: list[int] = []

    def _fixed_conditions(self, group_commit: bool, *, system_clock: bool) -> PathConditions:
        """The path conditions that hold for the whole run (:class:`~cardnet.net.paths.PathConditions`)."""
        return PathConditions(
            # The core's engine carries the native calls; a test's fake engine does not.
            core_game=self.table.engine.native is not None,
            fast_lane=self.opts.fast_lane,
            native_lane=self.opts.native_lane,
            group_commit=group_commit,
            turn_timer=self.table.config.turn_timer is not None,
            system_clock=system_clock,
        )

    @property
    def stopping(self) -> bool:
        """Whether :meth:`shutdown` has begun."""
        return self.session.stopping

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
        self.session.start(trio.current_time())
        self._listener_fds = [listener.socket.fileno() for listener in listeners]
        fixed = self._conditions
        self._conditions = self._fixed_conditions(fixed.group_commit, system_clock=on_system_clock())
        self.paths.choose(self._conditions)
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._committer)
            nursery.start_soon(self._scheduler)
            nursery.start_soon(self._keepalive)
            if may_go_native(self._conditions):
                self.lane = Lane(self)
                nursery.start_soon(self.lane.serve)
            if listeners:
                await nursery.start(trio.serve_listeners, self._handle, listeners)
            self._after_change()
            started()

    async def shutdown(self, grace: float = 1.0) -> None:
        """Tell every peer the host is stopping (``shutting_down``) and give the writers ``grace`` seconds."""
        self._apply(self.session.shutdown())
        with trio.move_on_after(grace):
            while self.conns:
                await trio.sleep(0.01)

    async def accept_stream(self, stream: trio.abc.Stream, lines: LineStream | None = None) -> None:
        """Serve one already-connected stream until it ends.

        The way to serve a connection the host did not accept itself (a Unix socket, a tunnel, a stream an
        embedding program opened, a WebSocket the web seat upgraded): it is served like a TCP connection, with
        the same session, limits and guarantees. ``lines`` says how the stream's bytes carry protocol lines
        (default: one a newline, as over TCP); the host still writes to and closes ``stream`` itself. Tests use
        it for hostile streams.
        """
        await self._handle(stream, lines)

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

    # -- connections ------------------------------------------------------------------------------------------

    async def _handle(self, stream: trio.abc.Stream, lines: LineStream | None = None) -> None:
        fd = _socket_fd(stream)
        reader = lines if lines is not None else LineReader(stream, MAX_PEER_LINE, fd)
        refusal = self.session.refusal()
        if refusal is not None:
            with trio.move_on_after(1):
                await stream.send_all(reader.frame(refusal) + reader.farewell("table_full"))
            await trio.aclose_forcefully(stream)
            return
        link, effects = self.session.connect(trio.current_time())
        conn = Connection(link, stream, fd=fd, reader=reader, framed=reader.framed)
        reader.attach(partial(self._send_wire, conn))
        self.conns[link.id] = conn
        try:
            async with trio.open_nursery() as nursery:
                conn.scope = nursery.cancel_scope
                nursery.start_soon(self._writer, conn, nursery.cancel_scope)
                self._apply(effects)
                try:
                    await self._reader(conn)
                except JournalFailure:
                    raise
                except Exception:
                    log.exception("connection %d failed", conn.id)
                # Let the writer flush the final error, bounded by the write timeout.
                conn.closing = conn.closing or "done"
                conn.wake.set()
        finally:
            self.conns.pop(link.id, None)
            # The descriptor's number may be reused by the next accepted connection once this one closes.
            conn.fd = -1
            self._apply(self.session.disconnected(link, trio.current_time()))
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(stream)

    async def _reader(self, conn: Connection) -> None:
        """Feed the connection's lines to the session until it is done with them."""
        link = conn.link
        reader = conn.reader
        assert reader is not None
        clock = trio.lowlevel.current_clock()  # clock.current_time() is trio.current_time(), a step shorter
        while link.closing is None:
            # One timeout scope serves line after line: a scope per line would cost more than the line's own
            # handling. Its deadline may lag the real one by up to DEADLINE_SLACK (moving a deadline costs too):
            # firing early only makes the session say it is not yet time, and the loop arms the real one.
            armed = self.session.read_deadline(link)
            with trio.CancelScope(deadline=armed) as timeout:
                while link.closing is None:
                    try:
                        line = await reader.read_line()
                    except ProtocolError as exc:
                        if exc.fatal:
                            self._apply(self.session.receive_error(link, exc))
                            return
                        # Input that is no line at all (a WebSocket's binary message): refused like a bad line.
                        self._apply(self.session.refuse(link, exc, clock.current_time()))
                        continue
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        return
                    if line is None:
                        return
                    now = clock.current_time()
                    if self.paths.choose(self._conditions) is MovePath.FAST and self._quick_move(conn, line, now):
                        # A move on the fast lane: the line was heard now, so the deadline is the idle timeout.
                        deadline = now + self.opts.idle_timeout
                        if deadline - armed > DEADLINE_SLACK:
                            timeout.deadline = armed = deadline
                        continue
                    durable = self._apply(self.session.receive_line(link, line, now))
                    if durable is not None:
                        assert self.journal is not None
                        # The read timeout must not cut a welcome short while its token becomes durable.
                        timeout.deadline = armed = math.inf
                        await trio.to_thread.run_sync(self.journal.fsync)
                        self._apply(self.session.welcome(link))
                    deadline = self.session.read_deadline(link)
                    if deadline < armed or deadline - armed > DEADLINE_SLACK:
                        timeout.deadline = armed = deadline
            if timeout.cancelled_caught:
                self._apply(self.session.timed_out(link, trio.current_time()))

    # -- carrying out what the session decided ----------------------------------------------------------------

    def _apply(self, effects: list[Effect]) -> Durable | None:
        """Carry out the session's effects in order; returns the :class:`Durable` request, if any."""
        durable: Durable | None = None
        for effect in effects:
            if isinstance(effect, Send):
                conn = self.conns.get(effect.link.id)
                if conn is not None:
                    self._queue(conn, effect.kind, effect.data)
            elif isinstance(effect, Commit):
                self._commit(effect)
            elif isinstance(effect, Append):
                self._journal(effect.record)
            elif isinstance(effect, Resync):
                conn = self.conns.get(effect.link.id)
                if conn is not None:
                    conn.needs_snapshot = True
                    self._owe_ack(conn, effect.ack)
                    conn.wake.set()
            elif isinstance(effect, Close):
                conn = self.conns.get(effect.link.id)
                if conn is not None:
                    conn.closing = conn.closing or effect.reason
                    conn.wake.set()
            elif isinstance(effect, Changed):
                self._after_change()
            else:
                durable = effect
        return durable

    def _journal(self, record: dict[str, Any] | bytes) -> None:
        """Append a record (or a record's ready payload) to the journal, if there is one."""
        if self.journal is not None:
            try:
                if isinstance(record, bytes):
                    self.journal.append_payload(record)
                else:
                    self.journal.append(record)
            except OSError as exc:
                raise JournalFailure(f"cannot write the journal {self.journal.path}: {exc.strerror}") from exc

    def _quick_move(self, conn: Connection, line: bytes, now: float) -> bool:
        """The fast lane: a move the session accepts without its general path (:meth:`HostSession.quick_move`)
        is journalled and handed out here as :meth:`_commit` and :meth:`_release` would; False, with nothing
        done, for any other line."""
        quick = self.session.quick_move(conn.link, line, now)
        if quick is None:
            return False
        record, lines, ack, game_over = quick
        if self.journal is not None:
            self._journal(record)
        self.quick_moves += 1
        mover = conn.link.seat
        assert mover is not None
        # Lines for connections that can take them now go out in one native call, the mover's first (its ack is
        # the round trip that paces play); the others are queued or replaced by a snapshot as _queue decides.
        fds: list[int] = []
        direct: list[bytes] = []
        targets: list[Connection] = []
        for other in (conn, *[c for c in self.conns.values() if c is not conn]):
            link = other.link
            if not link.ready:
                continue
            seat = link.seat
            if link.spectator:
                data = lines[-1]
            elif seat is None:
                continue
            else:
                data = lines[seat]
            if data is not None:
                # A WebSocket's line goes out framed, in the same native call as the raw lines.
                wire = other.reader.frame(data) if other.framed and other.reader is not None else data
                if self._writable_now(other, "state", wire):
                    fds.append(other.fd)
                    direct.append(wire)
                    targets.append(other)
                    continue
            self._deliver(other, data, ack if seat == mover else None)
        for at, sent in write_lines(fds, direct):
            self._keep_rest(targets[at], direct[at], sent)
        if game_over:
            self._game_finished()
        self._after_change()
        return True

    # -- the native lane's hooks (cardnet.net.lane) -------------------------------------------------------------

    def lane_connections(self) -> tuple[list[tuple[int, int, float, float, bool]], list[int], list[int]] | None:
        """Every ready connection as (descriptor, seat or -1 for a spectator, bucket tokens, bucket stamp, whether
        it is a WebSocket), in this host's order, the seats the native lane may play and the descriptors whose readiness must end its
        run (listeners, spectators, connections in their handshake: trio's I/O), when trio is idle and the
        native path serves the table now (:func:`~cardnet.net.paths.choose_path`); else None. The connections
        are kept for :meth:`absorb_lane`."""
        table = self.table
        # Work of the host's own: a commit, a built-in move, a timer or an absent seat, or no game in play.
        busy = (
            self.stopping
            or bool(self._bot_busy)
            or bool(self._pending)
            or not table.started
            or not (table.decisions or table.game.is_over())
            or bool(self.session.gone_since)
            or any(d.deadline is not None or d.timed_out for d in table.decisions.values())
        )
        conns: list[Connection] = []
        seats: list[int] = []
        watch = list(self._listener_fds)
        served = not busy
        for conn in self.conns.values() if served else ():
            if not conn.link.ready:
                # Still in its handshake: trio serves it, and its lines end the lane (an in-process stream's come
                # from this thread, which the lane holds).
                if conn.fd >= 0:
                    watch.append(conn.fd)
                continue
            # Bytes read and not yet taken (a line, part of a WebSocket frame) are trio's to serve first.
            reader = conn.reader
            idle = reader is not None and reader.lane_ready and conn.unsent_ack is None
            if not idle or conn.link.closing is not None or not self._writable_now(conn, "state", b""):
                served = False
                break
            conns.append(conn)
        if served:
            players = {c.seat for c in conns if c.seat is not None and not c.spectator}
            seats = sorted(s for s in players if not table.controlled_by_builtin(s))
            served = all(seat in seats for seat in table.decisions)
        fixed = self._conditions
        conditions = PathConditions(
            fixed.core_game, fixed.fast_lane, fixed.native_lane, fixed.group_commit, fixed.turn_timer,
            fixed.system_clock, trio_idle=True, host_busy=busy, all_served=served,
        )  # fmt: skip
        if self.paths.choose(conditions) is not MovePath.NATIVE:
            return None
        self._lane_conns = conns
        entries = [
            (
                c.fd,
                -1 if c.spectator or c.seat is None else c.seat,
                c.link.bucket.tokens,
                c.link.bucket.stamp,
                c.reader is not None and c.reader.websocket,
            )
            for c in conns
        ]
        watch += [entry[0] for entry in entries if entry[1] < 0]
        return entries, seats, watch

    def present_humans(self) -> list[int]:
        """The human seats whose players are here: their votes start the next game."""
        return self.session.present_humans()

    def absorb_lane(self, run: LaneReport) -> None:
        """Catch up with a native lane's run over the connections :meth:`lane_connections` gave: the table,
        each connection's bucket and last line, the counters, then what the lane left to the general path (lines
        that did not go out whole, the end of the game, the bytes it read and did not play)."""
        conns, self._lane_conns = self._lane_conns, []
        for conn, (tokens, stamp), heard in zip(conns, run.buckets, run.heard):
            link = conn.link
            link.bucket.tokens, link.bucket.stamp = tokens, stamp
            if heard is not None:
                link.last_heard = heard
        self.table.absorb_lane(run)
        self.quick_moves += len(run.moves)
        if self.journal is not None:
            self.journal.records_written += run.records
            if run.journal_error is not None:
                raise JournalFailure(f"cannot write the journal {self.journal.path}: {run.journal_error}")
        ack: Ack | None = None
        mover = None
        if run.ack is not None:
            # The last lines the lane wrote were a move's: the mover's carries its ack.
            ack = {"decision_id": run.ack[0], "ref": run.ack[1]}
            mover = run.moves[-1][1]
        for at, data, sent in run.undelivered:
            conn = conns[at]
            if data is None or sent == -2:
                self._deliver(conn, data, ack if conn.seat == mover and not conn.spectator else None)
            else:
                self._keep_rest(conn, data, sent)
        if run.finished:
            self._game_finished(run.finished)
        if run.unread is not None:
            at, data = run.unread
            self._take_back(conns[at], data)
        self._after_change()

    def _take_back(self, conn: Connection, data: bytes) -> None:
        """Bytes the native lane read from ``conn`` and did not play: into the connection's line buffer, as if
        its reader had read them, and every whole line through the general path now (the reader, waiting on
        its socket, would not wake for bytes already read). A part of a line waits there for the rest."""
        lines = conn.reader.lines if conn.reader is not None else None
        assert lines is not None, "the lane leaves a WebSocket's bytes in its socket"
        lines.feed(data)
        link = conn.link
        while link.closing is None:
            try:
                line = lines.next_line()
            except ProtocolError as exc:
                self._apply(self.session.receive_error(link, exc))
                return
            if line is None:
                return
            self._receive_line(conn, line)

    def _receive_line(self, conn: Connection, line: bytes) -> None:
        """A line of ``conn`` handled outside its reader task (the native lane read it): the general path, and a
        bug costs that connection, not the table, as in the reader."""
        try:
            durable = self._apply(self.session.receive_line(conn.link, line, trio.current_time()))
        except JournalFailure:
            raise
        except Exception:
            log.exception("connection %d failed", conn.id)
            conn.closing = conn.closing or "failed"
            if conn.scope is not None:
                conn.scope.cancel()
            return
        # No durable tokens here: the native lane runs only without group commit.
        assert durable is None

    def _commit(self, commit: Commit) -> None:
        """Journal the records, and release every seat's message once durable."""
        for record in commit.records:
            self._journal(record)
        if self.journal is not None and self.journal.fsync_enabled:
            self._pending.append(commit)
            if self._committed.is_set():
                # Replace only a set event: writers already waiting on the unset one must be woken by it.
                self._committed = trio.Event()
            self._commit_wake.set()
        else:
            self._release(commit)
        self._after_change()

    def _release(self, commit: Commit) -> None:
        by_seat = {delivery.seat: delivery for delivery in commit.deliveries}
        later: list[tuple[Connection, Delivery]] = []
        for conn in self.conns.values():
            if not conn.ready or (conn.seat is None and not conn.spectator):
                continue
            delivery = by_seat.get(conn.seat)
            if delivery is None:
                continue
            if delivery.ack is None:
                later.append((conn, delivery))
            else:
                # The mover's update goes out first: its ack is the round trip that paces play.
                self._deliver(conn, delivery.data, delivery.ack)
        for conn, delivery in later:
            self._deliver(conn, delivery.data, delivery.ack)
        if commit.game_over:
            self._game_finished()

    def _game_finished(self, count: int = 1) -> None:
        self.finished_games += count
        self.game_over.set()
        self.game_over = trio.Event()

    def _deliver(self, conn: Connection, data: bytes | None, ack: Ack | None) -> None:
        """Hand a connection its state line; None (the line could not be built) sends a snapshot instead."""
        if data is not None:
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
            commits, self._pending = self._pending, []
            if not commits:
                continue
            assert self.journal is not None
            await trio.to_thread.run_sync(self.journal.fsync)
            for commit in commits:
                self._release(commit)
            if not self._pending:
                self._committed.set()

    @staticmethod
    def _owe_ack(conn: Connection, ack: Ack | None) -> None:
        """Remember an ack whose update will not be sent: the snapshot that replaces it carries it instead."""
        if ack is not None:
            conn.unsent_ack = ack
            conn.wake.set()

    def _writable_now(self, conn: Connection, kind: str, data: bytes) -> bool:
        """Whether ``data`` may go straight to the socket: the connection has a descriptor, nothing queued, an
        idle writer and no close pending, no snapshot is due to replace a state, and the line fits the outbox
        budget (so a short write's rest can be kept)."""
        return (
            conn.fd >= 0
            and not conn.busy
            and not conn.outbox
            and conn.closing is None
            and not (conn.needs_snapshot and kind in ("state", "votes"))
            and len(data) <= self.opts.outbox_bytes
            and self.opts.outbox_messages > 0
        )

    def _send_wire(self, conn: Connection, data: bytes) -> None:
        """Wire bytes a line stream writes of its own (a WebSocket's pong or closing handshake): kept, and in
        order with the lines."""
        self._queue(conn, "ctl", data, wire=True)

    def _queue(self, conn: Connection, kind: str, data: bytes, ack: Ack | None = None, *, wire: bool = False) -> None:
        """Queue a line (or, with ``wire``, bytes already framed) for a peer without ever blocking the table.

        States supersede each other, so a peer that falls behind loses its queued states and gets one fresh
        snapshot when it catches up; rematch tallies supersede each other too (a table of fast bots votes every
        few moves: kept, they alone cut off a spectator stalled for seconds), so they go with the states and
        the snapshot is followed by the tally current then; chat is best effort; control messages are kept,
        and a peer whose control backlog alone exceeds the budget is not reading at all and is disconnected. A
        dropped update's ack is not lost: the snapshot carries it. A line for a framed stream (a WebSocket) is
        framed here, so the outbox and the direct writes hold wire bytes alike.
        """
        if conn.framed and not wire:
            assert conn.reader is not None
            data = conn.reader.frame(data)
        if self._writable_now(conn, kind, data):
            # The usual case, tested first: nothing queued, within budget, so the line goes straight out.
            self._write_direct(conn, data)
            return
        if conn.closing is not None:
            return
        if kind in ("state", "votes") and conn.needs_snapshot:
            self._owe_ack(conn, ack)
            conn.owes_votes = conn.owes_votes or kind == "votes"
            return
        if conn.outbox_size + len(data) > self.opts.outbox_bytes or len(conn.outbox) >= self.opts.outbox_messages:
            for item in conn.outbox:
                self._owe_ack(conn, item[2])
            conn.owes_votes = conn.owes_votes or kind == "votes" or any(item[0] == "votes" for item in conn.outbox)
            conn.outbox = deque(item for item in conn.outbox if item[0] == "ctl")
            conn.outbox_size = sum(len(item[1]) for item in conn.outbox)
            conn.needs_snapshot = True
            conn.wake.set()
            if kind in ("state", "votes", "chat"):
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
        if conn.fd >= 0 and not conn.busy and not conn.outbox:
            self._write_direct(conn, data)
            return
        conn.outbox.append((kind, data, ack))
        conn.outbox_size += len(data)
        conn.wake.set()

    @classmethod
    def _write_direct(cls, conn: Connection, data: bytes) -> None:
        """Write to an idle connection with nothing queued; what the kernel does not take goes to the outbox.

        Only called with nothing queued and the writer idle, so bytes never overtake earlier ones.
        """
        try:
            sent = os.write(conn.fd, data)
        except BlockingIOError:
            sent = 0
        except OSError:
            sent = -1
        if sent != len(data):
            cls._keep_rest(conn, data, sent)

    @staticmethod
    def _keep_rest(conn: Connection, data: bytes, sent: int) -> None:
        """A direct write that the kernel took only ``sent`` bytes of (-1: it failed): the rest must go out next,
        whole, whatever the message was (its ack went with its first bytes), so it is kept like a control message.
        A broken socket is left to the writer, which drops the connection as it would on its own failed write.
        """
        if sent < 0:
            conn.fd = -1
            sent = 0
        conn.outbox.append(("ctl", data[sent:], None))
        conn.outbox_size += len(data) - sent
        conn.wake.set()

    async def _writer(self, conn: Connection, scope: trio.CancelScope) -> None:
        """Drain the outbox; a peer that does not read within the write timeout, or whose write fails in any
        way, is disconnected (never the host)."""
        try:
            while True:
                conn.busy = False
                await conn.wake.wait()
                conn.busy = True
                conn.wake = trio.Event()
                while conn.outbox or (conn.needs_snapshot and conn.ready):
                    if conn.outbox:
                        _, data, _ = conn.outbox.popleft()
                        conn.outbox_size -= len(data)
                    else:
                        # A snapshot must not reveal a state whose journal record is not yet durable.
                        await self._committed.wait()
                        conn.needs_snapshot = False
                        data, sent_ack = self.session.snapshot(conn.link, conn.unsent_ack)
                        if sent_ack:
                            conn.unsent_ack = None
                        if conn.framed and conn.reader is not None:
                            data = conn.reader.frame(data)
                        if conn.owes_votes:
                            conn.owes_votes = False
                            votes = self.session.votes_line()
                            data += conn.reader.frame(votes) if conn.framed and conn.reader is not None else votes
                    with trio.move_on_after(self.opts.write_timeout) as timeout:
                        await conn.stream.send_all(data)
                    if timeout.cancelled_caught:
                        conn.closing = "write_timeout"
                        scope.cancel()
                        return
                if conn.closing is not None:
                    await self._farewell(conn)
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

    async def _farewell(self, conn: Connection) -> None:
        """The stream's own goodbye before the host closes it (a WebSocket's close frame), bounded in time."""
        if conn.reader is None:
            return
        data = conn.reader.farewell(conn.link.closing or conn.closing or "done")
        if data:
            with trio.move_on_after(min(1.0, self.opts.write_timeout)):
                await conn.stream.send_all(data)

    # -- built-in players, timers, keepalive ------------------------------------------------------------------

    def _after_change(self) -> None:
        if self.lane is not None:
            self.lane.nudge()
        table = self.table
        if table.config.turn_timer is not None or self.session.gone_since:
            # Only turn timers and absent seats give the scheduler a deadline; without them, waking it on every
            # move would cost a task switch for nothing.
            self._changed.set()
        if self._nursery is None:
            return
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
                self._apply(self.session.move(seat, Move(decision_id, move=move)))
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
                    self._apply(self.session.move(seat, Move(decision_id, index=0)))
                except JournalFailure:
                    raise
                except Exception:
                    log.exception("the fallback move for seat %d failed too; the decision stays open", seat)
        finally:
            self._bot_busy.discard((seat, decision_id))

    async def _scheduler(self) -> None:
        """Turn timers and absent seats: wake at the next deadline or whenever the table changes."""
        while True:
            deadlines = [
                d.deadline
                for s, d in self.table.decisions.items()
                if d.deadline is not None and not d.timed_out and not self.table.controlled_by_builtin(s)
            ]
            effects, absent = self.session.check_absent(trio.current_time())
            self._apply(effects)
            deadlines += absent
            self._after_change()
            self._changed = trio.Event()
            with trio.move_on_at(min(deadlines) if deadlines else math.inf):
                await self._changed.wait()

    async def _keepalive(self) -> None:
        while True:
            await trio.sleep(self.opts.keepalive_interval)
            self._apply(self.session.keepalive())


def _socket_fd(stream: trio.abc.Stream) -> int:
    """The descriptor of a TCP stream's socket for direct writes; -1 for any other stream (memory streams of
    local play and tests have none, and go through the writer task alone). Only on POSIX systems, where a
    socket's descriptor can be written and waited on like a file's."""
    if isinstance(stream, trio.SocketStream) and os.name == "posix":
        return stream.socket.fileno()
    return -1
