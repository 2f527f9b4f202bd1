"""The host's side of the protocol, without I/O: :class:`HostSession` over one :class:`~cardnet.table.Table`.

The session knows every connection (a :class:`Link`) and decides everything the protocol decides: the
handshake and its timeout, admission (password proof, seat claim or token, spectator room, replacing a
connection that holds the same seat), capabilities, strikes for malformed input, rate limits, and what each
message a peer sends does to the table. Lines and the current time go in; each call returns the effects
(:data:`Effect`) the I/O layer must carry out, in order: bytes to queue for a connection, journal records to
write, a commit (records plus each seat's state message, released once durable), a connection to close.
The most common line, a player's index move (any key order and spacing), also has a fast lane
(:meth:`HostSession.quick_move`) that returns the same record and lines without effect objects.

The trio layer (:mod:`cardnet.net.host`) owns the sockets, outboxes, the journal file, built-in players and
timers; its Python never builds or parses a message itself. Its native lane (:mod:`cardnet.net.lane`) does,
in the core: while trio is idle, the core reads the players' move and rematch lines and writes the state lines
this session would, byte for byte (ARCHITECTURE.md, "The move paths").
"""

from __future__ import annotations

import logging
import math
import secrets
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Union

from .. import native
from ..table import DecisionParts, FanOutLike, OpenDecision, Table
from ..codec import (
    CHAT_HISTORY_BYTES,
    CHAT_HISTORY_LINES,
    HOST_CAPABILITIES,
    LEGAL_INLINE_LIMIT,
    MAX_HOST_LINE,
    SUPPORTED_VERSIONS,
    Encodable,
    JSONValue,
    ProtocolError,
    Raw,
    canonical,
    check_auth,
    check_chat_text,
    decode_line,
    encode,
)
from .messages import (
    Bye,
    Chat,
    ChatMessage,
    ClientMessage,
    Decision,
    Hello,
    HostError,
    LegalPage,
    LegalRequest,
    Move,
    Ping,
    Pong,
    Rematch,
    RematchVotes,
    SeatsChanged,
    SnapshotRequest,
    StateMessage,
    TableInfo,
    Welcome,
    ack_json,
    parse_client_message,
    parse_move_line,
    seat_entry,
)

log = logging.getLogger("cardnet.host")

#: The mover's acknowledgement, carried by its update (or by the snapshot that replaces it).
Ack = dict[str, Encodable]
Record = dict[str, Encodable]

#: Error codes that count as a strike (malformed input rather than a refused action).
STRIKE_CODES = frozenset({"bad_utf8", "bad_json", "bad_message", "unknown_type"})


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
    capabilities: tuple[str, ...] = HOST_CAPABILITIES
    #: A decision whose legal-move list is longer than this (bytes of JSON) is sent without it; the peer pages it.
    legal_inline_limit: int = LEGAL_INLINE_LIMIT
    #: Accepted index moves (any key order and spacing) take the fast lane (:meth:`HostSession.quick_move`),
    #: which sends the same bytes as the general path; False sends every line through the general path.
    fast_lane: bool = True
    #: While every other task is blocked, the core serves the fast lane's moves itself, reading and writing the
    #: table's sockets without Python or trio in between (:mod:`cardnet.net.lane`); the same bytes again.
    native_lane: bool = True


