"""The web seat's WebSocket: a whole game beside TCP peers, the same lines, and what only a WebSocket can send
(binary, fragmented, oversized, unmasked or not-UTF-8 frames, pings) refused as PROTOCOL.md § 16 says, while the
table plays on. The shared hostile-input suite runs over WebSockets too (tests/test_net_host_hostile.py)."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from cardnet import protocol as P
from cardnet.net.host import Host, HostOptions
from cardnet.table import core_engine
from cardnet.web.ws import MAX_FRAGMENTS
from wsproto.utilities import RemoteProtocolError

from nethelpers import RawClient, running_host
from netfake import fake_engine
from webhelpers import BINARY, CONTINUATION, PING, TEXT, WsClient, open_client

pytestmark = pytest.mark.trio


async def seated_ws(host: Host, name: str = "w", **fields: Any) -> tuple[WsClient, dict[str, Any]]:
    client = await open_client(host, "ws")
    assert isinstance(client, WsClient)
    welcome = await client.join(name, **fields)
    assert welcome["type"] == "welcome", welcome
    await client.recv_type("snapshot")
    return client, welcome


async def expect_error(client: RawClient, code: str) -> dict[str, Any]:
    msg = await client.recv_type("error")
    assert msg["code"] == code, msg
    return msg


async def still_alive(client: RawClient, ping: int = 9) -> None:
    await client.send({"type": "ping", "id": ping})
    assert (await client.recv_type("pong"))["id"] == ping


async def play(client: RawClient, seen: list[bytes] | None = None) -> dict[str, Any]:
    """Answer every decision with its first legal move until the game is over; the last state."""
    while True:
        msg = await client.recv(10)
        assert msg is not None, "the host closed the connection mid-game"
        if msg["type"] in ("snapshot", "update"):
            if msg["over"]:
                return msg
            decision = msg["decision"]
            if decision is not None:
                await client.send({"type": "move", "decision_id": decision["id"], "index": 0})


async def test_a_whole_game_played_over_a_websocket_beside_tcp_peers() -> None:
    """Matchstick for 4: a browser's seat, two TCP seats and a built-in player; a TCP and a WebSocket spectator
    receive the very same updates from start to end."""
    async with running_host(core_engine(), game="matchstick", players=4, bots={3: "heuristic"}, web=True) as host:
        watchers = {kind: await open_client(host, kind) for kind in ("tcp", "ws")}
        for kind, watcher in watchers.items():
            assert (await watcher.join(f"watch-{kind}", role="spectator"))["type"] == "welcome"
        web = await open_client(host, "ws")
        assert (await web.join("phone"))["seat"] == 0
        players = [web]
        for name in ("ann", "bob"):
            client = await RawClient.connect(host.port or 0)
            assert (await client.join(name))["type"] == "welcome"
            players.append(client)
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                for client in players:
                    nursery.start_soon(play, client)
            lines: dict[str, list[dict[str, Any]]] = {"tcp": [], "ws": []}
            for kind, watcher in watchers.items():
                while not lines[kind] or not lines[kind][-1].get("over"):
                    msg = await watcher.recv()
                    assert msg is not None
                    if msg["type"] == "update":
                        lines[kind].append(msg)
        assert host.table.game.is_over() and host.table.state_id > 10
        assert lines["tcp"] == lines["ws"]


async def test_a_binary_message_is_refused_like_a_bad_line_and_counts_as_a_strike() -> None:
    async with running_host(fake_engine(), web=True, host_options=HostOptions(max_strikes=2)) as host:
        web, _ = await seated_ws(host)
        other, _ = await seated_ws(host, "other")
        before = (host.table.state_id, host.table.game.state_hash())
        for _ in range(2):
            await web.send_frame(BINARY, b'{"type":"ping","id":1}')
            err = await expect_error(web, "bad_message")
            assert "binary" in err["reason"] and err["fatal"] is False
        await still_alive(web)
        await web.send_frame(BINARY, b"\x00\x01")
        await expect_error(web, "too_many_errors")
        assert await web.closed()
        assert (host.table.state_id, host.table.game.state_hash()) == before
        await still_alive(other)


@pytest.mark.parametrize("shape", ["one frame", "fragments", "too many fragments", "binary"])
async def test_an_oversized_message_ends_the_connection_with_1009(shape: str) -> None:
    async with running_host(fake_engine(), web=True) as host:
        web, _ = await seated_ws(host)
        other, _ = await seated_ws(host, "other")
        big = b"{" + b" " * (P.MAX_PEER_LINE + 10) + b"}"
        if shape == "one frame":
            await web.send_frame(TEXT, big)
        elif shape == "binary":
            await web.send_frame(BINARY, big)
        elif shape == "fragments":
            await web.send_frame(TEXT, big[:1000], fin=False)
            for start in range(1000, len(big), 20_000):
                await web.send_frame(CONTINUATION, big[start : start + 20_000], fin=False)
        else:
            await web.send_frame(TEXT, b"{", fin=False)
            await web.stream.send_all(b"".join(_continuations(MAX_FRAGMENTS + 1)))
        await expect_error(web, "line_too_long")
        assert await web.closed() and web.close_code == 1009
        await still_alive(other)


def _continuations(count: int) -> list[bytes]:
    from webhelpers import client_frame

    return [client_frame(CONTINUATION, b"", fin=False) for _ in range(count)]


async def test_a_message_in_fragments_is_one_line() -> None:
    async with running_host(fake_engine(), web=True) as host:
        web, _ = await seated_ws(host)
        line = b'{"id":41,"type":"ping"}'
        await web.send_frame(TEXT, line[:5], fin=False)
        await web.send_frame(PING, b"between")  # control frames may come between fragments
        await web.send_frame(CONTINUATION, line[5:12], fin=False)
        await web.send_frame(CONTINUATION, line[12:])
        assert (await web.recv_type("pong"))["id"] == 41


async def test_a_trailing_newline_is_taken_and_a_second_line_is_refused() -> None:
    async with running_host(fake_engine(), web=True) as host:
        web, _ = await seated_ws(host)
        await web.send_frame(TEXT, b'{"id":1,"type":"ping"}\n')
        assert (await web.recv_type("pong"))["id"] == 1
        await web.send_frame(TEXT, b'{"id":2,"type":"ping"}\n{"id":3,"type":"ping"}')
        assert "one protocol line" in (await expect_error(web, "bad_message"))["reason"]
        await still_alive(web)


async def test_text_that_is_not_utf8_ends_the_connection_with_1007_and_changes_nothing() -> None:
    async with running_host(fake_engine(), web=True) as host:
        web, _ = await seated_ws(host)
        other, _ = await seated_ws(host, "other")
        before = (host.table.state_id, host.table.game.state_hash())
        # Valid UTF-8 cut in the middle of a character across two fragments is fine; a bad byte is not.
        await web.send_frame(TEXT, b'{"type":"chat","text":"\xe2\x98', fin=False)
        await web.send_frame(CONTINUATION, b'\xba"}')
        assert (await web.recv_type("chat"))["text"] == "☺"
        await web.send_frame(TEXT, b'{"type":"chat","text":"\xc3\x28"}')
        await expect_error(web, "bad_utf8")
        assert await web.closed() and web.close_code == 1007
        assert (host.table.state_id, host.table.game.state_hash()) == before
        await still_alive(other)


@pytest.mark.parametrize(
    "frame",
    [
        # A client's frames must be masked (RFC 6455 § 5.1).
        b"\x81\x05hello",
        # A length in a longer form than it needs (§ 5.2: "the minimal number of bytes MUST be used").
        b"\x81\xfe\x00\x05\x00\x00\x00\x00hello",
    ],
    ids=["unmasked", "long length form"],
)
async def test_a_broken_frame_ends_the_connection_with_1002(frame: bytes) -> None:
    async with running_host(fake_engine(), web=True) as host:
        web, _ = await seated_ws(host)
        await web.stream.send_all(frame)
        await expect_error(web, "bad_message")
        assert await web.closed() and web.close_code == 1002


async def test_pings_are_answered_and_a_ping_flood_is_cut_off() -> None:
    opts = HostOptions(msg_rate=10, msg_burst=20)
    async with running_host(fake_engine(), web=True, host_options=opts) as host:
        web, _ = await seated_ws(host)
        other, _ = await seated_ws(host, "other")
        await web.send_frame(PING, b"are you there")
        await still_alive(web)
        assert web.pongs == 1
        await web.stream.send_all(b"".join(_pings(200)))
        await expect_error(web, "rate_limited")
        assert await web.closed()
        await still_alive(other)


def _pings(count: int) -> list[bytes]:
    from webhelpers import client_frame

    return [client_frame(PING, b"x") for _ in range(count)]


async def test_a_peer_that_closes_is_answered_and_its_seat_is_absent() -> None:
    async with running_host(fake_engine(), web=True) as host:
        web, _ = await seated_ws(host)
        await web.send_frame(0x8, (1000).to_bytes(2, "big") + b"bye")
        assert await web.closed() and web.close_code == 1000
        with trio.fail_after(3):
            while host.table.seats[0].connected:
                await trio.sleep(0.01)


async def test_a_seat_is_taken_back_with_its_token_over_either_stream() -> None:
    async with running_host(fake_engine(), web=True) as host:
        web, welcome = await seated_ws(host, "phone")
        other, _ = await seated_ws(host, "other")
        await web.aclose()
        with trio.fail_after(3):
            while host.table.seats[0].connected:
                await trio.sleep(0.01)
        back = await open_client(host, "ws")
        reply = await back.join("phone", token=welcome["token"])
        assert (reply["type"], reply["seat"], reply["token"]) == ("welcome", 0, None)
        # The same token works over TCP: the seat is the session's, not the stream's.
        laptop = await open_client(host, "tcp")
        assert (await laptop.join("phone", token=welcome["token"]))["seat"] == 0
        assert (await back.recv_type("error"))["code"] == "replaced"
        await still_alive(other)


async def test_the_host_stopping_closes_websockets_with_1001() -> None:
    async with running_host(fake_engine(), web=True) as host:
        web, _ = await seated_ws(host)
        await host.shutdown(grace=1)
        await expect_error(web, "shutting_down")
        assert await web.closed() and web.close_code == 1001


async def test_a_journal_that_cannot_be_written_stops_the_host_after_a_browsers_move(tmp_path: Any) -> None:
    from cardnet.journal import Journal
    from cardnet.net.host import JournalFailure

    journal = Journal.create(tmp_path / "j")
    with pytest.raises(BaseExceptionGroup) as info:
        async with running_host(fake_engine(), journal=journal, web=True) as host:
            web, _ = await seated_ws(host)
            await seated_ws(host, "other")
            journal.close()  # every later write fails with EBADF
            decision = host.table.decisions[0].id
            await web.send({"type": "move", "decision_id": decision, "index": 0})
            with trio.fail_after(5):
                await trio.sleep_forever()
    assert info.group_contains(JournalFailure)


async def test_a_bug_serving_one_browser_costs_that_connection_not_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardnet.web import server

    def broken(request: object) -> list[tuple[bytes, bytes]]:
        raise RuntimeError("simulated bug")

    async with running_host(fake_engine(), web=True) as host:
        player = await open_client(host, "tcp")
        assert (await player.join("a"))["type"] == "welcome"
        monkeypatch.setattr(server, "accept_headers", broken)
        port = host.session.web_port
        assert port is not None
        # The connection is closed without an answer to the upgrade.
        with pytest.raises((ConnectionRefusedError, RemoteProtocolError)):
            await WsClient.connect(port)
        monkeypatch.undo()
        await still_alive(player)
        web, _ = await seated_ws(host)
        await still_alive(web)
