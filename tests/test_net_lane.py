"""The host's native lane (cardnet.net.lane): it plays the fast lane's moves itself and hands everything else
back to the trio host, which then answers it exactly as before.

The clients here are blocking sockets driven from a worker thread, as peers of another process would be: the
lane only serves while the host's trio run has nothing else to do. tests/test_fast_lane.py compares whole
games byte for byte with and without the lane.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from cardnet.journal import Journal, read_journal
from cardnet.net.host import Host, HostOptions, JournalFailure
from cardnet.net.lane import Lane
from cardnet.table import core_engine

from nethelpers import running_host

pytestmark = pytest.mark.trio


def _options(**more: Any) -> HostOptions:
    """Host options for quick play: no keepalive or idle timeout during a test, no rate limit."""
    return HostOptions(keepalive_interval=3600.0, idle_timeout=3600.0, msg_rate=1e6, msg_burst=1e6, **more)


def _state_at(state: int) -> Callable[[dict[str, Any]], bool]:
    """A state message at or past ``state``."""
    return lambda m: m["type"] in ("update", "snapshot") and m["state_id"] >= state


class Peer:
    """A blocking raw client: sends lines, reads messages, remembers the latest state."""

    def __init__(
        self, port: int, name: str, role: str = "player", rcvbuf: int | None = None, token: str | None = None
    ) -> None:
        self.sock = socket.socket()
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        self.buffer = b""
        self.messages: list[dict[str, Any]] = []
        self.until(lambda m: m["type"] == "table")
        hello: dict[str, Any] = {"capabilities": ["chat", "index_moves", "rematch"], "name": name, "protocol": 1,
                                 "role": role, "type": "hello"}  # fmt: skip
        if token is not None:
            hello["token"] = token
        self.send(hello)
        self.welcome = self.until(lambda m: m["type"] == "welcome")

    def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message, separators=(",", ":")).encode()
        self.sock.sendall(data + b"\n")

    def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Reads messages until one satisfies ``done`` (pings are answered); returns it."""
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                message: dict[str, Any] = json.loads(line)
                self.messages.append(message)
                if message["type"] == "ping":
                    self.send({"id": message["id"], "type": "pong"})
                if done(message):
                    return message
            chunk = self.sock.recv(1 << 16)
            assert chunk, "the host closed the connection"
            self.buffer += chunk

    def state(self) -> dict[str, Any]:
        return next(m for m in reversed(self.messages) if m["type"] in ("update", "snapshot"))

    def close(self) -> None:
        self.sock.close()


def _started(peers: list[Peer]) -> int:
    """Waits until every peer has the started table; its state id."""
    return max(
        int(p.until(lambda m: m["type"] in ("update", "snapshot") and bool(m["to_act"]))["state_id"]) for p in peers
    )


def _move(decision_id: int, index: int = 0, ref: str = "") -> bytes:
    """A move line in the fast lane's form (``ref``: an extra ``,"ref":...`` member, already written)."""
    return f'{{"decision_id":{decision_id},"index":{index}{ref},"type":"move"}}'.encode()


def _play(
    players: list[Peer], watchers: list[Peer], moves: int, state: int, line: Callable[[int], bytes] = _move
) -> int:
    """Each seat to act answers with its first legal move (``line`` of the decision's id), ``moves`` times (or
    until the game ends); every peer waits for each new state. Returns the last state id."""
    for _ in range(moves):
        latest = players[0].state()
        if latest["over"]:
            break
        seat = min(latest["to_act"])
        decision = players[seat].state()["decision"]
        players[seat].send(line(decision["id"]))
        state += 1
        for peer in players + watchers:
            peer.until(_state_at(state))
    return state


def _close(peers: list[Peer]) -> None:
    for peer in peers:
        peer.close()


async def _in_thread(work: Callable[[], Any]) -> Any:
    return await trio.to_thread.run_sync(work)


def _fill_the_disk(journal: Journal) -> None:
    """The journal's disk is full from now on: every further record fails (its descriptor is now /dev/full's)."""
    full = os.open("/dev/full", os.O_WRONLY)
    os.dup2(full, journal.descriptor)
    os.close(full)


