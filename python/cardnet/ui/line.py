"""The line-mode game loop of one seat: a :class:`~cardnet.net.peer.Peer`'s states drawn by the renderers, moves
typed on a line.

Every line-mode front end runs this one loop: local play (``cardnet play --plain``, over an in-process host),
a LAN table (``cardnet join HOST:PORT``) and the host's own seat (``cardnet host`` without ``--headless``).
The loop sees only what the protocol sends its seat, like any remote player.
"""

from __future__ import annotations

import os
import shutil
import signal
import textwrap
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO, Union

import trio

from ..games import outcome_from_dict
from ..i18n import current_language
from ..i18n import gettext as _
from ..net.peer import (
    ChatMessage,
    ConnectionLost,
    HostError,
    Peer,
    PeerEvent,
    Reconnected,
    Reconnecting,
    RematchVotes,
    SeatsChanged,
)
from ..protocol import JSONValue, StateMessage, canonical
from .render import (
    COMMANDS,
    Move,
    MoveTextError,
    command_word,
    fit_to_terminal,
    move_list,
    reads,
    renderer_for,
    seat_labels,
    use_colour,
    watching_words,
    you,
)

__all__ = ["EXIT_SIGNAL_BASE", "PlainGame", "refusal_text", "seat_names"]

#: Exit code of a local game stopped by Ctrl-C or SIGTERM: the shell's 128 + signal number.
EXIT_SIGNAL_BASE = 128


def rematch_prompt() -> str:
    """The prompt after a game at a shared table."""
    return _("{rematch} or {quit}> ").format(rematch=command_word("rematch"), quit=command_word("quit"))


def refusal_text(error: HostError, game: str | None = None) -> str:
    """What to tell the player about a refused message: the host's refusals in a player's words, a move the
    core refuses in the words of :mod:`cardnet.refusals` (the host's own reason for anything else)."""
    host_refusals = {
        "stale_decision": _("too late: the table moved on before your move arrived"),
        "wrong_seat": _("it is not your turn"),
        "not_started": _("the game has not started: some seats are still open"),
        "game_over": _("the game is over"),
        "spectator": _("spectators watch; they cannot move"),
        "chat_disabled": _("chat is off at this table"),
        "chat_too_long": _("that message is too long"),
        "chat_rate": _("you are chatting too fast; wait a moment"),
    }
    if error.code in host_refusals:
        return host_refusals[error.code]
    from ..refusals import refusal_message

    # English keeps the core's own sentence, which names the cards and numbers involved.
    translated = refusal_message(error.code, game) if current_language() != "en" else None
    return translated.rstrip(".") if translated else error.reason


def _typed_command(word: str) -> str | None:
    """The line-mode command a typed word names (its English word), in the player's language or English."""
    aliases = {"q": "quit", "exit": "quit", "leave": "quit", "h": "help", "?": "help", "r": "rematch"}
    aliases |= {"t": "table", "show": "table", "l": "list", "moves": "list", "m": "more"}
    if word in aliases:
        return aliases[word]
    for command in COMMANDS:
        if reads(word, command, command_word):
            return command
    return None


def _outcome_kind(kind: str) -> str:
    """An outcome's kind (``ranking``, ``match``, ...) in the current language."""
    kinds = {
        "ranking": _("ranking"),
        "match": _("match"),
        "settlement": _("settlement"),
        "scores": _("scores"),
        "draw": _("draw"),
    }
    return kinds.get(kind, kind)


def seat_names(seats: Sequence[JSONValue], me: int | None) -> list[str]:
    """Names for the renderer from a ``seats`` list (:func:`~cardnet.ui.render.seat_labels`, as every client)."""
    return seat_labels(seats, me)


@dataclass
class _Pending:
    """A move sent and not yet acknowledged: its ref, its text, and whether to echo it on acknowledgement."""

    ref: int
    decision_id: int
    text: str
    echo: bool


@dataclass
class _Line:
    """A line the player typed (empty at end of input)."""

    text: str


@dataclass
class _PeerEnded:
    """The peer's event stream ended."""


