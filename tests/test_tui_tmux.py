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

    def __init__(self, command: str, width: int, height: int, state: Path) -> None:
        self.name = f"cardnet-{uuid.uuid4().hex[:8]}"
        env = {
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
            "XDG_STATE_HOME": str(state),
            "LANG": "C.UTF-8",
            "TERM": "xterm-256color",
        }
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # After the client exits the pane prints its exit code and stays open to be read.
        script = f"env {exports} {command}; echo {DONE} $?; sleep 60"
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), script], check=True
        )

    def screen(self) -> str:
        out = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return out.stdout

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

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
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def _client(*args: str) -> str:
    return " ".join(shlex.quote(a) for a in [sys.executable, "-m", "cardnet", *args])


@needs_tmux
@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
def test_whole_fistful_match_from_the_keyboard(size: tuple[int, int], tmp_path: Path) -> None:
    pane = Pane(_client("play", "fistful", "--seed", "7"), *size, tmp_path)
    try:
        pane.wait("Your turn.")
        moves = 0
        while True:
            screen = pane.wait("Your turn.", "Game over.")
            assert "Traceback" not in screen
            lines = screen.rstrip("\n").split("\n")
            assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines)
            if "Game over." in screen:
                break
            assert moves < 60, "the match should have ended"
            # 'l' lists the legal moves and Enter plays the first: every kind of decision goes through the keys.
            pane.keys("l")
            chooser = pane.wait("Choose a move", "Sent:", "Waiting for", "Game over.")
            if "Choose a move" in chooser:
                pane.keys("Enter")
            pane.wait("Sent:", "Waiting for", "Game over.", "Your turn.")
            moves += 1
            time.sleep(0.1)
        assert "win" in screen
        pane.keys("C-q")
        final = pane.wait(DONE)
        assert f"{DONE} 0" in final and "Traceback" not in final
    finally:
        pane.close()


@needs_tmux
def test_ctrl_q_restores_the_terminal(tmp_path: Path) -> None:
    pane = Pane(_client("play", "matchstick", "--players", "3", "--seed", "1"), 80, 24, tmp_path)
    try:
        pane.wait("Matchstick Tycoon")
        assert "Space select" in pane.screen()
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
        pid = subprocess.run(
            ["pgrep", "-P", _pane_pid(pane)], capture_output=True, text=True
        ).stdout.split()
        assert pid, "client process not found"
        os.kill(int(pid[0]), 15)
        final = pane.wait(DONE)
        assert f"{DONE} 143" in final and "Traceback" not in final and "New table" not in final
    finally:
        pane.close()


def _pane_pid(pane: Pane) -> str:
    out = subprocess.run(["tmux", "display-message", "-p", "-t", pane.name, "#{pane_pid}"], capture_output=True, text=True)
    return out.stdout.strip()
