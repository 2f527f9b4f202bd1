"""Line-mode tables played through a real terminal (tmux): ``cardnet join`` over loopback, the host's death,
Ctrl-C and Ctrl-D, the host at its own table, and ``cardnet bot`` stopped with Ctrl-C."""

from __future__ import annotations

import subprocess
import sys
import time
from functools import partial
from operator import ne
from pathlib import Path

from cardnet.journal import read_journal
from cardnet.ui.line import rematch_prompt

from nethelpers import NET_COMMAND, child_env, free_port
from tmuxpane import EXIT_MARK, Pane, at_prompt

#: Moves typed in one match at most (a short Fistful match takes a few dozen decisions).
MOVE_LIMIT = 200


def cardnet(*args: str) -> list[str]:
    return [sys.executable, "-c", NET_COMMAND, *args]


def start_host(port: int, *args: str, state: Path) -> subprocess.Popen[str]:
    """A headless Fistful host on 127.0.0.1:port, returned once it listens."""
    host = subprocess.Popen(
        cardnet("host", "fistful", "--headless", "--port", str(port), "--interface", "127.0.0.1", "--no-probe", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=child_env() | {"XDG_STATE_HOME": str(state)},
    )
    assert host.stdout is not None
    for _ in range(5):
        if host.stdout.readline().startswith("listening on"):
            return host
    host.kill()
    raise AssertionError("the host did not start listening")


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=10)


def at_rematch(screen: str) -> bool:
    """Whether the game is over and the program asks about a rematch."""
    lines = screen.rstrip("\n").splitlines()
    return bool(lines) and lines[-1].rstrip() == rematch_prompt().rstrip()


def play_to_the_end(pane: Pane, timeout: float = 90.0) -> int:
    """Answers every prompt with move 1 until the program exits or offers a rematch; returns how many moves
    were typed."""
    end = time.monotonic() + timeout
    typed = 0
    while True:
        screen = pane.wait_for(
            lambda s: at_prompt(s) or at_rematch(s) or EXIT_MARK in s, "a prompt or the end", end - time.monotonic()
        )
        if EXIT_MARK in screen or at_rematch(screen):
            return typed
        assert typed < MOVE_LIMIT, "the match does not end"
        pane.type_line("1")
        typed += 1
        pane.wait_for(lambda s: s != screen, "the typed move to show", end - time.monotonic())


def test_join_plays_a_whole_fistful_match_through_the_keyboard(tmp_path: Path) -> None:
    port = free_port()
    host = start_host(port, "--bots", "1", "--bot", "random", "--seed", "5", "--games", "1", state=tmp_path)
    pane = Pane("join", cardnet("join", f"127.0.0.1:{port}", "--name", "ann"), child_env())
    try:
        pane.wait_for(at_prompt, "the first decision")
        # The table is drawn by the game's renderer and the moves are numbered from 1.
        shown = pane.history()
        assert "Your hand (Pink): " in shown and "     1. discard 1 2" in shown and '{"' not in shown
        pane.type_line("help")
        pane.wait_text("'say TEXT' chats")
        pane.type_line("say good luck")
        pane.wait_text("<ann> good luck")
        typed = play_to_the_end(pane)
        assert pane.exit_code() == 0
        text = pane.history()
        assert typed > 3 and "Game over (match)." in text and "stars - winner" in text
        assert "Seats: 0: you, 1: Bot 1 · random" in text
        assert "Traceback" not in text
        assert host.wait(timeout=20) == 0
    finally:
        pane.close()
        stop(host)


def test_join_notices_the_host_dying_and_exits_cleanly(tmp_path: Path) -> None:
    port = free_port()
    host = start_host(port, "--bots", "1", "--bot", "random", "--seed", "6", state=tmp_path)
    pane = Pane("gone", cardnet("join", f"127.0.0.1:{port}", "--reconnect-for", "2"), child_env())
    try:
        screen = pane.wait_for(at_prompt, "the first decision")
        pane.type_line("1")
        pane.wait_for(lambda s: s != screen and at_prompt(s), "the next decision")
        host.kill()
        host.wait(timeout=10)
        pane.wait_text("Lost the connection to the host")
        assert pane.exit_code(timeout=20) == 1
        text = pane.history()
        # The attempts update one line in place: the last one is what stays on the screen.
        assert "Reconnecting: attempt " in text and text.count("Reconnecting: attempt ") == 1, text[-1000:]
        assert "The host is gone: gave up reconnecting" in text.replace("\n", " ")
        assert "Traceback" not in text
    finally:
        pane.close()
        stop(host)


