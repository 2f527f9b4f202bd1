"""cardnet: LAN party card games with no server.

The rules of every game live in a Rust core; this package is its typed Python face::

    import cardnet
    g = cardnet.new_game("matchstick", players=4, seed=7)
    while not g.is_over():
        seat = g.to_act()[0]
        g.apply(seat, g.legal_moves(seat)[0])
    print(g.outcome())

Driving many games from Python (search, bulk simulation), use the fast path: two native calls per
decision and no Python object per legal move::

    while (d := g.decision()) is not None:
        seat, count = d
        g.apply_index(seat, rng.randrange(count))

and for plain self-play of built-in players, ``cardnet.simulate`` runs whole batches in Rust.
Importing cardnet imports none of trio, zeroconf or prompt_toolkit.
"""

from __future__ import annotations

from . import _core, ai, segments
from ._core import Game, __version__, build_info, derive, json_dumps, json_loads
from .errors import BadOptions, CardnetError, CorruptState, IllegalMove, InvalidMove, UnknownGame
from .games import (
    GAMES,
    Draw,
    GameInfo,
    MatchResult,
    Move,
    OptionSpec,
    Outcome,
    Ranking,
    Scores,
    Settlement,
    SimResult,
    game_from_view,
    load_game,
    new_game,
    simulate,
)
from .games import outcome_from_dict
from .rulebook import rules_text

# The binding raises cardnet's exceptions and builds its outcomes without importing this package: it gets
# them here, once, before anything can call it.
_core.bind_python(
    {cls.__name__: cls for cls in (CardnetError, IllegalMove, InvalidMove, UnknownGame, BadOptions, CorruptState)},
    outcome_from_dict,
)

__all__ = [
    "GAMES",
    "BadOptions",
    "CardnetError",
    "CorruptState",
    "Draw",
    "Game",
    "GameInfo",
    "IllegalMove",
    "InvalidMove",
    "MatchResult",
    "Move",
    "OptionSpec",
    "Outcome",
    "Ranking",
    "Scores",
    "Settlement",
    "SimResult",
    "UnknownGame",
    "__version__",
    "ai",
    "build_info",
    "derive",
    "game_from_view",
    "json_dumps",
    "json_loads",
    "load_game",
    "new_game",
    "rules_text",
    "segments",
    "simulate",
]
