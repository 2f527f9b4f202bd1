"""The host's native lane: a table in play served by the core, move after move, while trio has nothing to do.

A move on the fast lane (:meth:`Host._quick_move`) costs a trio wake-up, the session's and the table's Python
and a native call. Whenever the table has changed, the lane waits for the moment trio's run loop has run
every runnable task and is about to wait for I/O (a trio instrument's ``before_io_wait``), then hands the
table to the core (``cardnet.native.serve_lane``, rust/py/src/host/lane.rs). The core waits on the players'
sockets itself and plays every line that the fast lane would take: an index ``move`` (in any key order and spacing) of a
seat's own open decision, within its rate. It journals each move and writes every ready connection's
``update`` line as the fast lane does, byte for byte, with no Python or trio in between. A browser's seat (a
WebSocket) is served alike: its lines go out as text frames, and a move that comes as one masked text frame is
played; the lane only peeks at a WebSocket, so any other frame stays in the socket for the web seat's reader.

Once a game is over, the core also takes the players' rematch votes (with no other field): it journals each
one and tells every connection, as the general path does, and the vote that completes the present humans'
set deals the next game into the same ``Game`` object (from the table's seed, as ``Table.start_next_game``
does), journals it and writes every connection's ``snapshot``. Play then goes on in the lane.

The core gives the table back as soon as anything else happens: another kind of line or half a line, a
closed or failed socket, a socket that does not take a whole line, the end of a game when a task waits for
it (``Host.game_over``), a decision for a built-in player or an absent seat, I/O that trio waits for on a
descriptor the lane watches (a listener's new connection, a spectator's line, a connection in its handshake),
a signal, or the end of its slice (:data:`LANE_SLICE`, or trio's next timer if that comes first). The host
then brings the table, the connections' buckets and its counters up to date (:meth:`Host.absorb_lane`) and
carries on in Python; the bytes the lane read and did not play go to that connection's line buffer, and their
whole lines through the general path, as if its reader had read them. When a slice ends, the lane runs again
as soon as trio has looked at its own I/O.

The lane uses only trio's public API: an instrument's ``before_io_wait`` and the sockets' descriptors. What
it cannot watch that way (trio's own wake-up descriptor: a worker thread's result, a call from another thread)
waits for the end of the slice. ARCHITECTURE.md gives the figures of that trade.

The lane needs descriptors for every ready connection; when it may run (trio's system clock, no group
commit, turn timer or absent seat, ...) is the host's path choice, :func:`cardnet.net.paths.choose_path`.
"""

from __future__ import annotations

import logging
import time
from typing import Protocol

import trio

from ..journal import Journal, JournalFailure
from ..protocol import MAX_HOST_LINE, MAX_PEER_LINE
from ..protocol.host import HostOptions
from ..table import SEAT_STRIDE, LaneMoves, Table

__all__ = ["LANE_SLICE", "Lane", "LaneReport", "on_system_clock"]

log = logging.getLogger("cardnet.host")

#: The most table changes the lane lets pass after runs that a line ended before any move.
MAX_SKIP = 63
#: The longest run of the lane (seconds): how late trio may get to what the lane does not watch (a worker
#: thread's result, a call from another thread) while the lane serves.
LANE_SLICE = 0.1


class LaneReport(LaneMoves, Protocol):
    """All that one run of the lane reports (the core's ``LaneRun``), beyond the moves the table catches up
    with."""

    @property
    def buckets(self) -> list[tuple[float, float]]:
        """Every connection's rate bucket (tokens, stamp) now."""

    @property
    def heard(self) -> list[float | None]:
        """When each connection's last line that the lane took came (None: none)."""

    @property
    def undelivered(self) -> list[tuple[int, bytes | None, int]]:
        """The last move's lines that did not go out whole: (connection index, line or None when it could not
        be built, bytes written; -1: the socket failed, -2: not tried, longer than the outbox)."""

    @property
    def ack(self) -> tuple[int, int | str | None] | None:
        """The last move's (decision id, ref): the mover's ack, for an undelivered line of its seat."""

    @property
    def unread(self) -> tuple[int, bytes] | None:
        """Bytes the lane read from a connection and did not play: (connection index, bytes)."""

    @property
    def over(self) -> bool:
        """Whether the game is over."""

    @property
    def finished(self) -> int:
        """How many games ended during the run."""

    @property
    def records(self) -> int:
        """How many journal records the lane wrote."""

    @property
    def stopped(self) -> str:
        """Why the lane stopped."""

    @property
    def journal_error(self) -> str | None:
        """Why the journal could not be written (the host must stop)."""


class LaneHost(Protocol):
    """What the lane needs of its host (:class:`cardnet.net.host.Host`)."""

    table: Table
    journal: Journal | None
    opts: HostOptions
    lane: Lane | None
    game_over: trio.Event

    def lane_connections(self) -> tuple[list[tuple[int, int, float, float, bool]], list[int], list[int]] | None:
        """Every ready connection as (descriptor, seat or -1, bucket tokens, bucket stamp, whether it is a
        WebSocket), the seats the lane may play and the descriptors whose readiness ends its run, when it may serve them all now; else None."""

    def present_humans(self) -> list[int]:
        """The human seats whose players are here: their votes start the next game."""

    def absorb_lane(self, run: LaneReport) -> None:
        """Catch up with a run over the connections :meth:`lane_connections` gave."""