def test_lines_arriving_at_the_prompt_appear_above_one_fresh_prompt(tmp_path: Path) -> None:
    port = free_port()
    host = start_host(port, "--bots", "1", "--bot", "random", "--seed", "8", state=tmp_path)
    player = Pane("clean", cardnet("join", f"127.0.0.1:{port}", "--name", "ann"), child_env(), size=(80, 24))
    watcher: Pane | None = None
    try:
        player.wait_for(at_prompt, "the first decision")
        watcher = Pane("watcher", cardnet("join", f"127.0.0.1:{port}", "--spectate", "--name", "bob"), child_env())
        watcher.wait_text("You are watching")
        for n in (1, 2):
            watcher.type_line(f"say hello {n}")
            said = f"> hello {n}"
            player.wait_for(lambda s: said in s and at_prompt(s), f"chat line {n} and the prompt")
        # Typed text is still read after a line arrives at the prompt (only its echo is wiped).
        player.type_text("sa")
        watcher.type_line("say hello 3")
        player.wait_for(lambda s: "> hello 3" in s and at_prompt(s), "chat line 3 and the prompt")
        player.type_line("y typed across")
        screen = player.wait_for(lambda s: "<ann> typed across" in s and at_prompt(s), "the player's own chat line")
        lines = screen.rstrip("\n").splitlines()
        chats = [i for i, line in enumerate(lines) if line.startswith("<")]
        assert [lines[i] for i in chats] == [
            "<bob (spectator)> hello 1",
            "<bob (spectator)> hello 2",
            "<bob (spectator)> hello 3",
            "<ann> typed across",
        ], screen
        # No empty prompt is left behind above the chat lines: the only one is the last line. The line the
        # player entered stays, as the terminal echoed it.
        assert [i for i, line in enumerate(lines) if line == ">"] == [len(lines) - 1], screen
        assert lines[chats[-1] - 1] == "> y typed across" and "> sa" not in lines, screen
        assert "Traceback" not in player.history()
    finally:
        player.close()
        if watcher is not None:
            watcher.close()
        stop(host)


def test_a_host_that_stops_on_purpose_ends_join_at_once(tmp_path: Path) -> None:
    port = free_port()
    host = start_host(port, "--bots", "1", "--bot", "random", "--seed", "9", state=tmp_path)
    pane = Pane("closed", cardnet("join", f"127.0.0.1:{port}"), child_env())
    try:
        pane.wait_for(at_prompt, "the first decision")
        # SIGTERM stops a headless host on purpose: it tells every peer it is shutting down.
        host.terminate()
        assert host.wait(timeout=10) == 0
        started = time.monotonic()
        assert pane.exit_code(timeout=10) == 0
        assert time.monotonic() - started < 5
        text = pane.history()
        assert "The host closed the table." in text
        assert "Lost the connection" not in text and "Reconnecting: attempt" not in text and "Traceback" not in text
    finally:
        pane.close()
        stop(host)


def test_ctrl_c_and_ctrl_d_leave_with_one_line(tmp_path: Path) -> None:
    port = free_port()
    # Built-in players pause before moving, so the stand-in for the player who left has not finished the match
    # before the player returns.
    host = start_host(port, "--bots", "1", "--bot", "random", "--seed", "7", "--bot-delay", "1", state=tmp_path)
    first = Pane("ctrlc", cardnet("join", f"127.0.0.1:{port}"), child_env())
    second: Pane | None = None
    try:
        first.wait_for(at_prompt, "the first decision")
        token = first.history().split("Seat token (rejoin with --token): ", 1)[1].split()[0]
        first.send("C-c")
        assert first.exit_code() == 0
        lines = first.screen().splitlines()
        left = lines.index(next(line for line in lines if line.startswith(EXIT_MARK)))
        assert lines[left - 1] == f"Left the table; rejoin seat 0 with: cardnet join 127.0.0.1:{port} --token={token}"
        # One line between the prompt (where the terminal echoed ^C) and the end.
        assert lines[left - 2].startswith(">")
        # The token brings the player back to the same seat; Ctrl-D leaves the same way.
        second = Pane("ctrld", cardnet("join", f"127.0.0.1:{port}", f"--token={token}"), child_env())
        second.wait_for(at_prompt, "the decision after rejoining")
        assert ", seat 0." in second.history()
        second.send("C-d")
        assert second.exit_code() == 0
        assert "Left the table; rejoin seat 0 with:" in second.screen()
        for pane in (first, second):
            assert "Traceback" not in pane.history()
    finally:
        first.close()
        if second is not None:
            second.close()
        stop(host)


