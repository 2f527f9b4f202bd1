"""Every game, played whole over real loopback TCP: host + bot peers (SDK, raw sockets, Node.js) + a spectator."""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest
import trio

import cardnet
from cardnet.bot import Bot, BuiltinBot, RandomBot, run_bot
from cardnet.net.peer import Peer
from cardnet.protocol import StateMessage
from cardnet.table import core_engine

from nethelpers import bot_command, child_env, running_host, watch

pytestmark = pytest.mark.trio

GAMES = sorted(cardnet.GAMES)


def seats_for(game: str) -> int:
    info = cardnet.GAMES[game]
    return max(info.min_players, min(3, info.max_players))


@pytest.mark.parametrize("game", GAMES)
async def test_sdk_bots_and_a_spectator_play_a_whole_game(game: str) -> None:
    players = seats_for(game)
    async with running_host(core_engine(), game=game, players=players, seed=11) as host:
        port = host.port or 0
        results = []
        seen: list[StateMessage] = []

        async def player(i: int) -> None:
            results.append(await run_bot(RandomBot(i), "127.0.0.1", port, name=f"bot{i}"))

        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                await nursery.start(watch, port, seen)
                for i in range(players):
                    nursery.start_soon(player, i)
        assert host.table.game.is_over()
        final_hash = host.table.game.state_hash()
        core_game: Any = host.table.game  # the core's Game has more than the host's GameLike view of it
        expected = json.loads(core_game.outcome_json())
        for result in results:
            assert result.errors == []
            assert result.final_states[0].hash == final_hash
            assert result.outcomes == [expected]
        assert seen[-1].over and seen[-1].hash == final_hash
        # The spectator saw every state in order (no gaps on an idle loopback).
        ids = [s.state_id for s in seen if s.kind == "update"]
        assert ids == sorted(ids) and len(ids) == len(set(ids))


@pytest.mark.parametrize("game", GAMES)
async def test_example_bots_in_three_languages_play_every_game(game: str) -> None:
    if shutil.which("node") is None:
        pytest.fail("node is required for the Node.js example bot")
    players = seats_for(game)
    kinds = ["raw", "node", "sdk"][:players] + ["raw"] * max(0, players - 3)
    async with running_host(core_engine(), game=game, players=players, seed=5) as host:
        outputs: dict[int, str] = {}

        async def run(i: int, kind: str) -> None:
            proc = await trio.run_process(
                bot_command(kind, host.port or 0, games=2, name=f"{kind}{i}"),
                capture_stdout=True,
                capture_stderr=True,
                env=child_env(),
                check=False,
            )
            assert proc.returncode == 0, (kind, proc.stderr.decode()[-2000:])
            outputs[i] = proc.stdout.decode()

        with trio.fail_after(240):
            async with trio.open_nursery() as nursery:
                for i, kind in enumerate(kinds):
                    nursery.start_soon(run, i, kind)
        per_bot = [[json.loads(line)["outcome"] for line in outputs[i].splitlines()] for i in range(players)]
        assert all(len(o) == 2 for o in per_bot)
        assert all(o == per_bot[0] for o in per_bot)
        core_game: Any = host.table.game
        assert per_bot[0][1] == json.loads(core_game.outcome_json())
        assert host.table.game_no == 1


async def test_core_refusals_reach_only_the_sender_with_the_core_code() -> None:
    from nethelpers import RawClient

    async with running_host(core_engine(), game="fistful", players=2, seed=3) as host:
        port = host.port or 0
        a = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        assert (await a.join("a"))["seat"] == 0
        b = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        assert (await b.join("b"))["seat"] == 1
        snap = await a.recv_type("snapshot")
        while snap["decision"] is None:  # the first snapshot came before the table was full
            snap = await a.recv_type("snapshot")
        decision = snap["decision"]["id"]
        before = (host.table.state_id, host.table.game.state_hash())
        cases = [
            ({"type": "discard", "cards": [1]}, "illegal_move", "wrong_count"),
            ({"type": "pick", "card": 1}, "illegal_move", "wrong_phase"),
            ({"type": "discard", "cards": [1, 99]}, "invalid_move", None),
            ({"type": "discard", "cards": [1, 2], "extra": True}, "invalid_move", None),
        ]
        for move, code, detail in cases:
            await a.send({"type": "move", "decision_id": decision, "move": move})
            err = await a.recv_type("error")
            assert (err["code"], err.get("detail")) == (code, detail), err
            assert err["reason"] and err["state_id"] == before[0] and err["decision_id"] == decision
        assert (host.table.state_id, host.table.game.state_hash()) == before
        # Seat b heard nothing about any of it; a's real discard then goes through.
        await b.send({"type": "ping", "id": 1})
        seen: list[str] = []
        while not seen or seen[-1] != "pong":
            msg = await b.recv()
            assert msg is not None
            seen.append(msg["type"])
        assert "error" not in seen
        await a.send({"type": "move", "decision_id": decision, "move": {"type": "discard", "cards": [2, 1]}})
        update = await a.recv_type("update")
        assert update["ack"]["decision_id"] == decision and update["state_id"] == before[0] + 1


@pytest.mark.parametrize("game", GAMES)
async def test_a_dropped_connection_reconnects_with_the_token_mid_game(game: str) -> None:
    players = seats_for(game)
    async with running_host(core_engine(), game=game, players=players, seed=21) as host:
        port = host.port or 0
        peers = [Peer("127.0.0.1", port, name=f"p{i}", max_backoff=0.1) for i in range(players)]
        results = []

        async def player(i: int) -> None:
            results.append(await run_bot(RandomBot(i), "127.0.0.1", port, peer=peers[i]))

        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                for i in range(players):
                    nursery.start_soon(player, i)
                while host.table.state_id < 6 and not host.table.game.is_over():
                    await trio.sleep(0.001)
                seat = peers[0].state.seat
                stream = peers[0]._stream
                assert stream is not None and seat is not None
                await stream.aclose()  # the network drops this peer mid-game
        assert host.table.game.is_over()
        assert peers[0].state.connects == 2 and peers[0].state.seat == seat
        assert all(r.outcomes == results[0].outcomes for r in results)
        assert not host.table.seats[seat].auto


@pytest.mark.parametrize("game", GAMES)
async def test_builtin_players_play_over_the_wire_from_their_views(game: str) -> None:
    """`cardnet bot builtin:PLAYER`: the heuristic and a short ISMCTS search rebuild the game from their view."""
    players = seats_for(game)
    specs: list[Bot] = [BuiltinBot(player="heuristic", seed=1), BuiltinBot(player="ismcts:20", seed=2)]
    specs += [RandomBot(i) for i in range(players - len(specs))]
    async with running_host(core_engine(), game=game, players=players, seed=5) as host:
        port = host.port or 0
        results = []

        async def player(bot: Bot, i: int) -> None:
            results.append(await run_bot(bot, "127.0.0.1", port, name=f"bot{i}"))

        with trio.fail_after(150):
            async with trio.open_nursery() as nursery:
                for i, bot in enumerate(specs[:players]):
                    nursery.start_soon(player, bot, i)
        assert host.table.game.is_over()
        for result in results:
            assert result.errors == []
            assert result.final_states[0].hash == host.table.game.state_hash()
