"""Host and peer over real loopback TCP, against a small stand-in game (independent of the Rust core)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
import trio

from cardnet import protocol as P
from cardnet.bot import FirstBot, RandomBot, run_bot
from cardnet.net.host import Host, HostOptions
from cardnet.journal import Journal, read_journal
from cardnet.net.factory import create_table, resume_table
from cardnet.net.peer import ConnectionLost, Peer, Reconnected, Reconnecting, SeatsChanged
from cardnet.protocol import StateMessage
from cardnet.protocol.host import Commit
from cardnet.table import Table, TableConfig

from nethelpers import HungHost, RawClient, play_first_moves, running_host, watch
from netfake import fake_engine

pytestmark = pytest.mark.trio


async def test_two_bots_play_a_whole_game_and_a_spectator_follows() -> None:
    engine = fake_engine()
    async with running_host(engine, players=3, bots={2: "random"}) as host:
        assert host.port is not None
        results = []
        spectated: list[StateMessage] = []

        async def player(bot: RandomBot | FirstBot, name: str) -> None:
            results.append(await run_bot(bot, "127.0.0.1", host.port or 0, name=name))

        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                await nursery.start(watch, host.port, spectated)
                nursery.start_soon(player, RandomBot(3), "alice")
                nursery.start_soon(player, FirstBot(), "bob")
        assert len(results) == 2
        assert all(len(r.final_states) == 1 and r.errors == [] for r in results)
        assert results[0].outcomes == results[1].outcomes
        final = results[0].final_states[0]
        assert final.over and final.hash == host.table.game.state_hash()
        assert spectated[-1].over and spectated[-1].hash == final.hash
        assert sum(r.moves for r in results) >= 6


async def test_reconnect_with_token_resumes_the_seat() -> None:
    engine = fake_engine()
    async with running_host(engine, players=2, bots={1: "random"}, host_options=HostOptions(seat_timeout=30)) as host:
        port = host.port or 0
        first = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        welcome = await first.join("alice")
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        token = welcome["token"]
        assert isinstance(token, str) and len(token) >= 22
        snap = await first.recv_type("snapshot")
        await first.send({"type": "move", "decision_id": snap["decision"]["id"], "index": 0})
        update = await first.recv_type("update")
        assert update["ack"]["decision_id"] == snap["decision"]["id"]
        await first.aclose()
        await trio.sleep(0.1)
        assert not host.table.seats[0].connected
        # The seat is still ours: a wrong token is refused, the right one resumes.
        bad = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        err = await bad.join("mallory", token="A" * 43)
        assert err["type"] == "error" and err["code"] == "bad_token" and err["fatal"]
        assert await bad.closed()
        second = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        again = await second.join("alice", token=token)
        assert again["type"] == "welcome" and again["seat"] == 0 and again["token"] is None
        snap2 = await second.recv_type("snapshot")
        assert snap2["state_id"] >= update["state_id"]
        assert host.table.seats[0].connected and all(token not in str(s) for s in host.table.seats)
        # A second connection with the same token replaces the first one.
        third = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        assert (await third.join("alice", token=token))["type"] == "welcome"
        replaced = await second.recv_type("error")
        assert replaced["code"] == "replaced"
        assert await second.closed()


async def test_absent_seat_is_played_by_builtin_and_handed_back() -> None:
    engine = fake_engine()
    opts = HostOptions(seat_timeout=0.2)
    async with running_host(engine, players=2, bots={1: "random"}, host_options=opts) as host:
        port = host.port or 0
        client = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        welcome = await client.join("alice")
        await client.aclose()
        with trio.fail_after(10):
            await host.game_over.wait()
        assert host.table.game.is_over() and host.table.seats[0].auto
        back = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        assert (await back.join("alice", token=welcome["token"]))["seat"] == 0
        snap = await back.recv_type("snapshot")
        assert snap["over"] and not host.table.seats[0].auto


async def test_turn_timer_moves_for_a_slow_seat() -> None:
    engine = fake_engine()
    async with running_host(engine, players=2, bots={1: "random"}, turn_timer=0.1) as host:
        client = RawClient(await trio.open_tcp_stream("127.0.0.1", host.port or 0))
        await client.join("slowpoke")
        snap = await client.recv_type("snapshot")
        assert snap["decision"]["deadline_ms"] is not None
        with trio.fail_after(10):
            while not (await client.recv_type("update"))["over"]:
                pass
        assert host.table.game.is_over()


async def test_rematch_starts_a_new_game_with_the_same_seats() -> None:
    engine = fake_engine()
    async with running_host(engine, players=2) as host:
        port = host.port or 0
        results = []

        async def player(name: str) -> None:
            results.append(await run_bot(RandomBot(), "127.0.0.1", port, name=name, games=2))

        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(player, "a")
                nursery.start_soon(player, "b")
        assert [len(r.final_states) for r in results] == [2, 2]
        assert [s.game_no for s in results[0].final_states] == [0, 1]
        assert host.table.game_no == 1


async def test_journal_resume_continues_the_table_exactly(tmp_path: trio.Path) -> None:
    engine = fake_engine()
    path = tmp_path / "t.journal"
    config = TableConfig("callpick", 2, 5, seeded=True, table_id="j", bots={1: "random"})
    table, journal = create_table(config, journal=path, engine=engine)
    async with running_host(engine, table=table, journal=journal) as host:
        client = RawClient(await trio.open_tcp_stream("127.0.0.1", host.port or 0))
        welcome = await client.join("alice")
        snap = await client.recv_type("snapshot")
        await client.send({"type": "move", "decision_id": snap["decision"]["id"], "index": 1})
        update = await client.recv_type("update")
    # Captured after the host stopped: its built-in player may have moved after our update.
    expected_hash, expected_state = host.table.game.state_hash(), host.table.state_id
    expected_decisions = {s: d.id for s, d in host.table.decisions.items()}
    assert update["state_id"] <= expected_state
    journal.close()
    contents = read_journal(path)
    assert contents.torn is None
    resumed = Table.from_records(contents.records, engine, clock=lambda: 0.0)
    assert resumed.game.state_hash() == expected_hash
    assert resumed.state_id == expected_state
    assert {s: d.id for s, d in resumed.decisions.items()} == expected_decisions
    assert resumed.seat_for_token(welcome["token"]) is resumed.seats[0]
    assert P.token_hash(welcome["token"]) == resumed.seats[0].token_hash


async def test_peers_reconnect_with_their_tokens_after_a_host_restart() -> None:
    engine = fake_engine()
    config = TableConfig("callpick", 2, 9, options={"rounds": 40}, seeded=True, table_id="rs")
    table = Table(config, engine, clock=trio.current_time)
    first = Host(table)
    results = []
    async with trio.open_nursery() as outer:
        async with trio.open_nursery() as host_nursery:
            port = await host_nursery.start(first.serve, "127.0.0.1", 0)

            async def player(name: str) -> None:
                peer = Peer("127.0.0.1", port, name=name, max_backoff=0.2)
                results.append((await run_bot(RandomBot(), "127.0.0.1", port, peer=peer), peer))

            outer.start_soon(player, "a")
            outer.start_soon(player, "b")
            with trio.fail_after(10):
                while table.state_id < 20:
                    await trio.sleep(0)
            await first.shutdown()
            host_nursery.cancel_scope.cancel()
        assert not table.game.is_over()
        second = Host(table)
        with trio.fail_after(20):
            async with trio.open_nursery() as host_nursery:
                await host_nursery.start(second.serve, "127.0.0.1", port)
                while len(results) < 2:
                    await trio.sleep(0.01)
                host_nursery.cancel_scope.cancel()
    assert table.game.is_over()
    assert all(peer.state.connects >= 2 for _, peer in results)
    assert results[0][0].outcomes == results[1][0].outcomes == [table.game.outcome()]


async def test_a_peer_not_waiting_for_a_restart_stops_when_the_host_closes_the_table() -> None:
    table = Table(TableConfig("callpick", 2, 9, seeded=True, table_id="wc"), fake_engine(), clock=trio.current_time)
    seen: list[object] = []
    async with trio.open_nursery() as host_nursery:
        host = Host(table)
        port = await host_nursery.start(host.serve, "127.0.0.1", 0)
        peer = Peer("127.0.0.1", port, name="eve", spectate=True, max_backoff=0.05, wait_for_restart=False)
        with trio.fail_after(10):
            async with trio.open_nursery() as peers:
                await peers.start(peer.run)
                await host.shutdown()
                # The event stream ends once the peer stops: nothing about a lost host or reconnecting.
                async for event in peer.events:
                    seen.append(event)
        host_nursery.cancel_scope.cancel()
    assert peer.session.closed_by_host and peer.failure is None
    assert not [e for e in seen if isinstance(e, (ConnectionLost, Reconnecting))]


async def test_a_peer_reports_the_lost_host_its_reconnect_attempts_and_the_return() -> None:
    engine = fake_engine()
    bots = {0: "random", 1: "random"}
    table = Table(TableConfig("callpick", 2, 9, seeded=True, table_id="rr", bots=bots), engine, clock=trio.current_time)
    opts = HostOptions(bot_delay=0.05)
    seen: list[object] = []
    async with trio.open_nursery() as outer:
        async with trio.open_nursery() as host_nursery:
            first = Host(table, options=opts)
            port = await host_nursery.start(first.serve, "127.0.0.1", 0)
            peer = Peer("127.0.0.1", port, name="eve", spectate=True, max_backoff=0.05)
            await outer.start(peer.run)
            with trio.fail_after(10):
                async for event in peer.events:
                    if isinstance(event, StateMessage):
                        break
            await first.shutdown()
            host_nursery.cancel_scope.cancel()
        with trio.fail_after(10):
            async for event in peer.events:
                seen.append(event)
                if len([e for e in seen if isinstance(e, Reconnecting)]) >= 2:
                    break
            async with trio.open_nursery() as host_nursery:
                await host_nursery.start(Host(table, options=opts).serve, "127.0.0.1", port)
                async for event in peer.events:
                    seen.append(event)
                    if isinstance(event, Reconnected):
                        break
                host_nursery.cancel_scope.cancel()
        outer.cancel_scope.cancel()
    kinds = [type(e).__name__ for e in seen if not isinstance(e, (StateMessage, SeatsChanged))]
    assert kinds[0] == "ConnectionLost" and kinds[-1] == "Reconnected" and "Reconnecting" in kinds
    assert seen[[type(e).__name__ for e in seen].index("ConnectionLost")] == ConnectionLost("the host is stopping")
    attempts = [e.attempt for e in seen if isinstance(e, Reconnecting)]
    assert attempts == list(range(1, len(attempts) + 1))
    back = seen[-1]
    assert isinstance(back, Reconnected) and back.attempts == len(attempts) and peer.state.connects == 2


async def test_fsync_journal_acknowledges_after_a_group_commit(tmp_path: trio.Path) -> None:
    import time

    engine = fake_engine()
    config = TableConfig("callpick", 3, 4, options={"rounds": 4}, seeded=True, table_id="f")
    table, journal = create_table(config, journal=tmp_path / "f.journal", fsync=True, engine=engine)
    synced: list[int] = []
    real_fsync = journal.fsync

    def slow_fsync() -> None:
        time.sleep(0.02)  # a slow disk, so that moves arriving meanwhile share the next fsync
        real_fsync()
        synced.append(journal.records_written)

    journal.fsync = slow_fsync  # type: ignore[method-assign]
    async with running_host(engine, table=table, journal=journal) as host:
        port = host.port or 0
        results = []

        async def player(name: str) -> None:
            results.append(await run_bot(RandomBot(), "127.0.0.1", port, name=name))

        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                for name in "abc":
                    nursery.start_soon(player, name)
    journal.close()
    moves = [r for r in read_journal(tmp_path / "f.journal").records if r["kind"] == "move"]
    assert table.game.is_over() and len(moves) == table.state_id - 1
    assert synced and synced[-1] == journal.records_written


async def test_moves_journalled_during_an_fsync_share_the_next_one(tmp_path: trio.Path) -> None:
    engine = fake_engine()
    journal = Journal.create(tmp_path / "g.journal", fsync=True)
    calls: list[int] = []
    journal.fsync = lambda: calls.append(journal.records_written)  # type: ignore[method-assign]
    table = Table(
        TableConfig("callpick", 2, 4, seeded=True, table_id="g", bots={0: "random", 1: "random"}),
        engine,
        clock=trio.current_time,
    )
    host = Host(table, journal=journal)
    async with trio.open_nursery() as nursery:
        # Three batches committed back to back (as when several moves arrive together) ...
        for n in range(3):
            host._commit(Commit(({"kind": "probe", "n": n},), (), game_over=False))
        assert not host._committed.is_set() and calls == []
        nursery.start_soon(host._committer)
        with trio.fail_after(5):
            await host._committed.wait()
        nursery.cancel_scope.cancel()
    # ... are made durable by a single fsync covering all three records.
    assert calls == [3]


async def test_peer_reconnects_when_the_host_goes_silent() -> None:
    accepted: list[int] = []

    async def mute_host(stream: trio.SocketStream) -> None:
        accepted.append(1)
        table = {"type": "table", "versions": [1], "password": False, "table_id": "m", "challenge": "c"}
        await stream.send_all(P.encode(table))  # type: ignore[arg-type]
        await stream.receive_some(65536)
        welcome = {"type": "welcome", "seat": 0, "token": "T" * 43, "keepalive_ms": 100}
        await stream.send_all(P.encode(welcome))  # type: ignore[arg-type]
        await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, mute_host, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        peer = Peer("127.0.0.1", port, name="p", max_backoff=0.1)
        await nursery.start(peer.run)
        with trio.fail_after(5):
            while len(accepted) < 3:
                await trio.sleep(0.01)
        assert peer.state.connects >= 2 and peer.state.token == "T" * 43
        nursery.cancel_scope.cancel()


async def test_long_legal_lists_are_paged() -> None:
    engine = fake_engine()
    table = Table(
        TableConfig("callpick", 2, 6, options={"rounds": 6}, seeded=True, table_id="pg"),
        engine,
        clock=trio.current_time,
    )
    # Every list of moves is "too long" here.
    async with running_host(engine, table=table, host_options=HostOptions(legal_inline_limit=10)) as host:
        port = host.port or 0
        raw = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        await raw.join("raw")
        results = []

        async def sdk_player() -> None:
            results.append(await run_bot(RandomBot(1), "127.0.0.1", port, name="sdk"))

        answered: set[int] = set()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(sdk_player)
            with trio.fail_after(20):
                while True:
                    msg = await raw.recv()
                    assert msg is not None
                    if msg["type"] not in ("update", "snapshot"):
                        continue
                    if msg["over"]:
                        break
                    d = msg["decision"]
                    if d is None or d["id"] in answered:
                        continue
                    answered.add(d["id"])
                    assert d["legal"] is None and d["count"] > 0
                    await raw.send({"type": "legal", "decision_id": d["id"], "offset": 0, "limit": 1})
                    first = await raw.recv_type("legal")
                    await raw.send({"type": "legal", "decision_id": d["id"], "offset": 1})
                    rest = await raw.recv_type("legal")
                    moves = first["moves"] + rest["moves"]
                    assert len(moves) == d["count"] == first["count"]
                    await raw.send({"type": "move", "decision_id": d["id"], "move": moves[-1]})
        assert results and results[0].errors == [] and table.game.is_over()
        await raw.send({"type": "legal", "decision_id": 99, "offset": 0})
        assert (await raw.recv_type("error"))["code"] in ("stale_decision", "game_over")


async def test_bye_hands_the_seat_to_a_builtin_player_at_once_and_chat_via_open_peer() -> None:
    from cardnet.net.peer import ChatMessage, open_peer

    engine = fake_engine()
    async with running_host(engine, players=2, bots={1: "random"}, host_options=HostOptions(seat_timeout=60)) as host:
        port = host.port or 0
        async with open_peer("127.0.0.1", port, name="watch", spectate=True) as watcher:
            async with open_peer("127.0.0.1", port, name="ann") as ann:
                await ann.chat("bye all")
                await ann.bye()
            with trio.fail_after(10):
                async for event in watcher.events:
                    if isinstance(event, ChatMessage):
                        assert (event.name, event.seat, event.text) == ("ann", 0, "bye all")
                    if isinstance(event, StateMessage) and event.over:
                        break
        assert host.table.seats[0].auto and host.table.game.is_over()


async def test_peers_see_the_live_spectator_count_as_watchers_come_and_go() -> None:
    from cardnet.net.peer import open_peer

    async def next_count(peer: Peer) -> int | None:
        async for event in peer.events:
            if isinstance(event, SeatsChanged):
                return event.spectators
        raise AssertionError("the peer's events ended")

    # Two open seats: nothing starts, so the only seats messages are those the spectators cause.
    async with running_host(fake_engine(), players=3, bots={2: "random"}) as host:
        port = host.port or 0
        with trio.fail_after(10):
            async with open_peer("127.0.0.1", port, name="ann") as ann:
                assert await next_count(ann) == 0
                async with open_peer("127.0.0.1", port, name="eve", spectate=True) as eve:
                    assert await next_count(ann) == 1 and await next_count(eve) == 1
                    async with open_peer("127.0.0.1", port, name="zed", spectate=True):
                        assert await next_count(ann) == await next_count(eve) == 2
                    # zed's connection ends with the block.
                    assert await next_count(ann) == await next_count(eve) == 1
                    await eve.bye()
                assert await next_count(ann) == 0


async def test_a_hung_host_is_noticed_by_its_silence_retried_with_backoff_and_rejoined_when_it_answers() -> None:
    # The host's heartbeat is 0.1 s, so a peer gives it 0.3 s of silence (PROTOCOL.md section 9).
    opts = HostOptions(keepalive_interval=0.1, seat_timeout=60)
    async with running_host(fake_engine(), players=2, bots={1: "random"}, host_options=opts) as host:
        hung = HungHost(host.port or 0)
        async with trio.open_nursery() as nursery:
            port = await nursery.start(hung.serve)
            peer = Peer("127.0.0.1", port, name="ann", max_backoff=0.4)
            await nursery.start(peer.run)
            events = peer.events.__aiter__()

            async def next_of(kind: type[Any]) -> Any:
                async for event in events:
                    if isinstance(event, kind):
                        return event
                raise AssertionError(f"the events ended before a {kind.__name__}")

            with trio.fail_after(20):
                first = await next_of(StateMessage)
                hung.freeze()
                lost = await next_of(ConnectionLost)
                assert lost.silent and lost.reason == "no word from the host for 0.3 s"
                # The hung host's kernel accepts every attempt, but no word comes within the same window.
                tries = [await next_of(Reconnecting) for _ in range(3)]
                assert [t.attempt for t in tries] == [1, 2, 3]
                assert all(t.reason == "the host did not answer within 0.3 s" for t in tries)
                hung.thaw()
                back = await next_of(Reconnected)
                assert back.attempts >= 3
                again = await next_of(StateMessage)
            assert peer.state.seat == 0 and again.game_no == first.game_no and again.state_id >= first.state_id
            assert host.table.seats[0].connected and not host.table.seats[0].auto
            nursery.cancel_scope.cancel()


async def test_sending_after_the_session_ended_fails_instead_of_hanging() -> None:
    from cardnet.net.peer import PeerError

    async with running_host(fake_engine(), bots={1: "random"}) as host:
        peer = Peer("127.0.0.1", host.port or 0, name="solo", reconnect=False)
        async with trio.open_nursery() as nursery:
            await nursery.start(peer.run)
            await host.shutdown(grace=1)
            with trio.fail_after(2):
                async for _ in peer.events:
                    pass  # the session is over once the host has closed it and the events are drained
                with pytest.raises(PeerError):
                    await peer.move(1, index=0)


async def _finished_table_with_a_vote(engine: Any, path: Any) -> tuple[Table, dict[str, Any], dict[str, Any]]:
    """A two-seat table played to its end by two raw clients, seat 0 voting for a rematch; returns the welcomes."""
    config = TableConfig("callpick", 2, 3, options={"rounds": 1}, seeded=True, table_id="votes")
    table, journal = create_table(config, journal=path, engine=engine)
    async with running_host(engine, table=table, journal=journal) as host:
        a = RawClient(await trio.open_tcp_stream("127.0.0.1", host.port or 0))
        b = RawClient(await trio.open_tcp_stream("127.0.0.1", host.port or 0))
        welcomes = (await a.join("a"), await b.join("b"))
        await play_first_moves(table, [a, b])
        await a.send({"type": "rematch"})
        assert (await a.recv_type("rematch"))["votes"] == [0]
        # The host stops (as on Ctrl-C) before anyone leaves: leaving would otherwise decide the rematch.
        await host.shutdown(grace=1)
    journal.close()
    return table, welcomes[0], welcomes[1]


async def test_rematch_votes_are_journalled_and_stand_after_a_host_restart(tmp_path: trio.Path) -> None:
    engine = fake_engine()
    path = tmp_path / "votes.journal"
    _, welcome_a, welcome_b = await _finished_table_with_a_vote(engine, path)
    votes = [r for r in read_journal(path).records if r["kind"] == "vote"]
    assert votes == [{"kind": "vote", "game_no": 0, "seat": 0}]
    back = resume_table(path, engine=engine)
    resumed, journal = back.table, back.journal
    assert resumed.game.is_over() and resumed.rematch_votes == {0}
    async with running_host(engine, table=resumed, journal=journal) as host:
        a = RawClient(await trio.open_tcp_stream("127.0.0.1", host.port or 0))
        b = RawClient(await trio.open_tcp_stream("127.0.0.1", host.port or 0))
        assert (await a.join("a", token=welcome_a["token"]))["seat"] == 0
        # The returning voter is told its vote still counts; the other player's vote alone completes the rematch.
        assert (await a.recv_type("rematch"))["votes"] == [0]
        assert (await b.join("b", token=welcome_b["token"]))["seat"] == 1
        await b.send({"type": "rematch"})
        with trio.fail_after(5):
            while (await a.recv_type("snapshot"))["game_no"] != 1:
                pass
        assert resumed.game_no == 1 and resumed.rematch_votes == set()
    journal.close()
    kinds = [r["kind"] for r in read_journal(path).records]
    assert kinds[-3:] == ["vote", "vote", "game"]
    again = Table.from_records(read_journal(path).records, engine, clock=lambda: 0.0)
    assert again.game_no == 1 and again.rematch_votes == set()


async def test_a_journalled_vote_starts_the_rematch_once_the_absent_player_times_out(tmp_path: trio.Path) -> None:
    engine = fake_engine()
    path = tmp_path / "votes.journal"
    _, welcome_a, _ = await _finished_table_with_a_vote(engine, path)
    back = resume_table(path, engine=engine)
    resumed, journal = back.table, back.journal
    opts = HostOptions(seat_timeout=0.3)
    async with running_host(engine, table=resumed, journal=journal, host_options=opts) as host:
        a = RawClient(await trio.open_tcp_stream("127.0.0.1", host.port or 0))
        assert (await a.join("a", token=welcome_a["token"]))["seat"] == 0
        # Seat 1 never comes back: once a built-in player takes it over, the only player here has voted.
        with trio.fail_after(5):
            while (await a.recv_type("snapshot"))["game_no"] != 1:
                pass
    journal.close()


async def test_a_late_spectator_gets_the_latest_chat_marked_earlier_and_a_reconnect_shows_none_twice() -> None:
    from cardnet.net.peer import ChatMessage, open_peer

    opts = HostOptions(seat_timeout=60, chat_rate=1000.0, chat_burst=1000.0)
    async with running_host(fake_engine(), players=2, bots={1: "random"}, host_options=opts) as host:
        port = host.port or 0
        said = [f"line {n}" for n in range(P.CHAT_HISTORY_LINES + 5)]
        async with open_peer("127.0.0.1", port, name="ann") as ann:
            for text in said:
                await ann.chat(text)
            with trio.fail_after(10):
                heard = 0
                async for event in ann.events:
                    if isinstance(event, ChatMessage):
                        assert not event.earlier
                        heard += 1
                        if heard == len(said):
                            break
            async with open_peer("127.0.0.1", port, name="late", spectate=True) as late:
                replayed: list[ChatMessage] = []
                with trio.fail_after(10):
                    async for event in late.events:
                        if isinstance(event, ChatMessage):
                            replayed.append(event)
                        elif isinstance(event, StateMessage):
                            break
                # The latest lines, oldest first, each marked as said before this peer came.
                assert [e.text for e in replayed] == said[-P.CHAT_HISTORY_LINES :]
                assert all(e.earlier and e.name == "ann" and e.seat == 0 for e in replayed)
        # The history is bounded in bytes too: long lines leave fewer of them.
        long = "x" * P.MAX_CHAT_CHARS
        async with open_peer("127.0.0.1", port, name="bob", spectate=True) as bob:
            for _ in range(P.CHAT_HISTORY_LINES):
                await bob.chat(long)
            with trio.fail_after(10):
                while sum(len(c.text) for c in host.session.chat_history) < P.CHAT_HISTORY_BYTES - P.MAX_CHAT_CHARS:
                    await trio.sleep(0.01)
        kept = list(host.session.chat_history)
        assert sum(len(c.text.encode()) for c in kept) <= P.CHAT_HISTORY_BYTES
        assert len(kept) == P.CHAT_HISTORY_BYTES // P.MAX_CHAT_CHARS


async def test_a_peer_does_not_show_replayed_chat_it_has_already_shown() -> None:
    import json

    from cardnet.protocol.peer import PeerSession

    session = PeerSession(name="ann")
    session.phase = "open"

    def delivered(message: P.ChatMessage) -> int:
        return len(session.receive_line(json.dumps(message.to_wire()).encode()).events)

    assert delivered(P.ChatMessage(1, "bob", False, "hi")) == 1
    assert delivered(P.ChatMessage(1, "bob", False, "hi", earlier=True)) == 0
    assert delivered(P.ChatMessage(1, "bob", False, "before you came", earlier=True)) == 1
