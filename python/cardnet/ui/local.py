"""Local play: the host runs in-process, built-in players hold the other seats, and the line-mode UI is a peer.

``cardnet play`` goes through the code a LAN table uses: a :class:`~cardnet.table.Table` with its journal, the
trio :class:`~cardnet.host.Host`, and a :class:`~cardnet.peer.Peer` connected over an in-memory stream instead
of TCP. The UI sees only what the protocol sends its seat (its view, its events, its legal moves), exactly like
a remote player, and a game cut short continues from its journal with ``cardnet play --resume``.
"""

from __future__ import annotations

import math
import os
import secrets
import signal
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import trio

from .. import protocol as P
from ..errors import BadOptions, IllegalMove
from ..games import GAMES, _outcome_from_dict
from ..host import Host, HostOptions
from ..journal import Journal, JournalError, default_journal_path
from ..peer import HostError, Peer, PeerError
from ..protocol import JSONValue, StateMessage
from ..table import Table, TableConfig, core_engine
from .render import LIST_LIMIT, GenericRenderer, Move, View, renderer_for, use_colour

__all__ = ["LocalError", "PlainGame", "play_local"]

#: Exit code after Ctrl-C or SIGTERM: the shell's 128 + signal number.
EXIT_SIGNAL_BASE = 128


class LocalError(Exception):
    """The local table cannot be set up or resumed (bad journal, unusable path); exit code 1."""


@dataclass
class _Pending:
    """A move sent and not yet acknowledged: its ref, its text, and whether to echo it on acknowledgement."""

    ref: int
    decision_id: int
    text: str
    echo: bool


