"""A peer's side of the protocol, without I/O: :class:`PeerSession`.

The session performs the handshake, mirrors the table (checking the public hash of every state), asks for a
snapshot on a gap or a hash mismatch, pages long legal-move lists, answers pings, remembers which decisions
were answered, and keeps what a reconnect needs (the seat token, the backoff). It never applies a move
locally: the host's next update is the only truth. The trio layer (:mod:`cardnet.net.peer`) moves the bytes.
"""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union, cast

from ..codec import (
    CHAT_HISTORY_LINES,
    HOST_CAPABILITIES,
    MAX_DEPTH,
    MAX_HOST_LINE,
    MAX_PEER_LINE,
    PROTOCOL_VERSION,
    JSONValue,
    ProtocolError,
    auth_mac,
    decode_line,
    encode,
)
from .messages import (
    ChatMessage,
    ClientMessage,
    Hello,
    HostError,
    LegalPage,
    LegalRequest,
    Move,
    Ping,
    Pong,
    RematchVotes,
    SeatsChanged,
    SnapshotRequest,
    StateMessage,
    TableInfo,
    Welcome,
    parse_host_message,
)

CLIENT_NAME = "cardnet-peer/1"

#: Refusals that reconnecting cannot fix; any other refusal is retried with backoff (``shutting_down`` marks the
#: table closed on purpose: see :attr:`PeerSession.closed_by_host`).
PERMANENT_REFUSALS = frozenset({"auth_failed", "bad_token", "no_seat", "table_full", "unsupported_version", "replaced"})
#: Fatal errors after the handshake that end the session for good.
_FINAL_ERRORS = frozenset({"replaced", "bad_token", "auth_failed"})
#: Host messages nest a view inside a message; give them room beyond a peer message's limit.
HOST_MAX_DEPTH = 2 * MAX_DEPTH


#: Why a peer without a password cannot join a table that has one, and how to give it.
NEEDS_PASSWORD = "this table needs a password: give it with --password-file FILE or CARDNET_PASSWORD"


class PeerError(Exception):
    """The host refused us for good (bad token, wrong password, table full, ...)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


@dataclass
class ConnectionLost:
    """The connection to the host dropped; the peer reconnects (when ``reconnect`` is on) with its token.

    ``silent``: the connection was still open, but the host sent nothing for its whole heartbeat window (a host
    that hangs, or a network that stopped carrying its packets), rather than closing or failing.
    """

    reason: str
    silent: bool = False


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

#: Why a connection ended when the host gave no reason.
_CLOSED_BY_HOST = "the host closed the connection"


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
    info: TableInfo | None = None

    @property
    def table_info(self) -> TableInfo:
        """The table's ``table`` message, typed (raises PeerError before the first handshake)."""
        if self.info is None:
            raise PeerError("not_connected", "the host has not described its table yet")
        return self.info


@dataclass
class Step:
    """What one received line asks of the I/O layer: lines to send, events to deliver, and whether the
    connection is over (a fatal error the session may recover from by reconnecting)."""

    send: list[bytes] = field(default_factory=list)
    events: list[PeerEvent] = field(default_factory=list)
    lost: bool = False


