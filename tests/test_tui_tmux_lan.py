"""The full-screen client over a real LAN table (loopback) in tmux: a killed client restarted takes its seat back
with its kept token, and a host killed and restarted with ``--resume`` is rejoined by both open clients, which
then play on to the end. Every wait is bounded; each pane has its own tmux server, killed in ``finally``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from nethelpers import child_env, free_port
from test_tui_tmux import DONE, Pane, _client, _pane_pid, _play_one, _play_to_the_end, needs_tmux

SIZE = (80, 24)


def _host(port: int, *how: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardnet", "host", *how, "--port", str(port), "--interface", "127.0.0.1", "--headless"]
        + ["--no-probe"],
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    for _ in range(40):
        line = proc.stdout.readline()
        if "listening on" in line:
            return proc
    proc.kill()
    raise AssertionError("the host did not start")


def _join(state: Path, user: str, port: int) -> Pane:
    pane = Pane(_client("play", "--connect", f"127.0.0.1:{port}"), *SIZE, state, user=user)
    pane.wait(f"127.0.0.1:{port}")
    pane.keys("Down", "Enter")
    pane.wait("A Fistful of Gold - round")
    return pane


def _me(pane: Pane) -> str:
    """The colour the pane plays (``You (Pink)``), which names its seat."""
    screen = pane.wait("You (")
    return screen.split("You (", 1)[1].split(")", 1)[0]


def _moves(panes: list[Pane], count: int) -> None:
    deadline = time.monotonic() + 60
    for _ in range(count):
        for pane in panes:
            assert time.monotonic() < deadline, pane.screen()
            _play_one(pane, SIZE)
            time.sleep(0.05)


@needs_tmux
def test_killed_client_and_killed_host_are_rejoined(tmp_path: Path) -> None:
    port = free_port()
    journal = tmp_path / "lan.journal"
    host = _host(port, "fistful", "--bots", "0", "--seed", "3", "--journal", str(journal))
    panes: list[Pane] = []
    try:
        alice = _join(tmp_path / "a", "alice", port)
        panes.append(alice)
        bob = _join(tmp_path / "b", "bob", port)
        panes.append(bob)
        bob_colour = _me(bob)
        _moves([alice, bob], 3)
        # Bob's client dies (no bye): a new client on the same machine takes the seat back with the kept token.
        os.kill(
            int(subprocess.run(["pgrep", "-P", _pane_pid(bob)], capture_output=True, text=True).stdout.split()[0]),
            signal.SIGKILL,
        )
        bob.wait(f"{DONE} 137")
        bob.close()
        bob = _join(tmp_path / "b", "bob", port)
        panes.append(bob)
        assert "seat taken back" in bob.wait("seat taken back") and _me(bob) == bob_colour
        _moves([alice, bob], 2)
        # The host dies; both clients say so and keep trying; the host resumed from its journal is rejoined.
        host.kill()
        host.wait(10)
        for pane in (alice, bob):
            banner = pane.wait("CONNECTION LOST", "HOST UNREACHABLE")
            assert "Traceback" not in banner
        host = _host(port, "--resume", str(journal))
        for pane in (alice, bob):
            pane.wait("Reconnected: back at your seat.")
            assert "CONNECTION LOST" not in pane.screen() and "HOST UNREACHABLE" not in pane.screen()
        assert _me(bob) == bob_colour
        _play_to_the_end([alice, bob], SIZE, 180)
        for pane in (alice, bob):
            pane.keys("C-q")
            final = pane.wait(DONE)
            assert f"{DONE} 0" in final and "Traceback" not in final
    finally:
        for pane in panes:
            pane.close()
        if host.poll() is None:
            host.kill()
        host.wait(10)


def _ten_key(screen: str) -> str | None:
    """The key a cautious TEN player presses on this screen (None when it is not our turn): draw while no card
    can bust, else stop; take the numbers; bid the lowest legal amount or pass; pay the piece at the cursor;
    buy nothing; decline offers."""
    if "Your turn." not in screen:
        return None
    if "| Choose a move |" in screen:
        # A key read against a screen the host had just changed opened the move list: close it, read again.
        return "Escape"
    if "d draws, s stops" in screen:
        return "d" if "Next draw: 0 of" in screen or "Tableau empty" in screen else "s"
    if "n takes the numbers" in screen:
        return "n"
    if "Enter pays it" in screen:
        return "Enter"
    if "+/- set your bid" in screen:
        return "Enter" if "tokens  5" in screen else "p"
    return "p"


@needs_tmux
def test_three_player_ten_game_from_the_keyboard(tmp_path: Path) -> None:
    pane = Pane(_client("play", "ten", "--players", "3", "--seed", "2"), *SIZE, tmp_path)
    try:
        pane.wait("TEN - turn")
        deadline = time.monotonic() + 120
        seen: set[str] = set()
        while True:
            assert time.monotonic() < deadline, pane.screen()
            screen = pane.screen()
            assert "Traceback" not in screen
            rows = screen.rstrip("\n").split("\n")
            assert len(rows) <= SIZE[1] and all(len(row) <= SIZE[0] for row in rows)
            if "Game over." in screen:
                break
            key = _ten_key(screen)
            if key is None:
                time.sleep(0.05)
                continue
            seen.add(key)
            pane.keys(key)
            pane.wait("Sent:", "Waiting for", "Game over.", "Refused", "Your turn.")
            time.sleep(0.05)
        assert {"d", "s"} <= seen
        assert " pts " in screen and "win" in screen
        pane.keys("C-q")
        assert f"{DONE} 0" in pane.wait(DONE)
    finally:
        pane.close()
