"""The authoritative table, without I/O: seats, decisions, move validation, rematches, journal records.

:class:`cardnet.protocol.host.HostSession` turns it into wire messages and the trio layer
(:mod:`cardnet.net.host`) drives that session. Every method here is synchronous and never awaits, so in trio's
single thread each call is atomic: a move is validated, applied and journalled with nothing interleaved.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Union

from .codec import MAX_INT, Encodable, JSONValue, ProtocolError, Raw, canonical, is_unicode, token_hash
from .native import derive_seed as native_derive_seed


#: Decision ids are ``n * SEAT_STRIDE + seat``; the stride exceeds any seat count the core supports.
SEAT_STRIDE = 16


class GameLike(Protocol):
    """The slice of ``cardnet``'s game object the host uses (DESIGN.md, The Python face)."""

    def to_act(self) -> list[int]: ...
    def legal_count(self, seat: int) -> int: ...
    def legal_move(self, seat: int, index: int) -> Any: ...
    def apply(self, seat: int, move: Any) -> Any: ...
    def view_json(self, seat: int | None) -> str: ...
    def events_json(self, seat: int | None) -> str: ...
    def legal_moves_json(self, seat: int) -> str: ...
    def state_hash(self) -> str: ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Any: ...
    def clone(self) -> GameLike: ...


#: One seat's decision as ``FanOut.lines`` takes it: (id, count, deadline_ms, legal list or None when paged).
DecisionParts = tuple[int, int, Union[int, None], Union[str, None]]


class FanOutLike(Protocol):
    """The slice of the core's ``FanOut`` the host uses beyond the fragments themselves."""

    def lines(
        self,
        kind: str,
        game_no: int,
        state_id: int,
        to_act: list[int],
        wanted: list[int],
        decisions: list[DecisionParts | None],
        ack: tuple[int, str] | None,
        limit: int,
    ) -> list[bytes | None]: ...


class LaneMoves(Protocol):
    """What the host's native lane reports of the moves it played and the rematches it carried out (the core's
    ``LaneRun``; see :mod:`cardnet.net.lane`)."""

    @property
    def moves(self) -> list[tuple[int, int, int, int, float]]:
        """(connection index, seat, decision id, new state id, time) of every move, in order."""

    @property
    def decisions(self) -> list[tuple[int, int, int, str]]:
        """(seat, id, count, legal list) of every open decision now."""

    @property
    def seq(self) -> list[int]:
        """Decisions opened so far per seat, now."""

    @property
    def state_id(self) -> int:
        """The current state's id now."""

    @property
    def fan(self) -> FanOutLike | None:
        """The fragments of the last state the lane made (None when it made none)."""

    @property
    def game_no(self) -> int:
        """The game's number now."""

    @property
    def games(self) -> list[tuple[int, int, int]]:
        """(game_no, seed, state id) of every game the lane started, in order."""

    @property
    def votes(self) -> list[int]:
        """Who has voted for a rematch now."""

    @property
    def counted(self) -> int:
        """How many rematch votes the lane took."""


#: What :meth:`Table.play_line` returns: the move's journal payload, every observer's ``update`` line (seats
#: ``0 .. players - 1``, then the spectators; the mover's carries its ack; None for a line too long to send),
#: the line's ``ref`` and whether the game is over.
Played = tuple[bytes, list[Union[bytes, None]], Union[int, str, None], bool]


@dataclass(frozen=True)
class StateFragments:
    """Everything the host sends about one state, as canonical JSON text from the core.

    The Rust core returns it from one call (``cardnet.native.play`` after a move, ``fan_out`` otherwise): the public
    view is encoded once and hashed from the same bytes. The host then takes every seat's whole line from one
    more native call (``fan.lines``); Python splices single lines (a snapshot) from the fragments.
    """

    key: tuple[int, int, int]  # (id of the game object, game_no, state_id) the fragments describe
    state_hash: str
    #: observer (None = spectator) -> its view
    views: Mapping[int | None, str]
    #: observer (None = spectator) -> the events of the move that made this state, as it may learn them
    events: Mapping[int | None, str]
    #: acting seat -> (legal count, legal moves)
    legal: dict[int, tuple[int, str]]
    outcome_json: str | None
    #: The core's ``FanOut`` for observers ``[0, .., players - 1, None]`` (None for a game object without one):
    #: it builds every seat's state line of a move in one call (``FanOut.lines``).
    fan: FanOutLike | None = None


