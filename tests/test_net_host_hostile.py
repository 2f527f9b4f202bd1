"""Hostile and broken peers: each gets the documented error or disconnect, and the table plays on unchanged.

The tests of what a peer can send run over each kind of stream the host serves (``kind``: TCP, and the web
seat's WebSocket, PROTOCOL.md § 16): one session code, the same guarantees."""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing

from cardnet import protocol as P
from cardnet.journal import Journal, read_journal
from cardnet.net.host import Host, HostOptions
from cardnet.table import Table, TableConfig
from cardnet.web.server import WebSeat

from nethelpers import RawClient, play_first_moves, running_host
from netfake import fake_engine
from webhelpers import STREAM_KINDS, WsClient, open_client

pytestmark = pytest.mark.trio
#: Run a test over every kind of stream.
over_each_stream = pytest.mark.parametrize("kind", STREAM_KINDS)


async def seated(
    host: Host, kind: str, name: str = "p", **fields: Any
) -> tuple[RawClient, dict[str, Any], dict[str, Any]]:
    client = await open_client(host, kind)
    welcome = await client.join(name, **fields)
    assert welcome["type"] == "welcome", welcome
    return client, welcome, await client.recv_type("snapshot")


async def expect_error(client: RawClient, code: str) -> dict[str, Any]:
    msg = await client.recv_type("error")
    assert msg["code"] == code, msg
    assert msg["fatal"] == P.ERROR_CODES[code]
    return msg


async def still_alive(client: RawClient) -> None:
    await client.send({"type": "ping", "id": 77})
    assert (await client.recv_type("pong"))["id"] == 77


async def two_seats(host: Host, kind: str) -> tuple[RawClient, RawClient, dict[str, Any]]:
    a, _, _ = await seated(host, kind, "a")
    b, _, snap_b = await seated(host, kind, "b")
    return a, b, snap_b