async def _until_the_journal_fails(game: str, journal: Journal, scene: Callable[[list[Peer]], None]) -> Host:
    """Hosts ``game`` for two players with ``journal``, runs ``scene`` with their peers (it fills the disk at some
    point, see :func:`_fill_the_disk`), and checks that the host stopped with ``JournalFailure``; the host."""
    host: Host | None = None
    with pytest.raises(BaseExceptionGroup) as stopped:
        async with running_host(core_engine(), game=game, players=2, journal=journal,
                                host_options=_options()) as running:  # fmt: skip
            host = running
            assert running.port is not None
            port = running.port

            def play() -> None:
                players = [Peer(port, "ann"), Peer(port, "bob")]
                scene(players)
                _close(players)

            await _in_thread(play)
            # The host stops by itself: this sleep is never finished.
            await trio.sleep(10)
    assert stopped.group_contains(JournalFailure)
    assert host is not None
    return host


async def test_the_lane_plays_moves_and_hands_back_a_chat_line() -> None:
    async with running_host(core_engine(), game="matchstick", players=2, host_options=_options()) as host:
        assert host.port is not None
        port = host.port

        def scene() -> tuple[int, dict[str, Any]]:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            state = _play(players, [], 10, _started(players))
            # A chat line while the lane serves: it stops, and the host answers the line as always.
            players[0].send({"text": "good luck", "type": "chat"})
            said = players[1].until(lambda m: m["type"] == "chat")
            state = _play(players, [], 10, state)
            _close(players)
            return state, said

        state, said = await _in_thread(scene)
        assert said["text"] == "good luck" and said["seat"] == 0
        lane = host.lane
        assert lane is not None
        assert lane.moves >= 10, (lane.moves, lane.stops)
        assert lane.stops.get("line", 0) >= 1
        assert host.table.state_id == state
        assert host.quick_moves >= lane.moves


async def test_a_spectators_line_ends_the_lane_at_once() -> None:
    async with running_host(core_engine(), game="matchstick", players=2, host_options=_options()) as host:
        assert host.port is not None
        port = host.port

        def scene() -> dict[str, Any]:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            watcher = Peer(port, "eve", role="spectator")
            # The spectator's welcome and first states go out through its writer: the lane starts after those.
            _play(players, [watcher], 20, _started(players))
            # The lane watches the spectator's socket for trio: its line ends the run, and trio's reader gets it.
            watcher.send({"id": 77, "type": "ping"})
            pong = watcher.until(lambda m: m["type"] == "pong")
            _close([*players, watcher])
            return pong

        pong = await _in_thread(scene)
        assert pong["id"] == 77
        lane = host.lane
        assert lane is not None
        assert lane.moves >= 5, (lane.moves, lane.stops, host.quick_moves)
        assert lane.stops.get("io", 0) >= 1


async def test_a_built_in_players_turn_ends_the_lane() -> None:
    options = _options()
    async with running_host(
        core_engine(), game="matchstick", players=3, bots={2: "random"}, host_options=options
    ) as host:
        assert host.port is not None
        port = host.port

        def scene() -> int:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            state = _started(players)
            for _ in range(40):
                latest = players[0].state()
                if latest["over"]:
                    break
                acting = [s for s in latest["to_act"] if s < 2]
                if not acting:
                    # The bot's turn: wait for its move.
                    state = players[0].until(_state_at(state + 1))["state_id"]
                    continue
                seat = acting[0]
                decision = players[seat].state()["decision"]
                players[seat].send(_move(decision["id"]))
                state = players[0].until(_state_at(state + 1))["state_id"]
                players[1].until(_state_at(state))
            _close(players)
            return state

        state = await _in_thread(scene)
        assert host.table.state_id >= state
        assert host.lane is not None and host.lane.stops.get("other_seat", 0) >= 1


async def test_a_watcher_that_does_not_read_gets_a_whole_stream(tmp_path: Path) -> None:
    # A spectator whose socket is full: the lane's write to it falls short, the lane stops, and the host keeps
    # the rest of the line whole (then drops states for a snapshot) while the players play on.
    options = _options(outbox_messages=4)
    async with running_host(core_engine(), game="matchstick", players=2, host_options=options) as host:
        assert host.port is not None
        port = host.port

        def scene() -> tuple[int, dict[str, Any]]:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            watcher = Peer(port, "eve", role="spectator", rcvbuf=4096)
            state = _play(players, [], 200, _started(players))
            # Now read everything: a whole stream, ending at the current state.
            last = watcher.until(_state_at(state))
            _close([*players, watcher])
            return state, last

        state, last = await _in_thread(scene)
        assert last["state_id"] == state
        assert host.lane is not None and host.lane.stops.get("backlog", 0) >= 1