class _FanColumn(Mapping[Union[int, None], str]):
    """Views or events of a core ``FanOut``, turned into a dict only when looked up (a snapshot, a test): the
    per-move path takes whole lines from the fan-out instead."""

    def __init__(self, fan: Any, column: int) -> None:
        self._fan = fan
        self._column = column
        self._by_observer: dict[int | None, str] | None = None

    def _table(self) -> dict[int | None, str]:
        if self._by_observer is None:
            self._by_observer = {entry[0]: entry[self._column] for entry in self._fan.seats}
        return self._by_observer

    def __getitem__(self, observer: int | None) -> str:
        return self._table()[observer]

    def __iter__(self) -> Iterator[int | None]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


def _fragments_of(key: tuple[int, int, int], fan: Any) -> StateFragments:
    """Fragments from the core's ``FanOut``."""
    return StateFragments(
        key,
        fan.state_hash,
        _FanColumn(fan, 1),
        _FanColumn(fan, 2),
        {seat: (count, legal) for seat, count, legal in fan.legal},
        fan.outcome_json,
        fan,
    )


class _ByCall(Mapping[Union[int, None], str]):
    """A fragment asked of the game on every lookup, so that one seat's failure stays that seat's (the host then
    sends it a snapshot instead)."""

    def __init__(self, build: Callable[[int | None], str], observers: Sequence[int | None]) -> None:
        self._build = build
        self._observers = list(observers)

    def __getitem__(self, observer: int | None) -> str:
        if observer not in self._observers:
            raise KeyError(observer)
        return self._build(observer)

    def __iter__(self) -> Iterator[int | None]:
        return iter(self._observers)

    def __len__(self) -> int:
        return len(self._observers)


def _fragments_by_call(key: tuple[int, int, int], game: GameLike, observers: Sequence[int | None]) -> StateFragments:
    """Fragments from per-seat calls, for an engine without native host calls (the tests' fake games)."""
    outcome = outcome_value(game) if game.is_over() else None
    return StateFragments(
        key,
        game.state_hash(),
        # Looked up on each call, not bound now: the game's methods are what the host asks at send time.
        _ByCall(lambda o: game.view_json(o), observers),
        _ByCall(lambda o: game.events_json(o), observers),
        {s: (game.legal_count(s), game.legal_moves_json(s)) for s in game.to_act()},
        None if outcome is None else canonical(outcome),
    )


class NativeHost(Protocol):
    """The core's host calls (:mod:`cardnet.native`) as the table and the host use them; ``game`` is always a
    game the same engine made."""

    def fan_out(self, game: Any, observers: list[int | None], /) -> Any: ...
    def play(self, game: Any, seat: int, move: Any, observers: list[int | None], /) -> Any: ...
    def play_line(
        self,
        game: Any,
        line: bytes,
        seat: int,
        decision_id: int,
        count: int,
        held: list[tuple[int, int, str]],
        seq: list[int],
        stride: int,
        game_no: int,
        state_id: int,
        inline_limit: int,
        limit: int,
        /,
    ) -> tuple[Any, bytes, list[bytes | None], list[tuple[int, int, int, str | None]], int | str | None] | None: ...
    def serve_lane(self, game: Any, table: dict[str, Any], limits: dict[str, Any], /) -> Any: ...


