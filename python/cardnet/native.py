"""The host's native calls (``cardnet._core.host``), apart from the game API of :class:`cardnet.Game`.

For cardnet's own host (:mod:`cardnet.table`, :mod:`cardnet.net`): a move and every seat's lines in one call
(:func:`play`, :func:`play_line`), a state's fragments for every observer (:func:`fan_out`), the native lane
on a table's sockets (:func:`serve_lane`) and one move's writes to every socket (:func:`write_lines`); and the
protocol rules those share with Python, defined once here: the move line's shortcut (:func:`parse_move_line`)
and a rematch's seed (:func:`derive_seed`).
ARCHITECTURE.md says which path uses which.
"""

from __future__ import annotations

from ._core.host import (
    FanOut,
    LaneRun,
    derive_seed,
    fan_out,
    parse_move_line,
    play,
    play_line,
    serve_lane,
    write_lines,
)

__all__ = [
    "FanOut",
    "LaneRun",
    "derive_seed",
    "fan_out",
    "parse_move_line",
    "play",
    "play_line",
    "serve_lane",
    "write_lines",
]
