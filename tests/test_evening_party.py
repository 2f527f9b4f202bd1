"""Issue 28's evening, end to end on a private LAN of three network namespaces (tests/netns.py).

A seated host with a password and a name plays in a terminal (tmux, line mode) in one namespace; a line-mode
``cardnet join`` player joins by table name in another, typing the password at the prompt; a full-screen client
(tmux) in the third finds the table in its lobby; a built-in player fills the last seat; a spectator arrives late
and reads the chat so far. The host is SIGKILLed twice mid-game and resumed, the second time with its old port
held by another process: everyone is back in their seat with nothing typed, the second time on the new port found
by the table's id. The game is finished, a rematch is voted and played to its end, and the host's leaving ends
every client with "the table was closed" and exit code 0.

Needs root and tmux: skipped on a developer's machine without root, failed under CI. Every wait is bounded.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import partial
from operator import ne
from pathlib import Path

import pytest

from discohelpers import Lines, cardnet, env, hold_port, unique
from netns import Lan, private_lan, require_lan
from test_tmux_line import at_rematch
from test_tui_tmux import DONE, _play_one, needs_tmux
from test_tui_tmux import Pane as Screen
from tmuxpane import Pane, at_prompt

HOST, LINE, SCREEN = 0, 1, 2
SIZE = (100, 30)
#: Moves typed at once before something else happens (the game is far from its end then).
STRETCH = 12


@pytest.fixture(scope="module")
def lan() -> Iterator[Lan]:
    require_lan()
    with private_lan(3, "party") as made:
        yield made


def _on(lan: Lan, index: int) -> list[str]:
    return ["--interface", lan.address(index)]


def _host_pid(journal: Path) -> int:
    """The running host's process id (the pane's shell only mentions the journal after ``env``)."""
    pattern = f"^{sys.executable} -m cardnet host .*{journal}"
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=False).stdout.split()
    assert len(found) == 1, found
    return int(found[0])


def _kill_host(pane: Pane, journal: Path) -> None:
    subprocess.run(["kill", "-KILL", str(_host_pid(journal))], check=True)
    assert pane.exit_code(10) == 137


def _line_turn(pane: Pane) -> tuple[bool, bool]:
    """Types move 1 when this line-mode seat is asked for a move (its prompt shows only then); returns whether
    a move was typed and whether the game is over (the seat is asked about a rematch)."""
    screen = pane.screen()
    assert "Traceback" not in screen
    if at_rematch(screen):
        return False, True
    if not at_prompt(screen):
        return False, False
    pane.type_line("1")
    pane.wait_for(partial(ne, screen), "the typed move to show", 10)
    return True, False


def _play(lines: list[Pane], screen: Screen, *, moves: int | None = None, timeout: float = 90.0) -> None:
    """First legal moves from every human seat: ``moves`` of them, or (None) until the game is over at every
    seat."""
    end = time.monotonic() + timeout
    typed = 0
    while moves is None or typed < moves:
        assert time.monotonic() < end, "the game does not move on:\n" + screen.screen()
        turns = [_line_turn(pane) for pane in lines]
        mine = "Your turn." in screen.screen()
        over = _play_one(screen, SIZE)
        typed += sum(moved for moved, _ in turns) + (mine and not over)
        if moves is None and over and all(done for _, done in turns):
            return
        time.sleep(0.05)


def _in_history(pane: Pane, text: str) -> bool:
    return text in pane.history()


@needs_tmux
def test_the_evening(lan: Lan, tmp_path: Path) -> None:
    name = unique("party")
    journal = tmp_path / "party.journal"
    secret = tmp_path / "pw"
    secret.write_text("sesame\n")
    password = ["--password-file", str(secret)]
    state = {"XDG_STATE_HOME": str(tmp_path / "host")}
    game = ["matchstick", "--players", "4", "--bots", "1", "--seed", "10", "--name", name, "--journal", str(journal)]
    again = [*_on(lan, HOST), *password, "--seat-timeout", "120"]
    hosts: list[Pane] = []
    panes: list[Pane] = []
    procs: list[Lines] = []
    screen: Screen | None = None

    def host(number: int, *how: str) -> Pane:
        pane = Pane(f"party-host{number}", lan.command(HOST, cardnet("host", *how, *again)), env() | state, SIZE)
        hosts.append(pane)
        pane.wait_text("on the LAN: cardnet list", 30)
        return pane

    try:
        table = host(1, *game, "--player-name", "Hana")
        port = int(table.history().split(f"listening on {lan.address(HOST)}:", 1)[1].split()[0])
        # The line-mode player joins by the table's name and types the password at the prompt.
        argv = cardnet("join", name, *_on(lan, LINE), "--player-name", "Lina", "--reconnect-for", "60")
        line = Pane("party-line", lan.command(LINE, argv), env() | {"XDG_STATE_HOME": str(tmp_path / "line")}, SIZE)
        panes.append(line)
        line.wait_text("needs a password:", 30)
        line.type_line("sesame")
        line.wait_text("Seat token", 30)
        assert "sesame" not in line.history()
        # The full-screen player finds the table in its lobby.
        command = shlex.join(lan.command(SCREEN, cardnet("play", *_on(lan, SCREEN))))
        screen = Screen(command, *SIZE, tmp_path / "screen", user="Fay")
        screen.wait(name)
        screen.keys("Down", "Enter")
        screen.wait("Password for")
        screen.keys("sesame", "Enter")
        screen.wait("Your turn.", "Waiting for")
        # Every seat shows the others' names (the host's own seat is "you" on its screen).
        table.wait_text("Seats: 0: you, 1: Lina, 2: Fay, 3: Bot 3 · normal", 30)
        line.wait_for(lambda _: "Seats: 0: Hana, 1: you, 2: Fay, 3: Bot 3 · normal" in line.history(), "the seats", 30)

        # Chat, then a few moves; the spectator arrives late and reads the chat so far.
        line.type_line("say hello from Lina")
        table.wait_text("<Lina> hello from Lina", 30)
        table.type_line("say welcome, Lina")
        line.wait_text("<Hana> welcome, Lina", 30)
        _play([table, line], screen, moves=STRETCH)
        watch = cardnet("join", name, "--spectate", *_on(lan, SCREEN), *password, "--reconnect-for", "60")
        spectator = Lines(
            lan.command(SCREEN, watch), hold_stdin=True, extra_env={"XDG_STATE_HOME": str(tmp_path / "eve")}
        )
        procs.append(spectator)
        spectator.wait_line(lambda text: "hello from Lina" in text, 30)
        spectator.wait_line(lambda text: "welcome, Lina" in text, 30)

        # The host dies mid-game and is resumed: everyone is back in their seat with nothing typed.
        _kill_host(table, journal)
        assert "Traceback" not in screen.wait("CONNECTION LOST", "HOST UNREACHABLE")
        table = host(2, "--resume", str(journal))
        assert f"listening on {lan.address(HOST)}:{port}" in table.history()
        line.wait_text("Reconnected to the host.", 40)
        screen.wait("Reconnected: back at your seat.")
        spectator.wait_line(lambda text: text == "Reconnected to the host.", 40)
        _play([table, line], screen, moves=STRETCH)

        # Again, with its old port held by another process: the table moves, and everyone finds it by its id.
        _kill_host(table, journal)
        assert "Traceback" not in screen.wait("CONNECTION LOST", "HOST UNREACHABLE")
        procs.append(hold_port(lan, HOST, port))
        table = host(3, "--resume", str(journal))
        assert f"port {port} is in use" in table.history()
        moved = int(table.history().split(f"listening on {lan.address(HOST)}:", 1)[1].split()[0])
        assert moved != port
        line.wait_for(lambda _: line.history().count("Reconnected to the host.") == 2, "the second reconnection", 40)
        screen.wait("Reconnected: back at your seat.")
        assert f"at {lan.address(HOST)}:{moved} (playing)" in screen.screen()
        spectator.wait_line(lambda text: text == "Reconnected to the host.", 40)

        # The game is finished; the line-mode and full-screen seats vote a rematch (and the host).
        _play([table, line], screen)
        line.type_line("rematch")
        screen.keys("r")
        table.wait_text("Rematch asked by", 30)
        table.type_line("rematch")
        begins = "A new game begins (game 2), with the same seats."
        for pane in (table, line):
            pane.wait_for(lambda _: _in_history(pane, begins), repr(begins), 30)
        screen.wait("-- Game 2 begins (same seats) --")
        spectator.wait_line(lambda text: text == begins, 20)

        # The second game is played to its end too; every screen names every seat.
        _play([table, line], screen)
        ranked = "(score 1) - winner"
        for pane, me in ((table, "Hana"), (line, "Lina")):
            text = pane.history()
            assert text.count(ranked) == 2 and "Fay (score" in text and "Bot 3 · normal (score" in text, text[-2000:]
            assert ("Hana (score" in text) == (me != "Hana") and ("Lina (score" in text) == (me != "Lina")
        shown = screen.screen()
        assert "Game over." in shown and "Hana (score" in shown and "Lina (score" in shown and "You (score" in shown
        spectator.wait_line(lambda text: text.startswith("Game over"), 20)
        assert "  1. Bot 3 · normal (score 1) - winner" in spectator.seen
        assert any(
            text.startswith("Seats: 0: Hana") and "1: Lina, 2: Fay, 3: Bot 3 · normal" in text
            for text in spectator.seen
        )

        # The host leaves (asked once, as friends sit there): every client says the table was closed and ends.
        table.type_line("quit")
        table.wait_text("Type 'quit' again to leave anyway.", 20)
        table.type_line("quit")
        assert table.exit_code(20) == 0
        line.wait_text("The host closed the table.", 20)
        assert line.exit_code(20) == 0
        screen.wait("TABLE CLOSED - the host closed the table")
        screen.keys("C-q")
        assert f"{DONE} 0" in screen.wait(DONE)
        spectator.wait_line(lambda text: text == "The host closed the table.", 20)
        assert spectator.proc.wait(20) == 0
        for pane in (*hosts, line):
            assert "Traceback" not in pane.history()
    finally:
        for pane in (*hosts, *panes):
            pane.close()
        if screen is not None:
            screen.close()
        for proc in procs:
            proc.stop()
