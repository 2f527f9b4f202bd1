"""The host's fast lane for accepted moves sends exactly what the general path sends, byte for byte.

The same games are played twice: once with every line through :meth:`HostSession.receive_line`, once with the
moves through :meth:`HostSession.quick_move` (and, over TCP, a host with and without the fast lane), and every
line, journal record and the table's state after each move are compared.
"""

from __future__ import annotations

import itertools
import json
import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardnet.native
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from cardnet import protocol as P
from cardnet.journal import Journal, encode_record
from cardnet.net.host import HostOptions
from cardnet.protocol.host import Commit, Effect, HostSession, Link, QuickMove
from cardnet.table import Table, TableConfig, core_engine

from nethelpers import running_host


def _hello(name: str, role: str = "player") -> bytes:
    hello: dict[str, P.Encodable] = {"type": "hello", "protocol": 1, "name": name, "role": role}
    hello["capabilities"] = ["index_moves", "rematch"]
    return P.encode(hello)[:-1]


def _table_and_links(name: str, players: int, **options: Any) -> tuple[Table, HostSession, list[Link]]:
    """A started table, one link per seat (seat order) and a spectator's link last."""
    config = TableConfig(name, players, 5, seeded=True, table_id="fast")
    table = Table(config, core_engine(), clock=lambda: 0.0)
    session = HostSession(table, HostOptions(msg_rate=1e9, msg_burst=1e9, **options))
    links = []
    for index, role in enumerate(["player"] * players + ["spectator"]):
        link, _ = session.connect(0.0)
        session.receive_line(link, _hello(f"p{index}", role), 0.0)
        links.append(link)
    assert table.started and [link.seat for link in links] == [*range(players), None]
    return table, session, links


def _move_line(decision_id: int, index: int, step: int) -> bytes:
    """An index move; its ``ref`` takes each of the forms the fast lane reads, and one step in three writes
    it as other encoders do (Python's default separators, keys in another order, a CR before the newline)."""
    refs = ["", ',"ref":null', f',"ref":{step}', f',"ref":-{step}', f',"ref":"r {step}/x"']
    line = f'{{"decision_id":{decision_id},"index":{index}{refs[step % len(refs)]},"type":"move"}}'
    if step % 3 == 1:
        return json.dumps(dict(reversed(json.loads(line).items()))).encode() + b"\r"
    return line.encode()


def _state(table: Table) -> Any:
    game: Any = table.game
    decisions = {s: (d.id, d.legal_json, d.count, d.deadline, d.timed_out) for s, d in table.decisions.items()}
    return (table.game_no, table.state_id, decisions, dict(table.answered), list(table._decision_seq),
            set(table.rematch_votes), game.to_json())  # fmt: skip


def _commit(effects: list[Effect]) -> Commit:
    assert len(effects) == 1 and isinstance(effects[0], Commit), effects
    return effects[0]


def _compare(commit: Commit, quick: QuickMove) -> None:
    """The fast lane's move against the general path's commit of the same move."""
    assert [encode_record(record)[8:] for record in commit.records] == [quick.record]
    assert commit.game_over == quick.game_over
    for delivery in commit.deliveries:
        line = quick.lines[-1 if delivery.seat is None else delivery.seat]
        assert line == delivery.data
        if delivery.ack is not None:
            assert delivery.ack == quick.ack
            assert json.loads(line or b"{}")["ack"] == quick.ack


