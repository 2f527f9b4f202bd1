"""The host's native calls (``cardnet._core.host``), apart from the game API of :class:`cardnet.Game`.

For cardnet's own host (:mod:`cardnet.table`, :mod:`cardnet.net`): a move and every seat's lines in one call
(:func:`play`, :func:`play_line`), a state's fragments for every observer (:func:`fan_out`), the native lane
on a table's sockets (:func:`serve_lane`) and one move's writes to every socket (:func:`write_lines`).
ARCHITECTURE.md says which path uses which.
"""

from __future__ import annotations

from ._core.host import FanOut, LaneRun, fan_out, play, play_line, serve_lane, write_lines

__all__ = ["FanOut", "LaneRun", "fan_out", "play", "play_line", "serve_lane", "write_lines"]
