"""Key bindings, made from the command registry: each command's keys, active only in its context."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from .commands import COMMANDS, Command
from .controller import Controller
from .filters import Filters

__all__ = ["AfterKey", "build_key_bindings"]

#: Runs after each command started by a key (the app quits, focuses the command line, redraws).
AfterKey = Callable[[KeyPressEvent, Command], None]


def build_key_bindings(c: Controller, filters: Filters, after: AfterKey) -> KeyBindings:
    """Bindings for every command; ``after`` runs after each (to quit, focus the command line, redraw)."""
    kb = KeyBindings()
    for command in COMMANDS:
        for key in command.keys:
            _bind(kb, c, filters, command, key, after)
    return kb


def _bind(kb: KeyBindings, c: Controller, filters: Filters, command: Command, key: str, after: AfterKey) -> None:
    # Ctrl-Q and Ctrl-C work even while typing; every other key belongs to the line being typed.
    active = filters.context(command.context)
    anywhere = key in ("c-q", "c-c")
    if not anywhere:
        active = active & ~filters.typing

    @kb.add(key, filter=active, eager=anywhere)
    def _(event: KeyPressEvent) -> None:
        # A new action clears the last error; reading help or closing a list keeps it in view.
        if command.name not in ("help", "close"):
            c.state.error = ""
        command.run(c, "")
        after(event, command)
