"""The full-screen client at the end of a game and of a table (headless, real hosts over loopback): a table its
host closes on purpose says so and is not retried, a spectator is not offered a rematch, leaving a LAN table
hosted here while a friend sits at it asks first, and the lobby asks the player's name once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import trio

from cardnet.bot import RandomBot, run_bot
from cardnet.identity import saved_name
from cardnet.net.peer import Peer
from cardnet.ui.app import StartRequest
from cardnet.net.local import player_name
from nethelpers import free_port
from test_tui_headless import ENTER, point_at_listed_table, run
from test_tui_tmux_lan import _host
from tuihelpers import running


def test_a_table_closed_on_purpose_says_so_and_is_not_retried(tmp_path: Path) -> None:
    port = free_port()
    host = _host(port, "fistful", "--bots", "1", "--journal", str(tmp_path / "t.journal"))

    async def scenario() -> None:
        async with running(StartRequest(connect=[("127.0.0.1", port)])) as d:
            st = d.state
            await point_at_listed_table(d)
            await d.press(ENTER)
            await d.my_turn()
            # SIGTERM: the host stops on purpose and tells every peer so.
            host.terminate()
            await d.until(lambda: "TABLE CLOSED - the host closed the table" in d.screen(), "the closed banner")
            await asyncio.sleep(1.0)
            assert "UNREACHABLE" not in d.screen() and "reconnect" not in d.screen()
            assert st.table is not None and not st.table.connected

    try:
        run(scenario())
    finally:
        host.wait(10)


def test_a_spectator_is_not_offered_a_rematch(tmp_path: Path) -> None:
    port = free_port()
    host = _host(port, "fistful", "--bots", "2", "--journal", str(tmp_path / "t.journal"), "--bot-delay", "0.05")

    async def scenario() -> None:
        async with running(StartRequest(connect=[("127.0.0.1", port)])) as d:
            st = d.state
            await point_at_listed_table(d)
            await d.press("s")
            await d.until(lambda: st.table is not None and st.table.over, "the end of the bots' game")
            assert "r: rematch" not in st.message
            await d.press("r")
            assert st.error == "Spectators do not vote for a rematch; the seated players do."

    try:
        run(scenario())
    finally:
        host.terminate()
        host.wait(10)


def _friend(port: int) -> Peer:
    """A remote player who stops when the table is closed on purpose (a person's client does)."""
    return Peer("127.0.0.1", port, name="zoe", wait_for_restart=False)


def test_leaving_a_lan_table_hosted_here_asks_while_a_friend_sits_there() -> None:
    async def scenario() -> None:
        start = StartRequest(game="fistful", players=2, interfaces=["127.0.0.1"], open_seats=1, probe=False)
        async with running(start) as d:
            st = d.state
            await d.until(lambda: st.table is not None and bool(st.table.listening), "the hosted table")
            assert st.table is not None
            port = int(st.table.listening[0].rpartition(":")[2])
            friend = asyncio.get_running_loop().run_in_executor(
                None, lambda: trio.run(lambda: run_bot(RandomBot(), "127.0.0.1", port, peer=_friend(port)))
            )
            await d.until(
                lambda: (
                    st.table is not None
                    and any(
                        isinstance(s, dict) and s.get("name") == "zoe" and s.get("connected") for s in st.table.seats
                    )
                ),
                "the friend seated",
            )
            await d.press("b")
            assert st.screen == "table" and st.prompt == "Leaving closes the table for zoe. Leave? (y/n) "
            await d.press("n" + ENTER)
            assert st.screen == "table" and st.prompt == ""
            await d.press("b")
            await d.press("y" + ENTER)
            await d.until(lambda: st.screen == "lobby", "the lobby")
            # The friend's session ends with the table.
            await asyncio.wait_for(friend, 30)

    run(scenario())


def test_the_lobby_asks_a_name_once_and_remembers_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("USER", "login")
    monkeypatch.delenv("CARDNET_NAME", raising=False)

    async def first() -> None:
        async with running(StartRequest(ask_name=True)) as d:
            st = d.state
            await d.until(lambda: st.prompt.startswith("Your name at the tables (Enter: login)"), "the question")
            await d.press("x" * 40 + ENTER)
            await d.until(
                lambda: st.error == "Name: a name has at most 32 characters (this one has 40).", "the refusal"
            )
            assert st.prompt.startswith("Your name at the tables")
            await d.press("Zoë" + ENTER)
            await d.until(lambda: st.message.startswith("You play as Zoë"), "the name taken")

    run(first())
    assert saved_name() == "Zoë"
    monkeypatch.delenv("CARDNET_NAME", raising=False)

    async def again() -> None:
        async with running(StartRequest(ask_name=True)) as d:
            await asyncio.sleep(0.3)
            assert d.state.prompt == ""
            assert player_name() == "Zoë"

    run(again())