def _refusals(decision_id: int, count: int) -> Iterator[bytes]:
    """Lines the fast lane must leave to the general path (valid moves in another form among them)."""
    yield f'{{"decision_id":{decision_id},"index":{count},"type":"move"}}'.encode()
    yield f'{{"decision_id":{decision_id},"index":-1,"type":"move"}}'.encode()
    yield f'{{"decision_id":{decision_id + 1},"index":0,"type":"move"}}'.encode()
    yield f'{{"decision_id": {decision_id},"index":0,"note":1,"type":"move"}}'.encode()
    yield f'{{"decision_id":{decision_id},"index":0,"index":0,"type":"move"}}'.encode()
    yield f'{{"decision_id":{decision_id},"index":0,"ref":"a\\"b","type":"move"}}'.encode()
    yield f'{{"decision_id":{decision_id},"index":0,"ref":1.5,"type":"move"}}'.encode()
    yield f'{{"decision_id":{decision_id},"index":0,"ref":"\\u0041","type":"move"}}'.encode()
    yield f'{{"decision_id":{decision_id},"index":00,"type":"move"}}'.encode()
    yield f'{{"decision_id":{decision_id},"index":0,\n"type":"move"}}'.encode()
    yield b'{"type":"rematch"}'


@pytest.mark.parametrize(
    ("name", "players", "inline"),
    [("matchstick", 4, P.LEGAL_INLINE_LIMIT), ("fistful", 2, P.LEGAL_INLINE_LIMIT), ("cherki", 3, 40),
     ("ten", 2, P.LEGAL_INLINE_LIMIT)],
)  # fmt: skip
def test_quick_moves_match_the_general_path(name: str, players: int, inline: int) -> None:
    general, general_session, general_links = _table_and_links(name, players, legal_inline_limit=inline)
    quick, quick_session, quick_links = _table_and_links(name, players, legal_inline_limit=inline)
    rnd = random.Random(7)
    games = 0
    for step in range(400):
        if general.game.is_over():
            games += 1
            if games == 2:
                break
            for seat in range(players):
                general_session.receive_line(general_links[seat], b'{"type":"rematch"}', 0.0)
                quick_session.receive_line(quick_links[seat], b'{"type":"rematch"}', 0.0)
            assert _state(general) == _state(quick)
        # Simultaneous decisions: any acting seat may answer first.
        seat = rnd.choice(sorted(general.decisions))
        decision = general.decisions[seat]
        line = _move_line(decision.id, rnd.randrange(decision.count), step)
        if step % 9 == 0:
            before = _state(quick)
            for refused in _refusals(decision.id, decision.count):
                assert quick_session.quick_move(quick_links[seat], refused, 0.0) is None, refused
            other = (seat + 1) % players
            if other not in quick.decisions:
                assert quick_session.quick_move(quick_links[other], line, 0.0) is None
            assert quick_session.quick_move(quick_links[-1], line, 0.0) is None
            assert _state(quick) == before
        commit = _commit(general_session.receive_line(general_links[seat], line, 0.0))
        played = quick_session.quick_move(quick_links[seat], line, 0.0)
        assert played is not None, line
        _compare(commit, played)
        assert _state(general) == _state(quick)
        for a, b in zip(general_links, quick_links):
            # Snapshots come from the fast lane's fan-out, turned into fragments only now.
            assert general_session.snapshot(a, None) == quick_session.snapshot(b, None)
    assert games >= 1, "no game finished: the rematch path went untested"


