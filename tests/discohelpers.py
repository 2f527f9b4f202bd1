"""Helpers for the discovery tests: cardnet commands as child processes, and a live ``cardnet list --watch``."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from nethelpers import child_env

if TYPE_CHECKING:
    from netns import Lan


def unique(label: str) -> str:
    """A table name no other test (or concurrent run) uses: mDNS on one ``lo`` is shared by all of them."""
    return f"{label}-{os.getpid()}-{time.monotonic_ns() % 1_000_000}"


def cardnet(*args: str) -> list[str]:
    """The argv of a ``cardnet`` command run by this interpreter."""
    return [sys.executable, "-m", "cardnet", *args]


def env() -> dict[str, str]:
    """A child's environment: the cardnet under test, CARDNET_TEST set (so ``--interface`` is required)."""
    return child_env()


class Lines:
    """A child process whose stdout lines are read in a thread (with arrival times), so tests wait with bounds."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        stdin: str | None = None,
        extra_env: dict[str, str] | None = None,
        hold_stdin: bool = False,
    ):
        """``stdin`` is written and closed; with ``hold_stdin`` the input stays open (nothing typed, no end of
        input) until :meth:`close_stdin`."""
        child = env() | (extra_env or {})
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE if stdin is not None or hold_stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child,
        )
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.seen: list[str] = []
        self.stderr = ""
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_err, daemon=True).start()
        if stdin is not None:
            assert self.proc.stdin is not None
            threading.Thread(target=self._feed, args=(stdin,), daemon=True).start()

    def close_stdin(self) -> None:
        """Ends the child's input (as Ctrl-D would)."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def _feed(self, text: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text)
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def _pump_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr += line

    def wait_line(self, accept: Callable[[str], bool], timeout: float) -> tuple[float, str]:
        """The first line (and its arrival time) that ``accept`` takes, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                stamp, line = self.lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                raise AssertionError(f"no such line within {timeout} s; saw {self.seen[-5:]}; {self.stderr}") from None
            if line is None:
                raise AssertionError(f"process ended ({self.proc.wait()}); saw {self.seen[-5:]}; {self.stderr}")
            self.seen.append(line)
            if accept(line):
                return stamp, line

    def wait_listing(self, accept: Callable[[list[dict[str, Any]]], bool], timeout: float) -> tuple[float, list[Any]]:
        """For ``list --watch --json``: the first list ``accept`` takes."""
        stamp, line = self.wait_line(lambda text: text.startswith("[") and accept(json.loads(text)), timeout)
        return stamp, json.loads(line)

    def story(self) -> str:
        """What the child printed so far and how it stands, for a failure message about another process."""
        state = "running" if self.proc.poll() is None else f"ended ({self.proc.returncode})"
        return f"{state}; saw {self.seen[-8:]}; stderr {self.stderr!r}"

    def stop(self) -> None:
        """Terminate the child (if still running) and reap it."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def hold_port(lan: Lan, index: int, port: int) -> Lines:
    """Another program listening on ``port`` of peer ``index``'s address (as if it took a host's old port), once
    it holds it; :meth:`Lines.stop` frees it."""
    squat = (
        "import socket, time; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1);"
        f" s.bind(({lan.address(index)!r}, {port})); s.listen(); print('held', flush=True); time.sleep(120)"
    )
    squatter = Lines(lan.command(index, [sys.executable, "-c", squat]))
    squatter.wait_line(lambda line: line == "held", 10)
    return squatter


def named(name: str) -> Callable[[list[dict[str, Any]]], bool]:
    """A predicate: the list holds a table of this name."""
    return lambda tables: any(t["name"] == name for t in tables)


def not_named(name: str) -> Callable[[list[dict[str, Any]]], bool]:
    """A predicate: the list holds no table of this name."""
    return lambda tables: all(t["name"] != name for t in tables)