class _Input:
    """Lines typed by the player, read in a worker thread so the table keeps running.

    A real file descriptor is read with ``os.read``: a thread abandoned inside a buffered ``readline`` (after
    Ctrl-C) would still hold the stream's lock when the interpreter shuts down.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.buffer = b""
        self.fd: int | None
        try:
            self.fd = stream.fileno()
        except (OSError, AttributeError, ValueError):
            self.fd = None

    def _read_fd(self, fd: int) -> str:
        while b"\n" not in self.buffer:
            chunk = os.read(fd, 4096)
            if not chunk:
                line, self.buffer = self.buffer, b""
                return line.decode("utf-8", "replace")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace") + "\n"

    async def readline(self) -> str:
        """The next line with its newline; an empty string at end of input."""
        fd = self.fd
        if fd is None:
            return self.stream.readline()
        return await trio.to_thread.run_sync(self._read_fd, fd, abandon_on_cancel=True)


class PlainGame:
    """The line-mode UI of one seat, fed by a :class:`~cardnet.peer.Peer`'s mirrored state.

    Moves are picked by number or typed; the host's refusal (the core's reason) is shown and nothing changes.
    A decision with a single legal move is played automatically. The player is asked only once every other
    seat has finished acting, so a simultaneous choice of a built-in player is committed (hidden) first.
    """

    def __init__(
        self,
        peer: Peer,
        game: str,
        seat: int,
        players: int,
        stdin: TextIO,
        stdout: TextIO,
        *,
        resume_hint: str | None = None,
        renderer: GenericRenderer | None = None,
    ) -> None:
        self.peer = peer
        self.seat = seat
        self.input = _Input(stdin)
        self.stdout = stdout
        self.resume_hint = resume_hint
        names = [("You" if s == seat else f"Seat {s}") for s in range(players)]
        self.renderer = renderer or renderer_for(game, names)
        self.renderer.colour = use_colour(stdout)
        self.answered: set[int] = set()
        self.pending: _Pending | None = None

    def say(self, line: str = "") -> None:
        """Prints one line."""
        self.stdout.write(line + "\n")
        self.stdout.flush()

    async def run(self) -> int:
        """Plays until the game ends or the player quits; returns the exit code."""
        latest: StateMessage | None = None
        async for event in self.peer.events:
            if isinstance(event, HostError):
                pending = self.pending
                if pending is None or event.ref != pending.ref:
                    self.say(f"Host: {event.reason} ({event.code})")
                    continue
                self.pending = None
                self.say(f"Refused: {event.reason}")
                if latest is not None and latest.decision_id == pending.decision_id:
                    # Nothing changed at the table: the same decision is still ours to answer.
                    self.answered.discard(pending.decision_id)
                    if not await self.turn(latest, fresh=False):
                        return self.bye()
                continue
            if not isinstance(event, StateMessage):
                continue
            latest = event
            self.report(event)
            if event.over:
                self.show_outcome(event.outcome)
                return 0
            if (
                event.decision_id is not None
                and event.decision_id not in self.answered
                and self.pending is None
                and event.to_act == [self.seat]
            ):
                if not await self.turn(event, fresh=True):
                    return self.bye()
        self.say("The table closed before the game ended.")
        return 1

    def bye(self) -> int:
        """Says goodbye (and how to continue); the exit code of quitting."""
        if self.resume_hint:
            self.say(self.resume_hint)
        self.say("Bye.")
        return 0

    def report(self, state: StateMessage) -> None:
        """Prints our acknowledged move and the events of a state, as this seat may see them."""
        self.renderer.observe(state.view)
        pending = self.pending
        if state.ack is not None and pending is not None and state.ack.get("ref") == pending.ref:
            self.pending = None
            if pending.echo:
                self.say(f"You: {pending.text}")
        for event in state.events:
            if isinstance(event, dict):
                text = self.renderer.event_text(event)
                if text:
                    self.say("  " + text)

    async def send(self, state: StateMessage, *, index: int | None = None, move: Move | None = None) -> None:
        """Answers the open decision of ``state`` by index or with a typed move."""
        decision_id = state.decision_id
        assert decision_id is not None
        self.answered.add(decision_id)
        if index is not None:
            chosen: Any = state.legal[index]
            ref = await self.peer.move(decision_id, index=index)
            self.pending = _Pending(ref, decision_id, self.renderer.move_text(chosen), echo=state.count > 1)
        else:
            assert move is not None
            ref = await self.peer.move(decision_id, move)
            self.pending = _Pending(ref, decision_id, self.renderer.move_text(move), echo=True)

    async def turn(self, state: StateMessage, *, fresh: bool) -> bool:
        """Asks for one move (drawing the table first when ``fresh``); False when the player quits."""
        view = state.view
        self.renderer.observe(view)
        if state.count == 1 and state.legal:
            only: Any = state.legal[0]
            self.say(f"Your only move: {self.renderer.move_text(only)}")
            await self.send(state, index=0)
            return True
        if fresh:
            self.say()
            for line in self.renderer.table(view, self.seat):
                self.say(line)
            self.list_moves(state, None)
        while True:
            self.stdout.write("> ")
            self.stdout.flush()
            line = await self.input.readline()
            if not line:
                self.say()
                return False
            answer = line.strip()
            if not answer:
                continue
            word = answer.split()[0].lower()
            if word in ("q", "quit", "exit"):
                return False
            if word in ("h", "help", "?"):
                self.show_help()
                continue
            if word in ("t", "table", "show"):
                for text in self.renderer.table(view, self.seat):
                    self.say(text)
                continue
            if word in ("l", "list", "moves"):
                rest = answer.split(None, 1)[1] if " " in answer else ""
                self.list_moves(state, rest, everything=True)
                continue
            if await self.try_move(answer, state):
                return True

    async def try_move(self, answer: str, state: StateMessage) -> bool:
        """Sends a numbered or typed move; True when one was sent (the host may still refuse it)."""
        count = len(state.legal)
        if answer.isdigit():
            number = int(answer)
            if not 1 <= number <= count:
                self.say(f"Pick a number from 1 to {count}.")
                return False
            await self.send(state, index=number - 1)
            return True
        typed = self.renderer.parse_move(answer, state.view)
        if typed is None:
            self.say("Not understood: type a move number, a move, or 'help'.")
            return False
        await self.send(state, move=typed)
        return True

    def list_moves(self, state: StateMessage, filter_text: str | None, everything: bool = False) -> None:
        """Numbers the legal moves; long lists are collapsed per group unless ``everything``."""
        moves: list[Any] = list(state.legal)
        view = state.view
        shown = [(i, m) for i, m in enumerate(moves) if not filter_text or filter_text in self.renderer.move_text(m)]
        if filter_text and not shown:
            self.say(f"No legal move matches {filter_text!r}.")
            return
        self.say(f"Your moves ({len(moves)}):")
        if everything or len(shown) <= LIST_LIMIT:
            for i, move in shown:
                self.say(self.move_line(i, move, view))
            return
        groups: dict[str, list[tuple[int, Move]]] = {}
        for i, move in shown:
            groups.setdefault(self.renderer.group_key(move), []).append((i, move))
        per_group = max(1, LIST_LIMIT // len(groups))
        for key, members in groups.items():
            for i, move in members[:per_group]:
                self.say(self.move_line(i, move, view))
            hidden = len(members) - per_group
            if hidden > 0:
                self.say(f"        ... {hidden} more '{key}' (type: list {key})")

    def move_line(self, index: int, move: Move, view: View) -> str:
        """One numbered line of the move list."""
        text = self.renderer.move_text(move)
        note = self.renderer.move_note(move, view)
        return f"  {index + 1:>4}. {text}" + (f"   ({note})" if note else "")

    def show_help(self) -> None:
        """Prints the commands."""
        self.say("Commands: NUMBER plays that move; 'list [TEXT]' lists every move (or those")
        self.say("containing TEXT); 'table' shows the table again; 'quit' leaves (the game is")
        self.say("kept in its journal: continue it with 'cardnet play --resume JOURNAL').")
        self.say("Built-in players move on their own; a forced move is played for you.")
        for line in self.renderer.help():
            self.say(line)

    def show_outcome(self, outcome: JSONValue) -> None:
        """Prints the result the host sent."""
        self.say()
        if not isinstance(outcome, dict):
            self.say("The game stopped without a result.")
            return
        result = _outcome_from_dict(outcome)
        self.say(f"Game over ({result.kind}).")
        for line in self.renderer.outcome_lines(result):
            self.say(line)


@dataclass
class _Setup:
    """A table ready to run locally: which seat is the player's, and the token that resumes it."""

    table: Table
    journal: Journal
    seat: int
    token: str | None
    header: str