async def test_a_journal_that_cannot_be_written_stops_the_host_before_anyone_hears(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "t.journal")

    def scene(players: list[Peer]) -> None:
        state = _play(players, [], 8, _started(players))
        _fill_the_disk(journal)
        seat = min(players[0].state()["to_act"])
        decision = players[seat].state()["decision"]
        players[seat].send(_move(decision["id"]))
        with pytest.raises((AssertionError, OSError)):
            # The host stops: the connection ends without the move's update.
            players[1 - seat].until(lambda m: m["type"] == "update" and m["state_id"] > state)

    await _until_the_journal_fails("matchstick", journal, scene)
    # Every acknowledged move is in the journal, and the one that could not be written was heard by no one.
    records = read_journal(tmp_path / "t.journal").records
    assert sum(1 for r in records if r.get("kind") == "move") == 8


async def test_hostile_lines_during_the_lane_get_the_general_paths_answers() -> None:
    async with running_host(core_engine(), game="matchstick", players=2, host_options=_options()) as host:
        assert host.port is not None
        port = host.port

        def scene() -> tuple[list[str], int]:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            state = _play(players, [], 10, _started(players))
            seat = min(players[0].state()["to_act"])
            mover, other = players[seat], players[1 - seat]
            decision = mover.state()["decision"]
            codes = []
            # Each line is one the lane must leave: the general path answers it, and nothing changes.
            hostile = [
                (other, _move(decision["id"])),  # not its decision
                (mover, _move(decision["id"], decision["count"])),
                (mover, _move(decision["id"] + 16)),
                (mover, b"\xff\xfe not json"),
            ]
            for sender, line in hostile:
                sender.send(line)
                codes.append(str(sender.until(lambda m: m["type"] == "error")["code"]))
            # A line past the limit ends that connection; the other seat and the table are unharmed.
            other.send(b'{"pad":"' + b"x" * 70_000 + b'"}')
            codes.append(str(other.until(lambda m: m["type"] == "error")["code"]))
            state = _play([mover], [], 0, state)
            _close(players)
            return codes, state

        codes, state = await _in_thread(scene)
        assert codes == ["wrong_seat", "invalid_move", "stale_decision", "bad_utf8", "line_too_long"]
        assert host.table.state_id == state
        assert host.lane is not None and host.lane.stops.get("line", 0) >= 1


async def test_a_reconnect_and_a_late_spectator_see_what_the_lane_played() -> None:
    # The lane's moves are the table's: a player who reconnects and repeats its last move gets the snapshot with
    # its ack (the answered ids the lane kept), and a spectator who joins mid-game gets the current state.
    async with running_host(core_engine(), game="matchstick", players=2, host_options=_options()) as host:
        assert host.port is not None
        port = host.port

        def scene() -> tuple[dict[str, Any], dict[str, Any], int]:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            state = _play(players, [], 12, _started(players))
            # One more move, then its mover comes back on a new connection and repeats it.
            seat = min(players[0].state()["to_act"])
            decision = players[seat].state()["decision"]
            repeat = _move(decision["id"], ref=',"ref":"again"')
            players[seat].send(repeat)
            state += 1
            for peer in players:
                peer.until(_state_at(state))
            token = players[seat].welcome["token"]
            players[seat].close()
            back = Peer(port, "ann", token=token)
            back.until(_state_at(state))
            back.send(repeat)
            acked = back.until(lambda m: "ack" in m)
            watcher = Peer(port, "eve", role="spectator")
            joined = watcher.until(_state_at(state))
            _close([back, players[1 - seat], watcher])
            return acked, joined, state

        acked, joined, state = await _in_thread(scene)
        assert acked["type"] == "snapshot" and acked["ack"]["ref"] == "again" and acked["state_id"] == state
        assert joined["type"] == "snapshot" and joined["state_id"] == state == host.table.state_id
        assert joined["hash"] == host.table.game.state_hash()
        assert host.lane is not None and host.lane.moves >= 5


