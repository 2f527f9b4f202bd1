"""Filters: which context is active, read from the one :class:`~cardnet.ui.app.state.AppState`.

Contexts exclude each other: help over everything, then a list of choices, then the new-table form, then the
lobby or the table. ``typing`` is true while the ``:`` line has the focus.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from prompt_toolkit.filters import Always, Condition, Filter

from .state import AppState

__all__ = ["Filters", "build_filters"]


@dataclass(frozen=True)
class Filters:
    """The active-context filters and the command line's."""

    always: Filter
    typing: Filter
    help: Filter
    choices: Filter
    form: Filter
    lobby: Filter
    table: Filter

    def context(self, name: str) -> Filter:
        """The filter of a command context (see :data:`cardnet.ui.app.commands.CONTEXTS`)."""
        return {
            "always": self.always,
            "help": self.help,
            "choices": self.choices,
            "form": self.form,
            "lobby": self.lobby,
            "table": self.table,
        }[name]


def active_context(st: AppState) -> str:
    """The name of the context keys go to now."""
    if st.help_open:
        return "help"
    if st.screen == "table" and st.table is not None and st.table.choices:
        return "choices"
    if st.screen == "lobby":
        return "form" if st.form is not None else "lobby"
    return "table"


def build_filters(st: AppState, typing: Callable[[], bool]) -> Filters:
    """Filters over ``st``; ``typing`` tells whether the command line has the focus."""

    def when(name: str) -> Filter:
        return Condition(lambda: active_context(st) == name)

    return Filters(
        always=Always(),
        typing=Condition(typing),
        help=when("help"),
        choices=when("choices"),
        form=when("form"),
        lobby=when("lobby"),
        table=when("table"),
    )