def _player_name() -> str:
    name = os.environ.get("USER") or "player"
    return name[:32] if name.isprintable() else "player"


def _new_table(
    game: str,
    players: int | None,
    seed: int | None,
    options: Mapping[str, Any] | None,
    player: str,
    seat: int,
    journal_path: Path | None,
    open_seats: int = 0,
) -> _Setup:
    """A new table with the player at ``seat``; the last ``open_seats`` other seats wait for people, built-in
    players (``player``) take the rest."""
    info = GAMES[game]
    count = players if players is not None else int(info.default_players)
    if not 0 <= seat < count:
        raise IllegalMove("no_such_seat", f"seat {seat} does not exist in a {count}-player game")
    seeded = seed is not None
    table_id = secrets.token_hex(8)
    config = TableConfig(
        game=game,
        players=count,
        seed=seed if seed is not None else secrets.randbits(63),
        options=dict(options or {}),
        seeded=seeded,
        name=f"{_player_name()}'s {game}",
        table_id=table_id,
        bots={s: player for s in [s for s in range(count) if s != seat][: count - 1 - open_seats]},
    )
    # The core checks the player count and options here, before a journal file exists.
    table = Table(config, core_engine(), clock=trio.current_time)
    path = journal_path if journal_path is not None else default_journal_path(table_id)
    try:
        journal = Journal.create(path)
    except JournalError as exc:
        raise LocalError(str(exc)) from None
    journal.append(config.record())
    title = info.title
    # Only a seed the player chose is shown: a random deal's seed would reveal every hidden card.
    deal = f"seed {seed}" if seeded else "random deal"
    header = f"{title}: {count} players, you are seat {seat}, {deal}."
    return _Setup(table, journal, seat, None, header)


