"""The full-screen client in a real terminal (tmux): a whole Fistful match played from the keyboard, and Ctrl-Q
giving the shell back with the terminal restored. Every wait polls the pane and is bounded."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None and not os.environ.get("CI"), reason="tmux not installed")

#: Seconds any single wait for the screen may take before the test fails.
WAIT = 30.0
DONE = "PANE-DONE"


class Pane:
    """One detached tmux session running a shell command of a given size."""

    def __init__(self, command: str, width: int, height: int, state: Path, user: str = "alice") -> None:
        self.name = f"cardnet-{uuid.uuid4().hex[:8]}"
        env = {
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
            "XDG_STATE_HOME": str(state),
            "LANG": "C.UTF-8",
            "TERM": "xterm-256color",
            "USER": user,
            # A known name: the lobby would otherwise ask for one first.
            "CARDNET_NAME": user,
            "CARDNET_TEST": "1",
        }
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # After the client exits the pane prints its exit code and stays open to be read.
        script = f"env {exports} {command}; echo {DONE} $?; sleep 60"
        # Each pane has its own tmux server (socket): no race with another test's server shutting down.
        self.tmux = ["tmux", "-L", self.name]
        size = ["-x", str(width), "-y", str(height)]
        subprocess.run([*self.tmux, "new-session", "-d", "-s", self.name, *size, script], check=True)

    def screen(self) -> str:
        out = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return out.stdout

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def wait(self, *texts: str) -> str:
        deadline = time.monotonic() + WAIT
        while True:
            screen = self.screen()
            if any(t in screen for t in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"none of {texts} on screen:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


def _client(*args: str) -> str:
    return " ".join(shlex.quote(a) for a in [sys.executable, "-m", "cardnet", *args])


def _play_one(pane: Pane, size: tuple[int, int]) -> bool:
    """Plays one move from the keyboard if it is this pane's turn; True once the game is over."""
    screen = pane.screen()
    assert "Traceback" not in screen
    lines = screen.rstrip("\n").split("\n")
    assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines)
    if "Game over." in screen:
        return True
    if "Your turn." in screen:
        # 'l' lists the legal moves and Enter plays the first: every kind of decision goes through the keys.
        pane.keys("l")
        chooser = pane.wait("Choose a move", "Sent:", "Waiting for", "Game over.")
        if "Choose a move" in chooser:
            pane.keys("Enter")
        pane.wait("Sent:", "Waiting for", "Game over.", "Your turn.")
    return False


def _play_to_the_end(panes: list[Pane], size: tuple[int, int], limit: int) -> None:
    deadline = time.monotonic() + limit
    over = [False] * len(panes)
    while not all(over):
        assert time.monotonic() < deadline, "the game should have ended:\n" + panes[0].screen()
        for n, pane in enumerate(panes):
            over[n] = over[n] or _play_one(pane, size)
        time.sleep(0.05)


@needs_tmux
@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
def test_whole_fistful_match_from_the_keyboard(size: tuple[int, int], tmp_path: Path) -> None:
    pane = Pane(_client("play", "fistful", "--seed", "7"), *size, tmp_path)
    try:
        pane.wait("Your turn.")
        _play_to_the_end([pane], size, 120)
        assert "win" in pane.screen()
        pane.keys("C-q")
        final = pane.wait(DONE)
        assert f"{DONE} 0" in final and "Traceback" not in final
    finally:
        pane.close()


@needs_tmux
def test_whole_three_player_matchstick_game_from_the_keyboard(tmp_path: Path) -> None:
    size = (80, 24)
    pane = Pane(_client("play", "matchstick", "--players", "3", "--seed", "4"), *size, tmp_path)
    try:
        pane.wait("Your turn.")
        _play_to_the_end([pane], size, 180)
        assert "win" in pane.screen()
        pane.keys("C-q")
        assert f"{DONE} 0" in pane.wait(DONE)
    finally:
        pane.close()


@needs_tmux
def test_two_terminals_lan_game_hosted_and_found_in_the_lobby(tmp_path: Path) -> None:
    size = (80, 24)
    host = Pane(_client("play", "--interface", "127.0.0.1", "--no-probe"), *size, tmp_path / "a", user="alice")
    guest: Pane | None = None
    try:
        host.wait("New table")
        host.keys("Enter")
        host.wait("Game")
        while "A Fistful of Gold" not in host.screen():
            host.keys("Right")
            time.sleep(0.1)
        # Players, then Table: LAN on 127.0.0.1, then two fields down to Password.
        host.keys("Down", "Down", "Right")
        host.wait("LAN on 127.0.0.1")
        host.keys("Down", "Down", "Enter")
        host.wait("Table password")
        host.keys("s3cret", "Enter")
        host.wait("******")
        host.keys("Down", "Enter")
        waiting = host.wait("Waiting for players: 1 of 2 seats taken")
        address = waiting.split("others join at ", 1)[1].split(".\n", 1)[0].split()[0].rstrip(".")
        # The guest gives no address: its lobby finds the table over mDNS on loopback.
        guest = Pane(_client("play", "--interface", "127.0.0.1", "--no-probe"), *size, tmp_path / "b", user="bob")
        listed = guest.wait("alice's fistful")
        assert address in listed and "[password]" in listed
        guest.keys("Down", "Enter")
        guest.wait("Password for")
        guest.keys("s3cret", "Enter")
        guest.wait("alice (")
        host.wait("bob (")
        _play_to_the_end([host, guest], size, 180)
        for pane in (host, guest):
            pane.keys("C-q")
            final = pane.wait(DONE)
            assert f"{DONE} 0" in final and "Traceback" not in final
    finally:
        host.close()
        if guest is not None:
            guest.close()


@needs_tmux
def test_ctrl_q_restores_the_terminal(tmp_path: Path) -> None:
    pane = Pane(_client("play", "matchstick", "--players", "3", "--seed", "1"), 80, 24, tmp_path)
    try:
        # The table itself (the lobby may list this very game under its title while the table opens).
        pane.wait("Space select")
        assert "Space select" in pane.screen()
        # Resizing redraws for the new size: the status line moves to the new last row.
        subprocess.run([*pane.tmux, "resize-window", "-t", pane.name, "-x", "120", "-y", "40"], check=True)
        deadline = time.monotonic() + WAIT
        while True:
            rows = pane.screen().rstrip("\n").split("\n")
            if len(rows) == 40 and "Space select" in rows[-1]:
                break
            assert time.monotonic() < deadline, "\n".join(rows)
            time.sleep(0.05)
        pane.keys("C-q")
        final = pane.wait(DONE)
        # The full screen is gone: the shell's own output is back, with the resume hint and no traceback.
        assert f"{DONE} 0" in final and "continue it with: cardnet play --resume" in final
        assert "Traceback" not in final and "Your hand" not in final
    finally:
        pane.close()


@needs_tmux
def test_sigterm_restores_the_terminal(tmp_path: Path) -> None:
    pane = Pane(_client("play"), 80, 24, tmp_path)
    try:
        pane.wait("New table")
        pid = subprocess.run(["pgrep", "-P", _pane_pid(pane)], capture_output=True, text=True).stdout.split()
        assert pid, "client process not found"
        os.kill(int(pid[0]), 15)
        final = pane.wait(DONE)
        assert f"{DONE} 143" in final and "Traceback" not in final and "New table" not in final
    finally:
        pane.close()


def _pane_pid(pane: Pane) -> str:
    out = subprocess.run(
        [*pane.tmux, "display-message", "-p", "-t", pane.name, "#{pane_pid}"], capture_output=True, text=True
    )
    return out.stdout.strip()
