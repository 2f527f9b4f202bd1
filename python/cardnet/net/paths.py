"""Which path serves a table's moves: one decision, from a few explicit conditions, logged when it changes.

A host has three ways to play a peer's ``move`` line, all sending the same bytes (tests/test_fast_lane.py):

- the **general** path: the session parses the line into a message, the table applies it and the host carries
  out the session's effects (:meth:`HostSession.receive_line`); it serves every kind of line;
- the **fast** path: the line's reader task hands it to the core, which checks, plays and writes the journal
  record and every seat's ``update`` line in one call (:meth:`HostSession.quick_move`); it takes only a
  welcomed player's index move of its own open decision within its rate, and gives anything else to the
  general path unchanged;
- the **native** path: while trio has nothing to run, the core waits on the players' sockets itself and plays
  the fast path's moves with no Python in between (:mod:`cardnet.net.lane`), until anything else happens.

:func:`choose_path` is the only place that picks one; :class:`PathLog` remembers the last pick and logs each
change at debug level (``cardnet host --log-level debug``).
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass

__all__ = ["MovePath", "PathChoice", "PathConditions", "PathLog", "choose_path", "may_go_native"]

log = logging.getLogger("cardnet.host")


class MovePath(enum.Enum):
    """The path a move takes (see the module's documentation)."""

    GENERAL = "general"
    FAST = "fast"
    NATIVE = "native"


@dataclass(frozen=True, slots=True)
class PathConditions:
    """Everything that decides the path. The first six are fixed for a table's run; the last three describe the
    moment a move may arrive."""

    #: The table's game is the Rust core's (a test's fake engine has no native calls).
    core_game: bool
    #: ``HostOptions.fast_lane``: moves may skip the general path at all.
    fast_lane: bool
    #: ``HostOptions.native_lane``: the core may serve the sockets itself.
    native_lane: bool
    #: The journal is fsynced (group commit): a move's acks wait for the fsync, which only the general path does.
    group_commit: bool
    #: The table has turn timers: each decision gets a deadline, which only the general path sets.
    turn_timer: bool
    #: Trio runs on its system clock (``time.perf_counter`` plus an offset), the clock the core stamps moves
    #: with; a test's mock clock keeps the core out.
    system_clock: bool
    #: Trio has run every runnable task and is about to wait for I/O: the only moment the core may take the
    #: sockets. False for a line that a connection's reader task read.
    trio_idle: bool = False
    #: Python has work of its own on the table: a journal commit, a built-in player's move, an absent seat or a
    #: deadline to watch, a shutdown, or no game in play.
    host_busy: bool = False
    #: Every welcomed connection is idle (nothing buffered, queued or owed) and every open decision is a
    #: connected human seat's: the core can serve everything that may happen next.
    all_served: bool = False


@dataclass(frozen=True, slots=True)
class PathChoice:
    """A path and, in words, the condition that chose it."""

    path: MovePath
    reason: str


def choose_path(c: PathConditions) -> PathChoice:
    """The path that serves the table's next move under ``c``: general, fast or native, first match wins."""
    if not c.core_game:
        return PathChoice(MovePath.GENERAL, "the table's game is not the core's")
    if not c.fast_lane:
        return PathChoice(MovePath.GENERAL, "the fast lane is off")
    if c.group_commit:
        return PathChoice(MovePath.GENERAL, "the journal is fsynced: acks wait for group commit")
    if c.turn_timer:
        return PathChoice(MovePath.GENERAL, "turn timers: decisions need deadlines")
    if not c.native_lane:
        return PathChoice(MovePath.FAST, "the native lane is off")
    if not c.system_clock:
        return PathChoice(MovePath.FAST, "trio runs on another clock than the system's")
    if not c.trio_idle:
        return PathChoice(MovePath.FAST, "a reader task read the line")
    if c.host_busy:
        return PathChoice(MovePath.FAST, "the host has work of its own on the table")
    if not c.all_served:
        return PathChoice(MovePath.FAST, "a connection or a decision needs Python")
    return PathChoice(MovePath.NATIVE, "trio is idle and the core can serve every connection")


def may_go_native(c: PathConditions) -> bool:
    """Whether the table's fixed conditions in ``c`` ever let the native path serve it (the host then runs the
    lane's instrument)."""
    best = PathConditions(
        c.core_game, c.fast_lane, c.native_lane, c.group_commit, c.turn_timer, c.system_clock, True, False, True
    )
    return choose_path(best).path is MovePath.NATIVE


class PathLog:
    """Chooses with :func:`choose_path` and logs each change of path at debug level, with its reason."""

    __slots__ = ("current",)

    def __init__(self) -> None:
        #: The last path chosen (None before the first choice).
        self.current: MovePath | None = None

    def choose(self, conditions: PathConditions) -> MovePath:
        """The path for ``conditions``; a change from the last one is logged."""
        choice = choose_path(conditions)
        if choice.path is not self.current:
            self.current = choice.path
            log.debug("moves take the %s path: %s", choice.path.value, choice.reason)
        return choice.path
