"""Line-mode play (``cardnet play --plain``): a local game against built-in players in any terminal.

Works for every game: a per-game renderer (``cardnet.ui.plain_<game>``) draws the table and reads typed
moves when one exists, and :class:`GenericRenderer` shows views and moves as compact JSON otherwise.
Moves are picked by number or typed; a refused move is explained with the core's reason and nothing
changes. A decision with a single legal move (a forced matchstick discard) is played automatically.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import re
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from .. import ai
from .._core import Game, json_dumps, json_loads
from ..errors import BadOptions, IllegalMove, InvalidMove
from ..games import GAMES, Outcome, new_game

__all__ = ["ANSI", "GenericRenderer", "PlainGame", "play_plain", "renderer_for", "use_colour", "visible_len"]

Move = dict[str, Any]
View = dict[str, Any]

#: Lists longer than this are collapsed into groups.
LIST_LIMIT = 40

#: ANSI foreground codes for the colour names renderers use.
ANSI = {"red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35", "cyan": "36", "bold": "1"}
_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


def visible_len(text: str) -> int:
    """Length of ``text`` on screen (ANSI colour codes take no room)."""
    return len(_ANSI_RE.sub("", text))


def use_colour(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal and ``NO_COLOR`` is unset or empty."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")


class GenericRenderer:
    """Draws any game as JSON-ish text; per-game renderers subclass it."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        #: Whether :meth:`paint` may emit ANSI colour codes (set by the caller from its output stream).
        self.colour = False

    def width(self) -> int:
        """Terminal width (80 when unknown)."""
        return shutil.get_terminal_size((80, 24)).columns

    def paint(self, text: str, colour: str | None) -> str:
        """``text`` in ``colour`` (a key of :data:`ANSI`) when colour is on, else unchanged."""
        code = ANSI.get(colour or "")
        if not self.colour or code is None:
            return text
        return f"\x1b[{code}m{text}\x1b[0m"

    def wrap(self, head: str, items: Sequence[str], indent: str = "    ", sep: str = "  ") -> list[str]:
        """``head`` followed by ``items`` separated by ``sep``, wrapped to the terminal width; an item is
        never split and continuation lines start with ``indent``."""
        limit = max(40, self.width() - 1)
        lines: list[str] = []
        line = head
        fresh = True
        for item in items:
            joiner = sep if not fresh else ("" if not head or head.endswith(" ") else " ")
            if not fresh and visible_len(line) + len(joiner) + visible_len(item) > limit:
                lines.append(line)
                line, joiner = indent, ""
            line += joiner + item
            fresh = False
        lines.append(line)
        return [text.rstrip() for text in lines]

    def observe(self, view: View) -> None:
        """Called with the player's latest view before its events are shown, for renderers whose event
        lines need the table's static facts (such as which seat plays which colour)."""

    def table(self, view: View, me: int) -> list[str]:
        """Lines describing the table as ``me`` sees it."""
        lines = ["Table:"]
        lines += _json_lines(view.get("public"), "  ")
        private = view.get("private")
        if private is not None:
            lines.append("You:")
            lines += _json_lines(private, "  ")
        return lines

    def move_text(self, move: Move) -> str:
        """The move as one could type it."""
        # The same `TYPE key=value ...` form parse_move reads, so any listed move can be typed back.
        fields = " ".join(f"{k}={json_dumps(v)}" for k, v in move.items() if k != "type")
        return f"{move.get('type', '?')} {fields}".rstrip()

    def move_note(self, move: Move, view: View) -> str:
        """A short explanation shown after the move in the list (empty for none)."""
        return ""

    def group_key(self, move: Move) -> str:
        """Moves with the same key are collapsed together in long lists."""
        return str(move.get("type", "?"))

    def parse_move(self, text: str, view: View) -> Move | None:
        """A typed move: JSON text, ``TYPE``, or ``TYPE key=value ...``; None when not understood."""
        text = text.strip()
        if text.startswith("{"):
            try:
                value = json_loads(text)
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
        words = text.split()
        if not words or not words[0].replace("_", "").isalpha():
            return None
        move: Move = {"type": words[0]}
        for word in words[1:]:
            key, sep, raw = word.partition("=")
            if not sep:
                return None
            try:
                move[key] = json_loads(raw)
            except ValueError:
                move[key] = raw
        return move

    def event_text(self, event: Mapping[str, Any]) -> str | None:
        """One line for an event (None to stay silent)."""
        kind = event.get("type", "event")
        rest = {k: v for k, v in event.items() if k != "type"}
        if "seat" in rest and isinstance(rest["seat"], int):
            who = self.name(rest.pop("seat"))
            return f"{who}: {kind} {json_dumps(rest) if rest else ''}".rstrip()
        return f"{kind} {json_dumps(rest) if rest else ''}".rstrip()

    def name(self, seat: int) -> str:
        """How a seat is called on screen."""
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"

    def does(self, seat: int, third_person: str, base: str) -> str:
        """``"Seat 2 plays"`` or ``"You play"``: the seat's name with the verb agreeing."""
        name = self.name(seat)
        return f"{name} {base if name == 'You' else third_person}"

    def outcome_lines(self, outcome: Outcome) -> list[str]:
        """The final standings, one line per seat from best to worst."""
        lines = []
        for place, seat in enumerate(outcome.order, start=1):
            won = " - winner" if seat in outcome.winners else ""
            lines.append(f"  {place}. {self.name(seat)} (score {outcome.scores[seat]}){won}")
        return lines

    def help(self) -> list[str]:
        """Game-specific help lines about typing moves."""
        return [
            "Type a move as listed (TYPE key=value ..., values in JSON) or as one JSON object.",
        ]


