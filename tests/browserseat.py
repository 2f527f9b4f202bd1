"""Helpers for the browser tests: a real table with its web seat in a thread, the system Chromium under
Playwright, and a player who plays by clicks the way a guest would."""

from __future__ import annotations

import json
import os
import queue
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
import trio
from playwright.sync_api import ConsoleMessage, Dialog, Error, Page, ViewportSize

from cardnet.net.host import Host
from cardnet.protocol.host import HostOptions
from cardnet.table import Table, TableConfig, core_engine
from cardnet.web.server import WebSeat

__all__ = [
    "CHROMIUM",
    "LinePeer",
    "PHONE",
    "PageWatch",
    "ServedTable",
    "cherki_turn",
    "chromium_or_skip",
    "play_to_the_end",
    "served_table",
    "take_turn",
]

T = TypeVar("T")

#: Debian's Chromium (`apt-get install chromium`): Playwright's own browser download is not used.
CHROMIUM = "/usr/bin/chromium"
#: A 360 x 640 phone held upright: the size the page is made for first.
PHONE: ViewportSize = {"width": 360, "height": 640}
#: How long one turn may take to come round (built-in players answer at once; this only bounds a hang).
TURN_TIMEOUT_MS = 20_000


def program_or_skip(name: str, install: str) -> str:
    """The path of a program these tests need; a missing one skips the test on a developer's machine but fails
    under CI (``CI`` or ``CARDNET_TEST`` set: `.ci/run` installs it there, so a skip would hide a hole)."""
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI") or os.environ.get("CARDNET_TEST"):
            pytest.fail(f"{name} is missing: .ci/run installs {install}")
        pytest.skip(f"{name} is not installed (apt-get install {install})")
    return path


def chromium_or_skip() -> str:
    """The browser's path (Debian's Chromium, which Playwright drives)."""
    program_or_skip(CHROMIUM, "chromium chromium-driver")
    return CHROMIUM


