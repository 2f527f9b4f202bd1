"""A program run in a detached tmux pane and driven through the keyboard, for end-to-end terminal tests.

Each :class:`Pane` has its own tmux server (``-L``) with no user configuration, so a test never touches a
tmux the developer runs. Every wait polls the pane against a bounded deadline; :meth:`Pane.close` kills the
server and belongs in a ``finally``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence

#: Printed by the pane's shell after the program ends, with its exit code.
EXIT_MARK = "PANE-EXIT="


class Pane:
    """One command in a detached tmux session of ``size`` (columns, rows), 100x30 unless given."""

    def __init__(
        self, name: str, argv: Sequence[str], env: Mapping[str, str], size: tuple[int, int] = (100, 30)
    ) -> None:
        tmux = shutil.which("tmux")
        # .ci/run installs tmux; a machine without it fails here rather than skipping the test.
        assert tmux is not None, "tmux is required for the terminal tests (apt-get install tmux)"
        self.tmux = tmux
        self.socket = f"cardnet-{name}-{os.getpid()}"
        # The tmux server starts with this process's environment; only what differs goes on the command line,
        # which tmux limits in size.
        changed = {key: value for key, value in env.items() if os.environ.get(key) != value and key.isidentifier()}
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in changed.items())
        # The shell stays after the program so its exit code and last screen can be read.
        script = f"env {exports} {shlex.join(argv)}; echo {EXIT_MARK}$?; sleep 600"
        self._tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), script)

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(
            [self.tmux, "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        return done.stdout

    def screen(self) -> str:
        """The visible screen (wrapped lines joined, trailing blanks dropped)."""
        return "\n".join(line.rstrip() for line in self._tmux("capture-pane", "-p", "-J", "-t", "t").splitlines())

    def history(self) -> str:
        """Everything the pane kept, scrollback included."""
        text = self._tmux("capture-pane", "-p", "-J", "-t", "t", "-S", "-5000")
        return "\n".join(line.rstrip() for line in text.splitlines())

    def send(self, *keys: str) -> None:
        """Sends tmux key names (``Enter``, ``C-c``, ``C-d``); :meth:`type_line` types text."""
        self._tmux("send-keys", "-t", "t", *keys)

    def type_text(self, text: str) -> None:
        """Types ``text`` (no Enter)."""
        self._tmux("send-keys", "-t", "t", "-l", text)

    def type_line(self, text: str) -> None:
        """Types ``text`` and presses Enter."""
        self.type_text(text)
        self.send("Enter")

    def wait_for(self, found: Callable[[str], bool], what: str, timeout: float = 30.0) -> str:
        """Polls the screen until ``found(screen)``; returns that screen (AssertionError after ``timeout``)."""
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if found(screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}; the screen shows:\n{screen}")
            time.sleep(0.05)

    def wait_text(self, text: str, timeout: float = 30.0) -> str:
        """Waits until ``text`` is on the screen."""
        return self.wait_for(lambda screen: text in screen, repr(text), timeout)

    def exit_code(self, timeout: float = 30.0) -> int:
        """Waits for the program to end and returns its exit code."""
        screen = self.wait_text(EXIT_MARK, timeout)
        return int(screen.rsplit(EXIT_MARK, 1)[1].split()[0])

    def close(self) -> None:
        """Ends the session and its tmux server."""
        subprocess.run([self.tmux, "-L", self.socket, "kill-server"], capture_output=True, timeout=10, check=False)


def at_prompt(screen: str) -> bool:
    """Whether the program waits at an empty ``> `` prompt on the last line it wrote (a short output leaves
    blank rows under it: move lists are sized to keep the hand on screen)."""
    lines = screen.rstrip("\n").splitlines()
    return bool(lines) and lines[-1].rstrip() == ">"
