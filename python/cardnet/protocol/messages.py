"""Every message of the cardnet protocol, in both directions, as a typed class.

Each class is the one place its message is built (``to_wire()``, a dict of canonical-JSON-encodable values) and
parsed (:func:`parse_client_message` for what peers send, :func:`parse_host_message` for what the host sends).
The host builds ``update``/``snapshot`` messages from pre-encoded fragments of the core (:class:`~.codec.Raw`),
so a view is encoded once, not once per message; :meth:`StateMessage.wire` is that builder.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Union

from ..codec import (
    ERROR_CODES,
    LEGAL_PAGE,
    MAX_CHAT_CHARS,
    MAX_HOST_LINE,
    MAX_INT,
    MAX_PEER_LINE,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    Encodable,
    Fields,
    JSONValue,
    ProtocolError,
    Raw,
    CAP_RE,
    HEX64_RE,
    NAME_RE,
    TOKEN_RE,
    canonical,
    state_hash_of,
)
from .. import native
from ..native import parse_move_line as native_parse_move_line

Ref = Union[int, str, None]


def _with_ref(out: dict[str, Encodable], ref: Ref) -> dict[str, Encodable]:
    if ref is not None:
        out["ref"] = ref
    return out


# ---------------------------------------------------------------------------------------------------------------
# Peer -> host


@dataclass(frozen=True)
class Hello:
    """First message of a peer: version, wanted capabilities, role, and how to get a seat."""

    protocol: int
    name: str
    role: str  # "player" | "spectator"
    capabilities: tuple[str, ...] = ()
    seat: int | None = None
    token: str | None = None
    auth: str | None = None
    client: str | None = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        out: dict[str, Encodable] = {
            "type": "hello",
            "protocol": self.protocol,
            "name": self.name,
            "role": self.role,
            "capabilities": list(self.capabilities),
        }
        for key, value in (("seat", self.seat), ("token", self.token), ("auth", self.auth), ("client", self.client)):
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True)
class Move:
    """A move answering the open decision ``decision_id``: either the move object or an index into its list."""

    decision_id: int
    move: dict[str, JSONValue] | None = None
    index: int | None = None
    ref: Ref = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        out: dict[str, Encodable] = {"type": "move", "decision_id": self.decision_id}
        if self.move is not None:
            out["move"] = self.move
        else:
            out["index"] = self.index
        return _with_ref(out, self.ref)


@dataclass(frozen=True)
class Chat:
    """A chat line from a peer."""

    text: str
    ref: Ref = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        return _with_ref({"type": "chat", "text": self.text}, self.ref)


@dataclass(frozen=True)
class SnapshotRequest:
    """A peer asks for a full snapshot (after a gap or a hash mismatch)."""

    ref: Ref = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        return _with_ref({"type": "snapshot"}, self.ref)


@dataclass(frozen=True)
class LegalRequest:
    """A page of an open decision's legal moves (for decisions sent with ``legal: null``)."""

    decision_id: int
    offset: int
    limit: int = LEGAL_PAGE
    ref: Ref = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        out: dict[str, Encodable] = {
            "type": "legal",
            "decision_id": self.decision_id,
            "offset": self.offset,
            "limit": self.limit,
        }
        return _with_ref(out, self.ref)


@dataclass(frozen=True)
class Rematch:
    """A vote for another game with the same seats (only once the game is over)."""

    ref: Ref = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        return _with_ref({"type": "rematch"}, self.ref)


@dataclass(frozen=True)
class Ping:
    """Keepalive probe (either direction); answered with a :class:`Pong` carrying the same id."""

    id: int

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        return {"type": "ping", "id": self.id}


@dataclass(frozen=True)
class Pong:
    """Answer to a :class:`Ping` (either direction)."""

    id: int

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        return {"type": "pong", "id": self.id}


@dataclass(frozen=True)
class Bye:
    """A peer leaving on purpose (its seat is then played by a built-in player at once)."""

    ref: Ref = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        return _with_ref({"type": "bye"}, self.ref)


ClientMessage = Union[Hello, Move, Chat, SnapshotRequest, LegalRequest, Rematch, Ping, Pong, Bye]


def _ref(f: Fields) -> Ref:
    return f.ref()


