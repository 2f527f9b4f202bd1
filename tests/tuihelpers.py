"""Driving the full-screen client headless: pipe input, dummy output, the real host and core behind it."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from cardnet.ui.app import Client, StartRequest
from cardnet.ui.app.draw import lobby_screen, table_screen, text_of

#: Seconds a headless test waits for the host to answer before failing.
WAIT = 20.0


class Driver:
    """A running client and the keyboard that drives it."""

    def __init__(self, client: Client, keys: PipeInput) -> None:
        self.client = client
        self.keys = keys
        self.state = client.state

    async def until(self, cond: Callable[[], bool], what: str) -> None:
        """Waits (bounded) until ``cond`` holds."""
        deadline = time.monotonic() + WAIT
        while not cond():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{self.screen()}")
            await asyncio.sleep(0.01)

    async def press(self, text: str) -> None:
        """Types ``text`` and lets the app handle it."""
        self.keys.send_text(text)
        await asyncio.sleep(0.05)

    async def my_turn(self) -> None:
        """Waits until the host asks this seat for a move."""
        await self.until(lambda: self.state.table is not None and self.state.table.my_turn, "my turn")

    async def play_to_the_end(self) -> None:
        """Plays this seat's moves (the first of the listed legal moves, by `l` and Enter) until the game ends."""
        ts = self.state.table
        assert ts is not None
        for _ in range(80):
            await self.until(lambda: ts.my_turn or ts.over, "my turn or the end")
            if ts.over:
                return
            decision = ts.decision_id
            await self.press("l")
            if ts.choices:
                await self.press("\r")
            await self.until(lambda: ts.decision_id != decision or ts.over, "the move")

    def screen(self, width: int = 80, height: int = 21) -> str:
        """The main area's text as drawn at ``width`` x ``height``."""
        ts = self.state.table
        if self.state.screen == "table" and ts is not None:
            return text_of(table_screen(ts, width, height))
        return text_of(lobby_screen(self.state, width, height))


@asynccontextmanager
async def running(start: StartRequest) -> AsyncIterator[Driver]:
    """Runs the client headless for the block; on leaving, quits with Ctrl-Q and checks it ended cleanly."""
    # Without an --interface the client browses no LAN in tests (CARDNET_TEST, as CI does).
    saved = os.environ.get("CARDNET_TEST")
    os.environ["CARDNET_TEST"] = "1"
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        client = Client(start)
        task = asyncio.ensure_future(client.run_async())
        driver = Driver(client, keys)
        try:
            # Keys typed before the first frame could reach the app before it reads its input.
            await driver.until(
                lambda: (
                    client.controller.runner.token is not None
                    and client.app.is_running
                    and client.app.render_counter > 0
                ),
                "trio and the screen to start",
            )
            yield driver
            keys.send_text("\x11")
            assert await asyncio.wait_for(task, WAIT) == 0
        finally:
            if not task.done():
                task.cancel()
            if saved is None:
                del os.environ["CARDNET_TEST"]
            else:
                os.environ["CARDNET_TEST"] = saved
