"""Rematches in the host's native lane (cardnet.net.lane): once a game is over, the lane takes the players'
votes and deals the next game itself, and every vote it does not take gets the general path's answer.

tests/test_fast_lane.py compares a whole game and its rematch byte for byte with and without the lane; these
tests cover what the lane decides on its own: repeated votes, the journal, a task waiting for a game's end, an
unseeded table, a built-in player in the next game, and a journal that cannot be written.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from cardnet.journal import Journal, read_journal
from cardnet.table import Table, TableConfig, core_engine, derive_seed

from nethelpers import running_host
from test_net_lane import (
    Peer,
    _close,
    _fill_the_disk,
    _in_thread,
    _move,
    _options,
    _play,
    _started,
    _until_the_journal_fails,
)

pytestmark = pytest.mark.trio

#: More moves than any Fistful game lasts: `_play` stops at the game's end.
TO_THE_END = 400


def _rematch_line(game_no: int, votes: list[int]) -> dict[str, Any]:
    return {"game_no": game_no, "type": "rematch", "votes": votes}


def _idle_host() -> None:
    """A moment for the host to go idle after a game's end, so that the native lane is what reads the votes
    (a vote that comes while trio still has work goes the general way, which is right but not tested here)."""
    time.sleep(0.05)


def _a_game_and_a_rematch(port: int, moves_after: int, before_votes: Callable[[], object] = lambda: True) -> int:
    """Two players play a game to its end, wait for ``before_votes`` to be true, both vote, then they play
    ``moves_after`` moves of the next game; the last state id."""
    players = [Peer(port, "ann"), Peer(port, "bob")]
    end = _play(players, [], TO_THE_END, _started(players))
    for _ in range(200):
        if before_votes():
            break
        time.sleep(0.01)
    _idle_host()
    for player in players:
        player.send({"type": "rematch"})
    for player in players:
        player.until(lambda m: m["type"] == "snapshot")
    state = _play(players, [], moves_after, end + 1)
    _close(players)
    return state


def _journalled(path: Path, *, seed: int, seeded: bool = True) -> tuple[Table, Journal]:
    """A Fistful table for two and its journal, which starts with the table's record (so it can be replayed)."""
    config = TableConfig(game="fistful", players=2, seed=seed, seeded=seeded, options={}, table_id="r1")
    journal = Journal.create(path)
    journal.append(config.record())
    return Table(config, core_engine(), clock=trio.current_time), journal


def _replayed(journal_path: Path) -> Table:
    """The table the journal rebuilds."""
    return Table.from_records(read_journal(journal_path).records, core_engine(), clock=lambda: 0.0)


async def test_votes_and_the_next_game_go_through_the_lane(tmp_path: Path) -> None:
    table, journal = _journalled(tmp_path / "t.journal", seed=5)
    try:
        async with running_host(core_engine(), table=table, journal=journal, host_options=_options()) as host:
            assert host.port is not None
            port = host.port

            def scene() -> tuple[int, list[dict[str, Any]], dict[str, Any], int]:
                players = [Peer(port, "ann"), Peer(port, "bob")]
                watcher = Peer(port, "eve", role="spectator")
                end = _play(players, [watcher], TO_THE_END, _started(players))
                assert players[0].state()["over"]
                _idle_host()
                heard = []
                # A vote, the same vote again (spaced out, as a JSON encoder may write it), then the vote that
                # completes the set: every peer hears each.
                votes = [(0, b'{"type":"rematch"}'), (0, b'{ "type": "rematch" }\r'), (1, b'{"type":"rematch"}')]
                for seat, vote in votes:
                    players[seat].send(vote)
                    heard.append(watcher.until(lambda m: m["type"] in ("rematch", "snapshot")))
                    for player in players:
                        player.until(lambda m: m["type"] in ("rematch", "snapshot"))
                snapshot = players[0].state()
                state = _play(players, [watcher], 6, end + 1)
                _close([*players, watcher])
                return end, heard, snapshot, state

            end, heard, snapshot, state = await _in_thread(scene)
            lane = host.lane
            assert lane is not None
            assert (lane.votes, lane.games) == (3, 1), lane.stops
            assert lane.stops.get("over", 0) == 0, "no one waited for the game's end: the lane played on"
            assert heard[:2] == [_rematch_line(0, [0]), _rematch_line(0, [0])]
            assert heard[2]["type"] == "snapshot" and heard[2]["game_no"] == 1 and heard[2]["state_id"] == end + 1
            assert snapshot["type"] == "snapshot" and snapshot["decision"] is not None
            table = host.table
            assert (table.game_no, table.state_id, table.rematch_votes, host.finished_games) == (1, state, set(), 1)
            hash_now = table.game.state_hash()
    finally:
        journal.close()
    records = read_journal(tmp_path / "t.journal").records
    votes = [r for r in records if r["kind"] == "vote"]
    games = [r for r in records if r["kind"] == "game"]
    # The repeated vote is not journalled again; the next game is dealt from the table's seed.
    assert votes == [{"game_no": 0, "kind": "vote", "seat": 0}, {"game_no": 0, "kind": "vote", "seat": 1}]
    assert games == [{"game_no": 1, "kind": "game", "seed": derive_seed(5, 1), "state_id": end + 1}]
    replayed = _replayed(tmp_path / "t.journal")
    assert (replayed.game_no, replayed.state_id, replayed.game.state_hash()) == (1, state, hash_now)


