"""A structure-aware fuzzer for the host's protocol session (``HostSession``), with no sockets and no trio.

Several links talk to one table at once. Honest players hold some seats and only ever send what a well-written
client sends; rogue players hold the other seats and mostly send generated hostile lines (and sometimes a valid
move, so games go on); strangers connect, try handshakes and send more of the same. Lines are mutations of valid
messages of every type: wrong types, missing and extra keys, huge and negative numbers, deep nesting, every
Unicode edge (lone surrogates escaped and raw, noncharacters, overlong encodings, NUL, BOM), wrong seats, stale
and future decision ids, replayed and forged tokens, duplicate keys, flipped bits and lines split across reads.
Each line goes where the host sends it: the fast lane's :meth:`HostSession.quick_move` first, then
:meth:`HostSession.receive_line`, its bytes framed by a :class:`~cardnet.protocol.LineBuffer`.

After **every** line (:meth:`SessionFuzz.step`): no exception escaped and the host logged no internal error;
the table's state changed only by a move of the sending link's own seat for its open decision (or a rematch it
voted for), every honest link is still connected; an honest move was accepted. Every ``check_every`` lines and
at the end of each table: the journal the session asked for replays through the core (which re-validates every
move) to the live state, the core's own save loads back to the same state, open decisions are exactly the
seats the core says must act, and the session holds no more links than are connected.

Used by tests/test_fuzz_session.py (a few seconds in CI) and bench/fuzz_session.py (a million lines and more).
"""

from __future__ import annotations

import json
import logging
import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cardnet
from cardnet import protocol as P
from cardnet.protocol.host import (
    Append,
    Changed,
    Close,
    Commit,
    Durable,
    Effect,
    HostOptions,
    HostSession,
    Link,
    Resync,
    Send,
)
from cardnet.table import Table, TableConfig, core_engine

#: Strings a careless host could trip over (as Python text: lone surrogates included).
EDGE_TEXT: tuple[str, ...] = (
    "",
    "\x00",
    "\ud800",
    "\udfff",
    "a\udc00b",
    "\ufeff",
    "\ufffe",
    "\uffff",
    "\U0001fffe",
    "\U0010ffff",
    "\u202e",
    "e\u0301",
    "\x1b[2J",
    "\r\n",
    "\u2028",
    "%s%n",
    "\\",
    '"',
    "x" * 300,
    "ü" * 40,
)
#: Raw bytes that are not valid UTF-8 or that a decoder might let through: overlong forms, encoded surrogates,
#: out-of-range code points, stray continuation bytes, a BOM, NUL.
EDGE_BYTES: tuple[bytes, ...] = (
    b"\xc0\xaf",
    b"\xc1\xbf",
    b"\xe0\x80\xaf",
    b"\xf0\x80\x80\xaf",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xff",
    b"\x80",
    b"\xef\xbb\xbf",
    b"\x00",
    b"\xef\xbf\xbe",
    b"\r",
)
#: Numbers at the edges of what JSON, JavaScript and 64-bit integers hold.
EDGE_NUMBERS: tuple[Any, ...] = (
    0,
    -1,
    1,
    255,
    256,
    2**31,
    2**53 - 1,
    2**53,
    2**63,
    2**64,
    -(2**63),
    10**40,
    1.5,
    -0.0,
    1e308,
    True,
    False,
)
MESSAGE_TYPES: tuple[str, ...] = (
    "hello",
    "move",
    "legal",
    "snapshot",
    "ping",
    "pong",
    "chat",
    "rematch",
    "bye",
)
PROBLEM_INTERNAL = b'"code":"internal"'


def hostile_value(rng: random.Random) -> Any:
    """A JSON value a careless reader could trip over: edge numbers and text, null, deep nesting, odd lists and
    objects, integers far outside 64 bits."""
    roll = rng.randrange(7)
    if roll == 0:
        return rng.choice(EDGE_NUMBERS)
    if roll == 1:
        return rng.choice(EDGE_TEXT)
    if roll == 2:
        return None
    if roll == 3:
        # Deeper nesting than this is written as text (:meth:`SessionFuzz._hostile_line`): json.dumps would recurse.
        depth = rng.choice((2, 20, 40, 100))
        value: Any = rng.choice((1, "x", None))
        for _ in range(depth):
            value = [value] if rng.random() < 0.5 else {"k": value}
        return value
    if roll == 4:
        return [rng.choice(EDGE_NUMBERS) for _ in range(rng.randrange(5))]
    if roll == 5:
        return -rng.randrange(1, 2**70)
    return {rng.choice(EDGE_TEXT): rng.choice(EDGE_NUMBERS)}