def parse_move_line(line: bytes) -> Move | None:
    """The move of an index ``move`` line (keys in any order, any spacing, integers of at most 15 digits, a plain
    string ``ref``), without the JSON decoder; None for any other line (then :func:`~cardnet.codec.decode_line`
    and :func:`parse_client_message` decide). The rule is the core's, the one the fast path and the native lane
    use (:func:`cardnet.native.parse_move_line`); a match means exactly what the full parse makes of the line."""
    parsed = native_parse_move_line(line)
    if parsed is None:
        return None
    decision_id, index, ref = parsed
    return Move(decision_id, None, index, ref)


def parse_client_message(obj: Mapping[str, JSONValue]) -> ClientMessage:
    """Validate a decoded peer message and return its typed form (unknown extra fields are ignored)."""
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "missing string field 'type'")
    f = Fields(obj)
    if kind == "hello":
        return _parse_hello(f)
    if kind == "move":
        decision_id = f.req_int("decision_id")
        move = obj.get("move")
        # Any integer parses: whether it is in 0..count-1 is the table's check (invalid_move, section 5).
        index = f.opt_int("index", required=False, lo=-MAX_INT)
        if (move is None) == (index is None):
            raise ProtocolError("bad_message", "a move carries exactly one of 'move' and 'index'")
        if move is not None and not isinstance(move, dict):
            raise ProtocolError("bad_message", "field 'move' must be an object")
        return Move(decision_id, move if isinstance(move, dict) else None, index, _ref(f))
    if kind == "chat":
        text = f.string("text")
        assert text is not None
        return Chat(text, _ref(f))
    if kind == "snapshot":
        return SnapshotRequest(_ref(f))
    if kind == "legal":
        limit = f.opt_int("limit", required=False, lo=1, hi=LEGAL_PAGE)
        return LegalRequest(
            f.req_int("decision_id"), f.req_int("offset"), LEGAL_PAGE if limit is None else limit, _ref(f)
        )
    if kind == "rematch":
        return Rematch(_ref(f))
    if kind == "ping":
        return Ping(f.req_int("id"))
    if kind == "pong":
        return Pong(f.req_int("id"))
    if kind == "bye":
        return Bye(_ref(f))
    raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}")


def _parse_hello(f: Fields) -> Hello:
    protocol = f.req_int("protocol", 1, 1 << 16)
    name = f.string("name", pattern=NAME_RE)
    assert name is not None
    role = f.string("role", required=False) or "player"
    if role not in ("player", "spectator"):
        raise ProtocolError("bad_message", "field 'role' must be 'player' or 'spectator'")
    caps_raw = f.obj.get("capabilities", [])
    if not isinstance(caps_raw, list) or len(caps_raw) > 64:
        raise ProtocolError("bad_message", "field 'capabilities' must be a list of at most 64 names")
    caps: list[str] = []
    for cap in caps_raw:
        if not isinstance(cap, str) or not CAP_RE.fullmatch(cap):
            raise ProtocolError("bad_message", "capability names are 1-32 of [a-z0-9_]")
        caps.append(cap)
    return Hello(
        protocol=protocol,
        name=name,
        role=role,
        capabilities=tuple(caps),
        seat=f.opt_int("seat", required=False, hi=255),
        token=f.string("token", required=False, pattern=TOKEN_RE),
        auth=f.string("auth", required=False, pattern=HEX64_RE),
        client=(f.string("client", required=False) or "")[:64] or None,
    )


# ---------------------------------------------------------------------------------------------------------------
# Host -> peer


def _int_list(obj: Mapping[str, JSONValue], name: str) -> list[int]:
    value = obj.get(name)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ProtocolError("bad_message", f"field {name!r} must be a list of integers")
    return [v for v in value if isinstance(v, int)]


def _list(obj: Mapping[str, JSONValue], name: str, default: list[JSONValue] | None = None) -> list[JSONValue]:
    value = obj.get(name, default)
    if not isinstance(value, list):
        raise ProtocolError("bad_message", f"field {name!r} must be a list")
    return value


def _dict(obj: Mapping[str, JSONValue], name: str) -> dict[str, JSONValue]:
    value = obj.get(name)
    if not isinstance(value, dict):
        raise ProtocolError("bad_message", f"field {name!r} must be an object")
    return value