def _json_lines(value: Any, indent: str) -> list[str]:
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            if isinstance(item, dict) and item and len(json_dumps(item)) > 60:
                lines.append(f"{indent}{key}:")
                lines += _json_lines(item, indent + "  ")
            else:
                lines.append(f"{indent}{key}: {json_dumps(item)}")
        return lines
    return [indent + json_dumps(value)]


def renderer_for(game: str, names: Sequence[str]) -> GenericRenderer:
    """The game's own renderer (``cardnet.ui.plain_<game>.Renderer``) or the generic one."""
    module_name = f"cardnet.ui.plain_{game}"
    if importlib.util.find_spec(module_name) is not None:
        module = importlib.import_module(module_name)
        cls: type[GenericRenderer] = module.Renderer
        return cls(names)
    return GenericRenderer(names)


class PlainGame:
    """One line-mode game: the human at ``seat``, built-in players elsewhere."""

    def __init__(
        self,
        game: Game,
        seat: int,
        choose: Callable[[Game, int], int],
        stdin: TextIO,
        stdout: TextIO,
        renderer: GenericRenderer | None = None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.choose = choose
        self.stdin = stdin
        self.stdout = stdout
        names = [("You" if s == seat else f"Seat {s}") for s in range(game.players)]
        self.renderer = renderer or renderer_for(game.game, names)
        self.renderer.colour = use_colour(stdout)

    def say(self, line: str = "") -> None:
        """Prints one line."""
        self.stdout.write(line + "\n")
        self.stdout.flush()

    def run(self) -> int:
        """Plays until the game ends or the player quits; returns the exit code."""
        info = GAMES.get(self.game.game)
        title = info.title if info else self.game.game
        self.say(f"{title}: {self.game.players} players, you are seat {self.seat}, seed {self.game.seed}.")
        self.say("Type a number or a move; 'help' for commands.")
        while True:
            to_act = self.game.to_act()
            if not to_act:
                break
            bots = [s for s in to_act if s != self.seat]
            if bots:
                # In a simultaneous decision the bot commits first; the core hides its choice from us.
                self.apply_index(bots[0], self.choose(self.game, bots[0]))
                continue
            if not self.human_turn():
                self.say("Bye.")
                return 0
        self.show_outcome(self.game.outcome())
        return 0

    def apply_index(self, seat: int, index: int) -> None:
        """Plays a move by index and reports what the human may learn of it."""
        self.game.apply_index(seat, index)
        self.report()

    def report(self) -> None:
        """Prints the last move's events as the human sees them."""
        self.renderer.observe(self.game.view(self.seat))
        for event in self.game.events_for(self.seat):
            text = self.renderer.event_text(event)
            if text:
                self.say("  " + text)

    def human_turn(self) -> bool:
        """Asks for one move; False when the player quits (or input ends)."""
        view = self.game.view(self.seat)
        self.renderer.observe(view)
        count = self.game.legal_count(self.seat)
        if count == 1:
            move = self.game.legal_move(self.seat, 0)
            self.say(f"Your only move: {self.renderer.move_text(move)}")
            self.apply_index(self.seat, 0)
            return True
        self.say()
        for line in self.renderer.table(view, self.seat):
            self.say(line)
        self.list_moves(view, None)
        while True:
            self.stdout.write("> ")
            self.stdout.flush()
            line = self.stdin.readline()
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
                self.list_moves(view, rest, everything=True)
                continue
            if self.try_move(answer, view, count):
                return True

    def try_move(self, answer: str, view: View, count: int) -> bool:
        """Plays a number or a typed move; explains a refusal. True when a move was played."""
        if answer.isdigit():
            number = int(answer)
            if not 1 <= number <= count:
                self.say(f"Pick a number from 1 to {count}.")
                return False
            move = self.game.legal_move(self.seat, number - 1)
            self.say(f"You: {self.renderer.move_text(move)}")
            self.apply_index(self.seat, number - 1)
            return True
        typed = self.renderer.parse_move(answer, view)
        if typed is None:
            self.say("Not understood: type a move number, a move, or 'help'.")
            return False
        try:
            self.game.apply(self.seat, typed)
        except (IllegalMove, InvalidMove) as e:
            self.say(f"Refused: {e.reason}")
            return False
        self.say(f"You: {self.renderer.move_text(typed)}")
        self.report()
        return True

    def list_moves(self, view: View, filter_text: str | None, everything: bool = False) -> None:
        """Numbers the legal moves; long lists are collapsed per group unless ``everything``."""
        moves = self.game.legal_moves(self.seat)
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
        self.say("containing TEXT); 'table' shows the table again; 'quit' leaves.")
        self.say("Built-in players move on their own; a forced move is played for you.")
        for line in self.renderer.help():
            self.say(line)

    def show_outcome(self, outcome: Outcome | None) -> None:
        """Prints the result."""
        self.say()
        if outcome is None:
            self.say("The game stopped without a result.")
            return
        self.say(f"Game over ({outcome.kind}).")
        for line in self.renderer.outcome_lines(outcome):
            self.say(line)


def play_plain(
    game: str,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    level: str | None = None,
    bot: str = "random",
    seat: int = 0,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Plays one line-mode game on the terminal (or the given streams); returns the exit code."""
    if level is None and bot not in ai.PLAYERS and not bot.startswith("ismcts:"):
        raise BadOptions(f"unknown player {bot!r} ({', '.join(ai.PLAYERS)}, ismcts:N)")
    g = new_game(game, players=players, seed=seed, options=options)
    if not 0 <= seat < g.players:
        raise IllegalMove("no_such_seat", f"seat {seat} does not exist in a {g.players}-player game")
    # The bots draw their choices from a stream seeded by the game, so a seeded game replays exactly
    # when the same moves are typed.
    rng = random.Random(g.seed)

    def choose(current: Game, who: int) -> int:
        return ai.choose_index(current, who, player=bot, level=level, seed=rng.getrandbits(64))

    return PlainGame(g, seat, choose, stdin or sys.stdin, stdout or sys.stdout).run()