async def test_what_the_lane_reads_and_does_not_play_reaches_the_general_path_whole() -> None:
    # Half a move, then its rest; a chat line and a move in one write: the lane reads them and hands them back,
    # and the connection's reader goes on as if it had read them itself.
    async with running_host(core_engine(), game="matchstick", players=2, host_options=_options()) as host:
        assert host.port is not None
        port = host.port

        def scene() -> tuple[int, list[str]]:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            state = _play(players, [], 10, _started(players))
            seen: list[str] = []
            for split in (True, False):
                seat = min(players[0].state()["to_act"])
                decision = players[seat].state()["decision"]
                move = _move(decision["id"]) + b"\n"
                if split:
                    players[seat].sock.sendall(move[:20])
                    time.sleep(0.05)
                    players[seat].sock.sendall(move[20:])
                else:
                    players[seat].sock.sendall(b'{"text":"both at once","type":"chat"}\n' + move)
                    seen.append(str(players[1 - seat].until(lambda m: m["type"] == "chat")["text"]))
                state += 1
                for peer in players:
                    peer.until(_state_at(state))
            _close(players)
            return state, seen

        state, seen = await _in_thread(scene)
        assert seen == ["both at once"] and host.table.state_id == state
        assert host.lane is not None and host.lane.stops.get("line", 0) >= 2


async def _two_play_40_moves_written_as(line: Callable[[int], bytes]) -> Lane:
    """Two players play 40 moves of Matchstick, each move written by ``line``; the host ends at their state.
    Returns the host's lane."""
    async with running_host(core_engine(), game="matchstick", players=2, host_options=_options()) as host:
        assert host.port is not None
        port = host.port

        def scene() -> int:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            state = _play(players, [], 40, _started(players), line)
            _close(players)
            return state

        state = await _in_thread(scene)
        assert host.table.state_id == state
        assert host.lane is not None
        return host.lane


async def test_moves_in_any_key_order_and_spacing_are_played_by_the_lane() -> None:
    # What a peer's JSON encoder writes by default (a space after each separator, "type" first, a CR before
    # the newline) is the same move: the lane plays it as it plays the canonical form.
    def spaced(decision_id: int) -> bytes:
        return json.dumps({"type": "move", "decision_id": decision_id, "index": 0}).encode() + b" \r"

    lane = await _two_play_40_moves_written_as(spaced)
    assert lane.moves > 0 and lane.stops.get("line", 0) == 0, lane.stops


async def test_a_peer_that_writes_moves_in_another_form_does_not_pay_for_a_run_each_move() -> None:
    # Moves with a field the lane does not know are valid (unknown fields are ignored) but not the lane's form:
    # each ends a run at once, so the lane backs off instead of trying again at every move (the general path
    # plays them all).
    def annotated(decision_id: int) -> bytes:
        return f'{{"decision_id":{decision_id},"index":0,"note":"mine","type":"move"}}'.encode()

    lane = await _two_play_40_moves_written_as(annotated)
    assert lane.moves == 0 and 1 <= lane.stops.get("line", 0) <= 8, lane.stops


async def _paths_logged(
    caplog: pytest.LogCaptureFixture, moves: int, turn_timer: float | None = None
) -> tuple[Host, list[str]]:
    """Two players play ``moves`` moves of Matchstick; the host and the path changes it logged at debug level."""
    caplog.set_level(logging.DEBUG, logger="cardnet.host")
    async with running_host(
        core_engine(), game="matchstick", players=2, host_options=_options(), turn_timer=turn_timer
    ) as host:
        assert host.port is not None
        port = host.port

        def scene() -> None:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            _play(players, [], moves, _started(players))
            _close(players)

        await _in_thread(scene)
    return host, [r.getMessage() for r in caplog.records if r.getMessage().startswith("moves take the ")]


async def test_the_host_logs_each_change_of_path_at_debug_level(caplog: pytest.LogCaptureFixture) -> None:
    host, paths = await _paths_logged(caplog, 10)
    assert host.lane is not None and host.lane.moves > 0
    # The table starts with the fast path (no move in play), and the lane's runs show as the native path.
    assert paths[0].startswith("moves take the fast path")
    assert any(p.startswith("moves take the native path") for p in paths)
    taken = [p.split()[3] for p in paths]
    assert all(a != b for a, b in zip(taken, taken[1:])), "a path is logged only when it changes"


async def test_a_table_with_turn_timers_logs_the_general_path_once(caplog: pytest.LogCaptureFixture) -> None:
    host, paths = await _paths_logged(caplog, 6, turn_timer=60.0)
    assert host.lane is None and host.quick_moves == 0
    assert paths == ["moves take the general path: turn timers: decisions need deadlines"]