def seat_entry(index: int, kind: str, name: str | None, connected: bool, auto: bool) -> dict[str, JSONValue]:
    """One seat as every peer sees it (in ``table`` and ``seats`` messages)."""
    return {"seat": index, "kind": kind, "name": name, "connected": connected, "auto": auto}


@dataclass(frozen=True)
class TableInfo:
    """The first message on every connection: what this table is, and the challenge for a password proof."""

    capabilities: tuple[str, ...]
    table_id: str
    name: str
    game: str
    players: int
    options: dict[str, JSONValue]
    seeded: bool
    password: bool
    challenge: str
    started: bool
    game_no: int
    seats: list[JSONValue]
    versions: tuple[int, ...] = SUPPORTED_VERSIONS
    #: The TCP port of the host's web seat (the page and its WebSocket, on the host's same address); None: none.
    web: int | None = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form (the limits are this implementation's own; ``web`` only when the table has a web seat)."""
        wire: dict[str, Encodable] = {
            "type": "table",
            "versions": list(self.versions),
            "capabilities": list(self.capabilities),
            "table_id": self.table_id,
            "name": self.name,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seeded": self.seeded,
            "password": self.password,
            "challenge": self.challenge,
            "started": self.started,
            "game_no": self.game_no,
            "seats": self.seats,
            "limits": {"peer_line": MAX_PEER_LINE, "host_line": MAX_HOST_LINE, "chat_chars": MAX_CHAT_CHARS},
        }
        if self.web is not None:
            wire["web"] = self.web
        return wire

    @classmethod
    def parse(cls, obj: Mapping[str, JSONValue]) -> TableInfo:
        """Validate a ``table`` message (what the handshake needs is required; the rest has defaults)."""
        f = Fields(obj)
        options = obj.get("options", {})
        if not isinstance(options, dict):
            raise ProtocolError("bad_message", "field 'options' must be an object")
        web = f.opt_int("web", required=False, lo=1, hi=65535)
        return cls(
            capabilities=tuple(c for c in _list(obj, "capabilities", []) if isinstance(c, str)),
            table_id=f.string("table_id") or "",
            name=f.string("name", required=False) or "",
            game=f.string("game", required=False) or "",
            players=f.opt_int("players", required=False) or 0,
            options=options,
            seeded=obj.get("seeded") is True,
            password=obj.get("password") is True,
            challenge=f.string("challenge") or "",
            started=obj.get("started") is True,
            game_no=f.opt_int("game_no", required=False) or 0,
            seats=_list(obj, "seats", []),
            versions=tuple(_int_list(obj, "versions")),
            web=web,
        )


@dataclass(frozen=True)
class Welcome:
    """The host admitted the peer: its seat (None for a spectator), a new seat token, agreed capabilities."""

    protocol: int
    capabilities: tuple[str, ...]
    seat: int | None
    token: str | None
    keepalive_ms: int
    idle_timeout_ms: int
    turn_timer_ms: int | None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        return {
            "type": "welcome",
            "protocol": self.protocol,
            "capabilities": sorted(self.capabilities),
            "seat": self.seat,
            "token": self.token,
            "keepalive_ms": self.keepalive_ms,
            "idle_timeout_ms": self.idle_timeout_ms,
            "turn_timer_ms": self.turn_timer_ms,
        }

    @classmethod
    def parse(cls, obj: Mapping[str, JSONValue]) -> Welcome:
        """Validate a ``welcome`` message (fields a peer can do without have defaults)."""
        f = Fields(obj)
        return cls(
            protocol=f.opt_int("protocol", required=False) or PROTOCOL_VERSION,
            capabilities=tuple(c for c in _list(obj, "capabilities", []) if isinstance(c, str)),
            seat=f.opt_int("seat", required=False),
            token=f.string("token", required=False),
            keepalive_ms=f.opt_int("keepalive_ms", required=False) or 0,
            idle_timeout_ms=f.opt_int("idle_timeout_ms", required=False) or 0,
            turn_timer_ms=f.opt_int("turn_timer_ms", required=False),
        )


@dataclass
class HostError:
    """A structured error, sent to the offending peer only; ``fatal`` ones close the connection."""

    code: str
    reason: str
    state_id: int
    decision_id: int | None
    ref: JSONValue = None
    detail: JSONValue = None
    fatal: bool | None = None

    def __post_init__(self) -> None:
        if self.fatal is None:
            self.fatal = ERROR_CODES.get(self.code, True)

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        msg: dict[str, Encodable] = {
            "type": "error",
            "code": self.code,
            "reason": self.reason,
            "fatal": bool(self.fatal),
            "state_id": self.state_id,
            "decision_id": self.decision_id,
        }
        if self.ref is not None:
            msg["ref"] = self.ref
        if self.detail is not None:
            msg["detail"] = self.detail
        return msg

    @classmethod
    def parse(cls, obj: Mapping[str, JSONValue]) -> HostError:
        """Validate an ``error`` message."""
        f = Fields(obj)
        return cls(
            code=f.string("code") or "",
            reason=f.string("reason") or "",
            state_id=f.opt_int("state_id", required=False) or 0,
            decision_id=f.opt_int("decision_id", required=False),
            ref=obj.get("ref"),
            detail=obj.get("detail"),
            fatal=obj.get("fatal") is True,
        )


def ack_json(ack: Mapping[str, Encodable]) -> str:
    """Canonical JSON of an ack; the usual ``{decision_id, ref}`` with integer or absent ref without the encoder."""
    decision_id, ref = ack.get("decision_id"), ack.get("ref")
    if len(ack) == 2 and type(decision_id) is int and "ref" in ack and (ref is None or type(ref) is int):
        return f'{{"decision_id":{decision_id},"ref":{"null" if ref is None else ref}}}'
    return canonical(ack)


@dataclass
class Decision:
    """An open decision for one seat as the host sends it."""

    id: int
    legal: Raw | None  # canonical JSON list of moves from the core; None when too long to inline
    count: int
    deadline_ms: int | None = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form of the decision."""
        return {"id": self.id, "legal": self.legal, "count": self.count, "deadline_ms": self.deadline_ms}


@dataclass
class StateMessage:
    """An ``update`` (after a move, with events) or a ``snapshot`` (on join, request or resync), as decoded."""

    kind: str
    game_no: int
    state_id: int
    hash: str
    view: dict[str, JSONValue]
    to_act: list[int]
    decision_id: int | None
    legal: list[JSONValue]
    count: int
    paged: bool
    deadline_ms: int | None
    over: bool
    outcome: JSONValue
    events: list[JSONValue] = field(default_factory=list)
    ack: dict[str, JSONValue] | None = None

    def hash_ok(self) -> bool:
        """Whether ``hash`` matches the canonical public view this message carries."""
        return state_hash_of(self.view.get("public")) == self.hash

    @staticmethod
    def wire(
        kind: str,
        *,
        game_no: int,
        state_id: int,
        state_hash: str,
        view: Encodable,
        to_act: Sequence[int],
        decision: Decision | None,
        over: bool,
        outcome: Encodable,
        events: Encodable = None,
        ack: Mapping[str, Encodable] | None = None,
    ) -> dict[str, Encodable]:
        """The wire form of an ``update``/``snapshot`` (the host passes the core's fragments as :class:`Raw`).

        ``ack`` goes to the mover only: in its update, or in the snapshot that replaces an update it could not
        get.
        """
        msg: dict[str, Encodable] = {
            "type": kind,
            "game_no": game_no,
            "state_id": state_id,
            "hash": state_hash,
            "view": view,
            "to_act": list(to_act),
            "decision": decision.to_wire() if decision is not None else None,
            "over": over,
            "outcome": outcome,
        }
        if kind == "update":
            msg["events"] = events if events is not None else Raw("[]")
        if ack is not None:
            msg["ack"] = ack
        return msg

    @staticmethod
    def line(
        kind: str,
        *,
        game_no: int,
        state_id: int,
        state_hash: str,
        view: str,
        to_act: Sequence[int],
        decision: Decision | None,
        over: bool,
        outcome: str | None,
        events: str | None = None,
        ack: Mapping[str, Encodable] | None = None,
        limit: int = MAX_HOST_LINE,
    ) -> bytes:
        """The encoded line of :meth:`wire` (same bytes, ``\\n`` included), spliced from canonical fragments.

        The host's per-move path: ``view``, ``events``, ``outcome`` and the decision's legal list are the core's
        canonical text and are copied, never re-encoded; the keys are written in their canonical (sorted) order.
        ValueError when the line exceeds ``limit``, as :func:`~.codec.encode`.
        """
        shared = StateMessage.shared_part(
            kind, game_no=game_no, state_id=state_id, state_hash=state_hash, to_act=to_act, over=over, outcome=outcome
        )
        return StateMessage.splice(kind, shared, view=view, decision=decision, events=events, ack=ack, limit=limit)

    @staticmethod
    def shared_part(
        kind: str,
        *,
        game_no: int,
        state_id: int,
        state_hash: str,
        to_act: Sequence[int],
        over: bool,
        outcome: str | None,
    ) -> str:
        """The part of a state line that every seat's line of one state shares (``game_no`` through ``type``),
        built once per state and handed to :meth:`splice` for each seat."""
        return native.state_shared(
            kind, int(game_no), int(state_id), state_hash, [int(s) for s in to_act], over, outcome
        )

    @staticmethod
    def splice(
        kind: str,
        shared: str,
        *,
        view: str,
        decision: Decision | None,
        events: str | None = None,
        ack: Mapping[str, Encodable] | None = None,
        limit: int = MAX_HOST_LINE,
    ) -> bytes:
        """One seat's line of :meth:`line`, around the :meth:`shared_part` of its state (built for ``kind``);
        the bytes are the core's (:func:`cardnet.native.state_line`), as every path's."""
        wire_decision = None
        if decision is not None:
            legal = None if decision.legal is None else decision.legal.text
            deadline = None if decision.deadline_ms is None else int(decision.deadline_ms)
            wire_decision = (int(decision.id), int(decision.count), deadline, legal)
        ack_text = None if ack is None else ack_json(ack)
        update = kind == "update"
        data = native.state_line(shared, update, ack_text, wire_decision, "[]" if events is None else events, view)
        if len(data) > limit + 1:
            raise ValueError(f"message of {len(data) - 1} bytes exceeds the {limit}-byte line limit")
        return data

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form of this decoded message (a paged decision goes back out with ``legal: null``)."""
        decision = None
        if self.decision_id is not None:
            legal = None if self.paged else Raw(canonical(self.legal))
            decision = Decision(self.decision_id, legal, self.count, self.deadline_ms)
        return StateMessage.wire(
            self.kind,
            game_no=self.game_no,
            state_id=self.state_id,
            state_hash=self.hash,
            view=self.view,
            to_act=self.to_act,
            decision=decision,
            over=self.over,
            outcome=self.outcome,
            events=self.events,
            ack=self.ack,
        )

    @classmethod
    def parse(cls, obj: Mapping[str, JSONValue]) -> StateMessage:
        """Validate an ``update``/``snapshot`` from the host."""
        f = Fields(obj)
        kind = f.string("type")
        if kind not in ("update", "snapshot"):
            raise ProtocolError("bad_message", "expected an update or a snapshot")
        view = _dict(obj, "view")
        to_act = obj.get("to_act")
        if not isinstance(to_act, list) or not all(isinstance(s, int) for s in to_act):
            raise ProtocolError("bad_message", "field 'to_act' must be a list of seats")
        decision = obj.get("decision")
        decision_id: int | None = None
        legal: list[JSONValue] = []
        deadline: int | None = None
        paged = False
        count = 0
        if decision is not None:
            if not isinstance(decision, dict):
                raise ProtocolError("bad_message", "field 'decision' must be an object or null")
            df = Fields(decision)
            decision_id = df.req_int("id")
            raw_legal = decision.get("legal")
            if raw_legal is not None and not isinstance(raw_legal, list):
                raise ProtocolError("bad_message", "field 'decision.legal' must be a list or null")
            legal = raw_legal if raw_legal is not None else []
            paged = raw_legal is None
            count = df.req_int("count")
            deadline = df.opt_int("deadline_ms", required=False)
        events = _list(obj, "events", [])
        ack = obj.get("ack")
        return cls(
            kind=kind,
            game_no=f.req_int("game_no"),
            state_id=f.req_int("state_id"),
            hash=f.string("hash") or "",
            view=view,
            to_act=[int(s) for s in to_act if isinstance(s, int)],
            decision_id=decision_id,
            legal=legal,
            count=count,
            paged=paged,
            deadline_ms=deadline,
            over=bool(obj.get("over")),
            outcome=obj.get("outcome"),
            events=events,
            ack=ack if isinstance(ack, dict) else None,
        )


@dataclass
class LegalPage:
    """One page of an open decision's legal moves (the answer to a :class:`LegalRequest`)."""

    decision_id: int
    offset: int
    count: int
    moves: Sequence[Encodable]

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        return {
            "type": "legal",
            "decision_id": self.decision_id,
            "offset": self.offset,
            "count": self.count,
            "moves": self.moves,
        }

    @classmethod
    def parse(cls, obj: Mapping[str, JSONValue]) -> LegalPage:
        """Validate a ``legal`` page."""
        f = Fields(obj)
        return cls(f.req_int("decision_id"), f.req_int("offset"), f.req_int("count"), _list(obj, "moves"))


@dataclass
class ChatMessage:
    """A chat line relayed by the host; ``earlier`` marks a line said before this connection's welcome (the
    table's recent chat, replayed to a peer that joins or reconnects)."""

    seat: int | None
    name: str
    spectator: bool
    text: str
    earlier: bool = False

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form (``earlier`` only when true, so a live line is what it always was)."""
        wire: dict[str, Encodable] = {
            "type": "chat",
            "seat": self.seat,
            "name": self.name,
            "spectator": self.spectator,
            "text": self.text,
        }
        if self.earlier:
            wire["earlier"] = True
        return wire

    @classmethod
    def parse(cls, obj: Mapping[str, JSONValue]) -> ChatMessage:
        """Validate a relayed ``chat`` line."""
        f = Fields(obj)
        seat = f.opt_int("seat", required=False, hi=255)
        text = f.string("text") or ""
        return cls(seat, f.string("name") or "", obj.get("spectator") is True, text, obj.get("earlier") is True)


@dataclass
class SeatsChanged:
    """Who is at the table changed: a seat was taken, its player left or came back, a built-in player took over
    for someone, or a spectator came or went.

    ``spectators`` is how many spectators are connected now; None when the host did not say (a host older than
    that field, which peers must still accept).
    """

    seats: list[JSONValue]
    started: bool
    spectators: int | None = None

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        out: dict[str, Encodable] = {"type": "seats", "seats": self.seats, "started": self.started}
        if self.spectators is not None:
            out["spectators"] = self.spectators
        return out

    @classmethod
    def parse(cls, obj: Mapping[str, JSONValue]) -> SeatsChanged:
        """Validate a ``seats`` message."""
        spectators = Fields(obj).opt_int("spectators", required=False, lo=0)
        return cls(_list(obj, "seats"), obj.get("started") is True, spectators)


@dataclass
class RematchVotes:
    """Who has asked for a rematch so far."""

    game_no: int
    votes: list[int]

    def to_wire(self) -> dict[str, Encodable]:
        """Wire form."""
        return {"type": "rematch", "game_no": self.game_no, "votes": sorted(self.votes)}

    @classmethod
    def parse(cls, obj: Mapping[str, JSONValue]) -> RematchVotes:
        """Validate a ``rematch`` message."""
        return cls(Fields(obj).req_int("game_no"), _int_list(obj, "votes"))


HostMessage = Union[
    TableInfo, Welcome, HostError, StateMessage, LegalPage, ChatMessage, SeatsChanged, RematchVotes, Ping, Pong
]


def parse_host_message(obj: Mapping[str, JSONValue]) -> HostMessage | None:
    """Validate a decoded host message; None for a type this version does not know (ignored, for forward
    compatibility)."""
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "missing string field 'type'")
    if kind in ("update", "snapshot"):
        return StateMessage.parse(obj)
    if kind == "ping":
        return Ping(Fields(obj).req_int("id"))
    if kind == "pong":
        return Pong(Fields(obj).req_int("id"))
    parser = _HOST_PARSERS.get(kind)
    return None if parser is None else parser(obj)


_HOST_PARSERS: dict[str, Callable[[Mapping[str, JSONValue]], HostMessage]] = {
    "table": TableInfo.parse,
    "welcome": Welcome.parse,
    "error": HostError.parse,
    "legal": LegalPage.parse,
    "chat": ChatMessage.parse,
    "seats": SeatsChanged.parse,
    "rematch": RematchVotes.parse,
}