class PeerSession:
    """One peer's protocol state, across reconnects; synchronous, never blocks, does no I/O.

    Call :meth:`connection_made` for every new connection, then :meth:`receive_line` for each line the host
    sends; :attr:`phase` is ``"open"`` once the welcome arrived.
    """

    def __init__(
        self,
        *,
        name: str,
        spectate: bool = False,
        seat: int | None = None,
        token: str | None = None,
        password: str | None = None,
        capabilities: tuple[str, ...] = HOST_CAPABILITIES,
        max_backoff: float = 5.0,
        give_up_after: float = 120.0,
        token_for: Callable[[TableInfo], str | None] | None = None,
    ) -> None:
        self.name, self.spectate, self.wanted_seat = name, spectate, seat
        #: Looks up a kept seat token for the table described (the seat store) when none was given.
        self.token_for = token_for
        self.password = password
        self.capabilities = capabilities
        self.max_backoff, self.give_up_after = max_backoff, give_up_after
        self.state = PeerState(token=token)
        self.phase = "closed"
        #: Decisions answered and not refused (a UI or bot asks for each open decision once).
        self.answered: set[int] = set()
        self._moves: dict[int | str, int] = {}  # ref of a move in flight -> the decision it answers
        self._paging: StateMessage | None = None
        self._paged: tuple[int, list[JSONValue]] | None = None
        self._fresh_connection = False
        self._ref = 0
        self._backoff = 0.1
        self._lost_at: float | None = None
        self._attempts = 0
        self._handshakes = 0
        self._lost_reason = _CLOSED_BY_HOST
        self._silent = False
        # The latest chat lines delivered, so the history a host replays on a reconnect is not shown twice.
        self._heard: deque[tuple[int | None, str, str]] = deque(maxlen=2 * CHAT_HISTORY_LINES)
        #: Whether the token in use came from the seat store rather than from the caller.
        self.token_from_store = False
        #: The host closed the table on purpose on the last connection (it said ``shutting_down``, or hung up
        #: once the game was over), rather than being lost: a client may stop instead of reconnecting.
        self.closed_by_host = False

    # -- sending ----------------------------------------------------------------------------------------------

    @staticmethod
    def encode(message: ClientMessage) -> bytes:
        """One line for the host."""
        return encode(message.to_wire(), MAX_PEER_LINE)

    def move(self, decision_id: int, move: JSONValue | None = None, index: int | None = None) -> tuple[int, bytes]:
        """A move answering ``decision_id`` (a move object or an index into its list): (its ref, its line).

        The decision counts as answered from now on, until the host refuses this move.
        """
        if (move is None) == (index is None):
            raise ValueError("give exactly one of move and index")
        if move is not None and not isinstance(move, dict):
            raise ValueError("a move is a JSON object")
        self._ref += 1
        ref = self._ref
        self.answered.add(decision_id)
        self._moves[ref] = decision_id
        return ref, self.encode(Move(decision_id, move, index, ref))

    def needs_answer(self, state: StateMessage) -> bool:
        """Whether ``state`` carries an open decision of ours that has not been answered yet."""
        return state.decision_id is not None and state.decision_id not in self.answered

    # -- connecting -------------------------------------------------------------------------------------------

    def connection_made(self) -> None:
        """A new connection is open: the host speaks first (its ``table`` message)."""
        self.phase = "table"
        self._lost_reason = _CLOSED_BY_HOST
        self._silent = False
        self.closed_by_host = False
        self._fresh_connection = True
        # A refusal of a move sent on an earlier connection can no longer arrive.
        self._moves.clear()

    def connection_lost(self) -> ConnectionLost:
        """The connection ended (for any reason); the event says why, as far as the peer knows."""
        self.phase = "closed"
        return ConnectionLost(self._lost_reason, self._silent)

    def host_hung_up(self) -> None:
        """The host ended the stream without a word. After the game is over that is the table closing (nothing is
        left to play for); during a game it is a loss like any other, and the peer reconnects."""
        last = self.state.last
        if last is not None and last.over:
            self.closed_by_host = True

    def host_silent(self, seconds: float) -> None:
        """The host sent nothing for ``seconds``: the connection is given up as lost."""
        self._lost_reason = f"no word from the host for {seconds:g} s"
        self._silent = True

    def connected(self) -> Reconnected | None:
        """The handshake succeeded: the reconnect backoff starts over. Returns the event of a reconnection
        (None for the first connection)."""
        self._backoff, self._lost_at = 0.1, None
        self._handshakes += 1
        attempts, self._attempts = self._attempts, 0
        return Reconnected(attempts) if self._handshakes > 1 else None

    def reconnect_delay(self, now: float, why: Exception) -> Reconnecting:
        """The next attempt and how long to wait for it (exponential backoff with jitter); raises PeerError
        once ``give_up_after`` seconds have passed without a connection."""
        self._lost_at = self._lost_at if self._lost_at is not None else now
        if now - self._lost_at > self.give_up_after:
            raise PeerError("connect_failed", f"gave up reconnecting: {why}") from why
        delay = self._backoff * (0.5 + random.random())
        self._backoff = min(self.max_backoff, self._backoff * 2)
        self._attempts += 1
        return Reconnecting(self._attempts, delay, str(why))

    def idle_timeout(self, default: float | None) -> float:
        """How long a silent host is given: ``default``, else three of its keepalive intervals (PROTOCOL.md
        section 9); 30 s before the host has said its interval."""
        keepalive = self.state.welcome.get("keepalive_ms")
        if default:
            return default
        return 3 * keepalive / 1000 if isinstance(keepalive, int) and keepalive > 0 else 30.0

    # -- receiving --------------------------------------------------------------------------------------------

    def receive_line(self, line: bytes) -> Step:
        """One line from the host. Raises PeerError for a refusal that reconnecting cannot fix (or, during the
        handshake, any refusal) and ProtocolError for a line that is not the protocol."""
        obj = decode_line(line, MAX_HOST_LINE, HOST_MAX_DEPTH)
        msg = parse_host_message(obj)
        step = Step()
        if self.phase == "table":
            if not isinstance(msg, TableInfo):
                raise ProtocolError("bad_message", "expected the table message")
            known = self.state.info
            if known is not None and msg.table_id != known.table_id:
                # Another table now answers at the old address: not ours; keep looking for ours.
                raise ProtocolError("wrong_table", f"another table ({msg.name!r}) answers there now")
            self.state.table, self.state.info = obj, msg
            step.send.append(self.encode(self._hello(msg)))
            self.phase = "welcome"
        elif self.phase == "welcome":
            if isinstance(msg, HostError):
                self.closed_by_host = msg.code == "shutting_down"
                raise PeerError(msg.code, msg.reason)
            if not isinstance(msg, Welcome):
                raise ProtocolError("bad_message", "expected a welcome")
            self._on_welcome(obj, msg)
        elif self.phase == "open" and msg is not None:
            self._on_message(msg, step)
        return step

    def _hello(self, table: TableInfo) -> Hello:
        if self.state.token is None and not self.spectate and self.token_for is not None:
            self.state.token = self.token_for(table)
            self.token_from_store = self.state.token is not None
        token = self.state.token if not self.spectate else None
        auth: str | None = None
        if table.password:
            if self.password is None:
                raise PeerError("auth_failed", NEEDS_PASSWORD)
            auth = auth_mac(self.password, table.table_id, table.challenge)
        return Hello(
            protocol=PROTOCOL_VERSION,
            name=self.name,
            role="spectator" if self.spectate else "player",
            capabilities=tuple(self.capabilities),
            seat=self.wanted_seat if token is None else None,
            token=token,
            auth=auth,
            client=CLIENT_NAME,
        )

    def _on_welcome(self, obj: dict[str, JSONValue], welcome: Welcome) -> None:
        self.state.welcome = obj
        self.state.seat = welcome.seat
        if welcome.token is not None:
            self.state.token = welcome.token
        self.state.capabilities = frozenset(welcome.capabilities)
        self.state.connects += 1
        self.phase = "open"

    def _on_message(self, msg: object, step: Step) -> None:
        if isinstance(msg, StateMessage):
            self.on_state(msg, step)
        elif isinstance(msg, LegalPage):
            self._on_legal_page(msg, step)
        elif isinstance(msg, Ping):
            step.send.append(self.encode(Pong(msg.id)))
        elif isinstance(msg, HostError):
            if msg.fatal:
                # Every fatal error ends the connection; ``shutting_down`` says the host stops on purpose.
                self.closed_by_host = msg.code == "shutting_down"
                if msg.code in _FINAL_ERRORS:
                    self.phase = "closed"
                    raise PeerError(msg.code, msg.reason)
                self._lost_reason = msg.reason
                step.lost = True
                return
            if isinstance(msg.ref, (int, str)) and not isinstance(msg.ref, bool):
                refused = self._moves.pop(msg.ref, None)
                if refused is not None:
                    # The host changed nothing: the same decision is ours to answer again.
                    self.answered.discard(refused)
            step.events.append(msg)
        elif isinstance(msg, ChatMessage):
            key = (msg.seat, msg.name, msg.text)
            if msg.earlier and key in self._heard:
                # Replayed after a reconnect: this peer has shown that line already.
                return
            self._heard.append(key)
            step.events.append(msg)
        elif isinstance(msg, (SeatsChanged, RematchVotes)):
            step.events.append(msg)

    def on_state(self, state: StateMessage, step: Step) -> None:
        """An update or snapshot: checked, mirrored, paged if needed, then delivered."""
        last = self.state.last
        if not state.hash_ok():
            self.state.hash_mismatches += 1
            step.send.append(self.encode(SnapshotRequest()))
            return
        if state.ack is not None:
            ref = state.ack.get("ref")
            if isinstance(ref, (int, str)) and not isinstance(ref, bool):
                self._moves.pop(ref, None)
        if self._fresh_connection:
            self._fresh_connection = False
            if state.decision_id is not None:
                # After a reconnect the host may never have read our answer: a still-open decision is re-asked.
                self.answered.discard(state.decision_id)
        if (
            state.kind == "update"
            and last is not None
            and state.game_no == last.game_no
            and state.state_id != last.state_id + 1
        ):
            self.state.gaps += 1
            step.send.append(self.encode(SnapshotRequest()))
        self.state.last = state
        if state.paged and self._paged is not None and self._paged[0] == state.decision_id:
            # Every state repeats the open decision; its pages were already fetched.
            state.legal = list(self._paged[1])
        elif state.paged and state.decision_id is not None and state.count > 0:
            # The list was too long to inline: fetch it page by page and deliver the state once complete.
            self._paging = state
            step.send.append(self.encode(LegalRequest(state.decision_id, 0)))
            return
        paging_game = (self._paging or state).game_no
        if state.decision_id is not None or state.kind == "snapshot" or state.game_no != paging_game:
            self._paging = None
        step.events.append(state)

    def _on_legal_page(self, page: LegalPage, step: Step) -> None:
        state = self._paging
        if state is None or page.decision_id != state.decision_id or page.offset != len(state.legal):
            return
        state.legal.extend(cast("list[JSONValue]", page.moves))
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
            step.events.append(state)
        elif page.moves and state.decision_id is not None:
            step.send.append(self.encode(LegalRequest(state.decision_id, len(state.legal))))
