"""Stubs for ``cardnet._core.host``: what only a host needs of a game, apart from the public ``Game`` (checked
against the module by mypy.stubtest in the tests)."""

from typing import Any, final

from cardnet._core import Game

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

def fan_out(game: Game, observers: list[int | None]) -> FanOut: ...
def play(game: Game, seat: int, move: Any, observers: list[int | None]) -> FanOut: ...
def play_line(
    game: Game,
    line: bytes,
    seat: int,
    decision_id: int,
    count: int,
    held: list[tuple[int, int, str]],
    seq: list[int],
    stride: int,
    game_no: int,
    state_id: int,
    inline_limit: int,
    limit: int,
) -> tuple[FanOut, bytes, list[bytes | None], list[tuple[int, int, int, str | None]], int | str | None] | None: ...
def serve_lane(game: Game, table: dict[str, Any], limits: dict[str, Any]) -> LaneRun: ...
def write_lines(fds: list[int], lines: list[bytes]) -> list[tuple[int, int]]: ...
def websocket_frame(line: bytes) -> bytes: ...
def websocket_line(frame: bytes, limit: int) -> bytes | None: ...
def parse_move_line(line: bytes) -> tuple[int, int, int | str | None] | None: ...
def derive_seed(seed: int, game_no: int) -> int: ...
def frame_record(payload: bytes) -> bytes: ...
def state_shared(
    kind: str, game_no: int, state_id: int, state_hash: str, to_act: list[int], over: bool, outcome: str | None
) -> str: ...
def state_line(
    shared: str,
    update: bool,
    ack: str | None,
    decision: tuple[int, int, int | None, str | None] | None,
    events: str,
    view: str,
) -> bytes: ...
def bucket_refill(tokens: float, stamp: float, now: float, rate: float, burst: float) -> float: ...
def record_span(data: bytes, pos: int) -> tuple[int, int, str]: ...

#: Bytes of a journal record's header (length, CRC-32).
RECORD_HEADER: int
#: The largest payload a journal record holds.
MAX_RECORD: int

@final
class FanOut:
    """What a host sends after a state change, as canonical JSON fragments (see :func:`play`)."""

    @property
    def state_hash(self) -> str: ...
    @property
    def to_act(self) -> list[int]: ...
    @property
    def over(self) -> bool: ...
    @property
    def outcome_json(self) -> str | None: ...
    @property
    def legal(self) -> list[tuple[int, int, str]]: ...
    @property
    def seats(self) -> list[tuple[int | None, str, str]]: ...
    @property
    def move_json(self) -> str | None: ...
    def lines(
        self,
        kind: str,
        game_no: int,
        state_id: int,
        to_act: list[int],
        wanted: list[int],
        decisions: list[tuple[int, int, int | None, str | None] | None],
        ack: tuple[int, str] | None,
        limit: int,
    ) -> list[bytes | None]: ...

@final
class LaneRun:
    """What one run of the host's native lane did (:func:`serve_lane`; see ``cardnet.net.lane``)."""

    @property
    def moves(self) -> list[tuple[int, int, int, int, float]]: ...
    @property
    def decisions(self) -> list[tuple[int, int, int, str]]: ...
    @property
    def seq(self) -> list[int]: ...
    @property
    def state_id(self) -> int: ...
    @property
    def fan(self) -> FanOut | None: ...
    @property
    def buckets(self) -> list[tuple[float, float]]: ...
    @property
    def undelivered(self) -> list[tuple[int, bytes | None, int]]: ...
    @property
    def ack(self) -> tuple[int, int | str | None] | None: ...
    @property
    def unread(self) -> tuple[int, bytes] | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def stopped(self) -> str: ...
    @property
    def journal_error(self) -> str | None: ...
    @property
    def game_no(self) -> int: ...
    @property
    def votes(self) -> list[int]: ...
    @property
    def games(self) -> list[tuple[int, int, int]]: ...
    @property
    def finished(self) -> int: ...
    @property
    def counted(self) -> int: ...
    @property
    def records(self) -> int: ...
    @property
    def heard(self) -> list[float | None]: ...