@dataclass
class ServedTable:
    """A table running in its own thread with a trio loop: its TCP port, its web seat's port and its host."""

    host: Host
    tcp_port: int
    web_port: int
    token: trio.lowlevel.TrioToken

    @property
    def url(self) -> str:
        """The address a guest's browser opens."""
        return f"http://127.0.0.1:{self.web_port}/"

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in the table's thread (where the host's state may be read safely) and return its result."""
        return trio.from_thread.run_sync(fn, trio_token=self.token)


@contextmanager
def served_table(
    game: str,
    players: int,
    bots: dict[int, str],
    *,
    seed: int = 7,
    table_id: str = "webtest",
    options: HostOptions | None = None,
    turn_timer: float | None = None,
) -> Iterator[ServedTable]:
    """A seeded table of ``game`` on 127.0.0.1 with built-in players at ``bots``, serving its web seat, for the
    duration of the block (``options``: the host's, default as `cardnet host` runs; ``turn_timer`` in seconds)."""
    config = TableConfig(
        game=game,
        players=players,
        seed=seed,
        seeded=True,
        name=f"web {game}",
        table_id=table_id,
        bots=dict(bots),
        turn_timer=turn_timer,
    )
    ready: queue.Queue[ServedTable | BaseException] = queue.Queue()
    stop: dict[str, trio.Event] = {}

    async def serve() -> None:
        table = Table(config, core_engine(), clock=trio.current_time)
        host = Host(table, options=options or HostOptions())
        async with trio.open_nursery() as nursery:
            tcp_port = await nursery.start(host.serve, "127.0.0.1", 0)
            web_port = await nursery.start(WebSeat(host).serve, "127.0.0.1", 0)
            stop["event"] = trio.Event()
            ready.put(ServedTable(host, tcp_port, web_port, trio.lowlevel.current_trio_token()))
            await stop["event"].wait()
            nursery.cancel_scope.cancel()

    def run() -> None:
        try:
            trio.run(serve)
        except BaseException as exc:  # handed to the test thread, which raises it
            ready.put(exc)

    thread = threading.Thread(target=run, name=f"table-{game}", daemon=True)
    thread.start()
    started = ready.get(timeout=20)
    if isinstance(started, BaseException):
        raise started
    try:
        yield started
    finally:
        started.token.run_sync_soon(stop["event"].set)
        thread.join(timeout=10)
        assert not thread.is_alive(), "the table's thread did not stop"


@dataclass
class PageWatch:
    """Everything a page says that it should not: dialogs (an injected script's `alert`), uncaught errors and
    console errors."""

    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        """Listen on ``page``; a dialog is dismissed so the page goes on."""

        def on_dialog(dialog: Dialog) -> None:
            self.dialogs.append(f"{dialog.type}: {dialog.message}")
            dialog.dismiss()

        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                self.errors.append(f"console: {message.text}")

        def on_page_error(error: Error) -> None:
            self.errors.append(f"pageerror: {error}")

        page.on("dialog", on_dialog)
        page.on("console", on_console)
        page.on("pageerror", on_page_error)


def take_turn(page: Page) -> bool:
    """Wait for this player's turn and make one tap of it, as a guest would; False once the game is over.

    The tap: a legal play on offer first; else, with cards chosen that make no play, pass; else choose the next
    card that some legal move uses; else pass. Only what the page offers is ever tapped.
    """
    page.locator("#turn.your-turn, #outcome:not([hidden])").first.wait_for(timeout=TURN_TIMEOUT_MS)
    if page.locator("#outcome").is_visible():
        return False
    plays = page.locator("#actions button.offer.play")
    passes = page.locator("#actions button.offer.pass")
    if plays.count():
        plays.first.click()
    elif passes.count() and page.locator(".hand .card-button.selected").count():
        passes.first.click()
    elif page.locator(".hand .card-button:not([disabled]):not(.selected)").count():
        page.locator(".hand .card-button:not([disabled]):not(.selected)").first.click()
    else:
        passes.first.click()
    return True


def cherki_turn(page: Page) -> bool:
    """One tap of a Cherki turn: call when the page offers it, else take the top discard when offered, else as
    :func:`take_turn` taps (draw, then discard the first card that may go); False once the game is over."""
    page.locator("#turn.your-turn, #outcome:not([hidden])").first.wait_for(timeout=10_000)
    if page.locator("#outcome").is_visible():
        return False
    for label in ("call Cherki", "Take "):
        offer = page.locator("#actions button.offer.play", has_text=label)
        if offer.count():
            offer.first.click()
            return True
    return take_turn(page)


def play_to_the_end(page: Page, max_taps: int) -> int:
    """Tap through the game until the outcome shows; returns the taps made (at most ``max_taps``)."""
    for taps in range(max_taps):
        if not take_turn(page):
            return taps
    raise AssertionError(f"the game did not end within {max_taps} taps")


class LinePeer:
    """A bare protocol peer over TCP (another client at the table), reading the host's lines in a thread."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.reader = self.sock.makefile("rb")
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.table = self._read()
        threading.Thread(target=self._pump, name="line-peer", daemon=True).start()

    def _read(self) -> dict[str, Any]:
        line = self.reader.readline()
        if not line:
            raise ConnectionError("the host closed the connection")
        value = json.loads(line)
        assert isinstance(value, dict)
        return value

    def _pump(self) -> None:
        try:
            while True:
                message = self._read()
                if message.get("type") == "ping":
                    self.send({"id": message["id"], "type": "pong"})
                self.lines.put(message)
        except (OSError, ValueError, ConnectionError):
            return

    def send(self, message: dict[str, Any]) -> None:
        """One protocol line."""
        self.sock.sendall(json.dumps(message).encode() + b"\n")

    def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of type ``kind`` (others are skipped) within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if message.get("type") == kind:
                return message

    def close(self) -> None:
        """Hang up."""
        self.sock.close()
