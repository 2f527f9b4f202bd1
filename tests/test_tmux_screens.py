"""What a person sees in an 80x24 terminal (issue 10): `cardnet rules cherki` opens the formatted rules in a
pager at their first page (issue 29), and `cardnet play fistful --plain` keeps the hand, the shortened move list
and the prompt on one screen. Each test runs the command in its own tmux server and kills it afterwards."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from nethelpers import child_env

import cardnet
from cardnet.ui.markdown import as_plain, markdown_lines

if shutil.which("tmux") is None:
    if os.environ.get("CI"):
        pytest.fail("tmux is required in CI (.ci/run installs it)", pytrace=False)
    pytest.skip("tmux is not installed", allow_module_level=True)

ROWS, COLUMNS = 24, 80
#: How long a screen may take to show what a test waits for.
WAIT_SECONDS = 30.0


class Screen:
    """A command running in a detached tmux session of its own server."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10)

    def lines(self) -> list[str]:
        """The visible screen, one string per row."""
        return self.tmux("capture-pane", "-p", "-t", "main").stdout.split("\n")[:ROWS]

    def wait_for(self, ready: Callable[[list[str]], bool]) -> list[str]:
        """Polls the screen until ``ready`` holds (bounded by WAIT_SECONDS); returns that screen."""
        deadline = time.monotonic() + WAIT_SECONDS
        lines = self.lines()
        while not ready(lines):
            if time.monotonic() > deadline:
                raise AssertionError("screen never got ready:\n" + "\n".join(lines))
            time.sleep(0.1)
            lines = self.lines()
        return lines

    def alive(self) -> bool:
        return self.tmux("has-session", "-t", "main").returncode == 0

    def wait_gone(self) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while self.alive():
            assert time.monotonic() < deadline, "the command did not exit"
            time.sleep(0.1)


@contextmanager
def screen(args: list[str], state: Path) -> Iterator[Screen]:
    env = child_env()
    env["XDG_STATE_HOME"] = str(state)
    env["TERM"] = "xterm"
    env["NO_COLOR"] = "1"
    # The user's own pager settings must not change what the test sees.
    for name in ("PAGER", "LESS", "MANPAGER"):
        env.pop(name, None)
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "cardnet", *args])
    socket = f"cardnet-test-{os.getpid()}-{time.monotonic_ns()}"
    size = ["-x", str(COLUMNS), "-y", str(ROWS)]
    started = subprocess.run(
        ["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "main", *size, command],
        env=env,
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert started.returncode == 0, started.stderr
    term = Screen(socket)
    try:
        yield term
    finally:
        term.tmux("kill-server")


def test_rules_cherki_opens_at_its_first_page_formatted(tmp_path: Path) -> None:
    text = as_plain(markdown_lines(cardnet.rules_text("cherki"), COLUMNS - 1)).splitlines()
    with screen(["rules", "cherki"], tmp_path) as term:
        lines = term.wait_for(lambda rows: rows[0] == "Cherki" and any(r.strip() for r in rows[-2:]))
        # Formatted, not Markdown: the heading without its '#', words wrapped to the terminal's width.
        assert [line.rstrip() for line in lines[: ROWS - 2]] == text[: ROWS - 2]
        assert not any(line.startswith("#") or "**" in line for line in lines)
        # A pager holds the rest back: the last line of the rules is not on the first page.
        assert text[-1] not in lines
        term.tmux("send-keys", "-t", "main", "q")
        term.wait_gone()


def test_play_fistful_plain_keeps_hand_moves_and_prompt_on_screen(tmp_path: Path) -> None:
    with screen(["play", "fistful", "--plain", "--seed", "4"], tmp_path) as term:
        lines = term.wait_for(lambda rows: any(r.startswith("> ") or r == ">" for r in rows))
        shown = "\n".join(lines)
        assert "Your hand (" in shown
        assert "Setup: discard 2 of your 9 cards" in shown
        assert "Your moves (36):" in shown
        assert "more 'discard'" in shown
        assert all(len(line) <= COLUMNS for line in lines)
        term.tmux("send-keys", "-t", "main", "quit", "Enter")
        term.wait_gone()