def on_system_clock() -> bool:
    """Whether trio's clock is its system clock (``time.perf_counter`` plus an offset), which the lane reads."""
    return type(trio.lowlevel.current_clock()).__name__ == "SystemClock"


class Lane(trio.abc.Instrument):
    """The native lane of one :class:`~cardnet.net.host.Host` (see the module's documentation).

    It is a trio instrument: :meth:`before_io_wait` runs the lane when trio has no task to run. What goes
    wrong there is handed to :meth:`serve`'s task, since trio would only log an instrument's exception."""

    def __init__(self, host: LaneHost) -> None:
        self.host = host
        # Fixed for the host's run: its limits.
        opts = host.opts
        self._limits = {
            "stride": SEAT_STRIDE,
            "inline_limit": opts.legal_inline_limit,
            "host_line": MAX_HOST_LINE,
            "peer_line": MAX_PEER_LINE,
            "outbox_bytes": opts.outbox_bytes,
            "rate": opts.msg_rate,
            "burst": opts.msg_burst,
        }
        config = host.table.config
        # What the next game needs: the lane deals it only from a seed the core takes (a u64).
        seed = config.seed if config.seeded else None
        self._rematch = {"seed": seed, "options": dict(config.options)} if seed is None or 0 <= seed < 1 << 64 else None
        self._nudged = False
        self._failure: BaseException | None = None
        self._failed = trio.Event()
        #: How many runs ended, and why (``LaneRun.stopped``): for tests and benchmarks.
        self.stops: dict[str, int] = {}
        #: Moves the lane played.
        self.moves = 0
        #: Rematch votes the lane took, and games it started.
        self.votes = 0
        self.games = 0
        #: Runs in a row that a line ended before any move (a peer writing its moves in another form, say).
        self._idle_runs = 0
        #: Table changes to let pass before the next run, after such runs.
        self._skip = 0

    def nudge(self) -> None:
        """The table changed: the lane may take over when trio next waits for I/O."""
        self._nudged = True

    async def serve(self) -> None:
        """The lane's task: installs the instrument for as long as the table runs, and raises in the table's
        nursery what the lane could not carry out (a journal that cannot be written stops the host)."""
        trio.lowlevel.add_instrument(self)
        try:
            await self._failed.wait()
        finally:
            trio.lowlevel.remove_instrument(self)
        failure = self._failure
        if isinstance(failure, JournalFailure):
            raise failure
        # A bug in the lane must not stop the table: the host goes on without it.
        log.error("the native lane failed; the host goes on without it", exc_info=failure)
        self.host.lane = None

    def before_io_wait(self, timeout: float) -> None:
        """Trio has run every runnable task and will wait up to ``timeout`` seconds: the lane's moment."""
        if not self._nudged or timeout <= 0 or self._failure is not None:
            return
        self._nudged = False
        if self._skip:
            self._skip -= 1
            return
        try:
            ran = self.run_once(min(timeout, LANE_SLICE))
        except Exception as exc:
            self._failure = exc
            self._failed.set()
            ran = True
        if ran:
            # The run may have woken tasks (writers, the game's end, the failure's) after trio chose how long to
            # wait: cut that wait short.
            trio.lowlevel.current_trio_token().run_sync_soon(_nothing)

    def run_once(self, wait: float) -> bool:
        """Run the lane for at most ``wait`` seconds if the table allows it, and catch up with what it did;
        whether it ran."""
        host = self.host
        served = host.lane_connections()
        if served is None:
            return False
        conns, seats, watch = served
        table = host.table
        native = table.engine.native
        # The path choice made sure the engine is the core's (PathConditions.core_game).
        assert native is not None
        run: LaneReport = native.serve_lane(
            table.game,
            {
                "conns": conns,
                "decisions": table.lane_decisions(),
                "seats": seats,
                "seq": table.decision_counts(),
                "game_no": table.game_no,
                "state_id": table.state_id,
                "journal_fd": host.journal.descriptor if host.journal is not None else -1,
                "watch": watch,
                "clock_offset": trio.current_time() - time.perf_counter(),
                "wait": wait,
                "votes": sorted(table.rematch_votes),
                "humans": host.present_humans(),
                "rematch": self._rematch,
                # A task waiting for a game's end would see only the next game if the lane played on.
                "stop_at_end": host.game_over.statistics().tasks_waiting > 0,
            },
            self._limits,
        )
        self.stops[run.stopped] = self.stops.get(run.stopped, 0) + 1
        self.moves += len(run.moves)
        self.votes += run.counted
        self.games += len(run.games)
        self.host.absorb_lane(run)
        if run.moves or run.counted:
            self._idle_runs = 0
        elif run.stopped == "timer":
            # The slice ran out with nothing to play: serve the next one once trio has looked at its own I/O.
            self._nudged = True
        else:
            # Nothing played: wait for the table to change before trying again, rather than spin.
            self._nudged = False
            if run.stopped == "line":
                # A line ended the run at once. A peer that writes every move in another form than the fast
                # lane's would make each of its moves pay for a run: after such runs in a row, let up to
                # MAX_SKIP table changes pass before the next try.
                self._idle_runs += 1
                self._skip = min(MAX_SKIP, (1 << self._idle_runs) - 1)
        return True


def _nothing() -> None:
    """A no-op for ``run_sync_soon``: its only effect is to wake trio's wait for I/O."""
