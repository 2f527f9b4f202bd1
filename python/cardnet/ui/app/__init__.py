"""The full-screen client (prompt_toolkit; imported nowhere else in cardnet).

prompt_toolkit runs on asyncio and trio runs inside the same loop in guest mode, on the UI thread: the tables
(an in-process host, or a peer over TCP) are trio code, the screen is prompt_toolkit, and both read and change
the one :class:`~cardnet.ui.app.state.AppState`. Quitting, SIGTERM and any crash cancel trio and restore the
terminal before anything is printed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import traceback
from typing import Any

import outcome
import trio
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.output import ColorDepth

from ...i18n import gettext as _
from .commands import Command, run_line
from .connection import single_error
from .controller import Controller, StartRequest
from .filters import build_filters
from .keys import build_key_bindings
from .layout import build_layout
from .state import AppState
from .style import build_style

__all__ = ["Client", "StartRequest", "run_app"]

#: Exit code after SIGTERM/SIGHUP: the shell's 128 + signal number.
EXIT_SIGNAL_BASE = 128


class Client:
    """The application, its state and its controller, ready to run (or to be driven by tests)."""

    def __init__(self, start: StartRequest, **app_args: Any) -> None:
        self.start = start
        self.state = AppState(no_color=bool(os.environ.get("NO_COLOR")))
        self.controller = Controller(self.state, self.redraw)
        self.command_line = Buffer(multiline=False, accept_handler=self._accept)
        self.filters = build_filters(self.state, lambda: self.app.layout.has_focus(self.command_line))
        layout, self.main_window = build_layout(self.state, self.filters, self.command_line, self._size)
        line_keys = KeyBindings()
        # Esc while typing drops the line (and an unanswered question: a password prompt then asks nothing).
        line_keys.add("escape", filter=self.filters.typing)(lambda _event: self._close_line())
        self.app: Application[int] = Application(
            layout=layout,
            key_bindings=merge_key_bindings(
                [build_key_bindings(self.controller, self.filters, self._after_key), line_keys]
            ),
            style=build_style(),
            full_screen=True,
            mouse_support=False,
            color_depth=ColorDepth.MONOCHROME if self.state.no_color else None,
            **app_args,
        )
        self.scope = trio.CancelScope()
        self.signalled: int | None = None

    def _size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return size.columns, size.rows

    def redraw(self) -> None:
        """Asks for a redraw (cheap; coalesced by prompt_toolkit); a question just asked gets the focus."""
        if self.state.prompt and not self.state.command_open:
            self._open_line()
        self.app.invalidate()

    def _open_line(self) -> None:
        self.state.command_open = True
        self.command_line.reset()
        self.app.layout.focus(self.command_line)

    def _close_line(self) -> None:
        self.state.command_open = False
        self.command_line.reset()
        self.app.layout.focus(self.main_window)
        self.controller.runner.answer_none()

    def _after_key(self, event: KeyPressEvent, command: Command) -> None:
        if self.state.quitting:
            self.quit()
        elif command.name == "type" or self.state.prompt:
            self._open_line()

    def _accept(self, buffer: Buffer) -> bool:
        line = buffer.text
        self.state.command_open = False
        self.app.layout.focus(self.main_window)
        self.state.error = ""
        if not self.controller.runner.answer(line):
            run_line(self.controller, line)
        if self.state.quitting:
            self.quit()
        return False

    def quit(self, signum: int | None = None) -> None:
        """Leaves the app (from Ctrl-Q, ``q`` or a signal); trio is cancelled once the screen is gone."""
        if signum is not None:
            self.signalled = signum
        future = self.app.future
        if self.app.is_running and future is not None and not future.done():
            self.app.exit(result=0)

    async def run_async(self) -> int:
        """Runs the screen with trio as a guest until the player quits; re-raises an error from either side."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[outcome.Outcome[None]] = loop.create_future()

        def finished(result: outcome.Outcome[None]) -> None:
            if not done.done():
                done.set_result(result)
            # trio ended on its own only by an error: leave the screen so it can be printed.
            self.quit()

        trio.lowlevel.start_guest_run(
            self.controller.run,
            self.start,
            self.scope,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=loop.call_soon,
            done_callback=finished,
            host_uses_signal_set_wakeup_fd=True,
        )
        handled: list[int] = []
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                loop.add_signal_handler(sig, self.quit, int(sig))
                handled.append(sig)
        try:
            code = await self.app.run_async()
        finally:
            for signum in handled:
                loop.remove_signal_handler(signum)
            token = self.controller.runner.token
            if token is None:
                self.scope.cancel()
            else:
                try:
                    token.run_sync_soon(self.controller.table.farewell, self.scope)
                except trio.RunFinishedError:
                    pass
            result = await done
        try:
            result.unwrap()
        except BaseExceptionGroup as group:
            # trio wraps a task's error in one group per nursery; the player needs the error itself.
            raise single_error(group) from None
        return EXIT_SIGNAL_BASE + self.signalled if self.signalled is not None else code


def run_app(start: StartRequest) -> int:
    """Runs the full-screen client on the terminal; returns the exit code.

    The terminal is restored before anything is printed: the resume hint after a local game, or the error
    and its traceback after a crash (exit code 1).
    """
    client = Client(start)
    try:
        code = asyncio.run(client.run_async())
    except Exception as exc:
        print("cardnet: " + _("the client stopped on an error:"), file=sys.stderr)
        print("".join(traceback.format_exception(exc)).rstrip(), file=sys.stderr)
        return 1
    words = client.controller.table.closing_words()
    if words:
        print(words)
    return code