_Item = Union[PeerEvent, _Line, _PeerEnded]


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
        line, _sep, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace") + "\n"

    async def readline(self) -> str:
        """The next line with its newline; an empty string at end of input."""
        fd = self.fd
        if fd is None:
            return self.stream.readline()
        return await trio.to_thread.run_sync(self._read_fd, fd, abandon_on_cancel=True)


class PlainGame:
    """The line-mode UI of one seat (or a spectator, ``seat=None``), fed by a :class:`~cardnet.net.peer.Peer`.

    Moves are picked by number (from 1) or typed; a refusal is explained and nothing changes. A decision with
    a single legal move is played automatically. ``say TEXT`` chats, ``seats`` lists who sits where.

    ``solo`` is for local play, where the player is the only person at the table: input is read only at the
    prompt (so scripted input replays a game exactly), the player is asked only once the built-in players have
    committed their simultaneous choices, and Ctrl-C exits with 128 + the signal number. Otherwise (a LAN
    table) a terminal's input is read all the time (chat and commands work while others think), the player
    is asked as soon as a decision is theirs, seat changes are shown, and Ctrl-C leaves with exit code 0. ``leave_lines`` are printed when the player leaves (quit,
    Ctrl-D, Ctrl-C).
    """

    def __init__(
        self,
        peer: Peer,
        game: str,
        seat: int | None,
        players: int,
        stdin: TextIO,
        stdout: TextIO,
        *,
        solo: bool = True,
        leave_lines: Sequence[str] | None = None,
        seats: Sequence[JSONValue] = (),
        leave_warning: Callable[[], str | None] | None = None,
    ) -> None:
        self.peer = peer
        self.game = game
        self.seat = seat
        self.solo = solo
        isatty = getattr(stdin, "isatty", None)
        #: Read a line only when the prompt asks for one: in local play, and whenever the input is a script
        #: rather than a terminal (so its lines answer the decisions in order, however fast they arrive).
        self.on_demand = solo or not (isatty and isatty())
        #: At a shared table, scripted input is read ahead (its lines still wait for the prompt), so that its end
        #: is noticed while nothing is asked, e.g. while the table waits for players: the player then leaves.
        self.read_ahead = self.on_demand and not solo
        self._input_ended = False
        out_isatty = getattr(stdout, "isatty", None)
        #: Output goes to a terminal: a waiting prompt is wiped, not left behind, when other lines arrive.
        self.terminal = bool(out_isatty and out_isatty())
        self.input = _Input(stdin)
        self.stdout = stdout
        self.leave_lines = [_("Bye.")] if leave_lines is None else list(leave_lines)
        #: What typing 'quit' would do to others (the host's own table closes under its players), asked first.
        self.leave_warning = leave_warning
        self._warned_leave = False
        names = (
            seat_names(seats, seat)
            if seats
            else [(you() if s == seat else _("Seat {seat}").format(seat=s)) for s in range(players)]
        )
        self.renderer = renderer_for(game, names)
        self.renderer.colour = use_colour(stdout)
        self.seats: list[JSONValue] = list(seats)
        #: How many spectators watch, as the host's last ``seats`` message said (None until it says).
        self.spectators: int | None = None
        self.pending: _Pending | None = None
        #: Where ``more`` continues the move list: (decision id, filter text, next position).
        self.more: tuple[int | None, str | None, int] | None = None
        #: The open decision the player is being asked about (None when not prompting).
        self.open: StateMessage | None = None
        self.latest: StateMessage | None = None
        self.connected = True
        #: The last line on a terminal is the reconnect status, which the next attempt rewrites in place.
        self._status_shown = False
        self._status_rows = 1
        #: Who (re)joins a shared table sees it at once, not only when a turn comes (a spectator has none).
        self._table_owed = not solo
        self._asking = False
        self._at_prompt = False
        self._line_wanted = trio.Event()
        #: The game that ended and whose rematch is being asked about (shared tables only), else None.
        self.ended_game: int | None = None
        #: Whether this seat voted for a rematch of :attr:`ended_game`.
        self.voted = False
        self._told_over = False

    def say(self, line: str = "", *, fit: bool = True) -> None:
        """Prints one line, wrapped to the terminal unless ``fit`` is off (a command to copy stays one line). A
        prompt waiting for input is wiped first on a terminal (the loop draws it again below the new lines), else
        ended with a newline. Text typed after that prompt is still read when Enter is pressed; only its echo is
        gone."""
        if self._at_prompt:
            self._at_prompt = False
            self.stdout.write("\r\x1b[K" if self.terminal else "\n")
        self._status_shown = False
        self.stdout.write("\n".join(fit_to_terminal(line) if fit else [line]) + "\n")
        self.stdout.flush()

    def status(self, line: str) -> None:
        """Prints a line that the next status replaces on a terminal (the reconnect attempts: one line that
        updates); elsewhere it is an ordinary line."""
        if self.terminal and self._status_shown:
            if self._at_prompt:
                self._at_prompt = False
                self.stdout.write("\r\x1b[K")
            # Back up over the rows the previous status took (a long one wraps), clear them, write the new one.
            self.stdout.write("\x1b[1A\r\x1b[K" * self._status_rows + line + "\n")
            self.stdout.flush()
        else:
            # Whole: the next status backs up over the rows this one takes as the terminal wraps it.
            self.say(line, fit=False)
        columns = max(1, shutil.get_terminal_size((80, 24)).columns)
        self._status_rows = max(1, -(-len(line) // columns))
        self._status_shown = self.terminal

    # -- running ----------------------------------------------------------------------------------------------

    async def run(self) -> int:
        """Plays until the game ends, the player leaves or the host is gone; returns the exit code."""
        send, receive = trio.open_memory_channel[_Item](0)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._pump_events, send.clone())
            nursery.start_soon(self._pump_input, send)
            signalled: list[int] = []
            if threading.current_thread() is threading.main_thread():
                nursery.start_soon(self._stop_on_signal, nursery.cancel_scope, signalled)
            code = await self._loop(receive)
            nursery.cancel_scope.cancel()
        return signalled[0] if signalled else code

    async def _pump_events(self, send: trio.MemorySendChannel[_Item]) -> None:
        async with send:
            async for event in self.peer.events:
                await send.send(event)
            await send.send(_PeerEnded())

    async def _pump_input(self, send: trio.MemorySendChannel[_Item]) -> None:
        async with send:
            while True:
                if self.on_demand and not self.read_ahead:
                    await self._line_wanted.wait()
                    self._line_wanted = trio.Event()
                line = await self.input.readline()
                # A spectator is never asked: its scripted lines are commands, carried out as they come.
                if line and self.read_ahead and self.seat is not None:
                    await self._line_wanted.wait()
                    self._line_wanted = trio.Event()
                await send.send(_Line(line))
                if not line:
                    return

    async def _stop_on_signal(self, scope: trio.CancelScope, signalled: list[int]) -> None:
        """Ctrl-C or SIGTERM leaves cleanly: every acknowledged move is already in the host's journal."""
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for signum in signals:
                # The terminal echoed ^C where the cursor was (after the prompt, if one waits): end that line.
                self._at_prompt = False
                self.stdout.write("\n")
                self.leave()
                signalled.append(EXIT_SIGNAL_BASE + signum if self.solo else 0)
                scope.cancel()
                return

    def leave(self) -> int:
        """Says goodbye (and how to come back); the exit code of leaving on purpose."""
        for line in self.leave_lines:
            self.say(line, fit=False)
        return 0

    def _prompt(self) -> None:
        """Shows the prompt when a decision is open and no answer is on its way (or, after a game at a shared
        table, the rematch question), and asks for a line."""
        rematch = self.ended_game is not None and self.seat is not None and not self.voted
        if (self.open is None and not rematch) or self.pending is not None or self._at_prompt:
            return
        self.stdout.write(rematch_prompt() if rematch else "> ")
        self.stdout.flush()
        self._at_prompt = True
        if self.on_demand and not self._asking:
            self._asking = True
            self._line_wanted.set()

    async def _loop(self, items: trio.MemoryReceiveChannel[_Item]) -> int:
        async for item in items:
            if isinstance(item, _Line):
                # The player ended the line with Enter: output continues below it.
                self._asking = False
                self._at_prompt = False
                if not item.text and self.read_ahead and self.pending is not None:
                    # Scripted input ended right after a move: see it acknowledged (or refused) before leaving.
                    self._input_ended = True
                    continue
                code = await self.on_line(item.text)
                if code is not None:
                    return code
            elif isinstance(item, _PeerEnded):
                return self.on_closed()
            else:
                code = await self.on_event(item)
                if code is not None:
                    return code
                if self._input_ended and self.pending is None:
                    self.say()
                    return self.leave()
            self._prompt()
        return self.on_closed()

    # -- what the host sends ----------------------------------------------------------------------------------

    async def on_event(self, event: PeerEvent) -> int | None:
        """Shows one event from the peer; an exit code when the session is over."""
        if isinstance(event, StateMessage):
            return await self.on_state(event)
        if isinstance(event, HostError):
            await self.on_error(event)
        elif isinstance(event, ChatMessage):
            who = _("{name} (spectator)").format(name=event.name) if event.spectator else event.name
            line = f"<{who}> {event.text}"
            self.say(_("(earlier) {line}").format(line=line) if event.earlier else line)
        elif isinstance(event, SeatsChanged):
            self.seats = list(event.seats)
            if event.spectators is not None:
                self.spectators = event.spectators
            if not self.solo:
                # In local play the other seats keep their numbers ("Seat 2"): they are all built-in players.
                self.renderer.names = seat_names(self.seats, self.seat)
                self.show_seats()
        elif isinstance(event, ConnectionLost):
            self.connected = False
            if event.silent:
                self.say(_("The host is not answering ({reason}); reconnecting...").format(reason=event.reason))
            else:
                self.say(_("Lost the connection to the host ({reason}); reconnecting...").format(reason=event.reason))
        elif isinstance(event, Reconnecting):
            self.status(
                _("Reconnecting: attempt {attempt} failed ({reason}); next try in {delay} s.").format(
                    attempt=event.attempt, reason=event.reason, delay=f"{event.delay:.1f}"
                )
            )
        elif isinstance(event, Reconnected):
            self.connected = True
            self.status(_("Reconnected to the host."))
            self._table_owed = True
        elif isinstance(event, RematchVotes):
            self.show_votes(event)
        return None

    def offer_rematch(self) -> None:
        """After a game at a shared table: a seated player is offered another game; a spectator keeps watching."""
        self.voted, self._told_over = False, False
        if self.seat is None:
            self.say(
                _("You keep watching: a rematch starts here when every seat asks for one ('{quit}' leaves).").format(
                    quit=command_word("quit")
                )
            )
        else:
            self.say(
                _("Type '{rematch}' for another game with the same seats, or '{quit}' to leave the table.").format(
                    rematch=command_word("rematch"), quit=command_word("quit")
                )
            )

    def show_votes(self, votes: RematchVotes) -> None:
        """Who asked for a rematch, and whom it waits for."""
        if self.ended_game is None or votes.game_no != self.ended_game:
            return
        asked = [self.renderer.name(s) for s in votes.votes]
        # Only the players who are here vote (built-in players follow them).
        people = [
            i
            for i, seat in enumerate(self.seats)
            if isinstance(seat, dict) and seat.get("kind") == "human" and seat.get("connected") and not seat.get("auto")
        ]
        waiting = [self.renderer.name(s) for s in people if s not in votes.votes]
        if asked:
            if waiting:
                line = _("Rematch asked by {asked}; waiting for {waiting}.")
            else:
                line = _("Rematch asked by {asked}.")
            self.say(line.format(asked=", ".join(asked), waiting=", ".join(waiting)))

    async def on_state(self, state: StateMessage) -> int | None:
        """Reports a state and asks for a move when the open decision is this seat's."""
        self.latest = state
        session = self.peer.session
        pending = self.pending
        if pending is not None and pending.decision_id == state.decision_id and session.needs_answer(state):
            # The session re-opened the decision of our move (after a reconnect the host may never have read it):
            # it is asked again.
            self.pending = None
        self.report(state)
        owed, self._table_owed = self._table_owed, False
        if state.over:
            self.open = None
            if self.ended_game == state.game_no:
                # The same finished game again (a snapshot after a reconnect): already told.
                return None
            self.show_outcome(state.outcome)
            if self.solo:
                return 0
            self.ended_game = state.game_no
            self.offer_rematch()
            return None
        if self.ended_game is not None and state.game_no > self.ended_game:
            self.ended_game = None
            self.say(_("A new game begins (game {number}), with the same seats.").format(number=state.game_no + 1))
        if self.open is not None and self.open.decision_id == state.decision_id:
            # The same decision is still open (another seat acted meanwhile): keep asking without redrawing.
            self.open = state
            return None
        self.open = None
        if (
            self.seat is not None
            and session.needs_answer(state)
            and self.pending is None
            and (state.to_act == [self.seat] if self.solo else self.seat in state.to_act)
        ):
            self.open = state
            await self.turn(state)
        elif owed:
            self.say()
            for text in self.renderer.table(state.view, self.me):
                self.say(text)
        return None

    async def on_error(self, error: HostError) -> None:
        """A refusal: of our pending move (the same decision is asked again when still open), or of anything else."""
        pending = self.pending
        if pending is None or error.ref != pending.ref:
            self.say(_("Host: {reason}.").format(reason=refusal_text(error, self.game)))
            return
        self.pending = None
        self.say(_("Refused: {reason}").format(reason=refusal_text(error, self.game)))
        latest = self.latest
        if latest is not None and latest.decision_id == pending.decision_id:
            # Nothing changed at the table: the same decision is still ours to answer (the session re-opened it).
            self.open = latest

    def on_closed(self) -> int:
        """The peer stopped: the host closed the table on purpose (exit code 0: nothing failed here), or it is
        gone (after the reconnect attempts; exit code 1)."""
        failure = self.peer.failure
        if failure is not None:
            self.say(_("The host is gone: {reason}.").format(reason=failure.reason))
        elif self.peer.session.closed_by_host:
            self.say(_("The host closed the table."))
            return 0
        else:
            self.say(_("The table closed before the game ended."))
        return 1

    def report(self, state: StateMessage) -> None:
        """Prints our acknowledged move and the events of a state, as this seat may see them."""
        self.renderer.observe(state.view)
        pending = self.pending
        if state.ack is not None and pending is not None and state.ack.get("ref") == pending.ref:
            self.pending = None
            if pending.echo:
                self.say(_("You: {move}").format(move=pending.text))
        for event in state.events:
            if isinstance(event, dict):
                text = self.renderer.event_text(event)
                if text:
                    self.say("  " + text)

    async def turn(self, state: StateMessage) -> None:
        """Starts a decision: plays a forced move, else draws the table and the numbered moves."""
        if state.count == 1 and state.legal:
            only: Any = state.legal[0]
            self.say(_("Your only move: {move}").format(move=self.renderer.move_text(only)))
            await self.send(state, index=0)
            return
        self.say()
        drawn = self.renderer.table(state.view, self.me)
        for line in drawn:
            self.say(line)
        self.list_moves(state, None, table_rows=len(drawn))

    @property
    def me(self) -> int:
        """The seat the table is drawn for (-1 for a spectator)."""
        return self.seat if self.seat is not None else -1

    # -- what the player types --------------------------------------------------------------------------------

    async def on_line(self, line: str) -> int | None:
        """Handles one typed line; an exit code when the player leaves."""
        if not line:
            self.say()
            return self.leave()
        answer = line.strip()
        if not answer:
            return None
        word, _sep, rest = answer.partition(" ")
        word = word.lower()
        rest = rest.strip()
        command = _typed_command(word)
        if command == "quit":
            warning = self.leave_warning() if self.leave_warning is not None and not self._warned_leave else None
            if warning is not None:
                self._warned_leave = True
                again = _("{warning} Type '{quit}' again to leave anyway.")
                self.say(again.format(warning=warning, quit=command_word("quit")))
                return None
            return self.leave()
        if command == "help":
            self.show_help()
        elif command == "rematch" and not self.solo:
            await self.ask_rematch()
        elif command == "table":
            shown = self.open or self.latest
            if shown is None:
                self.say(_("The game has not started yet."))
            else:
                for text in self.renderer.table(shown.view, self.me):
                    self.say(text)
        elif command == "list":
            if self.open is None:
                self.say(_("You have no move to make now."))
            else:
                self.list_moves(self.open, rest, start=0)
        elif command == "more":
            more = self.more
            if self.open is None or more is None or more[0] != self.open.decision_id:
                self.say(_("No more moves to show: '{list}' starts the list again.").format(list=command_word("list")))
            else:
                self.list_moves(self.open, more[1], start=more[2])
        elif command == "say":
            await self.chat(rest)
        elif command == "seats":
            self.show_seats()
        elif self.ended_game is not None and self.open is None:
            if not self._told_over:
                self._told_over = True
                self.say(
                    _("The game is over: '{rematch}' asks for another game, '{quit}' leaves.").format(
                        rematch=command_word("rematch"), quit=command_word("quit")
                    )
                )
        elif self.open is None or self.pending is not None:
            self.say(self.waiting_text())
        elif not self.connected:
            self.say(_("Not connected to the host; wait for the reconnect."))
        else:
            await self.try_move(answer, self.open)
        return None

    async def ask_rematch(self) -> None:
        """Votes for another game at this table, once it is over."""
        if self.seat is None:
            self.say(_("Spectators do not vote for a rematch; the seated players do."))
        elif self.ended_game is None:
            self.say(_("The game is not over yet."))
        elif self.voted:
            self.say(_("You asked for a rematch already; waiting for the other seats."))
        elif not self.connected:
            self.say(_("Not connected to the host; wait for the reconnect."))
        else:
            await self.peer.rematch()
            self.voted = True
            self.say(
                _("Rematch asked; it starts when every seat has asked ('{quit}' leaves).").format(
                    quit=command_word("quit")
                )
            )

    async def chat(self, text: str) -> None:
        """Sends a chat line (the host relays it to everyone, us included)."""
        if not text:
            self.say(_("Type: {say} TEXT").format(say=command_word("say")))
            return
        try:
            await self.peer.chat(text)
        except ValueError as exc:
            self.say(_("Not sent: {reason}").format(reason=exc))

    def waiting_text(self) -> str:
        """Why no move can be made now."""
        if self.seat is None:
            return _("You are watching; spectators cannot move.")
        latest = self.latest
        if latest is None:
            return _("The game has not started yet: waiting for every seat to fill.")
        if self.pending is not None:
            return _("Your move is on its way to the host.")
        others = [self.renderer.name(s) for s in latest.to_act if s != self.seat]
        if others:
            return _("It is not your turn (waiting for {names}).").format(names=", ".join(others))
        return _("It is not your turn.")

    async def send(self, state: StateMessage, *, index: int | None = None, move: Move | None = None) -> None:
        """Answers the open decision of ``state`` by index or with a typed move."""
        decision_id = state.decision_id
        assert decision_id is not None
        # The peer's session counts the decision as answered from here on (until the host refuses the move).
        if index is not None:
            chosen: Any = state.legal[index]
            ref = await self.peer.move(decision_id, index=index)
            self.pending = _Pending(ref, decision_id, self.renderer.move_text(chosen), echo=state.count > 1)
        else:
            assert move is not None
            ref = await self.peer.move(decision_id, move)
            self.pending = _Pending(ref, decision_id, self.renderer.move_text(move), echo=True)

    async def try_move(self, answer: str, state: StateMessage) -> bool:
        """Sends a numbered or typed move; True when one was sent (the host may still refuse it)."""
        count = len(state.legal)
        if answer.isdigit():
            number = int(answer)
            if not 1 <= number <= count:
                self.say(_("Pick a number from 1 to {count}.").format(count=count))
                return False
            await self.send(state, index=number - 1)
            return True
        try:
            typed = self.renderer.parse_move(answer, state.view)
        except MoveTextError as refused:
            self.say(_("Refused: {reason}").format(reason=refused))
            return False
        if typed is None:
            self.say(_("Not understood: type a move number, a move, or '{help}'.").format(help=command_word("help")))
            return False
        await self.send(state, move=typed)
        return True

    # -- drawing ----------------------------------------------------------------------------------------------

    def show_seats(self) -> None:
        """One line listing every seat: who sits there and whether they are here, then how many watch."""
        parts = []
        labels = seat_labels(self.seats, self.seat)
        for i, seat in enumerate(self.seats):
            if not isinstance(seat, dict):
                continue
            kind = seat.get("kind")
            if kind == "open":
                parts.append(_("{seat}: (open)").format(seat=i))
                continue
            # The player's own seat reads "you" here, mid-sentence, where the table says "You".
            name = _("you") if i == self.seat else labels[i]
            if seat.get("auto"):
                parts.append(_("{seat}: {name} (away; a built-in player stands in)").format(seat=i, name=name))
            elif kind != "bot" and not seat.get("connected"):
                parts.append(_("{seat}: {name} (away)").format(seat=i, name=name))
            else:
                parts.append(f"{i}: {name}")
        if parts:
            watching = watching_words(self.spectators)
            if watching:
                self.say(_("Seats: {seats}; {watching}").format(seats=", ".join(parts), watching=watching))
            else:
                self.say(_("Seats: {seats}").format(seats=", ".join(parts)))

    def list_moves(
        self, state: StateMessage, filter_text: str | None, *, table_rows: int = 0, start: int | None = None
    ) -> None:
        """Numbers the legal moves in what the terminal has left below a table of ``table_rows`` lines, so
        the hand and the prompt stay in view; ``start`` pages through every move (``list``, then ``more``)."""
        rows = shutil.get_terminal_size((80, 24)).lines
        room = rows - table_rows - 2 if start is None else rows - 2
        moves: list[Any] = list(state.legal)
        page = move_list(self.renderer, moves, state.view, room=room, filter_text=filter_text, start=start)
        for line in page.lines:
            self.say(line)
        self.more = None if page.next_start is None else (state.decision_id, filter_text, page.next_start)

    def show_help(self) -> None:
        """Prints the commands, each paragraph wrapped at words to the terminal's width."""
        words = {command: command_word(command) for command in COMMANDS}
        commands = _(
            "Commands: NUMBER plays that move; '{list} [TEXT]' lists every move (or those containing TEXT) a page at"
            " a time, '{more}' the next page; '{table}' shows the table again; '{say} TEXT' chats; '{seats}' shows who"
            " sits where and how many watch; '{quit}' (or Ctrl-D, Ctrl-C) leaves."
        ).format(**words)
        if self.solo:
            after = _(
                "The game is kept in its journal; 'cardnet play --resume JOURNAL' continues it. Built-in players move"
                " on their own; a forced move is played for you."
            )
        else:
            after = _(
                "After a game, '{rematch}' asks for another one with the same seats. A forced move is played for you;"
                " while you are away a built-in player stands in."
            ).format(**words)
        paragraphs = [commands, after]
        width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
        for text in [*paragraphs, *self.renderer.help()]:
            for line in textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False):
                self.say(line)

    def show_outcome(self, outcome: JSONValue) -> None:
        """Prints the result the host sent."""
        self.say()
        if not isinstance(outcome, dict):
            self.say(_("The game stopped without a result."))
            return
        try:
            result = outcome_from_dict(outcome)
        except (KeyError, TypeError, ValueError):
            # A game this client does not know the outcome shape of: show the host's result as it came.
            self.say(_("Game over: {outcome}").format(outcome=canonical(outcome)))
            return
        self.say(_("Game over ({kind}).").format(kind=_outcome_kind(result.kind)))
        for line in self.renderer.outcome_lines(result):
            self.say(line)
