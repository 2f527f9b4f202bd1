"""From keys to moves: which cards a table screen lets the player point at, and which moves a selection means.

Every move offered comes from the open decision's legal list (sent by its index). When the player asks for
something that is not in the list, the move is still sent as an object so the host answers with the core's
reason; the client itself never decides that a move is illegal. What a selection means differs by game: the
table's screen (``ui/render/screen``) says it; these functions ask it.
"""

from __future__ import annotations

from ..render.screen import all_choices, quick_choice
from .state import Choice, TableState

__all__ = [
    "all_choices",
    "bid_range",
    "hand_cards",
    "pass_choice",
    "quick_choice",
    "selection_choices",
    "settle_choice",
]


def hand_cards(ts: TableState) -> list[int]:
    """The ids of the cards the cursor moves over, in screen order (empty when the game has no card row)."""
    return ts.screen.cursor_cards(ts)


def bid_range(ts: TableState) -> tuple[int, int] | None:
    """The lowest and highest legal bid of an open auction decision (None when no bid is legal)."""
    return ts.screen.bid_range(ts)


def selection_choices(ts: TableState) -> list[Choice]:
    """The moves Enter offers for the current selection: one is sent at once, several are listed to pick from.

    For games without a screen of their own every legal move is listed.
    """
    return ts.screen.selection_choices(ts)


def settle_choice(ts: TableState) -> Choice | None:
    """The next piece of the least payment that settles the player's debt (None when there is none to make)."""
    return ts.screen.settle_choice(ts)


def pass_choice(ts: TableState) -> Choice | None:
    """The pass move (None in a game without one)."""
    return ts.screen.pass_choice(ts)
