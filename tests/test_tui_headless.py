"""The full-screen client headless (pipe input, dummy output) against the real in-process host and core."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from tuihelpers import Driver, running

import cardnet
from cardnet.ui.app import StartRequest
from cardnet.ui.app.draw import table_screen, text_of
from cardnet.ui.app.layout import help_lines
from cardnet.ui.app.moves import hand_cards
from cardnet.ui.app.state import AppState, LobbyEntry, TableState
from cardnet.ui.markdown import as_plain, markdown_lines

ENTER, SPACE, RIGHT, CTRL_Q, ESC = "\r", " ", "\x1b[C", "\x11", "\x1b"


def run(coro: Any) -> None:
    asyncio.run(coro)


def test_import_cardnet_does_not_load_prompt_toolkit() -> None:
    code = "import sys, cardnet, cardnet.ui.render; print('prompt_toolkit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- screens from recorded views of every phase ------------------------------------------------------------


def _views(
    game: str, players: int, seed: int, situation: Callable[[dict[str, Any]], str] | None = None
) -> dict[str, tuple[int, dict[str, Any], list[Any]]]:
    """One (seat, view, legal moves) per phase (Fistful) or per table situation (Matchstick, or as ``situation``
    names a public view), from a random game."""
    g = cardnet.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    seen: dict[str, tuple[int, dict[str, Any], list[Any]]] = {}
    while not g.is_over():
        seat = g.to_act()[0]
        view = g.view(seat)
        pub = view["public"]
        if situation is not None:
            key = situation(pub)
        elif game == "matchstick":
            key = "revolution" if pub["revolution"] else ("trick" if pub["table"] else "lead")
        else:
            key = pub["phase"]
        seen.setdefault(key, (seat, view, g.legal_moves(seat)))
        g.apply(seat, rng.choice(g.legal_moves(seat)))
    seen["over"] = (0, g.view(0), [])
    return seen


def _screen(game: str, players: int, seat: int, view: dict[str, Any], legal: list[Any], size: tuple[int, int]) -> str:
    ts = TableState.open(game, players, seat, "test")
    ts.view, ts.legal, ts.to_act, ts.decision_id = view, legal, [seat] if legal else [], 1 if legal else None
    ts.over = not legal
    ts.add_log("Bot 1 plays something")
    width, height = size
    text = text_of(table_screen(ts, width, height))
    lines = text.split("\n")
    assert len(lines) <= height + 1
    assert all(len(line) <= width for line in lines), text
    return text


@pytest.mark.parametrize("size", [(80, 21), (200, 47)])
def test_fistful_screens_every_phase(size: tuple[int, int]) -> None:
    views = _views("fistful", 2, 1)
    assert {"setup_discard", "pick", "green8_retrieve", "round_end_discard", "over"} <= set(views)
    for phase, (seat, view, legal) in views.items():
        text = _screen("fistful", 2, seat, view, legal, size)
        assert "A Fistful of Gold - round" in text and "Stars" in text and "Pot" in text
        colour = view["public"]["colours"][seat].capitalize()
        assert f"You ({colour})" in text
        if phase == "green8_retrieve":
            assert "Your discard pile - take one back:" in text
        if phase == "pick":
            assert "Your turn." in text and "Pick your card" in text
        if phase == "over":
            assert "Game over." in text
        assert "Bot 1 plays something" in text


@pytest.mark.parametrize("size", [(80, 21), (200, 47)])
def test_matchstick_screens(size: tuple[int, int]) -> None:
    views = _views("matchstick", 3, 11)
    assert {"lead", "trick", "over"} <= set(views)
    for situation, (seat, view, legal) in views.items():
        text = _screen("matchstick", 3, seat, view, legal, size)
        assert "Matchstick Tycoon" in text
        if situation == "trick":
            assert "Trick: " in text and " played " in text
        if situation == "revolution":
            assert "REVOLUTION" in text
        if view["private"]["hand"]:
            assert "Your hand" in text
            # The cards are numbered by position, as typed moves name them (long hands scroll around the cursor).
            assert " 1 " in text.split("Your hand", 1)[1]


@pytest.mark.parametrize("size", [(80, 21), (200, 47)])
def test_cherki_screens(size: tuple[int, int]) -> None:
    views = _views("cherki", 3, 1)
    assert {"start", "drawn", "over"} <= set(views)
    for seat, view, legal in views.values():
        text = _screen("cherki", 3, seat, view, legal, size)
        assert text.startswith("Deal ") and "Players:" in text
        hand = view["private"]["hand"]
        assert f"Your hand ({len(hand)} cards, by kind" in text
        assert all(str(card) in text for card in hand)
        assert "Towards a call: triples" in text or view["private"].get("pair_kind") is not None


def test_matchstick_added_matchsticks_without_colour() -> None:
    ts = TableState.open("matchstick", 3, 0, "test")
    seat, view, legal = _views("matchstick", 3, 11)["lead"]
    view = dict(view)
    public = dict(view["public"])
    public["table"] = {
        "cards": [{"added": "ef", "card": "3E", "id": 14, "lit": "abcdg", "rotated": False}],
        "cost": 2,
        "count": 1,
        "seat": 1,
        "value": "8",
    }
    view["public"] = public
    ts.view, ts.seat = view, seat
    coloured = table_screen(ts, 80, 30)
    plain = text_of(table_screen(ts, 80, 30, no_color=True))
    assert any("seg.added" in style for style, _ in coloured)
    assert "!" in plain and "with 2 matchsticks" in plain


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
def test_help_lists_keys_and_game_rules_at_every_table(game: str) -> None:
    st = AppState(screen="table", table=TableState.open(game, cardnet.GAMES[game].default_players, 0, "t"))
    text = as_plain(help_lines(st, 100))
    assert cardnet.GAMES[game].title in text and "Ctrl-Q" in text and "Scroll the help down" in text
    if game == "fistful":
        assert "Space" in text and "pick 7" in text
    # The game's whole rules follow the keys (the help scrolls).
    from cardnet.rulebook import rules_text

    assert "The rules (Up/Down scroll)" in text
    assert text.rstrip().endswith(as_plain(markdown_lines(rules_text(game), 100)).rstrip())


def test_help_shows_the_rules_in_the_language_the_player_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardnet import i18n
    from cardnet.rulebook import rules_text

    monkeypatch.setattr(i18n, "_current", "fi")
    st = AppState(screen="table", table=TableState.open("cherki", 3, 0, "t"))
    text = as_plain(help_lines(st, 100))
    assert text.rstrip().endswith(as_plain(markdown_lines(rules_text("cherki", "fi"), 100)).rstrip())
    assert "Kutsuminen ja voittaminen" in text


# -- key paths against the real host ---------------------------------------------------------------------


def test_fistful_select_discard_pick_illegal_help_quit() -> None:
    async def scenario() -> None:
        async with running(StartRequest(game="fistful", seed=3, player="random")) as d:
            await d.my_turn()
            st = d.state
            ts = st.table
            assert ts is not None and st.screen == "table"
            assert ts.view["public"]["phase"] == "setup_discard"
            assert "Setup: discard 2" in d.screen()
            first, second = hand_cards(ts)[:2]
            await d.press(SPACE + RIGHT + SPACE)
            assert ts.selected == {first, second}
            hand_before = list(ts.view["private"]["hand"])
            await d.press(ENTER)
            await d.until(lambda: ts.view["public"]["phase"] == "pick" and ts.my_turn, "the first duel")
            assert first not in ts.view["private"]["hand"] and len(ts.view["private"]["hand"]) == len(hand_before) - 2
            assert "You discard" in "\n".join(ts.log)
            # Pick the card under the cursor; the next duel bars the card one higher (the +1 rule).
            played = hand_cards(ts)[ts.cursor]
            await d.press(ENTER)
            await d.until(lambda: ts.view["public"]["played"][ts.seat] == [played] and ts.my_turn, "the second duel")
            assert ts.view["public"]["barred"][ts.seat] == played + 1
            assert f"Barred by the +1 rule:  you: [{played + 1}]" in d.screen()
            ts.cursor = hand_cards(ts).index(played + 1)
            hand_before, played_before = list(ts.view["private"]["hand"]), ts.view["public"]["played"][ts.seat]
            await d.press(ENTER)
            await d.until(lambda: st.error.startswith("Refused:"), "the host's refusal")
            # Nothing of ours changed (the other seat may have picked meanwhile).
            assert ts.view["private"]["hand"] == hand_before and ts.view["public"]["played"][ts.seat] == played_before
            assert ts.my_turn
            await d.press("?")
            assert st.help_open
            # The help scrolls (the rules follow the keys).
            await d.press("\x1b[B\x1b[B\x1b[A")
            assert st.help_offset == 5
            await d.press(ESC)
            # Past the host's burst of 5 lines the rate limit is shown in player words.
            for n in range(8):
                await d.press(f":say line {n}" + ENTER)
            await d.until(lambda: st.error.startswith("Chat: too many lines at once"), "the chat rate limit")
            # A lone Esc is told from an escape sequence by a short timeout.
            await d.until(lambda: not st.help_open, "Esc to close help")

    run(scenario())


def test_matchstick_select_play_choices_pass_typed_illegal() -> None:
    async def scenario() -> None:
        async with running(StartRequest(game="matchstick", players=3, seed=2, player="random")) as d:
            st = d.state
            await d.my_turn()
            ts = st.table
            assert ts is not None
            hand = {c["id"]: c["card"] for c in ts.view["private"]["hand"]}
            zero = next(i for i, c in hand.items() if c == "0")
            ts.cursor = hand_cards(ts).index(zero)
            await d.press(SPACE + ENTER)
            # A "0" can show 0 as it is or 8 with a matchstick: both are offered, from the legal list only.
            labels = [c.label for c in ts.choices]
            assert any(label.startswith(f"play 0 {zero}") for label in labels)
            assert any(label.startswith(f"play 8 {zero}") and "1 matchstick" in label for label in labels)
            assert all(c.index is not None for c in ts.choices)
            await d.press(ENTER)
            await d.until(lambda: zero not in [c["id"] for c in ts.view["private"]["hand"]], "the play")
            await d.until(lambda: ts.my_turn, "my next turn")
            # A typed move the core refuses: the host's reason is shown and nothing changes.
            one = next(i for i, c in hand.items() if c == "1")
            position = hand_cards(ts).index(one) + 1
            before = ts.view["private"]
            await d.press(f":play 9 {position}" + ENTER)
            await d.until(lambda: st.error.startswith("Refused:"), "the refusal of a typed move")
            assert ts.view["private"] == before and ts.my_turn
            assert any(m.get("type") == "pass" for m in ts.legal)
            sticks = ts.view["public"]["players"][ts.seat]["matchsticks"]
            await d.press("p")
            await d.until(lambda: "You pass" in "\n".join(ts.log), "the pass")
            assert ts.view["public"]["players"][ts.seat]["matchsticks"] == sticks + 1

    run(scenario())


def test_lobby_form_hosts_a_table_at_seat_0() -> None:
    async def scenario() -> None:
        async with running(StartRequest(connect=[("127.0.0.1", 9)])) as d:
            st = d.state
            assert st.screen == "lobby"
            await d.until(lambda: "127.0.0.1:9" in d.screen(), "the table listed")
            assert "New table" in d.screen()
            await d.press(ENTER)
            assert st.form is not None and "New table" in d.screen()
            while "A Fistful of Gold" not in d.screen():
                await d.press(RIGHT)
            await d.press(ENTER)
            await d.until(lambda: st.screen == "table", "the hosted table")
            ts = st.table
            assert ts is not None and ts.game == "fistful" and ts.seat == 0
            await d.my_turn()
            assert "Your hand" in d.screen()

    run(scenario())


def test_lobby_lists_unfinished_game_and_resumes_it(private_state_dir: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "cardnet", "play", "fistful", "--plain", "--seed", "4"],
        input="1\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr

    async def scenario() -> None:
        async with running(StartRequest()) as d:
            st = d.state
            resumes = [e for e in st.entries if e.kind == "resume"]
            assert len(resumes) == 1 and resumes[0].label == "A Fistful of Gold"
            # Players, when, and how far in the game's own words; never the journal's state number.
            assert resumes[0].detail.startswith("2 players, played today ")
            assert "round 1, duel 1 of " in resumes[0].detail and "state" not in resumes[0].detail
            st.lobby_cursor = st.entries.index(resumes[0])
            await d.press(ENTER)
            await d.until(lambda: st.table is not None and st.table.my_turn, "the resumed game")

    run(scenario())


def test_q_quits_from_the_lobby() -> None:
    async def scenario() -> None:
        async with running(StartRequest()) as driver:
            driver.keys.send_text("q")
            await driver.until(lambda: not driver.client.app.is_running, "quit")
            # Leaving the block then finds the app already gone, with exit code 0.

    run(scenario())


@pytest.mark.parametrize("where", ["lobby", "table", "typing"])
def test_ctrl_c_leaves_as_ctrl_q_does(where: str) -> None:
    start = StartRequest(game="fistful", seed=3) if where != "lobby" else StartRequest()

    async def scenario() -> None:
        async with running(start) as driver:
            if where != "lobby":
                await driver.my_turn()
            if where == "typing":
                await driver.press(":pick")
                assert driver.state.command_open
            driver.keys.send_text("\x03")
            await driver.until(lambda: not driver.client.app.is_running, "Ctrl-C to leave")

    run(scenario())


def test_a_crash_on_the_trio_side_leaves_the_screen_and_is_raised() -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from cardnet.ui.app import Client

    async def broken() -> None:
        raise RuntimeError("boom in a table task")

    async def scenario() -> None:
        with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
            client = Client(StartRequest())
            task = asyncio.ensure_future(client.run_async())
            while client.controller.runner.token is None or client.controller.runner.nursery is None:
                await asyncio.sleep(0.01)
            nursery = client.controller.runner.nursery
            client.controller.runner.token.run_sync_soon(nursery.start_soon, broken)
            with pytest.raises(RuntimeError, match="boom in a table task"):
                await asyncio.wait_for(task, 10)
            assert not client.app.is_running

    run(scenario())


def test_no_color_draws_in_one_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import ColorDepth, DummyOutput

    from cardnet.ui.app import Client

    monkeypatch.setenv("NO_COLOR", "1")
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        client = Client(StartRequest())
        assert client.state.no_color and client.app.color_depth == ColorDepth.MONOCHROME


@contextmanager
def lan_host(tmp_path: Path, bots: int, *extra: str) -> Iterator[int]:
    """``cardnet host fistful`` on loopback for the block; yields its port once it listens.

    Tests that find it by discovery name it uniquely (``--name``), so it skips mDNS name probing."""
    from nethelpers import child_env, free_port

    port = free_port()
    host = subprocess.Popen(
        [sys.executable, "-m", "cardnet", "host", "fistful", "--bots", str(bots), "--port", str(port), "--no-probe"]
        + ["--interface", "127.0.0.1", "--headless", "--journal", str(tmp_path / "lan.journal"), *extra],
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert host.stdout is not None
        for _ in range(20):
            if "listening on" in host.stdout.readline():
                break
        else:
            raise AssertionError("the host did not start")
        yield port
    finally:
        host.terminate()
        host.wait(10)


async def point_at_listed_table(d: Driver, name: str | None = None) -> LobbyEntry:
    """Waits until the lobby lists a table (the one called ``name``, when given: discovery on loopback also
    finds other tests' tables) and puts the cursor on it."""
    st = d.state

    def wanted(entry: LobbyEntry) -> bool:
        return entry.kind == "table" and (name is None or entry.label == name)

    await d.until(lambda: any(wanted(e) for e in st.entries), f"the table {name or ''} listed")
    st.lobby_cursor = next(n for n, e in enumerate(st.entries) if wanted(e))
    return st.entries[st.lobby_cursor]


def test_lobby_spectates_a_lan_table(tmp_path: Path) -> None:
    async def scenario(port: int) -> None:
        async with running(StartRequest(connect=[("127.0.0.1", port)])) as d:
            st = d.state
            await point_at_listed_table(d)
            await d.press("s")
            await d.until(lambda: st.table is not None and bool(st.table.view), "the public view")
            ts = st.table
            assert ts is not None and ts.seat is None and "(watching)" in ts.title
            await d.until(lambda: len(ts.log) > 2, "the bots' moves")
            assert "Your hand" not in d.screen() and "A Fistful of Gold - round" in d.screen()
            await d.press(ENTER)
            assert st.error == "You are watching this table: moves are for the players."
            from cardnet.ui.app.layout import _status

            status = "".join(fragment[1] for fragment in _status(st, 80))
            assert status.startswith(" watching") and "Enter" not in status and "Space" not in status

    with lan_host(tmp_path, 2, "--bot-delay", "0.2") as port:
        run(scenario(port))


def test_lobby_joins_a_lan_table_by_address(tmp_path: Path) -> None:
    async def scenario(port: int) -> None:
        async with running(StartRequest(connect=[("127.0.0.1", port)])) as d:
            st = d.state
            entry = await point_at_listed_table(d)
            # The lobby asked the table what it is: its name, game and free seats are listed.
            assert entry.detail == f"127.0.0.1:{port}  A Fistful of Gold, 1/2 seats, waiting"
            assert entry.label.endswith("'s fistful") and not entry.password
            await d.press(ENTER)
            await d.until(lambda: st.table is not None and st.table.my_turn, "my turn at the LAN table")
            assert st.table is not None and st.table.game == "fistful" and st.table.seat == 0
            assert "Setup: discard 2" in d.screen()
            await d.press(SPACE + RIGHT + SPACE + ENTER)
            await d.until(lambda: st.table is not None and "You discard" in "\n".join(st.table.log), "the discard")

    with lan_host(tmp_path, 1) as port:
        run(scenario(port))


def test_whole_fistful_match_then_rematch() -> None:
    async def scenario() -> None:
        async with running(StartRequest(game="fistful", seed=8, player="random")) as d:
            st = d.state
            await d.until(lambda: st.table is not None, "the table")
            ts = st.table
            assert ts is not None
            await d.play_to_the_end()
            assert ts.over and "Game over." in d.screen() and "win" in d.screen()
            # The standings in player words: each seat with its stars.
            assert "1. " in d.screen() and "2. " in d.screen() and "star" in d.screen()
            assert "r: rematch" in st.message
            await d.press("r")
            await d.until(lambda: not ts.over and ts.my_turn, "the rematch")
            assert ts.view["public"]["round"] == 1 and ts.view["public"]["phase"] == "setup_discard"
            assert "begins (same seats)" in "\n".join(ts.log) and "rematch" not in st.message

    run(scenario())


def test_leave_a_local_table_and_resume_it_from_the_lobby() -> None:
    async def scenario() -> None:
        async with running(StartRequest(game="fistful", seed=6, player="random")) as d:
            st = d.state
            await d.my_turn()
            assert st.table is not None
            journal = st.table.journal
            await d.press(SPACE + RIGHT + SPACE + ENTER)
            await d.until(lambda: st.table is not None and st.table.view["public"]["phase"] == "pick", "the pick")
            await d.press("b")
            assert st.screen == "lobby" and st.table is None
            resumes = [e for e in st.entries if e.kind == "resume"]
            assert [e.path for e in resumes] == [journal]
            st.lobby_cursor = st.entries.index(resumes[0])
            await d.press(ENTER)
            await d.until(lambda: st.table is not None and st.table.my_turn, "the resumed table")
            assert st.table is not None and st.table.view["public"]["phase"] == "pick"

    run(scenario())


def test_a_bad_journal_is_a_message_in_the_lobby(tmp_path: Path) -> None:
    missing = tmp_path / "missing.journal"

    async def scenario() -> None:
        async with running(StartRequest(resume=missing)) as d:
            st = d.state
            await d.until(lambda: bool(st.error), "the error")
            assert st.error.startswith("Starting the game: ") and "missing.journal" in st.error
            assert st.screen == "lobby" and d.client.app.is_running

    run(scenario())


def test_chat_from_the_table() -> None:
    async def scenario() -> None:
        async with running(StartRequest(game="fistful", seed=2, player="random")) as d:
            st = d.state
            await d.my_turn()
            await d.press("/")
            assert st.prompt == "say: " and st.command_open
            await d.press("hello table" + ENTER)
            await d.until(lambda: st.table is not None and any("hello table" in line for line in st.table.log), "chat")
            # Too long for the protocol: the limit comes back as an error line, and the app goes on.
            await d.press(":say " + "x" * 600 + ENTER)
            await d.until(lambda: st.error.startswith("Chat: a line holds at most 500 characters"), "the chat limit")
            assert d.client.app.is_running
            # The pane: seats (you, the built-in player) and the chat instead of the log; Tab opens the input.
            await d.press("t")
            pane = d.screen()
            assert "Seats" in pane and "You" in pane and "built-in player" in pane and "hello table" in pane
            await d.press("\t")
            assert st.prompt == "say: " and st.command_open
            await d.press(ESC)

    run(scenario())


def test_turn_timer_counts_down(tmp_path: Path) -> None:
    async def scenario(port: int) -> None:
        async with running(StartRequest(connect=[("127.0.0.1", port)])) as d:
            st = d.state
            await point_at_listed_table(d)
            await d.press(ENTER)
            await d.until(lambda: st.table is not None and st.table.my_turn, "my turn")
            await d.until(lambda: "s left." in d.screen(), "the countdown")
            first = int(d.screen().split(" s left.")[0].rsplit(" ", 1)[1])
            assert 25 <= first <= 30
            await d.until(lambda: f"{first - 1} s left." in d.screen(), "the next second")
            # The app redraws by itself while the clock runs (nothing else happens at the table now).
            frames = d.client.app.render_counter
            await asyncio.sleep(2.2)
            assert d.client.app.render_counter >= frames + 2

    with lan_host(tmp_path, 1, "--turn-timer", "30") as port:
        run(scenario(port))


def test_long_lobby_scrolls_to_the_cursor() -> None:
    from cardnet.ui.app.draw import lobby_screen
    from cardnet.ui.app.state import LobbyEntry

    st = AppState()
    st.entries = [LobbyEntry("new", "New table")] + [
        LobbyEntry("table", f"table {n}", address="127.0.0.1", port=7000 + n) for n in range(40)
    ]
    st.lobby_cursor = 35
    text = text_of(lobby_screen(st, 80, 20))
    assert "table 34" in text and len(text.rstrip("\n").split("\n")) <= 20
    st.lobby_cursor = 0
    assert "New table" in text_of(lobby_screen(st, 80, 20))


def test_cherki_draw_then_discard_the_card_under_the_cursor() -> None:
    async def scenario() -> None:
        async with running(StartRequest(game="cherki", seed=2, player="random")) as d:
            st = d.state
            await d.my_turn()
            ts = st.table
            assert ts is not None and ts.view["public"]["phase"] == "start"
            assert "Your hand (8 cards, by kind" in d.screen() and "+---+" in d.screen()
            await d.press(ENTER)
            assert [c.label.split()[0] for c in ts.choices] == ["draw", "take"]
            await d.press(ENTER)
            await d.until(lambda: ts.view["public"]["phase"] == "drawn" and ts.my_turn, "the drawn card")
            cards = hand_cards(ts)
            assert len(cards) == 9
            await d.press(RIGHT + RIGHT)
            chosen = cards[2]
            await d.press(ENTER)
            if ts.choices:  # the card could also be discarded with a call
                assert all(f"discard {chosen}" in c.label for c in ts.choices)
                await d.press(ENTER)
            await d.until(lambda: chosen not in ts.view["private"]["hand"], "the discard")
            assert any(f"discard [{chosen}]" in line for line in ts.log)

    run(scenario())


def test_the_note_of_a_forced_move_goes_when_the_next_decision_comes() -> None:
    async def scenario() -> None:
        # Seed 3: seat 0 opens the deal with nothing to take, so its only move is to draw.
        async with running(StartRequest(game="cherki", seed=3, player="heuristic")) as d:
            st = d.state
            await d.until(lambda: st.table is not None and any("You draw" in line for line in st.table.log), "the draw")
            ts = st.table
            assert ts is not None
            await d.until(lambda: ts.my_turn and ts.view["public"]["phase"] == "drawn", "the discard decision")
            assert not st.message.startswith("Your only move"), st.message

    run(scenario())


def test_lobby_lists_a_table_found_by_lan_discovery_and_joins_it(tmp_path: Path) -> None:
    from discohelpers import unique

    name = unique("tui-found")

    async def scenario(port: int) -> None:
        # No address given: the table is found over mDNS on loopback (beside any other test's table there).
        async with running(StartRequest(interfaces=["127.0.0.1"])) as d:
            st = d.state
            entry = await point_at_listed_table(d, name)
            assert entry.port == port and entry.detail.startswith(f"127.0.0.1:{port}  A Fistful of Gold, 1/2 seats")
            await d.press(ENTER)
            await d.until(lambda: st.table is not None and st.table.my_turn, "my turn at the found table")
            assert st.table is not None and st.table.game == "fistful"

    with lan_host(tmp_path, 1, "--name", name) as port:
        run(scenario(port))