@dataclass(frozen=True)
class Engine:
    """How the table reaches the rules: a game factory, a built-in player, the core's move errors, and the
    core's host calls (None for an engine without them, such as the tests' fake games: every move then takes
    the general path, one call per seat)."""

    new_game: Callable[[str, int, int, dict[str, Any]], GameLike]
    choose: Callable[[GameLike, int, str, int], Any]
    illegal: type[Exception]
    invalid: type[Exception]
    native: NativeHost | None = None


def core_engine() -> Engine:
    """The engine backed by the Rust core (imported only when a table is built)."""
    import cardnet
    import cardnet.ai
    import cardnet.native
    from cardnet.ai import LEVELS

    def new_game(name: str, players: int, seed: int, options: dict[str, Any]) -> GameLike:
        game: GameLike = cardnet.new_game(name, players=players, seed=seed, options=options)
        return game

    def choose(game: GameLike, seat: int, player: str, seed: int) -> Any:
        # The host only ever hands back games the core made, so the concrete type is cardnet.Game.
        real: Any = game
        if player in LEVELS:
            return cardnet.ai.choose(real, seat, level=player, seed=seed)
        return cardnet.ai.choose(real, seat, player=player, seed=seed)

    return Engine(new_game, choose, cardnet.IllegalMove, cardnet.InvalidMove, cardnet.native)


def derive_seed(seed: int, game_no: int) -> int:
    """The seed of game ``game_no`` (0-based) of a table: game 0 uses ``seed`` itself (the core's one
    definition, which the native lane's rematches use too: :func:`cardnet.native.derive_seed`)."""
    return native_derive_seed(seed, game_no)


def outcome_value(game: Any) -> Encodable:
    """A finished game's outcome as JSON: the core's own canonical bytes when it offers them."""
    outcome_json = getattr(game, "outcome_json", None)
    if callable(outcome_json):
        text = outcome_json()
        return None if text is None else Raw(str(text))
    outcome = game.outcome()
    if outcome is None:
        return None
    if dataclasses.is_dataclass(outcome) and not isinstance(outcome, type):
        return _plain(dataclasses.asdict(outcome))
    return _plain(outcome)


