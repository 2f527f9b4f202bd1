"""The host's native calls (``cardnet._core.host``), apart from the game API of :class:`cardnet.Game`.

For cardnet's own host (:mod:`cardnet.table`, :mod:`cardnet.net`): a move and every seat's lines in one call
(:func:`play`, :func:`play_line`), a state's fragments for every observer (:func:`fan_out`), the native lane
on a table's sockets (:func:`serve_lane`) and one move's writes to every socket (:func:`write_lines`); and the
protocol rules those share with Python, defined once here: the move line's shortcut (:func:`parse_move_line`),
a rematch's seed (:func:`derive_seed`) and the journal's record framing (:func:`frame_record`,
:func:`record_span`, :data:`RECORD_HEADER`, :data:`MAX_RECORD`) and the message-rate bucket's refill
(:func:`bucket_refill`), a state line's bytes (:func:`state_shared`, :func:`state_line`), and the native lane's
WebSocket framing for a browser's seat (:func:`websocket_frame`, :func:`websocket_line`).
ARCHITECTURE.md says which path uses which.
"""

from __future__ import annotations

from ._core.host import (
    MAX_RECORD,
    RECORD_HEADER,
    FanOut,
    LaneRun,
    bucket_refill,
    derive_seed,
    fan_out,
    frame_record,
    parse_move_line,
    play,
    play_line,
    record_span,
    serve_lane,
    state_line,
    state_shared,
    websocket_frame,
    websocket_line,
    write_lines,
)

__all__ = [
    "MAX_RECORD",
    "RECORD_HEADER",
    "FanOut",
    "LaneRun",
    "bucket_refill",
    "derive_seed",
    "fan_out",
    "frame_record",
    "parse_move_line",
    "play",
    "play_line",
    "record_span",
    "serve_lane",
    "state_line",
    "state_shared",
    "websocket_frame",
    "websocket_line",
    "write_lines",
]