class Bucket:
    """A token bucket over a clock the caller passes in: ``take(now)`` is False once the peer exceeds its rate."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, now

    def refund(self) -> None:
        """Give back a token (an accepted move: play paced by the table is never a flood)."""
        self.tokens = min(self.burst, self.tokens + 1.0)

    def has_token(self, now: float) -> bool:
        """Refill, and tell whether a token is there, spending none: :meth:`take` then :meth:`refund` (an accepted
        move) leave the bucket exactly so, and a :meth:`take` at the same ``now`` finds the same tokens."""
        self.tokens = native.bucket_refill(self.tokens, self.stamp, now, self.rate, self.burst)
        self.stamp = now
        return self.tokens >= 1.0

    def take(self, now: float) -> bool:
        """Spend a token; False when none is left."""
        if not self.has_token(now):
            return False
        self.tokens -= 1.0
        return True


@dataclass(eq=False)
class Link:
    """One connection as the protocol sees it (the I/O layer keeps its stream and outbox)."""

    id: int
    challenge: str
    opened: float
    last_heard: float
    bucket: Bucket
    chat_bucket: Bucket
    seat: int | None = None
    spectator: bool = False
    name: str = ""
    capabilities: frozenset[str] = frozenset()
    strikes: int = 0
    #: Admitted and welcomed: only now does the connection receive broadcasts.
    ready: bool = False
    #: The hello of an admitted connection (before its welcome, the seat token may still wait for the journal).
    hello: Hello | None = None
    #: Set once the protocol is done with the connection (the reason); no further line is read.
    closing: str | None = None
    #: The table's state_id at this connection's welcome.
    admitted_at: int = 0


@dataclass(frozen=True)
class Send:
    """Queue ``data`` (one encoded line) for ``link``; ``kind`` is ``ctl`` (kept), ``votes`` (a rematch tally: a
    lagging peer's are dropped with its states and the snapshot is followed by the tally then current) or
    ``chat`` (best effort)."""

    link: Link
    kind: str
    data: bytes


@dataclass(frozen=True)
class Append:
    """Append this record to the journal now."""

    record: Record


@dataclass(frozen=True)
class Delivery:
    """One seat's state message of a commit (``seat`` None: every spectator)."""

    seat: int | None
    #: The encoded line; None when building it failed: those connections get a fresh snapshot instead.
    data: bytes | None
    ack: Ack | None


@dataclass(frozen=True)
class Commit:
    """Journal ``records``, then release every seat's message once they are durable."""

    records: tuple[Record, ...]
    deliveries: tuple[Delivery, ...]
    game_over: bool


@dataclass(frozen=True)
class Durable:
    """Make the journal durable, then call :meth:`HostSession.welcome` for ``link`` (its token is in it)."""

    link: Link


@dataclass(frozen=True)
class Resync:
    """``link`` needs a fresh snapshot (built by :meth:`HostSession.snapshot` when its writer is ready), carrying
    ``ack`` when given."""

    link: Link
    ack: Ack | None = None


@dataclass(frozen=True)
class Close:
    """Close ``link`` once what is queued for it is flushed."""

    link: Link
    reason: str


@dataclass(frozen=True)
class Changed:
    """The table changed: reconsider built-in players and timers."""


Effect = Union[Send, Append, Commit, Durable, Resync, Close, Changed]


class QuickMove(NamedTuple):
    """A move accepted on the fast lane (:meth:`HostSession.quick_move`): what its :class:`Commit` would hold."""

    #: The journal record's canonical JSON payload (:meth:`cardnet.journal.Journal.append_payload`).
    record: bytes
    #: Every observer's ``update`` line: seat ``s`` at ``lines[s]``, the spectators' last; None where building
    #: it failed (those connections get a snapshot instead, as for a :class:`Delivery` without data).
    lines: list[bytes | None]
    #: The mover's ack (its line carries it).
    ack: Ack
    game_over: bool


class HostSession:
    """Every connection's protocol state over one table; synchronous, never blocks, does no I/O.

    ``durable_tokens``: a new seat's token must be durable (the journal fsynced) before the peer is told it;
    the session then returns :class:`Durable` and waits for :meth:`welcome`.
    """

    def __init__(self, table: Table, options: HostOptions | None = None, *, durable_tokens: bool = False) -> None:
        self.table = table
        self.opts = options or HostOptions()
        self.durable_tokens = durable_tokens
        self.links: dict[int, Link] = {}
        #: When each absent human seat's player left (a built-in player takes over after seat_timeout).
        self.gone_since: dict[int, float] = {}
        self.stopping = False
        self._next_id = 1
        self._ping_id = 0
        # Links admitted whose welcome waits for the journal: (new seat token, whether the game started).
        self._pending_welcome: dict[int, tuple[str | None, bool]] = {}
        #: The latest chat lines, replayed to every peer that joins or reconnects (bounded: PROTOCOL.md § 5).
        self.chat_history: deque[ChatMessage] = deque()
        #: The port of the table's web seat (``cardnet.web``), told in the ``table`` message; None without one.
        self.web_port: int | None = None

    # -- connections ------------------------------------------------------------------------------------------

    def start(self, now: float) -> None:
        """The table starts serving: seats resumed from a journal start absent (their players have
        ``seat_timeout`` to come back)."""
        for seat in self.table.seats:
            if seat.kind == "human" and not seat.connected:
                self.gone_since.setdefault(seat.index, now)

    def refusal(self) -> bytes | None:
        """The line refusing a new connection when there are too many, else None."""
        if len(self.links) < self.opts.max_connections:
            return None
        # Half-open or idle connections must not grow the host without bound: refuse before any state.
        return encode(HostError("table_full", "too many connections", self.table.state_id, None).to_wire())

    def connect(self, now: float) -> tuple[Link, list[Effect]]:
        """A new connection: its link, and the ``table`` message it gets first."""
        link = Link(
            id=self._next_id,
            challenge=secrets.token_hex(16),
            opened=now,
            last_heard=now,
            bucket=Bucket(self.opts.msg_rate, self.opts.msg_burst, now),
            chat_bucket=Bucket(self.opts.chat_rate, self.opts.chat_burst, now),
        )
        self._next_id += 1
        self.links[link.id] = link
        return link, [self._ctl(link, self.table_info(link.challenge))]

    def table_info(self, challenge: str) -> TableInfo:
        """What this table is (the first message on every connection)."""
        table, config = self.table, self.table.config
        return TableInfo(
            capabilities=tuple(self.opts.capabilities),
            table_id=config.table_id,
            name=config.name,
            game=config.game,
            players=config.players,
            options=table.resolved_options(),
            seeded=config.seeded,
            password=self.opts.password is not None,
            challenge=challenge,
            started=table.started,
            game_no=table.game_no,
            seats=self.seat_entries(),
            web=self.web_port,
        )

    def read_deadline(self, link: Link) -> float:
        """When ``link`` times out unless a line arrives: the handshake, then the idle timeout."""
        if link.ready or link.hello is not None:
            return link.last_heard + self.opts.idle_timeout
        return link.opened + self.opts.handshake_timeout

    def timed_out(self, link: Link, now: float) -> list[Effect]:
        """The read deadline passed without a line (nothing happens if ``now`` is still before it)."""
        if now < self.read_deadline(link) or link.closing is not None:
            return []
        if link.ready or link.hello is not None:
            return self._fail(link, ProtocolError("idle_timeout", "nothing received within the idle timeout"))
        return self._fail(link, ProtocolError("handshake_timeout", "no hello within the handshake timeout"))

    def receive_error(self, link: Link, exc: ProtocolError) -> list[Effect]:
        """The line reader refused the input (``line_too_long``): the connection ends."""
        return self._fail(link, exc)

    def receive_line(self, link: Link, line: bytes, now: float) -> list[Effect]:
        """One line from ``link`` (without its newline)."""
        if link.closing is not None:
            return []
        link.last_heard = now
        if not link.ready:
            if link.hello is None:
                return self._handshake(link, line)
            # A line that arrives while the welcome waits for the journal: the peer may not talk yet.
            return self._fail(link, ProtocolError("handshake_required", "wait for the welcome"))
        if self.stopping:
            return self._close(link, "done")
        if not link.bucket.take(now):
            return self._fail(link, ProtocolError("rate_limited", "too many messages"))
        ref: int | str | None = None
        try:
            msg = parse_move_line(line) or parse_client_message(decode_line(line))
            ref = getattr(msg, "ref", None)
            effects = self._dispatch(link, msg, now)
            if isinstance(msg, Move):
                link.bucket.refund()
            return effects
        except ProtocolError as exc:
            return self._refused(link, exc, ref)
        except Exception as exc:
            # A bug must cost one message, not the table: the peer hears "internal" and play goes on.
            log.exception("internal error on connection %d", link.id)
            return [self._error(link, ProtocolError("internal", f"{type(exc).__name__} in the host"), ref)]

    def refuse(self, link: Link, exc: ProtocolError, now: float) -> list[Effect]:
        """Input from ``link`` that is not a line at all (a WebSocket's binary message), which its stream refused
        with ``exc``: treated as a line the session refuses, with the same rate, strikes and handshake rules."""
        if link.closing is not None:
            return []
        link.last_heard = now
        if not link.ready:
            return self._fail(link, ProtocolError("handshake_required", exc.reason))
        if self.stopping:
            return self._close(link, "done")
        if not link.bucket.take(now):
            return self._fail(link, ProtocolError("rate_limited", "too many messages"))
        return self._refused(link, exc, None)

    def _refused(self, link: Link, exc: ProtocolError, ref: int | str | None) -> list[Effect]:
        """The error for a refused message, a strike for malformed input, and the close when either is fatal."""
        if exc.code in STRIKE_CODES:
            link.strikes += 1
            if link.strikes > self.opts.max_strikes:
                return self._fail(link, ProtocolError("too_many_errors", "too many malformed messages"))
        effects: list[Effect] = [self._error(link, exc, ref)]
        if exc.fatal:
            effects += self._close(link, exc.code)
        return effects

    def quick_move(self, link: Link, line: bytes, now: float) -> QuickMove | None:
        """The fast lane of :meth:`receive_line` for its most common line: a welcomed player's index ``move`` (any
        key order and spacing, no other field) for its own open decision, within its rate. Returns None,
        changing nothing that matters, for any other line or situation (:meth:`receive_line` then handles it);
        otherwise the move is played (:meth:`Table.play_line`) and the caller journals the record and hands out
        the lines, exactly as it would carry out :meth:`receive_line`'s :class:`Commit` (byte for byte:
        tests/test_fast_lane.py)."""
        seat = link.seat
        if seat is None or not link.ready or link.closing is not None or self.stopping:
            return None
        table = self.table
        decision = table.decisions.get(seat)
        # Refilling the bucket is what receive_line's take() would do first at this same ``now``.
        if decision is None or not table.started or not link.bucket.has_token(now):
            return None
        played = table.play_line(line, seat, decision, self.opts.legal_inline_limit, MAX_HOST_LINE)
        if played is None:
            return None
        link.last_heard = now
        record, lines, ref, over = played
        return QuickMove(record, lines, {"decision_id": decision.id, "ref": ref}, over)

    def disconnected(self, link: Link, now: float) -> list[Effect]:
        """The connection is gone (whatever the reason): its seat is absent once no other connection holds it."""
        self.links.pop(link.id, None)
        link.closing = link.closing or "gone"
        if link.spectator and link.ready:
            # Everyone sees how many watch: one fewer now (unless everyone is being sent away).
            link.ready = False
            return [] if self.stopping else self._broadcast_seats()
        if link.seat is None or not link.ready:
            return []
        link.ready = False
        if any(other.seat == link.seat and other.ready for other in self.links.values()):
            return []
        seat = self.table.seats[link.seat]
        log.info("seat %d (%s) disconnected", link.seat, seat.name)
        seat.connected = False
        self.gone_since.setdefault(link.seat, now)
        effects = self._broadcast_seats()
        record = None if self.stopping else self.table.rematch_if_agreed(self.present_humans())
        if record is not None:
            effects.append(self._commit([record], kind="snapshot"))
        effects.append(Changed())
        return effects

    def shutdown(self) -> list[Effect]:
        """The host is stopping: every connection hears ``shutting_down`` and is closed."""
        self.stopping = True
        effects: list[Effect] = []
        for link in list(self.links.values()):
            effects.append(self._error(link, ProtocolError("shutting_down", "the host is stopping"), None))
            effects += self._close(link, "shutting_down")
        return effects

    def keepalive(self) -> list[Effect]:
        """A ping to every connection."""
        self._ping_id += 1
        return self._broadcast(Ping(self._ping_id).to_wire())

    # -- handshake and admission ------------------------------------------------------------------------------

    def _handshake(self, link: Link, line: bytes) -> list[Effect]:
        try:
            msg = parse_client_message(decode_line(line))
        except ProtocolError as exc:
            return self._fail(link, ProtocolError("handshake_required", exc.reason) if not exc.fatal else exc)
        if not isinstance(msg, Hello):
            return self._fail(link, ProtocolError("handshake_required", "the first message must be a hello"))
        if self.stopping:
            return self._fail(link, ProtocolError("shutting_down", "the host is stopping"))
        try:
            effects, token, started = self._admit(link, msg)
        except ProtocolError as exc:
            return self._fail(link, exc)
        link.hello = msg
        if token is not None and self.durable_tokens:
            # The seat's token hash must be durable before the peer is told its token.
            self._pending_welcome[link.id] = (token, started)
            return [*effects, Durable(link)]
        return effects + self._welcome(link, token, started)

    def welcome(self, link: Link) -> list[Effect]:
        """Finish admitting ``link`` once its token is durable (after :class:`Durable`)."""
        token, started = self._pending_welcome.pop(link.id, (None, False))
        if link.closing is not None or link.id not in self.links:
            return []
        return self._welcome(link, token, started)

    def _admit(self, link: Link, hello: Hello) -> tuple[list[Effect], str | None, bool]:
        """Check the hello and give the connection its role: (effects, new seat token, whether the game started)."""
        if hello.protocol not in SUPPORTED_VERSIONS:
            raise ProtocolError("unsupported_version", f"this host speaks {list(SUPPORTED_VERSIONS)}")
        if self.opts.password is not None:
            if hello.auth is None or not check_auth(
                self.opts.password, self.table.config.table_id, link.challenge, hello.auth
            ):
                raise ProtocolError("auth_failed", "wrong or missing password proof")
        link.name = hello.name
        link.capabilities = frozenset(hello.capabilities) & frozenset(self.opts.capabilities)
        effects: list[Effect] = []
        if hello.role == "spectator":
            if self.spectator_count() >= self.opts.max_spectators:
                raise ProtocolError("table_full", "no room for more spectators")
            link.spectator = True
            log.info("spectator %r joined", hello.name)
            return effects, None, False
        if hello.token is not None:
            seat = self.table.seat_for_token(hello.token)
            if seat is None:
                raise ProtocolError("bad_token", "this token holds no seat at this table")
            for other in list(self.links.values()):
                if other is not link and other.seat == seat.index and other.ready:
                    other.ready = False
                    effects.append(
                        self._error(other, ProtocolError("replaced", "your seat was resumed by another connection"))
                    )
                    effects += self._close(other, "replaced")
            link.seat = seat.index
            seat.connected = True
            seat.auto = False
            log.info("seat %d (%s) resumed", seat.index, seat.name)
            self.gone_since.pop(seat.index, None)
            # A seat the host reserved for its own player (``own_seat_token``) is the last one only now.
            return effects, None, self.table.start_if_full()
        claimed, token, record, started = self.table.claim_seat(hello.seat, hello.name)
        link.seat = claimed.index
        log.info("seat %d taken by %r", claimed.index, hello.name)
        return [Append(record)], token, started

    def _remember_chat(self, line: ChatMessage) -> None:
        """Keep ``line`` among the latest, within CHAT_HISTORY_LINES lines and CHAT_HISTORY_BYTES bytes of text."""
        history = self.chat_history
        history.append(line)
        total = sum(len(said.text.encode("utf-8")) for said in history)
        while len(history) > CHAT_HISTORY_LINES or total > CHAT_HISTORY_BYTES:
            total -= len(history.popleft().text.encode("utf-8"))

    def _welcome(self, link: Link, token: str | None, started: bool) -> list[Effect]:
        # Only now does the connection receive broadcasts: the welcome must be its first message after "table".
        link.ready = True
        link.admitted_at = self.table.state_id
        assert link.hello is not None
        timer = self.table.config.turn_timer
        welcome = Welcome(
            protocol=link.hello.protocol,
            capabilities=tuple(link.capabilities),
            seat=link.seat,
            token=token,
            keepalive_ms=int(self.opts.keepalive_interval * 1000),
            idle_timeout_ms=int(self.opts.idle_timeout * 1000),
            turn_timer_ms=None if timer is None else int(timer * 1000),
        )
        effects: list[Effect] = [self._ctl(link, welcome)]
        if self.table.rematch_votes:
            # A player back after a drop or a host restart learns which votes (its own too) still stand.
            effects.append(self._ctl(link, self.rematch_votes()))
        if "chat" in link.capabilities:
            # What was said before this peer arrived (or while it was away), marked as earlier.
            for said in self.chat_history:
                past = ChatMessage(said.seat, said.name, said.spectator, said.text, earlier=True)
                effects.append(Send(link, "chat", encode(past.to_wire())))
        effects += self._broadcast_seats()
        effects.append(self._commit([], kind="snapshot") if started else Resync(link))
        effects.append(Changed())
        return effects

    # -- what peers ask for -----------------------------------------------------------------------------------

    def _dispatch(self, link: Link, msg: ClientMessage, now: float) -> list[Effect]:
        if isinstance(msg, Move):
            return self._ack_repeated_move(link, msg) or self.move(link.seat, msg)
        if isinstance(msg, Chat):
            if "chat" not in link.capabilities:
                raise ProtocolError("chat_disabled", "ask for the 'chat' capability in your hello")
            text = check_chat_text(msg.text)
            if not link.chat_bucket.take(now):
                raise ProtocolError("chat_rate", "slow down")
            line = ChatMessage(link.seat, link.name, link.spectator, text)
            self._remember_chat(line)
            data = encode(line.to_wire())
            listeners = [other for other in self.links.values() if other.ready and "chat" in other.capabilities]
            return [Send(other, "chat", data) for other in listeners]
        if isinstance(msg, LegalRequest):
            decision, moves = self.table.legal_slice(link.seat, msg.decision_id, msg.offset, msg.limit)
            page = LegalPage(decision.id, msg.offset, decision.count, [Raw(canonical(m)) for m in moves])
            return [self._ctl(link, page)]
        if isinstance(msg, SnapshotRequest):
            return [Resync(link)]
        if isinstance(msg, Rematch):
            if link.seat is None:
                raise ProtocolError("spectator", "spectators do not vote for rematches")
            records = self.table.vote_rematch(link.seat, self.present_humans())
            if records and records[-1]["kind"] == "game":
                return [self._commit(records, kind="snapshot")]
            effects: list[Effect] = [Append(record) for record in records]
            return effects + self._broadcast(self.rematch_votes().to_wire(), kind="votes")
        if isinstance(msg, Ping):
            return [self._ctl(link, Pong(msg.id))]
        if isinstance(msg, Pong):
            return []
        if isinstance(msg, Bye):
            if link.seat is not None:
                self.gone_since[link.seat] = -math.inf
            return self._close(link, "bye")
        raise ProtocolError("handshake_required", "already joined")

    def move(self, seat: int | None, msg: Move) -> list[Effect]:
        """Apply a move for ``seat`` (a peer's, or a built-in player's): raises ProtocolError, changing nothing."""
        table = self.table
        decision = table.check_move(seat, msg.decision_id)
        assert seat is not None
        applied = table.apply_move(seat, decision, msg.move, msg.index)
        ack: Ack = {"decision_id": applied.decision_id, "ref": msg.ref}
        return [self._commit([applied.record], kind="update", ack_seat=seat, ack=ack)]

    def _ack_repeated_move(self, link: Link, msg: Move) -> list[Effect]:
        """Answer a move repeating one this seat made before this connection's welcome with a snapshot carrying its
        ack, changing nothing; empty when it is no such repeat.

        That ack went to a connection that is gone, or was never sent by a host that died right after journalling
        the move: PROTOCOL.md section 7. A repeat of a move acknowledged on this very connection stays stale.
        """
        answered_at = None if link.seat is None else self.table.answered_at(link.seat, msg.decision_id)
        if answered_at is None or answered_at > link.admitted_at:
            return []
        return [Resync(link, {"decision_id": msg.decision_id, "ref": msg.ref})]

    # -- absent seats -----------------------------------------------------------------------------------------

    def present_humans(self) -> list[int]:
        """The human seats whose players are here (their votes decide a rematch)."""
        return [s.index for s in self.table.seats if s.kind == "human" and s.connected and not s.auto]

    def check_absent(self, now: float) -> tuple[list[Effect], list[float]]:
        """Hand seats whose players stayed away ``seat_timeout`` to a built-in player; returns the effects and the
        times the other absent seats run out."""
        effects: list[Effect] = []
        deadlines: list[float] = []
        for seat, since in list(self.gone_since.items()):
            if self.table.seats[seat].connected:
                # Still marked connected: either a live connection holds the seat again (its player is back),
                # or its last connection is closing after a ``bye`` and its disconnect, still to come, decides.
                if any(link.seat == seat and link.ready and link.closing is None for link in self.links.values()):
                    self.gone_since.pop(seat)
            elif now - since >= self.opts.seat_timeout:
                self.gone_since.pop(seat)
                self.table.seats[seat].auto = True
                log.info("seat %d is absent: a built-in player takes over", seat)
                effects += self._broadcast_seats()
                # Its player no longer counts for a rematch: the votes of those here may now suffice (after a
                # host restart, an absent player never "leaves", so this is where their votes are checked).
                record = None if self.stopping else self.table.rematch_if_agreed(self.present_humans())
                if record is not None:
                    effects.append(self._commit([record], kind="snapshot"))
            else:
                deadlines.append(since + self.opts.seat_timeout)
        return effects, deadlines

    # -- messages ---------------------------------------------------------------------------------------------

    def seat_entries(self) -> list[JSONValue]:
        """All seats as peers see them."""
        return [seat_entry(s.index, s.kind, s.name, s.connected, s.auto) for s in self.table.seats]

    def rematch_votes(self) -> RematchVotes:
        """Who has voted for a rematch."""
        return RematchVotes(self.table.game_no, sorted(self.table.rematch_votes))

    def votes_line(self) -> bytes:
        """The rematch tally as a line, or nothing when no vote stands (a new game began): what follows the
        snapshot of a peer whose tallies were dropped while it lagged."""
        return encode(self.rematch_votes().to_wire()) if self.table.rematch_votes else b""

    def _decision(self, d: OpenDecision | None) -> Decision | None:
        if d is None:
            return None
        deadline_ms = None if d.deadline is None else max(0, int((d.deadline - self.table.clock()) * 1000))
        inline = len(d.legal_json) <= self.opts.legal_inline_limit
        return Decision(d.id, Raw(d.legal_json) if inline else None, d.count, deadline_ms)

    def state_line(
        self, seat: int | None, kind: str, *, ack: Mapping[str, Encodable] | None = None, shared: str | None = None
    ) -> bytes:
        """The encoded ``update``/``snapshot`` line for one seat (None = spectator), spliced from the fragments
        the core built once for this state (:meth:`Table.fragments`); ``shared``: the :meth:`shared_part` of
        ``kind`` for this state, when the caller builds several seats' lines."""
        table = self.table
        fragments = table.fragments()
        return StateMessage.splice(
            kind,
            self.shared_part(kind) if shared is None else shared,
            view=fragments.views[seat],
            decision=self._decision(table.decision_for(seat)),
            events=fragments.events[seat] if kind == "update" else None,
            ack=ack,
        )

    def shared_part(self, kind: str) -> str:
        """What every seat's ``kind`` line of the current state shares (:meth:`StateMessage.shared_part`)."""
        table = self.table
        fragments = table.fragments()
        over = table.game.is_over()
        return StateMessage.shared_part(
            kind,
            game_no=table.game_no,
            state_id=table.state_id,
            state_hash=fragments.state_hash,
            to_act=sorted(table.decisions) if table.started else [],
            over=over,
            outcome=fragments.outcome_json if over else None,
        )

    def snapshot(self, link: Link, ack: Ack | None) -> tuple[bytes, bool]:
        """A snapshot for ``link`` carrying ``ack`` (an update it never got); (line, whether the ack went out).

        A bug building it costs this one message (``internal``), not the host; the ack waits for the next one.
        """
        try:
            return self.state_line(link.seat, "snapshot", ack=ack), True
        except Exception as exc:
            log.exception("cannot build a snapshot for connection %d", link.id)
            error = self._error_message(link, ProtocolError("internal", f"{type(exc).__name__} in the host"), None)
            return encode(error.to_wire()), False

    def _commit(
        self, records: Sequence[Record], *, kind: str, ack_seat: int | None = None, ack: Ack | None = None
    ) -> Commit:
        """The records and every ready connection's message for the state the table is in now."""
        seats: set[int] = set()
        spectators = False
        for link in self.links.values():
            if link.ready:
                if link.spectator:
                    spectators = True
                elif link.seat is not None:
                    seats.add(link.seat)
        order = sorted(seats)
        try:
            fan = self.table.fragments().fan
            shared: str | None = None if fan is not None else self.shared_part(kind)
        except Exception:
            log.exception("cannot build the %s of state %d; every seat gets a snapshot", kind, self.table.state_id)
            fan = shared = None
        if fan is not None:
            lines = self._lines_of(fan, kind, order, spectators, ack_seat, ack)
        else:
            lines = [self._state_or_none(seat, kind, ack if seat == ack_seat else None, shared) for seat in order]
            if spectators:
                lines.append(self._state_or_none(None, kind, None, shared))
        deliveries = [Delivery(seat, line, ack if seat == ack_seat else None) for seat, line in zip(order, lines)]
        if spectators:
            deliveries.append(Delivery(None, lines[-1], None))
        return Commit(tuple(records), tuple(deliveries), self.table.game.is_over())

    def _lines_of(
        self, fan: FanOutLike, kind: str, seats: list[int], spectators: bool, ack_seat: int | None, ack: Ack | None
    ) -> list[bytes | None]:
        """Every seat's line (then the spectators') from the core's fan-out in one native call; all None when it
        fails (:meth:`_state_or_none`)."""
        table = self.table
        limit = self.opts.legal_inline_limit
        decisions: list[DecisionParts | None] = []
        for seat in seats:
            d = table.decisions.get(seat)
            if d is None:
                decisions.append(None)
                continue
            deadline_ms = None if d.deadline is None else max(0, int((d.deadline - table.clock()) * 1000))
            decisions.append((d.id, d.count, deadline_ms, d.legal_json if len(d.legal_json) <= limit else None))
        # The fan-out's observers are [0, .., players - 1, None]: a seat is its own position, spectators last.
        wanted = [*seats, len(table.seats)] if spectators else seats
        if spectators:
            decisions.append(None)
        mover = None if ack is None or ack_seat not in seats else (seats.index(ack_seat), ack_json(ack))
        to_act = sorted(table.decisions) if table.started else []
        try:
            return fan.lines(kind, table.game_no, table.state_id, to_act, wanted, decisions, mover, MAX_HOST_LINE)
        except Exception:
            log.exception("cannot build the %s lines of state %d; every seat gets a snapshot", kind, table.state_id)
            return [None] * len(wanted)

    def _state_or_none(self, seat: int | None, kind: str, ack: Ack | None, shared: str | None) -> bytes | None:
        """The seat's state line, or None when building it failed.

        The state has changed (and is journalled) by now, so a failure for one seat must neither hide the change
        from the others nor be reported as if nothing happened: that seat gets a fresh snapshot instead, and
        when it is the mover, that snapshot carries its ack.
        """
        if shared is None:
            return None
        try:
            return self.state_line(seat, kind, ack=ack, shared=shared)
        except Exception:
            log.exception("cannot build the %s for seat %s; it gets a snapshot instead", kind, seat)
            return None

    def spectator_count(self) -> int:
        """How many spectators are connected (admitted and not gone)."""
        return sum(1 for link in self.links.values() if link.spectator and link.ready)

    def _broadcast_seats(self) -> list[Effect]:
        seats = SeatsChanged(self.seat_entries(), self.table.started, self.spectator_count())
        return self._broadcast(seats.to_wire())

    def _broadcast(self, msg: dict[str, Encodable], kind: str = "ctl") -> list[Effect]:
        data = encode(msg)
        return [Send(link, kind, data) for link in self.links.values() if link.ready]

    @staticmethod
    def _ctl(link: Link, msg: TableInfo | Welcome | HostError | LegalPage | RematchVotes | Pong) -> Send:
        return Send(link, "ctl", encode(msg.to_wire()))

    def _error_message(self, link: Link, exc: ProtocolError, ref: int | str | None) -> HostError:
        decision = self.table.decision_for(link.seat)
        return HostError(
            exc.code,
            exc.reason,
            self.table.state_id,
            None if decision is None else decision.id,
            ref=ref,
            detail=exc.detail,
        )

    def _error(self, link: Link, exc: ProtocolError, ref: int | str | None = None) -> Send:
        return self._ctl(link, self._error_message(link, exc, ref))

    def _close(self, link: Link, reason: str) -> list[Effect]:
        link.closing = link.closing or reason
        return [Close(link, reason)]

    def _fail(self, link: Link, exc: ProtocolError) -> list[Effect]:
        """Report ``exc`` and close the connection."""
        return [self._error(link, exc), *self._close(link, exc.code)]