@over_each_stream
async def test_garbage_lines_get_errors_and_change_nothing(kind: str) -> None:
    async with running_host(fake_engine(), web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        before = (host.table.state_id, host.table.game.state_hash())
        cases = [
            (b"{nope\n", "bad_json"),
            (b"[1]\n", "bad_json"),
            (b'{"type":"warp"}\n', "unknown_type"),
            (b'{"type":"move","decision_id":"one","index":0}\n', "bad_message"),
            (b'{"type":"move","decision_id":1,"index":0,"move":{}}\n', "bad_message"),
            (b'{"type":"chat","text":7}\n', "bad_message"),
            (b'{"type":"hello","protocol":1,"name":"again"}\n', "handshake_required"),
        ]
        for line, code in cases[:-1]:
            await a.send(line)
            await expect_error(a, code)
        assert (host.table.state_id, host.table.game.state_hash()) == before
        await still_alive(a)
        await a.send(cases[-1][0])
        await expect_error(a, "handshake_required")
        assert await a.closed()
        await still_alive(b)


@over_each_stream
async def test_bytes_that_are_not_utf8_get_bad_utf8_and_change_nothing(kind: str) -> None:
    """Over TCP the line is refused and the connection goes on; a WebSocket text message that is not UTF-8 is
    refused the same way, and then closed (code 1007), as RFC 6455 requires."""
    async with running_host(fake_engine(), web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        before = (host.table.state_id, host.table.game.state_hash())
        await a.send(b"\xff\xfe\xfd\n")
        await expect_error(a, "bad_utf8")
        if isinstance(a, WsClient):
            assert await a.closed() and a.close_code == 1007
        else:
            await still_alive(a)
        assert (host.table.state_id, host.table.game.state_hash()) == before
        await still_alive(b)


@over_each_stream
async def test_moves_that_must_be_refused(kind: str) -> None:
    async with running_host(fake_engine(), players=3, web=kind == "ws") as host:
        a, _, snap_a = await seated(host, kind, "a")
        b, _, _ = await seated(host, kind, "b")
        c, _, _ = await seated(host, kind, "c")
        snap_a = await a.recv_type("snapshot")
        leader_decision = snap_a["decision"]["id"]
        before = (host.table.state_id, host.table.game.state_hash())
        # Another seat quoting seat 0's decision; a seat with no decision; garbage decisions.
        await b.send({"type": "move", "decision_id": leader_decision, "index": 0, "ref": "x"})
        err = await expect_error(b, "wrong_seat")
        assert err["ref"] == "x" and err["state_id"] == before[0] and err["decision_id"] is None
        await b.send({"type": "move", "decision_id": 999, "index": 0})
        await expect_error(b, "stale_decision")
        await a.send({"type": "move", "decision_id": leader_decision, "move": {"type": "pick", "card": 1}})
        err = await expect_error(a, "illegal_move")
        assert err["detail"] == "illegal" and err["decision_id"] == leader_decision
        await a.send({"type": "move", "decision_id": leader_decision, "move": {"type": "dance"}})
        await expect_error(a, "invalid_move")
        await a.send({"type": "move", "decision_id": leader_decision, "index": 5})
        await expect_error(a, "invalid_move")
        # Section 5: any index outside 0..count-1 is invalid_move, a negative one too.
        await a.send({"type": "move", "decision_id": leader_decision, "index": -1})
        await expect_error(a, "invalid_move")
        assert (host.table.state_id, host.table.game.state_hash()) == before
        # The real move goes through; answering the same decision again is stale.
        await a.send({"type": "move", "decision_id": leader_decision, "index": 0})
        assert (await a.recv_type("update"))["state_id"] == before[0] + 1
        await a.send({"type": "move", "decision_id": leader_decision, "index": 0})
        await expect_error(a, "stale_decision")
        for client in (a, b, c):
            await still_alive(client)


@over_each_stream
async def test_a_move_repeated_after_a_reconnect_gets_the_ack_its_lost_connection_had(kind: str) -> None:
    async with running_host(fake_engine(), web=kind == "ws") as host:
        a, welcome, _ = await seated(host, kind, "a")
        b, _, _ = await seated(host, kind, "b")
        decision = host.table.decisions[0].id
        await a.send({"type": "move", "decision_id": decision, "index": 0, "ref": 1})
        await a.aclose()  # gone before reading the update that carried the ack
        with trio.fail_after(5):
            while host.table.seats[0].connected:
                await trio.sleep(0.01)
        state = host.table.state_id
        back = await open_client(host, kind)
        assert (await back.join("a", token=welcome["token"]))["seat"] == 0
        await back.recv_type("snapshot")
        await back.send({"type": "move", "decision_id": decision, "index": 0, "ref": 2})
        reply = await back.recv_type_in(("snapshot", "update", "error"))
        assert reply["type"] == "snapshot" and reply["ack"] == {"decision_id": decision, "ref": 2}, reply
        assert host.table.state_id == state == 2
        # Another seat cannot collect it.
        await b.send({"type": "move", "decision_id": decision, "index": 0})
        await expect_error(b, "stale_decision")


@over_each_stream
async def test_simultaneous_decisions_do_not_collide(kind: str) -> None:
    async with running_host(fake_engine(), players=2, web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        snap = await a.recv_type("snapshot")
        await a.send({"type": "move", "decision_id": snap["decision"]["id"], "index": 0})
        ua = await a.recv_type("update")
        ub = await b.recv_type("update")
        da, db = ua["decision"], ub["decision"]
        assert ua["to_act"] == [0, 1] and da["id"] != db["id"]
        await a.send({"type": "move", "decision_id": da["id"], "index": 0})
        await b.send({"type": "move", "decision_id": db["id"], "index": 0})
        seen_a = [await a.recv_type("update"), await a.recv_type("update")]
        assert all(m["type"] == "update" for m in seen_a)
        assert not any(m.get("code") == "stale_decision" for m in seen_a)
        # Seat b learned that a picked, but not which card.
        first_b = await b.recv_type("update")
        picked = [e for e in first_b["events"] if e["type"] == "picked"]
        assert picked and all("card" not in e or e["seat"] == 1 for e in picked)


@over_each_stream
async def test_spectator_cannot_move_and_gets_public_view(kind: str) -> None:
    async with running_host(fake_engine(), players=2, bots={0: "random", 1: "random"}, web=kind == "ws") as host:
        spec, welcome, snap = await seated(host, kind, "watch", role="spectator")
        assert welcome["seat"] is None and welcome["token"] is None and snap["view"]["private"] is None
        await spec.send({"type": "move", "decision_id": 1, "index": 0})
        await expect_error(spec, "spectator")
        await spec.send({"type": "rematch"})
        await expect_error(spec, "spectator")


@over_each_stream
async def test_tokens_from_elsewhere_and_full_tables(kind: str) -> None:
    async with running_host(fake_engine(), players=2, bots={1: "random"}, web=kind == "ws") as host:
        a, welcome, _ = await seated(host, kind, "a")
        intruder = await open_client(host, kind)
        assert (await intruder.join("x", token=welcome["token"][:-2] + "zz"))["code"] == "bad_token"
        late = await open_client(host, kind)
        assert (await late.join("late"))["code"] == "table_full"
        taken = await open_client(host, kind)
        assert (await taken.join("t", seat=1))["code"] == "no_seat"
        old = await open_client(host, kind)
        assert (await old.join("o", protocol=99))["code"] == "unsupported_version"
        await still_alive(a)


@over_each_stream
async def test_password_is_checked_by_hmac(kind: str) -> None:
    async with running_host(fake_engine(), host_options=HostOptions(password="s3cret"), web=kind == "ws") as host:
        bad = await open_client(host, kind)
        table = await bad.recv()
        assert table is not None and table["password"] is True
        await bad.send(
            {
                "type": "hello",
                "protocol": 1,
                "name": "x",
                "auth": P.auth_mac("guess", table["table_id"], table["challenge"]),
            }
        )
        assert (await bad.recv_type("error"))["code"] == "auth_failed"
        assert await bad.closed()
        good = await open_client(host, kind)
        table = await good.recv()
        assert table is not None
        await good.send(
            {
                "type": "hello",
                "protocol": 1,
                "name": "y",
                "auth": P.auth_mac("s3cret", table["table_id"], table["challenge"]),
            }
        )
        assert (await good.recv())["type"] == "welcome"  # type: ignore[index]


@over_each_stream
async def test_oversized_line_disconnects(kind: str) -> None:
    async with running_host(fake_engine(), web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        await a.send(b"{" + b" " * (P.MAX_PEER_LINE + 10))
        await expect_error(a, "line_too_long")
        assert await a.closed()
        await still_alive(b)


@over_each_stream
async def test_message_flood_is_cut_off_and_chat_is_rate_limited(kind: str) -> None:
    opts = HostOptions(msg_rate=10, msg_burst=20, chat_rate=0.1, chat_burst=2)
    async with running_host(fake_engine(), host_options=opts, web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        for _ in range(2):
            await b.send({"type": "chat", "text": "hi"})
        await b.send({"type": "chat", "text": "hi"})
        await expect_error(b, "chat_rate")
        await b.send({"type": "chat", "text": "x" * 600})
        await expect_error(b, "chat_too_long")
        await a.send(b'{"type":"ping","id":1}\n' * 200)
        await expect_error(a, "rate_limited")
        assert await a.closed()
        assert not host.table.seats[0].connected or host.table.seats[0].kind == "human"


@over_each_stream
async def test_silent_peer_times_out_in_handshake(kind: str) -> None:
    async with running_host(fake_engine(), host_options=HostOptions(handshake_timeout=0.3), web=kind == "ws") as host:
        mute = await open_client(host, kind)
        assert (await mute.recv())["type"] == "table"  # type: ignore[index]
        assert (await mute.recv_type("error"))["code"] == "handshake_timeout"
        assert await mute.closed()
        assert all(s.kind == "open" for s in host.table.seats)


@over_each_stream
async def test_idle_peer_is_dropped(kind: str) -> None:
    async with running_host(
        fake_engine(), host_options=HostOptions(idle_timeout=0.3, keepalive_interval=10), web=kind == "ws"
    ) as host:
        a, _, _ = await seated(host, kind, "a")
        assert (await a.recv_type("error"))["code"] == "idle_timeout"
        assert await a.closed()


@over_each_stream
async def test_a_talking_peer_outlives_many_idle_timeouts(kind: str) -> None:
    """The host moves a connection's armed read timeout lazily: when it fires early, a peer heard from within the
    idle timeout stays, and one that then falls silent is still dropped."""
    async with running_host(
        fake_engine(), host_options=HostOptions(idle_timeout=0.3, keepalive_interval=10), web=kind == "ws"
    ) as host:
        a, _, _ = await seated(host, kind, "a")
        for ping in range(10):
            await trio.sleep(0.1)
            await a.send({"type": "ping", "id": ping})
            assert (await a.recv_type("pong"))["id"] == ping
        assert (await a.recv_type("error"))["code"] == "idle_timeout"
        assert await a.closed()


async def test_peer_that_never_reads_is_cut_off_and_cannot_stall_the_table() -> None:
    engine = fake_engine()
    config = TableConfig(
        "callpick", 2, 3, options={"rounds": 3}, seeded=True, table_id="nr", bots={0: "random", 1: "random"}
    )
    table = Table(config, engine, clock=trio.current_time)
    host = Host(table, options=HostOptions(write_timeout=0.3, bot_delay=0.01))
    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve, "127.0.0.1", 0)
        client_end, host_end = trio.testing.lockstep_stream_pair()
        with trio.fail_after(10):
            async with trio.open_nursery() as inner:
                inner.start_soon(host.accept_stream, host_end)
                await host.game_over.wait()
        assert table.game.is_over() and not host.conns
        nursery.cancel_scope.cancel()
    await client_end.aclose()


async def small_window_client(host: Host, kind: str) -> RawClient:
    """A client over TCP or the web seat's WebSocket whose socket has a small receive window: the host's writes
    to it fill the kernel's buffers after a few lines."""
    port = host.port if kind == "tcp" else host.session.web_port
    assert port is not None
    sock = trio.socket.socket()
    sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, 2048)
    await sock.connect(("127.0.0.1", port))
    if kind == "tcp":
        return RawClient(trio.SocketStream(sock))
    client = WsClient(trio.SocketStream(sock))
    await client.handshake(port)
    return client


@pytest.mark.parametrize("transport", ["memory", *STREAM_KINDS])
async def test_slow_reader_gets_the_newest_snapshot_with_bounded_memory(transport: str) -> None:
    """Back-pressure, over an in-process stream (the writer task alone writes it) and over a real socket with a
    small receive window, TCP or WebSocket (direct writes fill the kernel's buffer, then the outbox fills): the
    peer's stream stays whole lines and ends on a snapshot of the final state, and the table never waits for
    it."""
    rounds, bot_delay = (12, 0.002) if transport == "memory" else (150, 0.0)
    config = TableConfig(
        "callpick", 2, 3, options={"rounds": rounds}, seeded=True, table_id="slow", bots={0: "random", 1: "random"}
    )
    table = Table(config, fake_engine(), clock=trio.current_time)
    opts = HostOptions(outbox_messages=3, bot_delay=bot_delay, write_timeout=30)
    host = Host(table, options=opts)
    high_water = 0
    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve, "127.0.0.1", 0)
        await nursery.start(WebSeat(host).serve, "127.0.0.1", 0)
        if transport == "memory":
            client_end, host_end = trio.testing.lockstep_stream_pair()
            nursery.start_soon(host.accept_stream, host_end)
            client = RawClient(client_end)  # type: ignore[arg-type]
        else:
            client = await small_window_client(host, transport)
        await client.recv()
        await client.send({"type": "hello", "protocol": 1, "name": "slow", "role": "spectator"})
        with trio.fail_after(30):
            while not table.game.is_over():
                high_water = max(high_water, max((len(c.outbox) for c in host.conns.values()), default=0))
                await trio.sleep(0.001)
            states: list[dict[str, Any]] = []
            while not states or not states[-1]["over"]:
                msg = await client.recv()
                assert msg is not None
                if msg["type"] in ("update", "snapshot"):
                    states.append(msg)
        assert 0 < high_water <= opts.outbox_messages
        assert states[-1]["state_id"] == table.state_id and states[-1]["type"] == "snapshot"
        assert len(states) < table.state_id
        nursery.cancel_scope.cancel()


@over_each_stream
async def test_a_host_bug_costs_one_message_not_the_table(kind: str) -> None:
    async with running_host(fake_engine(), web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        snap = await a.recv_type("snapshot")
        game = host.table.game
        real_apply = game.apply

        def broken(seat: int, move: Any) -> None:
            raise RuntimeError("simulated bug")

        game.apply = broken  # type: ignore[method-assign]
        before = (host.table.state_id, game.state_hash())
        await a.send({"type": "move", "decision_id": snap["decision"]["id"], "index": 0})
        err = await expect_error(a, "internal")
        assert "RuntimeError" in err["reason"]
        assert (host.table.state_id, game.state_hash()) == before
        game.apply = real_apply  # type: ignore[method-assign]
        await a.send({"type": "move", "decision_id": snap["decision"]["id"], "index": 0})
        assert (await a.recv_type("update"))["state_id"] == before[0] + 1
        await still_alive(b)


async def test_a_journal_that_cannot_be_written_stops_the_host(tmp_path: Any) -> None:
    from cardnet.net.host import JournalFailure
    from cardnet.journal import Journal

    journal = Journal.create(tmp_path / "j")
    with pytest.raises(BaseExceptionGroup) as info:
        async with running_host(fake_engine(), journal=journal) as host:
            a, b, _ = await two_seats(host, "tcp")
            snap = await a.recv_type("snapshot")
            journal.close()  # every later write fails with EBADF
            await a.send({"type": "move", "decision_id": snap["decision"]["id"], "index": 0})
            with trio.fail_after(5):
                await trio.sleep_forever()
    assert info.group_contains(JournalFailure)


@over_each_stream
async def test_a_peer_that_never_reads_is_dropped_while_play_goes_on(kind: str) -> None:
    """The host writes a socket's lines without waiting on it: one that reads nothing fills its socket and outbox,
    is cut off, and the built-in players' game goes on at full speed."""
    engine = fake_engine()
    config = TableConfig(
        "callpick", 2, 3, options={"rounds": 400}, seeded=True, table_id="mute", bots={0: "random", 1: "random"}
    )
    table = Table(config, engine, clock=trio.current_time)
    host = Host(table, options=HostOptions(write_timeout=0.5))
    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve, "127.0.0.1", 0)
        await nursery.start(WebSeat(host).serve, "127.0.0.1", 0)
        mute = await small_window_client(host, kind)
        await mute.send({"type": "hello", "protocol": 1, "name": "mute", "role": "spectator"})
        with trio.fail_after(20):
            while not host.conns:
                await trio.sleep(0.001)
            while host.conns:
                await trio.sleep(0.01)
            dropped_at = table.state_id
            while not table.game.is_over():
                await trio.sleep(0.01)
        assert table.game.is_over() and table.state_id > dropped_at
        nursery.cancel_scope.cancel()
    await mute.aclose()


@over_each_stream
async def test_chat_reaches_everyone_who_asked_for_it(kind: str) -> None:
    async with running_host(fake_engine(), web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        watcher, _, _ = await seated(host, kind, "eve", role="spectator")
        quiet = await open_client(host, kind)
        await quiet.recv()
        await quiet.send({"type": "hello", "protocol": 1, "name": "q", "role": "spectator", "capabilities": []})
        await quiet.recv_type("snapshot")
        await a.send({"type": "chat", "text": "gl hf ☺"})
        for client in (a, b, watcher):
            msg = await client.recv_type("chat")
            assert (msg["name"], msg["seat"], msg["spectator"], msg["text"]) == ("a", 0, False, "gl hf ☺")
        await watcher.send({"type": "chat", "text": "go b"})
        assert (await b.recv_type("chat"))["spectator"] is True
        await quiet.send({"type": "chat", "text": "hi"})
        await expect_error(quiet, "chat_disabled")
        await quiet.send({"type": "ping", "id": 5})
        seen: list[str] = []
        while not seen or seen[-1] != "pong":
            reply = await quiet.recv()
            assert reply is not None
            seen.append(reply["type"])
        assert "chat" not in seen


@over_each_stream
async def test_text_that_is_not_unicode_is_refused_and_never_sent_or_journalled(tmp_path: Any, kind: str) -> None:
    # A lone surrogate escaped in a name, a chat line or a ref: strict decoders (serde_json) refuse any line that
    # carries one, so one hostile peer must not be able to put it into the lines everybody else reads. Every
    # RawClient reads the host's lines with such a decoder.
    journal = Journal.create(tmp_path / "t.journal")
    async with running_host(fake_engine(), journal=journal, web=kind == "ws") as host:
        evil = await open_client(host, kind)
        refused = await evil.join("\udc00evil")
        assert (refused["type"], refused["code"]) == ("error", "handshake_required")
        assert await evil.closed()
        a, _, _ = await seated(host, kind, "\U0001f600 ann")
        b, _, _ = await seated(host, kind, "b")
        await a.send({"type": "chat", "text": "\ud800"})
        await expect_error(a, "bad_json")
        await a.send({"type": "move", "decision_id": host.table.decisions[0].id, "index": 0, "ref": "\udfff"})
        await expect_error(a, "bad_json")
        await a.send({"type": "chat", "text": "gg \U0001f600"})
        for client in (a, b):
            chat = await client.recv_type("chat")
            assert (chat["name"], chat["text"]) == ("\U0001f600 ann", "gg \U0001f600")
        assert host.table.state_id == 1 and [s.name for s in host.table.seats] == ["\U0001f600 ann", "b"]
    journal.close()
    records = read_journal(tmp_path / "t.journal").records
    assert [r.get("name") for r in records if r["kind"] == "seat"] == ["\U0001f600 ann", "b"]


@over_each_stream
async def test_spectator_seats_are_limited(kind: str) -> None:
    async with running_host(fake_engine(), host_options=HostOptions(max_spectators=1), web=kind == "ws") as host:
        first, _, _ = await seated(host, kind, "s1", role="spectator")
        second = await open_client(host, kind)
        assert (await second.join("s2", role="spectator"))["code"] == "table_full"
        await still_alive(first)


@over_each_stream
async def test_connections_are_capped(kind: str) -> None:
    async with running_host(fake_engine(), host_options=HostOptions(max_connections=3), web=kind == "ws") as host:
        a, _, _ = await seated(host, kind, "a")
        idle = [await open_client(host, kind) for _ in range(2)]
        for client in idle:
            assert (await client.recv())["type"] == "table"  # type: ignore[index]
        extra = await open_client(host, kind)
        refusal = await extra.recv()
        assert refusal is not None and refusal["code"] == "table_full" and refusal["fatal"]
        assert await extra.closed()
        await still_alive(a)


@over_each_stream
async def test_a_player_leaving_after_the_others_voted_does_not_stall_the_rematch(kind: str) -> None:
    async with running_host(fake_engine(), options={"rounds": 1}, web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        await play_first_moves(host.table, [a, b])
        await a.send({"type": "rematch"})
        assert (await a.recv_type("rematch"))["votes"] == [0]
        await b.aclose()
        # Every human still here has voted: the next game starts without waiting for the one who left.
        with trio.fail_after(3):
            while (await a.recv_type("snapshot"))["game_no"] != 1:
                pass
        assert host.table.game_no == 1


@over_each_stream
async def test_a_failing_builtin_move_costs_that_move_not_the_table(kind: str) -> None:
    async with running_host(fake_engine(), bots={1: "random"}, options={"rounds": 1}, web=kind == "ws") as host:
        a, _, _ = await seated(host, kind, "a")
        game = host.table.game
        game_type = type(game)
        real_apply = game_type.apply
        failures: list[int] = []

        def flaky(self: Any, seat: int, move: Any) -> None:
            if self is game and seat == 1 and not failures:
                failures.append(seat)
                raise RuntimeError("simulated core bug")
            real_apply(self, seat, move)

        game_type.apply = flaky  # type: ignore[method-assign]
        try:
            await play_first_moves(host.table, [a, a])
        finally:
            game_type.apply = real_apply  # type: ignore[method-assign]
        assert failures == [1] and host.table.game.is_over()
        await still_alive(a)


async def test_a_peer_whose_control_backlog_overflows_is_dropped_at_once() -> None:
    opts = HostOptions(outbox_messages=4, write_timeout=30)
    async with running_host(fake_engine(), host_options=opts) as host:
        client_end, host_end = trio.testing.lockstep_stream_pair()
        assert host._nursery is not None
        host._nursery.start_soon(host.accept_stream, host_end)
        mute = RawClient(client_end)  # type: ignore[arg-type]
        assert (await mute.join("mute", role="spectator"))["type"] == "welcome"
        # It asks for pongs and never reads them: once even its control messages overflow it is cut off.
        await mute.send(b'{"type":"ping","id":1}\n' * 20)
        with trio.fail_after(2):
            while host.conns:
                await trio.sleep(0.01)


async def test_a_spectator_stalled_through_rematches_keeps_its_link_and_gets_the_standing_tally() -> None:
    """Rematch tallies supersede each other, so they are dropped with the states of a peer that lags: kept as
    control messages, the tallies of players voting game after game once filled a stalled spectator's backlog
    and cut it off within seconds (bench/net_stall.py, a fast table). It keeps its link and, reading again,
    gets whole lines ending on a snapshot of the current game followed by the tally that stands."""
    config = TableConfig("callpick", 2, 3, options={"rounds": 1}, seeded=True, table_id="tallies")
    table = Table(config, fake_engine(), clock=trio.current_time)
    opts = HostOptions(outbox_messages=4, write_timeout=30)
    async with running_host(fake_engine(), table=table, host_options=opts) as host:
        client_end, host_end = trio.testing.lockstep_stream_pair()
        assert host._nursery is not None
        host._nursery.start_soon(host.accept_stream, host_end)
        mute = RawClient(client_end)  # type: ignore[arg-type]
        assert (await mute.join("mute", role="spectator"))["type"] == "welcome"
        a = RawClient(await trio.open_tcp_stream("127.0.0.1", host.port or 0))
        b = RawClient(await trio.open_tcp_stream("127.0.0.1", host.port or 0))
        await a.join("a")
        await b.join("b")
        games = 8
        with trio.fail_after(20):
            for game_no in range(games):
                await play_first_moves(table, [a, b])
                await a.send({"type": "rematch"})
                while table.rematch_votes != {0}:
                    await trio.sleep(0.001)
                if game_no < games - 1:
                    await b.send({"type": "rematch"})
                    while table.game_no == game_no:
                        await trio.sleep(0.001)
        assert any(conn.spectator for conn in host.conns.values()), "the stalled spectator was cut off"
        with trio.fail_after(10):
            last: dict[str, Any] | None = None
            while last is None or last["type"] != "snapshot" or last["state_id"] != table.state_id:
                last = await mute.recv()
                assert last is not None, "the stalled spectator's link was closed"
            tally = await mute.recv_type("rematch")
        assert tally["votes"] == [0] and tally["game_no"] == table.game_no == games - 1


@over_each_stream
async def test_a_snapshot_that_cannot_be_built_costs_one_message_not_the_host(kind: str) -> None:
    async with running_host(fake_engine(), web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        game = host.table.game
        real_view = game.view_json

        def broken(seat: int | None) -> str:
            raise RuntimeError("simulated bug")

        game.view_json = broken  # type: ignore[method-assign]
        await a.send({"type": "snapshot"})
        assert "RuntimeError" in (await expect_error(a, "internal"))["reason"]
        game.view_json = real_view  # type: ignore[method-assign]
        await a.send({"type": "snapshot"})
        assert (await a.recv_type("snapshot"))["state_id"] == host.table.state_id
        await still_alive(a)
        await still_alive(b)


@over_each_stream
async def test_a_message_that_cannot_be_built_for_one_seat_does_not_hide_an_accepted_move(kind: str) -> None:
    async with running_host(fake_engine(), web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        snap = await a.recv_type("snapshot")
        game = host.table.game
        real_events = game.events_json

        def broken_for_b(seat: int | None) -> str:
            if seat == 1:
                raise RuntimeError("simulated bug")
            return real_events(seat)

        game.events_json = broken_for_b  # type: ignore[method-assign]
        before = host.table.state_id
        await a.send({"type": "move", "decision_id": snap["decision"]["id"], "index": 0, "ref": 1})
        # The move was accepted: its author gets the acknowledgement, and b still learns the new state.
        update = await a.recv_type_in(("update", "error"))
        assert update["type"] == "update" and update["ack"] == {"decision_id": snap["decision"]["id"], "ref": 1}
        assert (await b.recv_type_in(("update", "snapshot")))["state_id"] == before + 1
        game.events_json = real_events  # type: ignore[method-assign]


class _FailingStream(trio.abc.Stream):
    """The host's end of an in-memory connection whose writes raise an unexpected error once ``fail`` is set."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        self.inner = inner
        self.fail = False

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self.fail:
            raise RuntimeError("simulated write bug")
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_a_write_that_fails_unexpectedly_costs_that_peer_not_the_host() -> None:
    async with running_host(fake_engine()) as host:
        a, b, _ = await two_seats(host, "tcp")
        client_end, host_end = trio.testing.memory_stream_pair()
        failing = _FailingStream(host_end)
        assert host._nursery is not None
        host._nursery.start_soon(host.accept_stream, failing)
        watcher = RawClient(client_end)  # type: ignore[arg-type]
        assert (await watcher.join("watcher", role="spectator"))["type"] == "welcome"
        await watcher.recv_type("snapshot")
        assert len(host.conns) == 3
        failing.fail = True
        await watcher.send({"type": "ping", "id": 1})
        # The failing connection is dropped and closed; the players at the table notice nothing.
        assert await watcher.closed()
        with trio.fail_after(2):
            while len(host.conns) > 2:
                await trio.sleep(0.01)
        await still_alive(a)
        await still_alive(b)


@over_each_stream
@pytest.mark.parametrize("fsync", [False, True])
async def test_a_mover_whose_update_cannot_be_built_gets_its_ack_in_the_snapshot(
    tmp_path: Any, fsync: bool, kind: str
) -> None:
    from cardnet.journal import Journal

    journal = Journal.create(tmp_path / "j", fsync=fsync)
    async with running_host(fake_engine(), journal=journal, web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        snap = await a.recv_type("snapshot")
        game = host.table.game
        real_events = game.events_json

        def broken_for_a(seat: int | None) -> str:
            if seat == 0:
                raise RuntimeError("simulated bug")
            return real_events(seat)

        game.events_json = broken_for_a  # type: ignore[method-assign]
        before = host.table.state_id
        await a.send({"type": "move", "decision_id": snap["decision"]["id"], "index": 0, "ref": "r1"})
        # The mover's update is replaced by a snapshot of the new state, which carries the acknowledgement.
        state = await a.recv_type_in(("update", "snapshot", "error"))
        assert state["type"] == "snapshot" and state["state_id"] == before + 1
        assert state["ack"] == {"decision_id": snap["decision"]["id"], "ref": "r1"}
        assert P.StateMessage.parse(state).ack == state["ack"]
        assert (await b.recv_type_in(("update", "snapshot")))["state_id"] == before + 1
        game.events_json = real_events  # type: ignore[method-assign]
        # The acknowledgement is delivered once: a later snapshot carries none.
        await a.send({"type": "snapshot"})
        assert "ack" not in await a.recv_type("snapshot")
    journal.close()


@over_each_stream
async def test_a_slow_mover_whose_update_was_dropped_gets_its_ack_in_the_snapshot(kind: str) -> None:
    async with running_host(fake_engine(), web=kind == "ws") as host:
        a, b, _ = await two_seats(host, kind)
        snap = await a.recv_type("snapshot")
        conn = next(c for c in host.conns.values() if c.seat == 0)
        # As if a's outbox had overflowed: queued states are dropped and one snapshot is owed.
        conn.needs_snapshot = True
        await a.send({"type": "move", "decision_id": snap["decision"]["id"], "index": 0, "ref": 5})
        state = await a.recv_type_in(("update", "snapshot", "error"))
        assert state["type"] == "snapshot" and state["ack"] == {"decision_id": snap["decision"]["id"], "ref": 5}
        await still_alive(b)


async def test_a_line_the_socket_takes_only_in_part_goes_out_whole_and_in_order() -> None:
    """The direct write of a TCP peer's line: what the kernel does not take at once goes out next, through the
    writer, whole, even when back-pressure then drops the states queued behind it (else the stream would tear)."""
    async with running_host(fake_engine(), host_options=HostOptions(outbox_messages=1)) as host:
        host_sock, peer_sock = trio.socket.socketpair()
        host_sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_SNDBUF, 4096)
        assert host._nursery is not None
        host._nursery.start_soon(host.accept_stream, trio.SocketStream(host_sock))
        peer = RawClient(trio.SocketStream(peer_sock))
        await peer.recv_type("table")
        await peer.send({"type": "hello", "protocol": 1, "name": "watcher", "role": "spectator"})
        snapshot = await peer.recv_type("snapshot")
        await trio.testing.wait_all_tasks_blocked()
        (conn,) = host.conns.values()
        assert conn.fd >= 0 and not conn.outbox, "an idle socket stream is written directly"
        big = b'{"pad":"' + b"x" * 1_000_000 + b'","type":"pad"}\n'
        host._queue(conn, "state", big)
        assert conn.outbox, "the kernel took only the start of the line"
        # The remainder fills the outbox: the next state is dropped and a snapshot owed instead.
        host._queue(conn, "state", b'{"type":"dropped"}\n')
        first = await peer.recv()
        assert first is not None and first["type"] == "pad" and len(first["pad"]) == 1_000_000
        assert await peer.recv() == snapshot
