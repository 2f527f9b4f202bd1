"""The built-in players, run by the core: ``random``, ``heuristic``, ``ismcts`` and ``ismcts:N``.

People pick a difficulty instead: ``easy`` (the heuristic), ``normal`` and ``hard`` (a search with a
growing budget: ISMCTS, or in Cherki and TEN a flat Monte Carlo search over a few candidate moves).
Wherever a player name is taken (``cardnet.simulate``, ``cardnet arena``), a level is one too. ``LEVELS``
is the one list of levels the package uses. The players see a game only as the seat they play may see it:
the search works on determinized copies, never on other seats' hidden cards. They choose on a
``cardnet.Game`` (``choose``, ``choose_index``) and on an RL state (``choose_action``: an action id, the same
choice as on a game in the same position with the same seed).
"""

from __future__ import annotations

from typing import Any

from . import _core
from ._core import Game, RlState

__all__ = ["LEVELS", "PLAYERS", "choose", "choose_action", "choose_index", "level_player"]

#: Player names accepted by ``choose`` (plus ``ismcts:N`` for N iterations).
PLAYERS = ("random", "heuristic", "ismcts")
#: Difficulty levels, easiest first.
LEVELS = ("easy", "normal", "hard")


def level_player(level: str) -> str:
    """The built-in player a difficulty level stands for, named as ``simulate`` takes it (``easy`` is
    ``heuristic``, ``hard`` is ``ismcts:N``); raises BadOptions for an unknown level."""
    return _core.level_player(level)


def choose_index(
    game: Game,
    seat: int,
    player: str = "random",
    level: str | None = None,
    seed: int | None = None,
) -> int:
    """The index of the legal move a built-in player picks for ``seat``.

    ``level`` (``easy``/``normal``/``hard``), when given, picks the player and ``player`` is ignored.
    ``seed=None`` draws a fresh seed; the same seed always gives the same choice. The search runs
    without the GIL, so ``trio.to_thread.run_sync`` keeps an event loop responsive meanwhile. Raises
    BadOptions for an unknown player or level and IllegalMove when ``seat`` is not to act.
    """
    return game.choose(seat, player, level, seed)


def choose(
    game: Game,
    seat: int,
    player: str = "random",
    level: str | None = None,
    seed: int | None = None,
) -> dict[str, Any]:
    """The move (a dict, as ``legal_moves`` lists it) a built-in player picks; see ``choose_index``."""
    return game.legal_move(seat, choose_index(game, seat, player, level, seed))


def choose_action(
    state: RlState,
    seat: int,
    player: str = "random",
    level: str | None = None,
    seed: int | None = None,
) -> int:
    """The action id a built-in player picks for ``seat`` of an RL state (``cardnet.rl.new_state``, or the
    ``core`` of an OpenSpiel state), as ``choose_index`` picks on a game: the same choice for the same
    position and seed, from what ``seat`` may see only. Raises BadOptions for an unknown player or level and
    IllegalMove when ``seat`` is not to act."""
    return state.choose_action(seat, player, level, seed)