@st.composite
def _written_moves(draw: st.DrawFn, decision_id: int, count: int) -> bytes:
    """An index move for ``decision_id`` as some encoder might write it (keys in any order, any JSON whitespace
    around any token, an optional ``ref``, now and then a field more), sometimes with one byte changed."""
    fields: dict[str, str] = {
        "decision_id": str(draw(st.sampled_from([decision_id, decision_id, decision_id + 1]))),
        "index": str(draw(st.integers(-1, count))),
        "type": draw(st.sampled_from(['"move"', '"move"', '"Move"'])),
    }
    ref = draw(st.one_of(st.none(), st.sampled_from(["null", "-0", "7", '"a/b c"', '"\\u0041"', "1.5", '"é"'])))
    if ref is not None:
        fields["ref"] = ref
    if draw(st.booleans()) and draw(st.booleans()):
        fields["note"] = '"x"'
    keys = draw(st.permutations(list(fields)))
    blank = st.sampled_from(["", "", " ", "\t", "\r", "  "])
    parts = [draw(blank) + "{"]
    for n, key in enumerate(keys):
        end = "," if n + 1 < len(keys) else "}"
        parts.append(f'{draw(blank)}"{key}"{draw(blank)}:{draw(blank)}{fields[key]}{draw(blank)}{end}')
    line = bytearray(("".join(parts) + draw(blank)).encode())
    if draw(st.integers(0, 3)) == 0:
        at = draw(st.integers(0, len(line) - 1))
        line[at] = draw(st.sampled_from(b' {}[]",:.-0123456789e\n\\'))
    return bytes(line)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_written_move_the_fast_lane_takes_is_the_general_paths_move(data: st.DataObject) -> None:
    # Whatever the fast lane takes, the general path takes as the same move with the same ack, byte for byte;
    # whatever it leaves, it leaves untouched.
    general, general_session, general_links = _table_and_links("fistful", 2)
    quick, quick_session, quick_links = _table_and_links("fistful", 2)
    seat = min(general.decisions)
    decision = general.decisions[seat]
    line = data.draw(_written_moves(decision.id, decision.count))
    before = _state(quick)
    played = quick_session.quick_move(quick_links[seat], line, 0.0)
    effects = general_session.receive_line(general_links[seat], line, 0.0)
    if played is None:
        assert _state(quick) == before
    else:
        _compare(_commit(effects), played)
        assert _state(general) == _state(quick)


def test_a_line_too_long_to_send_is_none_as_on_the_general_path() -> None:
    # The general path's deliveries then carry no data, and those connections get a snapshot instead.
    table, _, _ = _table_and_links("matchstick", 4)
    seat = min(table.decisions)
    decision = table.decisions[seat]
    game: Any = table.game
    line = _move_line(decision.id, 0, 0)
    done = cardnet.native.play_line(
        game, line, seat, decision.id, decision.count, [], [1] * 4, 16, 0, table.state_id + 1, 1 << 20, 10
    )
    assert done is not None and done[2] == [None] * 5


class _Client:
    """A raw TCP client that keeps every byte the host sends it."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.raw = bytearray()
        self.messages: list[dict[str, Any]] = []
        self._buffer = bytearray()

    async def until(self, done: Any) -> dict[str, Any]:
        """Read lines until one satisfies ``done``; returns it."""
        with trio.fail_after(10):
            while True:
                while b"\n" in self._buffer:
                    line, _, rest = bytes(self._buffer).partition(b"\n")
                    self._buffer = bytearray(rest)
                    message: dict[str, Any] = json.loads(line)
                    self.messages.append(message)
                    if done(message):
                        return message
                chunk = await self.stream.receive_some(1 << 16)
                assert chunk, "the host closed the connection"
                self.raw += chunk
                self._buffer += chunk

    def latest_state(self) -> dict[str, Any]:
        return next(m for m in reversed(self.messages) if m["type"] in ("update", "snapshot"))


async def _play_over_tcp(name: str, players: int, lane: str, journal_path: Path) -> tuple[list[bytes], bytes]:
    """Plays a seeded table through a rematch with raw clients; every byte each client got, and the journal.

    ``lane``: ``general`` (every line through the general path), ``fast`` (the fast lane, not the native one) or
    ``native`` (both). The clients run in a thread of their own (their own trio run), as peers of another
    process would: the native lane takes over only while the host's run has nothing else to do."""
    fast = lane != "general"
    options = HostOptions(fast_lane=fast, native_lane=lane == "native", keepalive_interval=3600, idle_timeout=3600,
                          msg_rate=1e6, msg_burst=1e6)  # fmt: skip
    journal = Journal.create(journal_path)
    try:
        async with running_host(core_engine(), game=name, players=players, seed=9, host_options=options,
                                journal=journal) as host:  # fmt: skip
            assert host.port is not None
            raw = await trio.to_thread.run_sync(trio.run, _clients_play, host.port, players)
            # The general path answered the refused and the annotated moves, and every move without a fast lane.
            assert (host.quick_moves > 50) if fast else (host.quick_moves == 0)
            played_natively = host.lane.moves if host.lane is not None else 0
            assert (played_natively > 20) if lane == "native" else (played_natively == 0)
            if host.lane is not None:
                # The rematch went through the native lane too: every vote, and the next game's deal.
                assert (host.lane.votes, host.lane.games) == (players, 1)
    finally:
        journal.close()
    return raw, journal_path.read_bytes()