async def test_votes_the_lane_does_not_take_get_the_general_paths_answers() -> None:
    async with running_host(core_engine(), game="fistful", players=2, host_options=_options()) as host:
        assert host.port is not None
        port = host.port

        def scene() -> tuple[list[str], list[dict[str, Any]]]:
            players = [Peer(port, "ann"), Peer(port, "bob")]
            watcher = Peer(port, "eve", role="spectator")
            state = _play(players, [watcher], 4, _started(players))
            codes = []
            # Too early: the lane hands the vote back, and the host refuses it.
            players[0].send({"type": "rematch"})
            codes.append(str(players[0].until(lambda m: m["type"] == "error")["code"]))
            _play(players, [watcher], TO_THE_END, state)
            # A spectator has no vote.
            watcher.send({"type": "rematch"})
            codes.append(str(watcher.until(lambda m: m["type"] == "error")["code"]))
            # A vote with a field the lane does not know goes the general way, and counts all the same.
            players[1].send(b'{"note":"again","type":"rematch"}')
            heard = [players[0].until(lambda m: m["type"] == "rematch")]
            players[0].send({"type": "rematch"})
            heard.append(players[1].until(lambda m: m["type"] == "snapshot"))
            _close([*players, watcher])
            return codes, heard

        codes, heard = await _in_thread(scene)
        assert codes == ["not_over", "spectator"]
        assert heard[0] == _rematch_line(0, [1])
        assert heard[1]["game_no"] == 1 and host.table.game_no == 1
        # The lane handed back the early vote and the annotated one (then, after such runs, it backs off a while).
        lane = host.lane
        assert lane is not None
        assert lane.stops.get("line", 0) >= 2, lane.stops


async def test_a_task_waiting_for_the_games_end_sees_it_over() -> None:
    async with running_host(core_engine(), game="fistful", players=2, host_options=_options()) as host:
        assert host.port is not None
        port = host.port
        seen: list[tuple[int, bool, int]] = []

        async def wait_for_the_end() -> None:
            await host.game_over.wait()
            seen.append((host.table.game_no, host.table.game.is_over(), host.finished_games))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(wait_for_the_end)
            state = await _in_thread(lambda: _a_game_and_a_rematch(port, 4, before_votes=lambda: seen))
        # The lane stopped at the end for the waiting task, then took the votes of the game that was over.
        assert seen == [(0, True, 1)]
        lane = host.lane
        assert lane is not None
        assert lane.stops.get("over", 0) >= 1 and lane.games == 1, lane.stops
        assert host.table.state_id == state


async def test_an_unseeded_tables_next_game_is_dealt_from_a_journalled_random_seed(tmp_path: Path) -> None:
    table, journal = _journalled(tmp_path / "u.journal", seed=0, seeded=False)
    try:
        async with running_host(core_engine(), table=table, journal=journal, host_options=_options()) as host:
            assert host.port is not None
            port = host.port

            state = await _in_thread(lambda: _a_game_and_a_rematch(port, 5))
            assert host.lane is not None and host.lane.games == 1
            hash_now = host.table.game.state_hash()
    finally:
        journal.close()
    (game,) = [r for r in read_journal(tmp_path / "u.journal").records if r["kind"] == "game"]
    seed = game["seed"]
    assert isinstance(seed, int) and 0 <= seed < 1 << 63
    replayed = _replayed(tmp_path / "u.journal")
    assert (replayed.state_id, replayed.game.state_hash()) == (state, hash_now)


async def test_a_built_in_player_in_the_next_game_gets_its_turn() -> None:
    async with running_host(core_engine(), game="fistful", players=2, bots={1: "random"},
                            host_options=_options()) as host:  # fmt: skip
        assert host.port is not None
        port = host.port

        def scene() -> None:
            ann = Peer(port, "ann")
            answered: set[int] = set()
            for game_no in (0, 1):
                while True:
                    latest = ann.until(lambda m: m["type"] in ("update", "snapshot") and m["game_no"] == game_no)
                    if latest["over"]:
                        break
                    decision = latest["decision"]
                    # Each decision once (it stays open, same id, while the bot picks).
                    if decision is not None and decision["id"] not in answered:
                        answered.add(decision["id"])
                        ann.send(_move(decision["id"]))
                if game_no == 0:
                    # The only human's vote is enough: the lane deals, then hands the bot's turn back.
                    _idle_host()
                    ann.send({"type": "rematch"})
            ann.close()

        await _in_thread(scene)
        lane = host.lane
        assert lane is not None
        assert lane.games == 1 and lane.stops.get("other_seat", 0) >= 1, lane.stops
        assert host.finished_games == 2


async def test_a_vote_that_cannot_be_journalled_stops_the_host_before_anyone_hears(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "t.journal")

    def scene(players: list[Peer]) -> None:
        _play(players, [], TO_THE_END, _started(players))
        _fill_the_disk(journal)
        _idle_host()
        players[0].send({"type": "rematch"})
        with pytest.raises((AssertionError, OSError)):
            # The host stops: no one hears of the vote.
            players[1].until(lambda m: m["type"] == "rematch")

    host = await _until_the_journal_fails("fistful", journal, scene)
    assert host.lane is not None and host.lane.stops.get("journal", 0) == 1
    assert not [r for r in read_journal(tmp_path / "t.journal").records if r["kind"] == "vote"]
