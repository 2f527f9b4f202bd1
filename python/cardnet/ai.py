"""The built-in players, run by the core: ``random``, ``heuristic``, ``careless:P`` (the heuristic with P % of
its moves random), ``ismcts`` and ``ismcts:N``.

People pick a difficulty instead: ``easy``, ``normal`` or ``hard``. The names are the same in every game,
what they play is each game's (``levels(game)``, ``level_player(game, level)``), chosen so that each level
is clearly stronger than the one below in that game: in most games ``easy`` is the heuristic and
``normal`` and ``hard`` a search with a growing budget (ISMCTS; in Cherki and TEN a flat Monte Carlo
search over a few candidate moves; for ``hard`` in A Fistful of Gold simultaneous-move MCTS with regret
matching, the pick drawn from its mixed strategy). In Cherki, where a deal is mostly the draw and the
search rises little above the heuristic, ``easy`` and ``normal`` are careless players instead, ``hard``
the search. Wherever a player name is taken (``cardnet.simulate``, ``cardnet arena``), a level is one too
and plays as the game being played defines it. ``LEVELS`` is the one list of levels the package uses.
The players see a game only as the seat they play may see it: the search works on determinized copies,
never on other seats' hidden cards. They choose on a ``cardnet.Game`` (``choose``, ``choose_index``) and
on an RL state (``choose_action``: an action id, the same choice as on a game in the same position with
the same seed).

Budgets: a search player spends a fixed number of iterations per decision, so the same seed gives the same
move on any machine. ``think_ms`` (or a player name ending in ``@MS``, e.g. ``hard@500``) trades that for
strength: the search runs for that much wall time instead, and its move then depends on the machine's speed
and load. Without it, ``hard`` stays well under half a second per decision on one core.
"""

from __future__ import annotations

from typing import Any

from . import _core
from ._core import Game, RlState
from .errors import BadOptions

__all__ = [
    "LEVELS",
    "MAX_THINK_MS",
    "PLAYERS",
    "check_player",
    "choose",
    "choose_action",
    "choose_index",
    "level_player",
    "levels",
    "with_think",
]

#: Player names accepted by ``choose`` (plus ``ismcts:N`` for N iterations and ``careless:P``, the heuristic
#: with P % of its moves random).
PLAYERS = ("random", "heuristic", "ismcts")
#: Difficulty levels, easiest first.
LEVELS = ("easy", "normal", "hard")
#: The longest think time per decision a player may be given, in milliseconds.
MAX_THINK_MS = 600_000


def level_player(game: str, level: str) -> str:
    """The built-in player a difficulty level stands for in ``game``, named as ``simulate`` takes it
    (``heuristic``, ``careless:P`` or ``ismcts:N``; see ``levels``); raises BadOptions for an unknown level
    and UnknownGame for an unknown game."""
    return _core.level_player(game, level)


def levels(game: str) -> dict[str, str]:
    """Every difficulty level of ``game``, easiest first, with the built-in player it stands for there
    (``{"easy": "heuristic", "normal": "ismcts:300", "hard": "ismcts:1500"}`` in most games); raises
    UnknownGame for an unknown game."""
    return {level: level_player(game, level) for level in LEVELS}


def check_player(name: str) -> str:
    """``name`` itself when it names a built-in player (``random``, ``heuristic``, ``ismcts``, ``ismcts:N``, a
    level, or a search player with ``@MS``, see ``with_think``); else raises BadOptions."""
    base, at, millis = name.partition("@")
    if at:
        if not millis.isdigit():
            raise BadOptions(f"unknown player {name!r}: {millis!r} is not a think time in milliseconds")
        return with_think(base, int(millis))
    budget = name.removeprefix("ismcts:")
    if name in PLAYERS or name in LEVELS or (budget != name and budget.isdigit() and 1 <= int(budget) <= 1_000_000):
        return name
    slips = name.removeprefix("careless:")
    if slips != name and slips.isdigit() and 1 <= int(slips) <= 100:
        return name
    raise BadOptions(
        f"unknown player {name!r} ({', '.join(PLAYERS + LEVELS)}, ismcts:N, careless:P, or a search player@MS)"
    )


def with_think(player: str, think_ms: int | None) -> str:
    """The name of ``player`` (a player name or a level) given a think time of ``think_ms`` milliseconds per
    decision instead of its iteration count (``hard`` -> ``hard@500``); ``player`` itself when ``think_ms``
    is None. Raises BadOptions unless ``player`` searches (``normal``, ``hard``, ``ismcts``, ``ismcts:N``)
    and ``think_ms`` is 1 to 600 000."""
    if think_ms is None:
        return player
    searches = player in ("normal", "hard", "ismcts") or (
        player.startswith("ismcts:") and check_player(player) == player
    )
    if not searches:
        raise BadOptions(f"a think time needs a player that searches (normal, hard, ismcts), not {player!r}")
    if isinstance(think_ms, bool) or not isinstance(think_ms, int) or not 1 <= think_ms <= MAX_THINK_MS:
        raise BadOptions(f"think time {think_ms!r} ms: a whole number from 1 to {MAX_THINK_MS}")
    return f"{player}@{think_ms}"


def choose_index(
    game: Game,
    seat: int,
    player: str = "random",
    level: str | None = None,
    seed: int | None = None,
    think_ms: int | None = None,
) -> int:
    """The index of the legal move a built-in player picks for ``seat``.

    ``level`` (``easy``/``normal``/``hard``), when given, picks the player and ``player`` is ignored.
    ``seed=None`` draws a fresh seed; the same seed always gives the same choice, unless ``think_ms`` gives
    the search a think time in milliseconds instead of its iteration count (see ``with_think``). The search runs
    without the GIL, so ``trio.to_thread.run_sync`` keeps an event loop responsive meanwhile. Raises
    BadOptions for an unknown player or level and IllegalMove when ``seat`` is not to act.
    """
    if think_ms is not None:
        return game.choose(seat, with_think(level or player, think_ms), None, seed)
    return game.choose(seat, player, level, seed)


def choose(
    game: Game,
    seat: int,
    player: str = "random",
    level: str | None = None,
    seed: int | None = None,
    think_ms: int | None = None,
) -> dict[str, Any]:
    """The move (a dict, as ``legal_moves`` lists it) a built-in player picks; see ``choose_index``."""
    return game.legal_move(seat, choose_index(game, seat, player, level, seed, think_ms))


def choose_action(
    state: RlState,
    seat: int,
    player: str = "random",
    level: str | None = None,
    seed: int | None = None,
    think_ms: int | None = None,
) -> int:
    """The action id a built-in player picks for ``seat`` of an RL state (``cardnet.rl.new_state``, or the
    ``core`` of an OpenSpiel state), as ``choose_index`` picks on a game: the same choice for the same
    position and seed, from what ``seat`` may see only. Raises BadOptions for an unknown player or level and
    IllegalMove when ``seat`` is not to act. ``think_ms`` as for ``choose_index``."""
    if think_ms is not None:
        return state.choose_action(seat, with_think(level or player, think_ms), None, seed)
    return state.choose_action(seat, player, level, seed)