async def _clients_play(port: int, players: int) -> list[bytes]:
    """The raw clients' side of :func:`_play_over_tcp`: every byte each client got."""
    rnd = random.Random(3)
    clients: list[_Client] = []
    for index in range(players + 1):
        client = _Client(await trio.open_tcp_stream("127.0.0.1", port))
        await client.until(lambda m: m["type"] == "table")
        role = "spectator" if index == players else "player"
        await client.stream.send_all(_hello(f"c{index}", role) + b"\n")
        await client.until(lambda m: m["type"] == "welcome")
        clients.append(client)
    state = 0
    for client in clients:
        # The first seats got a snapshot of the table before it filled up: wait for the started one.
        started = await client.until(lambda m: m["type"] in ("update", "snapshot") and bool(m["to_act"]))
        state = max(state, started["state_id"])
    games = 0
    for step in range(500):
        latest = clients[0].latest_state()
        if latest["over"]:
            games += 1
            if games == 2:
                break
            # A moment for the host to go idle, so that the native lane (when on) is what reads the votes.
            await trio.sleep(0.05)
            for client in clients[:players]:
                await client.stream.send_all(b'{"type":"rematch"}\n')
                for other in clients:
                    await other.until(lambda m: m["type"] in ("rematch", "snapshot"))
            state = clients[0].latest_state()["state_id"]
            continue
        seat = min(latest["to_act"])
        mover = clients[seat]
        decision = mover.latest_state()["decision"]
        index = rnd.randrange(decision["count"])
        if step % 11 == 5:
            # A refused move first: the error goes to the mover alone, on both paths.
            await mover.stream.send_all(_move_line(decision["id"], decision["count"], step) + b"\n")
            await mover.until(lambda m: m["type"] == "error")
        line = _move_line(decision["id"], index, step)
        if step % 13 == 6:
            # Another key order and spacing: the same move on every path.
            line = json.dumps({"type": "move", "decision_id": decision["id"], "index": index}).encode()
        elif step % 17 == 8:
            # A field the fast lanes do not know (and the general path ignores): the general path plays it.
            line = json.dumps({"decision_id": decision["id"], "index": index, "note": "x", "type": "move"}).encode()
        await mover.stream.send_all(line + b"\n")
        state += 1
        for client in clients:
            await client.until(lambda m, s=state: m["type"] in ("update", "snapshot") and m["state_id"] >= s)
    assert games >= 1
    for client in clients:
        await client.stream.aclose()
    return [bytes(client.raw) for client in clients]


@pytest.mark.parametrize(("name", "players"), [("fistful", 2), ("matchstick", 4)])
def test_a_host_with_the_fast_lane_sends_the_same_bytes(
    name: str, players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = []
    for lane in ("general", "fast", "native"):
        # Challenges and seat tokens are the only random bytes of a seeded table: the same on both runs.
        counter = itertools.count()
        monkeypatch.setattr(secrets, "token_hex", lambda n=16: f"{next(counter):0{2 * n}x}")
        monkeypatch.setattr(secrets, "token_urlsafe", lambda n=32: f"token{next(counter)}")
        results.append(trio.run(_play_over_tcp, name, players, lane, tmp_path / f"{lane}.journal"))
    (slow_lines, slow_journal), *others = results
    for fast_lines, fast_journal in others:
        assert slow_journal == fast_journal
        for slow, quick in zip(slow_lines, fast_lines, strict=True):
            assert slow.splitlines() == quick.splitlines()
        assert sum(line.count(b'"type":"update"') for line in fast_lines) > 50