def _plain(value: Any) -> JSONValue:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        # The protocol has integers only; a fractional score would be a core bug worth seeing, not hiding.
        if value != int(value):
            raise ValueError(f"non-integer value {value} in an outcome")
        return int(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


@dataclass
class Seat:
    """One seat of the table."""

    index: int
    kind: str = "open"  # "open" | "human" | "bot"
    name: str | None = None
    player: str | None = None  # the built-in player of a bot seat
    token_hash: str | None = None
    connected: bool = False
    auto: bool = False  # a built-in player is standing in for an absent human


@dataclass
class OpenDecision:
    """A decision the host has asked of a seat and not yet had answered."""

    id: int
    seat: int
    legal_json: str
    count: int
    opened: float
    deadline: float | None = None
    timed_out: bool = False


@dataclass(frozen=True)
class TableConfig:
    """Everything that defines a table (the journal's first record)."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    seeded: bool = False
    name: str = "cardnet table"
    table_id: str = ""
    turn_timer: float | None = None
    bots: dict[int, str] = field(default_factory=dict)

    def record(self) -> dict[str, Encodable]:
        """The journal record of this configuration."""
        return {
            "kind": "table",
            "v": 1,
            "table_id": self.table_id,
            "name": self.name,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "seeded": self.seeded,
            "options": _plain(self.options),
            "turn_timer_ms": None if self.turn_timer is None else int(self.turn_timer * 1000),
            "bots": {str(k): v for k, v in sorted(self.bots.items())},
        }

    @classmethod
    def from_record(cls, rec: Mapping[str, Any]) -> TableConfig:
        """Rebuild a configuration from its journal record (raises ValueError for bot seats that do not exist)."""
        timer = rec.get("turn_timer_ms")
        players = int(rec["players"])
        bots = dict(rec.get("bots") or {})
        for key in bots:
            # A seat of "-1" would index the last seat from the end, "9" of three seats past it.
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < players):
                raise ValueError(f"the table record gives a built-in player to seat {key!r} of {players} seats")
        return cls(
            game=str(rec["game"]),
            players=players,
            seed=int(rec["seed"]),
            options=dict(rec.get("options") or {}),
            seeded=bool(rec.get("seeded")),
            name=str(rec.get("name", "cardnet table")),
            table_id=str(rec["table_id"]),
            turn_timer=None if timer is None else int(timer) / 1000,
            bots={int(k): str(v) for k, v in bots.items()},
        )


@dataclass
class Applied:
    """The result of an accepted move: its journal record and what the host must now send."""

    seat: int
    decision_id: int
    move: Any
    record: dict[str, Encodable]


class Table:
    """The authoritative state of one table. All methods are synchronous and never block."""

    def __init__(self, config: TableConfig, engine: Engine, *, clock: Callable[[], float]) -> None:
        self.config = config
        self.engine = engine
        self.clock = clock
        self.seats = [Seat(i) for i in range(config.players)]
        for seat, player in config.bots.items():
            self.seats[seat] = Seat(seat, kind="bot", name=f"{player} bot", player=player, connected=True)
        self.game_no = 0
        self.state_id = 0
        self.game: GameLike = engine.new_game(config.game, config.players, config.seed, dict(config.options))
        self.decisions: dict[int, OpenDecision] = {}
        # Decision ids count per seat (id = n * SEAT_STRIDE + seat): a seat's ids then depend only on its own
        # decisions, so their gaps cannot reveal how often another seat's private options changed.
        self._decision_seq = [0] * config.players
        self.started = False
        self.rematch_votes: set[int] = set()
        # Decision id -> (seat, state_id of the move that answered it), this game: a peer that never saw a move's
        # ack (its connection, or the host, died first) asks again by repeating the move, and is told it landed.
        self.answered: dict[int, tuple[int, int]] = {}
        self._fragments: StateFragments | None = None
        # The core's fan-out of the latest move on the fast lane (:meth:`play_line`), turned into fragments
        # only when something asks for them (a snapshot): (the key it describes, the fan-out).
        self._fan: tuple[tuple[int, int, int], Any] | None = None
        self.start_if_full()

    # -- seats ------------------------------------------------------------------------------------------------

    def start_if_full(self) -> bool:
        """Start the game once no seat is open (the last seat taken, or the host's own reserved seat greeted by its
        peer); whether it started now."""
        if not self.started and all(s.kind != "open" for s in self.seats):
            self.started = True
            self.state_id += 1
            self._refresh_decisions(mover=None)
            return True
        return False

    def seat_for_token(self, token: str) -> Seat | None:
        """The human seat a token belongs to, if any (compared by hash)."""
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat
        return None

    def claim_seat(self, wanted: int | None, name: str) -> tuple[Seat, str, dict[str, Encodable], bool]:
        """Give an open seat to a new player: (seat, token, journal record, whether the game just started)."""
        if wanted is not None:
            if wanted >= len(self.seats) or self.seats[wanted].kind != "open":
                raise ProtocolError("no_seat", f"seat {wanted} is not open")
            seat = self.seats[wanted]
        else:
            free = [s for s in self.seats if s.kind == "open"]
            if not free:
                raise ProtocolError("table_full", "every seat is taken; join as a spectator")
            seat = free[0]
        token = secrets.token_urlsafe(32)
        record = self.apply_seat_record(seat.index, name, token_hash(token))
        started = self.start_if_full()
        seat.connected = True
        return seat, token, record, started

    def apply_seat_record(self, index: int, name: str, digest: str) -> dict[str, Encodable]:
        """Seat a human (live or from the journal); returns the record."""
        seat = self.seats[index]
        seat.kind, seat.name, seat.token_hash = "human", name, digest
        return {"kind": "seat", "seat": index, "name": name, "token_hash": digest}

    def rename(self, name: str) -> dict[str, Encodable]:
        """Give the table a new display name (mDNS probing found its name taken on the LAN); returns the record."""
        if not name or not name.isprintable():
            raise ValueError(f"a table name is printable text, not {name!r}")
        self.config = dataclasses.replace(self.config, name=name)
        return {"kind": "name", "name": name}

    def controlled_by_builtin(self, seat: int) -> bool:
        """Whether the built-in player answers this seat's decisions (a bot seat, or a human who is away)."""
        s = self.seats[seat]
        return s.kind == "bot" or s.auto

    # -- decisions --------------------------------------------------------------------------------------------

    def _key(self) -> tuple[int, int, int]:
        return (id(self.game), self.game_no, self.state_id)

    def _observers(self) -> list[int | None]:
        return [*range(len(self.seats)), None]

    def fragments(self) -> StateFragments:
        """The current state's wire fragments for every seat and the spectators (built once per state)."""
        key = self._key()
        if self._fragments is None or self._fragments.key != key:
            native = self.engine.native
            if self._fan is not None and self._fan[0] == key:
                self._fragments = _fragments_of(key, self._fan[1])
            elif native is not None:
                self._fragments = _fragments_of(key, native.fan_out(self.game, self._observers()))
            else:
                self._fragments = _fragments_by_call(key, self.game, self._observers())
        return self._fragments

    def _refresh_decisions(self, mover: int | None) -> None:
        """Open, keep or close decisions after the state changed.

        A seat's decision stays open (same id) when that seat did not just move and its legal moves are
        byte-identical: an opponent's hidden simultaneous pick then leaves this seat's answer valid.
        """
        now = self.clock()
        acting = set(self.game.to_act()) if self.started and not self.game.is_over() else set()
        fresh: dict[int, OpenDecision] = {}
        legal = self.fragments().legal if acting else {}
        for seat in sorted(acting):
            count, legal_json = legal[seat]
            old = self.decisions.get(seat)
            if old is not None and seat != mover and old.legal_json == legal_json:
                fresh[seat] = old
                continue
            timer = self.config.turn_timer
            fresh[seat] = OpenDecision(
                id=(self._decision_seq[seat] + 1) * SEAT_STRIDE + seat,
                seat=seat,
                legal_json=legal_json,
                count=count,
                opened=now,
                deadline=None if timer is None else now + timer,
            )
            self._decision_seq[seat] += 1
        self.decisions = fresh

    def answered_at(self, seat: int, decision_id: int) -> int | None:
        """The ``state_id`` reached by the move with which ``seat`` answered ``decision_id`` in this game, if any."""
        answer = self.answered.get(decision_id)
        return answer[1] if answer is not None and answer[0] == seat else None

    def decision_for(self, seat: int | None) -> OpenDecision | None:
        """The open decision of a seat, if any."""
        return None if seat is None else self.decisions.get(seat)

    def check_move(self, seat: int | None, decision_id: int) -> OpenDecision:
        """Who may answer which decision: raises the documented error, changes nothing."""
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot move")
        if not self.started:
            raise ProtocolError("not_started", "the game starts when every seat is taken")
        if self.game.is_over():
            raise ProtocolError("game_over", "the game is over")
        mine = self.decisions.get(seat)
        if mine is not None and mine.id == decision_id:
            return mine
        if any(d.id == decision_id for d in self.decisions.values()):
            raise ProtocolError("wrong_seat", f"decision {decision_id} belongs to another seat")
        if mine is None:
            raise ProtocolError("stale_decision", f"decision {decision_id} is not open; you have no decision")
        raise ProtocolError("stale_decision", f"decision {decision_id} is not open; yours is {mine.id}")

    def apply_move(self, seat: int, decision: OpenDecision, move: Any = None, index: int | None = None) -> Applied:
        """Apply a move answering ``decision`` (already checked); raises ProtocolError, changing nothing."""
        if index is not None and not 0 <= index < decision.count:
            raise ProtocolError("invalid_move", f"index {index} outside 0..{decision.count - 1}")
        native = self.engine.native
        fan: Any = None
        try:
            if native is not None:
                # One native call: apply, then every seat's fragments of the new state and the move's bytes.
                fan = native.play(self.game, seat, index if index is not None else move, self._observers())
                move = Raw(fan.move_json)
            else:
                if index is not None:
                    move = self.game.legal_move(seat, index)
                self.game.apply(seat, move)
        except self.engine.illegal as exc:
            code = getattr(exc, "code", None)
            reason = getattr(exc, "reason", None) or str(exc)
            raise ProtocolError("illegal_move", str(reason), None if code is None else str(code)) from None
        except self.engine.invalid as exc:
            raise ProtocolError("invalid_move", str(exc)) from None
        self.state_id += 1
        if fan is not None:
            self._fragments = _fragments_of(self._key(), fan)
        self.rematch_votes.clear()
        self.answered[decision.id] = (seat, self.state_id)
        self._refresh_decisions(mover=seat)
        record: dict[str, Encodable] = {
            "kind": "move",
            "game_no": self.game_no,
            "state_id": self.state_id,
            "seat": seat,
            "move": move if isinstance(move, Raw) else _plain(move),
        }
        return Applied(seat, decision.id, move, record)

    def play_line(self, line: bytes, seat: int, decision: OpenDecision, inline_limit: int, limit: int) -> Played | None:
        """The fast lane of :meth:`apply_move`: play a peer's ``move`` line answering ``decision`` (checked open
        for ``seat``) in one native call, which also builds every observer's ``update`` line.

        Returns None, changing nothing, when the line is not an index ``move`` (any key order and spacing) of a
        listed move of that decision, when the engine has no native calls, when there is a turn timer
        (deadlines), or when the core refuses: the general path then makes the same move or reports the same
        error. Otherwise returns
        (the move's journal payload, every observer's line as :data:`Played` says, the line's ``ref``, whether
        the game is now over); the table's state is then exactly what :meth:`apply_move` leaves.
        """
        native = self.engine.native
        if native is None or self.config.turn_timer is not None:
            # The host's path choice (cardnet.net.paths) never asks then; kept so the table stays right anyway.
            return None
        decisions = self.decisions
        # The other seats' open decisions (none when one seat acts at a time): kept while their moves stay the same.
        held = []
        if len(decisions) > 1:
            held = [(d.seat, d.id, d.legal_json) for d in decisions.values() if d.seat != seat]
        try:
            done = native.play_line(
                self.game, line, seat, decision.id, decision.count, held, self._decision_seq, SEAT_STRIDE,
                self.game_no, self.state_id + 1, inline_limit, limit,
            )  # fmt: skip
        except Exception:
            # The game is unchanged (or unusable after a core panic): the general path reports it.
            return None
        if done is None:
            return None
        fan, record, lines, after, ref = done
        self._played_natively(seat, decision.id, fan, after)
        for acting, _, _, legal_json in after:
            if legal_json is not None:
                self._decision_seq[acting] += 1
        return record, lines, ref, fan.over

    def _played_natively(
        self, seat: int, decision_id: int, fan: FanOutLike, after: Sequence[tuple[int, int, int, str | None]]
    ) -> None:
        """The table's bookkeeping after the core played ``seat``'s answer to ``decision_id`` without it (the
        fast lane): ``fan`` holds the new state's fragments, ``after`` each open decision as (seat, id, count,
        legal list), the list None for a decision kept from before. The caller counts the decisions opened."""
        self.state_id += 1
        self.answered[decision_id] = (seat, self.state_id)
        self._fan = ((id(self.game), self.game_no, self.state_id), fan)
        self.rematch_votes.clear()
        self._open_natively(after)

    def _open_natively(self, after: Sequence[tuple[int, int, int, str | None]]) -> None:
        """The open decisions after the core moved on its own: (seat, id, count, legal list) each, the list None
        for a decision kept from before."""
        fresh: dict[int, OpenDecision] = {}
        for acting, decision_id, count, legal_json in after:
            if legal_json is None:
                fresh[acting] = self.decisions[acting]
            else:
                fresh[acting] = OpenDecision(decision_id, acting, legal_json, count, self.clock())
        self.decisions = fresh

    def lane_decisions(self) -> list[tuple[int, int, int, str]]:
        """Every open decision as (seat, id, count, legal list): what the host's native lane starts from."""
        return [(d.seat, d.id, d.count, d.legal_json) for d in self.decisions.values()]

    def decision_counts(self) -> list[int]:
        """How many decisions each seat has been given so far (a copy)."""
        return list(self._decision_seq)

    def absorb_lane(self, run: LaneMoves) -> None:
        """Catch up with what the host's native lane did (:mod:`cardnet.net.lane`): the moves it played, the
        rematch votes it took and the games it started, all in the same ``Game`` object."""
        if not run.moves and not run.counted:
            return
        game_start = -1
        if run.games:
            # Answers are kept per game: only the moves after the last start count.
            self.game_no, _, game_start = run.games[-1]
            self.answered.clear()
        for _, seat, decision_id, state_id, _ in run.moves:
            if state_id > game_start:
                self.answered[decision_id] = (seat, state_id)
        self.state_id = run.state_id
        self.rematch_votes = set(run.votes)
        if run.fan is not None:
            self._fan = ((id(self.game), self.game_no, self.state_id), run.fan)
        # A decision the lane kept open (same id as the table's) keeps its open time: its list comes as None.
        kept = {seat: d.id for seat, d in self.decisions.items()}
        self._open_natively(
            [(seat, decision_id, count, None if kept.get(seat) == decision_id else legal)
             for seat, decision_id, count, legal in run.decisions]
        )  # fmt: skip
        self._decision_seq = list(run.seq)
        assert self.game_no == run.game_no, "the native lane and the table count games alike"

    # -- rematch ----------------------------------------------------------------------------------------------

    def vote_rematch(self, seat: int, connected_humans: Sequence[int]) -> list[dict[str, Encodable]]:
        """Count a vote; when every connected human agrees, start the next game.

        Returns the journal records, in order: the vote's (none for a repeated vote), then the next game's if
        it started. Votes are journalled so that a restarted host still counts them.
        """
        if not self.game.is_over():
            raise ProtocolError("not_over", "a rematch can be asked for once the game is over")
        records: list[dict[str, Encodable]] = []
        if seat not in self.rematch_votes:
            self.rematch_votes.add(seat)
            records.append({"kind": "vote", "game_no": self.game_no, "seat": seat})
        started = self.rematch_if_agreed(connected_humans)
        if started is not None:
            records.append(started)
        return records

    def rematch_if_agreed(self, connected_humans: Sequence[int]) -> dict[str, Encodable] | None:
        """Start the next game when the game is over and every connected human has voted (re-checked when a
        player leaves, so one departure cannot strand the others' votes); returns its record, or None."""
        humans = set(connected_humans)
        if not self.game.is_over() or not humans or not humans <= self.rematch_votes:
            return None
        return self.start_next_game(None)

    def start_next_game(self, seed: int | None) -> dict[str, Encodable]:
        """Start game ``game_no + 1`` with the same seats; returns its journal record."""
        self.game_no += 1
        if seed is None:
            seed = derive_seed(self.config.seed, self.game_no) if self.config.seeded else secrets.randbits(63)
        self.game = self.engine.new_game(self.config.game, self.config.players, seed, dict(self.config.options))
        self.state_id += 1
        self.rematch_votes.clear()
        self.answered.clear()
        self.decisions = {}
        self._refresh_decisions(mover=None)
        return {"kind": "game", "game_no": self.game_no, "seed": seed, "state_id": self.state_id}

    def legal_slice(
        self, seat: int | None, decision_id: int, offset: int, limit: int
    ) -> tuple[OpenDecision, list[Any]]:
        """Moves ``offset`` up to ``offset + limit`` of an open decision of ``seat`` (for paging a long list)."""
        if seat is None:
            raise ProtocolError("spectator", "spectators have no decisions")
        decision = self.check_move(seat, decision_id)
        if offset > decision.count:
            raise ProtocolError("bad_message", f"offset {offset} is past the {decision.count} moves")
        end = min(decision.count, offset + limit)
        return decision, [self.game.legal_move(seat, i) for i in range(offset, end)]

    def resolved_options(self) -> dict[str, JSONValue]:
        """The game's resolved options (every option, defaults filled in), when the core reports them."""
        options = getattr(self.game, "options", None) or self.config.options
        return {str(k): _plain(v) for k, v in dict(options).items()}

    # -- resume -----------------------------------------------------------------------------------------------

    @classmethod
    def from_records(cls, records: Sequence[Mapping[str, Any]], engine: Engine, *, clock: Callable[[], float]) -> Table:
        """Rebuild a table exactly from its journal records (raises ValueError on an inconsistent journal)."""
        if not records or records[0].get("kind") != "table":
            raise ValueError("the journal does not start with a table record")
        table = cls(TableConfig.from_record(records[0]), engine, clock=clock)
        for n, rec in enumerate(records[1:], start=2):
            kind = rec.get("kind")
            if kind == "seat":
                if not is_unicode(str(rec["name"])):
                    # Written by a host from before lone surrogates were refused: it could never be sent again.
                    raise ValueError(f"journal record {n}: the seat's name is not valid Unicode")
                seat = _record_int(rec, "seat", n, len(table.seats) - 1)
                table.apply_seat_record(seat, str(rec["name"]), str(rec["token_hash"]))
                table.start_if_full()
            elif kind == "move":
                if (
                    _record_int(rec, "game_no", n) != table.game_no
                    or _record_int(rec, "state_id", n) != table.state_id + 1
                ):
                    raise ValueError(f"journal record {n}: move out of sequence")
                seat = _record_int(rec, "seat", n, len(table.seats) - 1)
                answered = table.decisions.get(seat)
                try:
                    table.game.apply(seat, rec["move"])
                except (engine.illegal, engine.invalid) as exc:
                    raise ValueError(f"journal record {n}: the core refuses the move: {exc}") from None
                table.state_id += 1
                if answered is not None:
                    table.answered[answered.id] = (seat, table.state_id)
                table._refresh_decisions(mover=seat)
            elif kind == "vote":
                seat = _record_int(rec, "seat", n, len(table.seats) - 1)
                if _record_int(rec, "game_no", n) != table.game_no or not table.game.is_over():
                    raise ValueError(f"journal record {n}: rematch vote out of sequence")
                table.rematch_votes.add(seat)
            elif kind == "game":
                if _record_int(rec, "game_no", n) != table.game_no + 1:
                    raise ValueError(f"journal record {n}: game out of sequence")
                table.start_next_game(_record_int(rec, "seed", n, 2**64 - 1))
            elif kind == "name":
                table.rename(str(rec["name"]))
            elif kind == "listen":
                # Where the host listened: read by the host that resumes (factory.resume_table), not table state.
                pass
            else:
                raise ValueError(f"journal record {n}: unknown kind {kind!r}")
        for held in table.seats:
            if held.kind == "human":
                held.connected = False
        return table


def _record_int(rec: Mapping[str, Any], key: str, n: int, hi: int = MAX_INT) -> int:
    """Field ``key`` of journal record ``n``: an integer in 0..hi, or the journal is refused (never coerced: a
    seat of -1 would otherwise name the last seat, and "1" or 1.5 were never written by a host)."""
    value = rec.get(key)
    if type(value) is not int or not 0 <= value <= hi:
        raise ValueError(f"journal record {n}: field {key!r} must be an integer in 0..{hi}, not {value!r}")
    return value
