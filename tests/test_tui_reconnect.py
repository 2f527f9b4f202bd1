"""The full-screen client's connection banners, kept seat tokens, seats panel and rematch votes (headless, real
host over loopback)."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from functools import partial
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest
import trio
from nethelpers import HungHost, free_port
from test_tui_headless import point_at_listed_table
from test_tui_tmux_lan import _host
from tuihelpers import running

from cardnet.bot import RandomBot, run_bot
from cardnet.net.host import Host, HostOptions
from cardnet.table import Table, TableConfig, core_engine
from cardnet.ui.app import StartRequest
from cardnet.journal import read_journal
from cardnet.net.seats import SeatStore
from cardnet.ui.app.draw import seat_words, table_screen, text_of
from cardnet.ui.app.state import TableState

ENTER = "\r"


def test_seats_panel_says_how_each_seat_is_held() -> None:
    ts = TableState.open("fistful", 2, 0, "test")
    ts.set_seats(
        [{"kind": "human", "name": "me", "connected": True}, {"kind": "human", "name": "bob", "connected": False}]
    )
    assert seat_words(ts, 0) == "you" and seat_words(ts, 1) == "gone"
    ts.set_seats([{"kind": "human", "name": "me", "connected": True}, {"kind": "human", "name": "bob", "auto": True}])
    assert seat_words(ts, 1) == "gone; a built-in player plays for them"
    ts.set_seats([{"kind": "human", "name": "me", "connected": True}, {"kind": "bot"}])
    assert seat_words(ts, 1) == "built-in player"
    ts.set_seats([{"kind": "human", "name": "me", "connected": True}, {"kind": "open"}])
    assert seat_words(ts, 1) == "open, waiting for a player"
    ts.pane = True
    ts.add_chat("<bob> hi")
    text = text_of(table_screen(ts, 80, 21))
    assert "Seats" in text and "open, waiting for a player" in text and "<bob> hi" in text
    watcher = TableState.open("fistful", 2, None, "test")
    watcher.pane = True
    assert "(you are watching)" in text_of(table_screen(watcher, 80, 21))
    # Once the host has said how many watch, both see the count in words.
    ts.set_seats(ts.seats, 0)
    assert "Seats  nobody watching" in text_of(table_screen(ts, 80, 21))
    watcher.set_seats(ts.seats, 2)
    assert "Seats  2 watching, you among them" in text_of(table_screen(watcher, 80, 21))


async def _spectate(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A bare spectator over loopback: reads the table line, says hello, reads its welcome."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    await reader.readline()
    hello = {"type": "hello", "protocol": 1, "name": "eve", "role": "spectator", "capabilities": []}
    writer.write(json.dumps(hello).encode() + b"\n")
    await writer.drain()
    assert json.loads(await reader.readline())["type"] == "welcome"
    return reader, writer


def test_seats_pane_counts_the_spectators_live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    port = free_port()
    host = _host(port, "fistful", "--bots", "1", "--journal", str(tmp_path / "lan.journal"))

    async def scenario() -> None:
        async with running(StartRequest(connect=[("127.0.0.1", port)])) as d:
            st = d.state
            await point_at_listed_table(d)
            await d.press(ENTER)
            await d.until(lambda: st.table is not None and st.table.view != {}, "the table")
            await d.press("t")
            await d.until(lambda: "Seats  nobody watching" in d.screen(), "no spectator yet")
            first = await _spectate(port)
            await d.until(lambda: "Seats  1 watching" in d.screen(), "one spectator")
            second = await _spectate(port)
            await d.until(lambda: "Seats  2 watching" in d.screen(), "two spectators")
            for _, writer in (first, second):
                writer.close()
                await writer.wait_closed()
            await d.until(lambda: "Seats  nobody watching" in d.screen(), "the spectators gone")

    try:
        asyncio.run(scenario())
    finally:
        host.kill()
        host.wait(10)


def test_banner_while_the_host_is_down_then_rejoined_after_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    port = free_port()
    journal = tmp_path / "lan.journal"
    host = _host(port, "fistful", "--bots", "1", "--seed", "3", "--journal", str(journal))

    async def scenario() -> None:
        nonlocal host
        async with running(StartRequest(connect=[("127.0.0.1", port)])) as d:
            st = d.state
            await point_at_listed_table(d)
            await d.press(ENTER)
            await d.until(lambda: st.table is not None and st.table.view != {}, "the table")
            table_id = str(read_journal(journal).records[0]["table_id"])
            assert SeatStore().token(table_id) is not None
            host.kill()
            host.wait(10)
            # The drop is said at once; each failed attempt then says when the next one comes (backoff).
            await d.until(
                lambda: "CONNECTION LOST - reconnecting" in d.screen() or "HOST UNREACHABLE" in d.screen(), "the banner"
            )
            await d.until(lambda: "HOST UNREACHABLE - reconnect attempt" in d.screen(), "retries")
            await d.press("l")
            assert st.error.startswith("Not connected") and st.table is not None and not st.table.choices
            host = _host(port, "--resume", str(journal))
            await d.until(lambda: st.message == "Reconnected: back at your seat.", "the rejoin")
            assert st.table is not None and st.table.banner == "" and "CONNECTION" not in d.screen()
            # Leaving on purpose says bye and forgets the token.
            await d.press("b")
            await d.until(lambda: st.screen == "lobby", "the lobby")
            await d.until(lambda: SeatStore().token(table_id) is None, "the token forgotten")
            # The host heard the bye: a built-in player takes the seat at once, long before the seat timeout (15 s).
            for _ in range(40):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                seats = json.loads(await reader.readline())["seats"]
                writer.close()
                if seats[0]["auto"]:
                    break
                await asyncio.sleep(0.05)
            assert seats[0]["auto"] is True and seats[0]["connected"] is False

    try:
        asyncio.run(scenario())
    finally:
        if host.poll() is None:
            host.kill()
        host.wait(10)


T = TypeVar("T")


@contextmanager
def in_trio_thread(serve: Callable[[trio.Nursery], Awaitable[T]]) -> Iterator[tuple[T, trio.lowlevel.TrioToken]]:
    """Runs trio in a thread of its own for the block (the client's trio is a guest of asyncio): ``serve`` starts
    what the test needs in the nursery it gets and returns what the test uses; yields that and the token to call
    into that thread with."""
    ready: queue.Queue[tuple[T, trio.lowlevel.TrioToken]] = queue.Queue()
    stop = trio.CancelScope()

    async def main() -> None:
        with stop:
            async with trio.open_nursery() as nursery:
                ready.put((await serve(nursery), trio.lowlevel.current_trio_token()))
                await trio.sleep_forever()

    thread = threading.Thread(target=trio.run, args=(main,), daemon=True)
    thread.start()
    value, token = ready.get(timeout=20)
    try:
        yield value, token
    finally:
        token.run_sync_soon(stop.cancel)
        thread.join(20)


async def fistful_host(nursery: trio.Nursery, bots: dict[int, str], options: HostOptions) -> Host:
    """A Fistful table on loopback, served in ``nursery``."""
    config = TableConfig("fistful", 2, 1, options={"length": "short"}, table_id="tui", bots=bots)
    table = Table(config, core_engine(), clock=trio.current_time)
    host = Host(table, options=options)
    await nursery.start(host.serve, "127.0.0.1", 0)
    return host


async def hung_fistful_table(nursery: trio.Nursery) -> tuple[int, HungHost]:
    """A Fistful table with a built-in player and a 0.1 s heartbeat behind a :class:`HungHost`: (port, relay)."""
    host = await fistful_host(nursery, {1: "random"}, HostOptions(keepalive_interval=0.1, seat_timeout=60))
    hung = HungHost(host.port or 0)
    return await nursery.start(hung.serve), hung


def test_banner_when_the_host_hangs_then_back_at_the_seat_when_it_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    async def scenario(port: int, hung: HungHost, token: trio.lowlevel.TrioToken) -> None:
        async with running(StartRequest(connect=[("127.0.0.1", port)])) as d:
            st = d.state
            await point_at_listed_table(d)
            await d.press(ENTER)
            await d.my_turn()
            token.run_sync_soon(hung.freeze)
            # Silence past three heartbeats: the connection is still open, but the host is said to hang.
            await d.until(lambda: "HOST NOT ANSWERING - no word from the host for 0.3 s" in d.screen(), "the banner")
            ts = st.table
            assert ts is not None
            await d.until(lambda: "HOST UNREACHABLE - reconnect attempt 1 failed" in d.screen(), "the first retry")
            # The banner's whole text (the screen clips it at 80 columns) says why the attempt failed.
            assert "(the host did not answer within 0.3 s)" in ts.banner and not ts.connected
            token.run_sync_soon(hung.thaw)
            await d.until(lambda: st.message == "Reconnected: back at your seat.", "the rejoin")
            await d.my_turn()
            assert st.table is not None and st.table.seat == 0 and st.table.banner == ""
            assert "NOT ANSWERING" not in d.screen() and "UNREACHABLE" not in d.screen()

    with in_trio_thread(hung_fistful_table) as ((port, hung), token):
        asyncio.run(scenario(port, hung, token))


def test_end_screen_shows_who_asked_for_a_rematch_and_whom_it_waits_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    async def with_a_player(nursery: trio.Nursery) -> int:
        # Seat 1 is another person: a bot over TCP that plays the match, asks for a rematch, plays that too.
        host = await fistful_host(nursery, {}, HostOptions())
        port = host.port or 0
        nursery.start_soon(partial(run_bot, RandomBot(5), "127.0.0.1", port, name="bob", games=2, seat=1))
        return port

    async def scenario(port: int) -> None:
        async with running(StartRequest(connect=[("127.0.0.1", port)])) as d:
            st = d.state
            await point_at_listed_table(d)
            await d.press(ENTER)
            await d.until(lambda: st.table is not None and st.table.game_no == 0, "the table")
            ts = st.table
            assert ts is not None
            await d.play_to_the_end()
            await d.until(lambda: bool(ts.rematch_votes), "bob's vote")
            assert "Rematch asked by bob; waiting for You." in d.screen()
            await d.press("r")
            await d.until(lambda: ts.game_no == 1 and not ts.over, "the rematch")
            assert ts.rematch_votes == [] and "Rematch asked" not in d.screen(80, 40)

    with in_trio_thread(with_a_player) as (port, _):
        asyncio.run(scenario(port))