@dataclass
class Failure:
    """One broken promise: where (seed, line number), the line, and what went wrong."""

    seed: int
    step: int
    line: bytes
    problem: str

    def describe(self) -> str:
        """A report a developer can reproduce from (``--seed`` with the same sizes)."""
        return f"seed {self.seed}, line {self.step}: {self.problem}\n  line: {self.line[:300]!r}"


@dataclass
class Peer:
    """One link as the fuzzer drives it."""

    link: Link
    kind: str  # "honest" | "rogue" | "stranger"
    buffer: P.LineBuffer = field(default_factory=lambda: P.LineBuffer(P.MAX_PEER_LINE))
    token: str | None = None
    closed: bool = False


@dataclass
class Totals:
    """What a run did."""

    lines: int = 0
    tables: int = 0
    games_finished: int = 0
    moves: int = 0
    honest_moves: int = 0
    quick_moves: int = 0
    refusals: int = 0
    closes: int = 0
    checks: int = 0
    failures: list[Failure] = field(default_factory=list)


class _ErrorLog(logging.Handler):
    """Collects what the host logs at ERROR or above (its last line of defence logs ``internal`` errors)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage() + (f" ({record.exc_info[1]!r})" if record.exc_info else ""))


def plain(record: dict[str, Any]) -> dict[str, Any]:
    """A journal record as the file holds it (``Raw`` moves decoded)."""
    loaded: dict[str, Any] = json.loads(P.canonical(record))
    return loaded


class SessionFuzz:
    """One fuzzing run over a sequence of tables, each driven until its games end or ``lines_per_table``."""

    def __init__(
        self,
        seed: int,
        *,
        games: tuple[str, ...] = tuple(sorted(cardnet.GAMES)),
        lines_per_table: int = 4000,
        check_every: int = 200,
        max_strangers: int = 6,
    ) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.games = games
        self.lines_per_table = lines_per_table
        self.check_every = check_every
        self.max_strangers = max_strangers
        self.totals = Totals()
        self._errors = _ErrorLog()
        self._new_table()

    # -- tables and peers ---------------------------------------------------------------------------------------

    def _new_table(self) -> None:
        rng = self.rng
        game = rng.choice(self.games)
        info = cardnet.GAMES[game]
        players = rng.randint(max(2, int(info.min_players)), int(info.max_players))
        config = TableConfig(game, players, rng.getrandbits(63), seeded=True, table_id=f"fz{rng.getrandbits(32):x}")
        self.table = Table(config, core_engine(), clock=lambda: self.now)
        # Most tables run without rate limits so honest players are never cut off; some keep the defaults, so
        # floods and chat run into the limits too (rogues then lose their links, honest players never flood).
        limited = rng.random() < 0.25
        options = HostOptions() if limited else HostOptions(msg_rate=1e9, msg_burst=1e9, chat_rate=1e9, chat_burst=1e9)
        options.max_strikes = rng.choice([0, 3, 20])
        self.session = HostSession(self.table, options, durable_tokens=rng.random() < 0.5)
        self.now = 0.0
        self.table_lines = 0
        # The journal the host would write: its first record is the table's configuration (net/factory.py).
        self.records: list[dict[str, Any]] = [plain(config.record())]
        self.peers: list[Peer] = []
        self.rogue_tokens: dict[int, str] = {}
        self.totals.tables += 1
        honest = rng.randint(1, players - 1) if players > 1 else 1
        for seat in range(players):
            kind = "honest" if seat < honest else "rogue"
            peer = self._connect(kind)
            self._deliver(peer, P.encode(P.Hello(1, f"{kind}{seat}", "player", ("chat",), seat=seat).to_wire()))
            if peer.closed or not peer.link.ready:
                self._fail(b"", f"{kind} seat {seat} was not admitted")
        self._check_table()

    def _connect(self, kind: str) -> Peer:
        link, effects = self.session.connect(self.now)
        peer = Peer(link, kind)
        self.peers.append(peer)
        self._run_effects(effects, peer)
        return peer

    # -- one line -----------------------------------------------------------------------------------------------

    def step(self) -> None:
        """Send one generated line (or a burst of split bytes) from one link and check the table after it."""
        rng = self.rng
        self.now += rng.choice((0.0, 0.001, 0.01, 0.2))
        peer = self._pick_peer()
        data, honest_move = self._line_for(peer)
        table = self.table
        before = (table.state_id, table.game.state_hash(), table.game_no, table.game.is_over())
        open_before = dict(table.decisions)
        records_before = len(self.records)
        self._deliver(peer, data)
        self.totals.lines += 1
        self.table_lines += 1
        self._check_line(peer, data, before, open_before, records_before, honest_move)
        if self.table_lines % self.check_every == 0:
            self._check_table()
        if self.table_lines >= self.lines_per_table or self._all_games_done():
            self._check_table()
            self._new_table()

    def _pick_peer(self) -> Peer:
        rng = self.rng
        live = [p for p in self.peers if not p.closed]
        if not live:
            return self._connect("stranger")
        strangers = [p for p in live if p.kind == "stranger"]
        roll = rng.random()
        if roll < 0.08 and len(strangers) < self.max_strangers:
            return self._connect("stranger")
        if roll < 0.12:
            # A rogue seat whose link died comes back with its token (a replayed token; another connection
            # with it may still be up: interleaved handshakes).
            seat = rng.choice(sorted(self.rogue_tokens)) if self.rogue_tokens else None
            if seat is not None:
                peer = self._connect("rogue")
                peer.token = self.rogue_tokens[seat]
                return peer
        honest = [p for p in live if p.kind == "honest"]
        if honest and roll < 0.45:
            return rng.choice(honest)
        return rng.choice(live)

    def _line_for(self, peer: Peer) -> tuple[bytes, bool]:
        """The bytes ``peer`` sends next, and whether they are an honest move the table must accept."""
        rng = self.rng
        link = peer.link
        if peer.kind == "rogue" and peer.token is not None and link.hello is None:
            token = peer.token if rng.random() < 0.8 else self._forged_token(peer.token)
            return P.encode(P.Hello(1, "back", "player", ("chat",), token=token).to_wire()), False
        if peer.kind == "honest":
            return self._honest_line(peer)
        if peer.kind == "rogue" and link.ready and rng.random() < 0.3:
            line = self._valid_move(link.seat)
            if line is not None:
                return line, False
        return self._hostile_line(peer), False

    def _honest_line(self, peer: Peer) -> tuple[bytes, bool]:
        rng = self.rng
        seat = peer.link.seat
        table = self.table
        if table.game.is_over() and seat is not None and seat not in table.rematch_votes:
            return P.encode(P.Rematch(ref=rng.randrange(1000)).to_wire()), False
        line = self._valid_move(seat)
        if line is not None and rng.random() < 0.8:
            return line, True
        choice = rng.randrange(3)
        if choice == 0:
            return P.encode(P.Ping(rng.randrange(P.MAX_INT)).to_wire()), False
        if choice == 1:
            return P.encode(P.SnapshotRequest(ref="s").to_wire()), False
        return P.encode(P.Chat(rng.choice(["gg", "nice one", "Zoë ☕"]), ref=None).to_wire()), False

    def _valid_move(self, seat: int | None) -> bytes | None:
        """A legal move for ``seat``'s open decision, in one of the forms a client may use."""
        rng = self.rng
        decision = None if seat is None else self.table.decisions.get(seat)
        if decision is None or self.table.game.is_over():
            return None
        index = rng.randrange(decision.count)
        form = rng.randrange(4)
        if form == 0:
            return P.encode(P.Move(decision.id, index=index).to_wire())
        if form == 1:
            return f'{{ "index" : {index}, "type":"move","decision_id":{decision.id}, "ref":"r{index}" }}\n'.encode()
        if form == 2:
            assert seat is not None
            move = self.table.game.legal_move(seat, index)
            return P.encode(P.Move(decision.id, move=move, ref=index).to_wire())
        return P.encode({"type": "move", "decision_id": decision.id, "index": index, "ref": None})

    # -- hostile lines ------------------------------------------------------------------------------------------

    def _forged_token(self, token: str) -> str:
        rng = self.rng
        chars = list(token)
        pos = rng.randrange(len(chars))
        chars[pos] = "A" if chars[pos] != "A" else "B"
        return "".join(chars)

    def _template(self, peer: Peer) -> dict[str, Any]:
        """A valid message of a random type, filled in from what this link could know."""
        rng = self.rng
        table = self.table
        seat = peer.link.seat
        decisions = list(table.decisions.values())
        own = table.decisions.get(seat) if seat is not None else None
        some = own or (rng.choice(decisions) if decisions else None)
        decision_id = some.id if some is not None else rng.randrange(1, 1000)
        kind = rng.choice(MESSAGE_TYPES)
        if kind == "hello":
            hello = P.Hello(1, "rogue", rng.choice(["player", "spectator"]), ("chat",))
            msg = hello.to_wire()
            if rng.random() < 0.5:
                msg["seat"] = rng.randrange(table.config.players + 2)
            if self.rogue_tokens and rng.random() < 0.3:
                msg["token"] = rng.choice(list(self.rogue_tokens.values()))
            return msg
        if kind == "move":
            index = rng.randrange(some.count) if some is not None else 0
            if some is not None and rng.random() < 0.3:
                move = self.table.game.legal_move(some.seat, index)
                return P.Move(decision_id, move=move, ref=rng.randrange(100)).to_wire()
            return P.Move(decision_id, index=index, ref=rng.randrange(100)).to_wire()
        if kind == "legal":
            return P.LegalRequest(decision_id, rng.randrange(5), rng.randint(1, P.LEGAL_PAGE)).to_wire()
        if kind == "snapshot":
            return P.SnapshotRequest(ref=1).to_wire()
        if kind in ("ping", "pong"):
            return {"type": kind, "id": rng.randrange(1000)}
        if kind == "chat":
            return P.Chat(rng.choice(EDGE_TEXT), ref=None).to_wire()
        if kind == "rematch":
            return P.Rematch(ref=None).to_wire()
        return P.Bye(ref=None).to_wire() if rng.random() < 0.3 else {"type": rng.choice(EDGE_TEXT)}

    def _mutate(self, msg: dict[str, Any], peer: Peer) -> dict[str, Any]:
        rng = self.rng
        stride = 16
        for _ in range(rng.randrange(1, 4)):
            op = rng.randrange(7)
            keys = list(msg)
            if op == 0 and keys:
                msg[rng.choice(keys)] = hostile_value(self.rng)
            elif op == 1 and keys:
                del msg[rng.choice(keys)]
            elif op == 2:
                msg[rng.choice(("seat", "index", "move", "token", "x", "decision_id", "type", "ref"))] = hostile_value(
                    self.rng
                )
            elif op == 3 and "decision_id" in msg and isinstance(msg["decision_id"], int):
                # Wrong seat, stale, future: ids of other seats' decisions and of decisions long closed or not
                # yet opened.
                others = [d.id for d in self.table.decisions.values()]
                msg["decision_id"] = rng.choice(
                    [*others, msg["decision_id"] - stride, msg["decision_id"] + stride * rng.randint(1, 99), -1, 0]
                )
            elif op == 4 and type(msg.get("index")) is int:
                msg["index"] = rng.choice((-1, 2**53 - 1, 10**6, msg["index"] + 1))
            elif op == 5:
                msg["type"] = rng.choice(MESSAGE_TYPES)
            elif op == 6 and peer.link.seat is not None:
                msg["seat"] = rng.randrange(-1, self.table.config.players + 1)
        return msg

    def _serialize(self, msg: dict[str, Any]) -> bytes:
        rng = self.rng
        separators = rng.choice(((",", ":"), (", ", ": "), (" ,", " : ")))
        text = json.dumps(msg, ensure_ascii=rng.random() < 0.5, separators=separators)
        return text.encode("utf-8", "surrogatepass")

    def _corrupt(self, data: bytes) -> bytes:
        rng = self.rng
        op = rng.randrange(9)
        if not data:
            return rng.choice(EDGE_BYTES)
        pos = rng.randrange(len(data) + 1)
        if op == 0:
            flipped = bytearray(data)
            i = rng.randrange(len(data))
            flipped[i] ^= 1 << rng.randrange(8)
            return bytes(flipped)
        if op == 1:
            return data[:pos] + rng.choice(EDGE_BYTES) + data[pos:]
        if op == 2:
            return data[:pos]
        if op == 3:
            return b"\xef\xbb\xbf" + data
        if op == 4:
            # Duplicate keys: the last one wins in most parsers; the host must not be fooled either way.
            return data.replace(b'"type":', b'"type":"ping","type":', 1)
        if op == 5:
            return data * rng.randint(2, 3)
        if op == 6:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
        if op == 7:
            return data[:pos] + b" " * rng.randrange(1, 4000) + data[pos:]
        return data + b"\r"

    def _hostile_line(self, peer: Peer) -> bytes:
        rng = self.rng
        if rng.random() < 0.01:
            return b"[" * rng.randrange(P.MAX_PEER_LINE - 100, P.MAX_PEER_LINE + 100) + b"\n"
        if rng.random() < 0.02:
            depth = rng.choice((P.MAX_DEPTH, P.MAX_DEPTH + 1, 1000, 100_000))
            opener, closer = rng.choice(((b"[", b"]"), (b'{"a":', b"}")))
            return b'{"type":"chat","text":' + opener * depth + b"1" + closer * depth + b"}\n"
        msg = self._template(peer)
        if rng.random() < 0.85:
            msg = self._mutate(msg, peer)
        data = self._serialize(msg)
        if rng.random() < 0.35:
            data = self._corrupt(data)
        return data.replace(b"\n", b"") + b"\n"

    # -- delivering bytes and carrying out effects ------------------------------------------------------------

    def _deliver(self, peer: Peer, data: bytes) -> None:
        """Feed ``data`` to the peer's line buffer (split at random points, as reads split it) and hand every
        whole line to the session the way the host does."""
        rng = self.rng
        cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.choice((0, 0, 1, 3))))) if data else []
        pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
        for piece in pieces:
            if peer.closed:
                return
            try:
                line = peer.buffer.take(piece)
                while line is not None and not peer.closed:
                    self._line(peer, line)
                    line = peer.buffer.next_line()
            except P.ProtocolError as exc:
                self._run_effects(self.session.receive_error(peer.link, exc), peer)

    def _line(self, peer: Peer, line: bytes) -> None:
        quick = self.session.quick_move(peer.link, line, self.now)
        if quick is not None:
            self.totals.quick_moves += 1
            self.records.append(json.loads(quick.record))
            for data in quick.lines:
                if data is not None and PROBLEM_INTERNAL in data:
                    self._fail(line, "the fast lane sent an internal error")
            return
        self._run_effects(self.session.receive_line(peer.link, line, self.now), peer)

    def _run_effects(self, effects: list[Effect], sender: Peer) -> None:
        queue = list(effects)
        by_link = {p.link.id: p for p in self.peers}
        while queue:
            effect = queue.pop(0)
            if isinstance(effect, Send):
                self._sent(effect.data, by_link.get(effect.link.id))
            elif isinstance(effect, Append):
                self.records.append(plain(effect.record))
            elif isinstance(effect, Commit):
                self.records += [plain(r) for r in effect.records]
                for delivery in effect.deliveries:
                    if delivery.data is not None and PROBLEM_INTERNAL in delivery.data:
                        self._fail(b"", "a state message carried an internal error")
            elif isinstance(effect, Durable):
                queue += self.session.welcome(effect.link)
            elif isinstance(effect, Resync):
                data, _ = self.session.snapshot(effect.link, effect.ack)
                self._sent(data, by_link.get(effect.link.id))
            elif isinstance(effect, Close):
                peer = by_link.get(effect.link.id)
                if peer is not None and not peer.closed:
                    peer.closed = True
                    self.totals.closes += 1
                    queue += self.session.disconnected(effect.link, self.now)
            elif not isinstance(effect, Changed):
                self._fail(b"", f"unknown effect {effect!r}")

    def _sent(self, data: bytes, peer: Peer | None) -> None:
        if PROBLEM_INTERNAL in data:
            self._fail(data, "the host answered with an internal error")
        if b'"type":"error"' in data:
            self.totals.refusals += 1
        if peer is not None and peer.kind == "rogue" and b'"type":"welcome"' in data:
            welcome = json.loads(data)
            if welcome.get("token") and welcome.get("seat") is not None:
                self.rogue_tokens[welcome["seat"]] = welcome["token"]

    # -- checks -------------------------------------------------------------------------------------------------

    def _fail(self, line: bytes, problem: str) -> None:
        self.totals.failures.append(Failure(self.seed, self.totals.lines, line, problem))

    def _check_line(
        self,
        peer: Peer,
        data: bytes,
        before: tuple[int, str, int, bool],
        open_before: dict[int, Any],
        records_before: int,
        honest_move: bool,
    ) -> None:
        table = self.table
        if self._errors.messages:
            self._fail(data, "the host logged: " + "; ".join(self._errors.messages))
            self._errors.messages.clear()
        after = (table.state_id, table.game.state_hash(), table.game_no, table.game.is_over())
        moves = [r for r in self.records[records_before:] if r.get("kind") == "move"]
        games = [r for r in self.records[records_before:] if r.get("kind") == "game"]
        seat = peer.link.seat
        if after[:2] != before[:2]:
            if moves:
                self.totals.moves += len(moves)
                if len(moves) != 1 or moves[0]["seat"] != seat or seat not in open_before:
                    self._fail(data, f"state changed by moves {moves} on a line from seat {seat}")
                if after[0] != before[0] + 1:
                    self._fail(data, f"state_id went from {before[0]} to {after[0]} for one move")
            elif games:
                if not before[3]:
                    self._fail(data, "a rematch started a game that was not over")
            else:
                self._fail(data, f"state changed from {before[:2]} to {after[:2]} with nothing journalled")
        elif moves or games:
            self._fail(data, "a record was journalled but the state did not change")
        if after[3] and not before[3]:
            self.totals.games_finished += 1
        if honest_move:
            if not moves:
                self._fail(data, "an honest move was not accepted")
            else:
                self.totals.honest_moves += 1
        for other in self.peers:
            if other.kind == "honest" and (other.closed or not other.link.ready):
                self._fail(data, f"honest seat {other.link.seat} lost its connection ({other.link.closing})")
                other.kind = "gone"

    def _check_table(self) -> None:
        """The journal replays to the live state; the core's save loads back; decisions match who must act."""
        table = self.table
        self.totals.checks += 1
        try:
            replayed = Table.from_records(self.records, core_engine(), clock=lambda: 0.0)
        except (ValueError, KeyError, TypeError) as exc:
            self._fail(b"", f"the journal does not replay: {exc}")
            return
        if (replayed.state_id, replayed.game_no, replayed.game.state_hash()) != (
            table.state_id,
            table.game_no,
            table.game.state_hash(),
        ):
            self._fail(b"", "the journal replays to another state than the live one")
        saved = table.game.to_json()  # type: ignore[attr-defined]
        if cardnet.load_game(saved).state_hash() != table.game.state_hash():
            self._fail(b"", "the core's save does not load back to the same state")
        must_act = set(table.game.to_act()) if table.started and not table.game.is_over() else set()
        if set(table.decisions) != must_act:
            self._fail(b"", f"open decisions {sorted(table.decisions)} but seats {sorted(must_act)} must act")
        live = sum(1 for p in self.peers if not p.closed)
        if len(self.session.links) > live:
            self._fail(b"", f"the session holds {len(self.session.links)} links, {live} are connected")
        self.peers = [p for p in self.peers if not p.closed or p.kind == "honest"]

    def _all_games_done(self) -> bool:
        # Two games per table at most: the second ends the table (rematches are exercised by the first).
        return self.table.game.is_over() and self.table.game_no >= 2

    def run(self, lines: int, stop: Callable[[], bool] = lambda: False) -> Totals:
        """Send ``lines`` lines (or until ``stop()``), then check the last table; the host logger's errors are
        collected for the run."""
        logger = logging.getLogger("cardnet.host")
        logger.addHandler(self._errors)
        try:
            for _ in range(lines):
                try:
                    self.step()
                except Exception:  # noqa: BLE001 - the point is to catch whatever escapes the session
                    self._fail(b"", "an exception escaped:\n" + traceback.format_exc())
                    self._new_table()
                if stop():
                    break
            self._check_table()
        finally:
            logger.removeHandler(self._errors)
        return self.totals