def test_host_plays_at_its_own_table_while_a_bot_joins(tmp_path: Path) -> None:
    port = free_port()
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path)}
    pane = Pane(
        "seated", cardnet("host", "fistful", "--port", str(port), "--interface", "127.0.0.1", "--no-probe"), env
    )
    bot: subprocess.Popen[str] | None = None
    try:
        pane.wait_text("You sit at seat 0")
        bot = subprocess.Popen(
            cardnet("bot", "builtin:random", f"127.0.0.1:{port}"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(),
        )
        play_to_the_end(pane)
        # The seated host stays at its table after the game; the bot has left, so quitting asks nothing.
        pane.type_line("quit")
        assert pane.exit_code() == 0
        text = pane.history()
        assert "Seats: 0: you, 1: random" in text and "Game over (match)." in text
        assert "Type 'rematch' for another game with the same seats" in text
        assert "Traceback" not in text
        out, err = bot.communicate(timeout=30)
        assert bot.returncode == 0, err
        # One line per game in words, then the summary.
        assert out.startswith("Game 1: ") and "Won " in out and "1 game played" in out
    finally:
        pane.close()
        if bot is not None:
            stop(bot)


def test_ctrl_c_stops_a_bot_without_a_traceback(tmp_path: Path) -> None:
    port = free_port()
    # Two open seats: the bot takes one and waits for a second player who never comes.
    host = start_host(port, state=tmp_path)
    pane = Pane("bot", cardnet("bot", "builtin:random", f"127.0.0.1:{port}"), child_env())
    try:
        journal = next(tmp_path.rglob("*.journal"))
        deadline = time.monotonic() + 30
        # The host journals a seat record when the bot sits down.
        while not any(record["kind"] == "seat" for record in read_journal(journal).records):
            assert time.monotonic() < deadline, "the bot never took a seat"
            time.sleep(0.05)
        pane.send("C-c")
        assert pane.exit_code() == 0
        screen = pane.screen()
        assert "cardnet bot: stopped" in screen and "Traceback" not in pane.history()
    finally:
        pane.close()
        stop(host)


def play_both_to_the_end(panes: list[Pane], timeout: float = 120.0) -> None:
    """Answers the prompts of several players at one table with move 1 until each is asked about a rematch."""
    end = time.monotonic() + timeout
    moves = 0
    while True:
        assert time.monotonic() < end, "the game does not end"
        assert moves < 2 * MOVE_LIMIT, "the game does not end"
        asked = 0
        for pane in panes:
            screen = pane.screen()
            if at_rematch(screen):
                asked += 1
            elif at_prompt(screen):
                pane.type_line("1")
                moves += 1
                pane.wait_for(partial(ne, screen), "the typed move to show", end - time.monotonic())
        if asked == len(panes):
            return
        time.sleep(0.05)


def _in_history(pane: Pane, text: str, screen: str) -> bool:
    return text in screen or text in pane.history()


def test_a_seated_host_and_a_joined_player_vote_a_rematch_then_the_host_closes(tmp_path: Path) -> None:
    port = free_port()
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path / "host")}
    argv = [
        "fistful",
        "--players",
        "2",
        "--seed",
        "4",
        "--port",
        str(port),
        "--interface",
        "127.0.0.1",
        "--no-advertise",
    ]
    host = Pane("rematch-host", cardnet("host", *argv), env)
    player: Pane | None = None
    try:
        host.wait_text("You sit at seat 0")
        player = Pane("rematch-join", cardnet("join", f"127.0.0.1:{port}", "--name", "ann"), child_env())
        play_both_to_the_end([host, player])
        for pane in (host, player):
            pane.wait_text("Type 'rematch' for another game with the same seats")
        player.type_line("rematch")
        host.wait_text("Rematch asked by ann; waiting for You.")
        host.type_line("rematch")
        begins = "A new game begins (game 2), with the same seats."
        for pane in (host, player):
            # The new game's move list may already have scrolled that line off the screen: read the history.
            pane.wait_for(partial(_in_history, pane, begins), repr(begins))
        play_both_to_the_end([host, player])
        # Leaving one's own table while a friend sits there asks first.
        host.type_line("quit")
        host.wait_text("Leaving closes the table for ann. Type 'quit' again to leave anyway.")
        host.type_line("quit")
        assert host.exit_code() == 0
        assert player.exit_code() == 0
        text = player.history()
        assert text.count("Game over (match).") == 2 and "The host closed the table." in text
        assert "Traceback" not in text + host.history()
    finally:
        host.close()
        if player is not None:
            player.close()