def _resume_table(path: Path) -> _Setup:
    try:
        journal, contents = Journal.open_resume(path)
    except JournalError as exc:
        raise LocalError(str(exc)) from None
    try:
        table = Table.from_records(contents.records, core_engine(), clock=trio.current_time)
    except (ValueError, KeyError, TypeError) as exc:
        journal.close()
        raise LocalError(f"cannot resume {path}: {exc}") from None
    people = [s for s in table.seats if s.kind != "bot"]
    if len(people) != 1:
        journal.close()
        raise LocalError(
            f"{path} has {len(people)} seats for people, not one; continue it with: cardnet host --resume {path}"
        )
    mine = people[0]
    token: str | None = None
    if mine.kind == "human":
        # We are the host, so we may re-key our own seat: the journal keeps only token hashes.
        token = secrets.token_urlsafe(32)
        journal.append(table.apply_seat_record(mine.index, mine.name or _player_name(), P.token_hash(token)))
    info = GAMES.get(table.config.game)
    title = info.title if info else table.config.game
    torn = "" if contents.torn is None else f" ({contents.torn.describe()})"
    header = (
        f"{title}: {table.config.players} players, you are seat {mine.index}; "
        f"resumed at state {table.state_id}{torn}."
    )
    return _Setup(table, journal, mine.index, token, header)


async def _play(build: Callable[[], _Setup], stdin: TextIO, stdout: TextIO) -> int:
    setup = build()
    table = setup.table
    path = setup.journal.path
    stdout.write(f"journal: {path}\n")
    stdout.write(setup.header + "\n")
    stdout.write("Type a number or a move; 'help' for commands.\n")
    stdout.flush()
    # The player's own seat is never handed to a built-in player: in local play, absence means thinking.
    host = Host(table, journal=setup.journal, options=HostOptions(seat_timeout=math.inf))
    hint = f"The game is saved; continue it with: cardnet play --resume {path}"
    code = 0
    signalled: list[int] = []
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(host.serve_in_process)

            async def connect() -> trio.abc.Stream:
                return host.open_local_stream()

            peer = Peer(
                "in-process",
                0,
                name=_player_name(),
                seat=setup.seat if setup.token is None else None,
                token=setup.token,
                connect=connect,
                reconnect=False,
            )
            await nursery.start(peer.run)
            if threading.current_thread() is threading.main_thread():
                nursery.start_soon(_stop_on_signal, nursery.cancel_scope, signalled, stdout, hint)
            ui = PlainGame(peer, table.config.game, setup.seat, table.config.players, stdin, stdout, resume_hint=hint)
            code = await ui.run()
            nursery.cancel_scope.cancel()
    finally:
        setup.journal.close()
    return signalled[0] if signalled else code


async def _stop_on_signal(scope: trio.CancelScope, signalled: list[int], stdout: TextIO, hint: str) -> None:
    """Ctrl-C or SIGTERM ends the session cleanly: every acknowledged move is already in the journal."""
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for signum in signals:
            stdout.write(f"\n{hint}\nBye.\n")
            stdout.flush()
            signalled.append(EXIT_SIGNAL_BASE + signum)
            scope.cancel()
            return


def _single(exc: BaseException) -> BaseException:
    """The one error inside nested exception groups (trio wraps a task's error in its nursery's group)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def play_local(
    game: str | None,
    *,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    player: str = "random",
    seat: int = 0,
    journal: Path | None = None,
    resume: Path | None = None,
    stdin: TextIO,
    stdout: TextIO,
) -> int:
    """Runs one local game (new, or resumed from ``resume``) through an in-process host; returns the exit code.

    ``player`` is the built-in player (or level) of every other seat. Raises :class:`LocalError` when the
    journal cannot be created or resumed, and the core's errors for a bad game setup.
    """
    if resume is not None:

        def build() -> _Setup:
            return _resume_table(resume)

    else:
        if game is None:
            raise BadOptions("name a game to play")

        def build() -> _Setup:
            return _new_table(game, players, seed, options, player, seat, journal)

    try:
        return trio.run(_play, build, stdin, stdout)
    except BaseExceptionGroup as group:
        inner = _single(group)
        if isinstance(inner, PeerError):
            raise LocalError(f"the local table refused the player: {inner}") from None
        if inner is group:
            raise
        raise inner from None
