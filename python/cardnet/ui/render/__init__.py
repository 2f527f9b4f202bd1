"""Per-game renderers: they turn a view, a decision's moves and events into text lines for any front end.

:class:`GenericRenderer` shows any game as compact JSON; each game's module here (``cardnet.ui.render.<game>``)
subclasses it to draw the game's cards and explain its moves. Renderers only read views, events and moves as
the protocol carries them, do no I/O and import no terminal library.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shutil
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from ... import json_dumps, json_loads
from ...games import Outcome
from ...i18n import gettext as _
from ...i18n import ngettext, pgettext

__all__ = [
    "ANSI",
    "COMMANDS",
    "LIST_LIMIT",
    "command_word",
    "GenericRenderer",
    "Move",
    "MovePage",
    "MoveTextError",
    "View",
    "move_list",
    "reads",
    "renderer_for",
    "seat_labels",
    "you",
    "use_colour",
    "visible_len",
    "watching_words",
]

Move = dict[str, Any]
View = dict[str, Any]

#: Lists longer than this are collapsed into groups, however tall the terminal.
LIST_LIMIT = 40
#: Fewest move lines shown, however short the terminal.
_MIN_ROOM = 4


def _unknown_move(text: str, moves: str) -> str:
    """A typed move no word of the game reads ({text}: what was typed; {moves}: the game's move words)."""
    return _("'{text}' is not a move here. The moves: {moves}; or a number from the list.").format(
        text=text, moves=moves
    )


#: Line mode's commands by their English words; each is typed in the player's language or in English.
COMMANDS = ("list", "more", "table", "help", "quit", "say", "seats", "rematch")


def command_word(command: str) -> str:
    """A line-mode command (one of :data:`COMMANDS`) as the player types it in the current language."""
    words = {
        "list": pgettext("line command", "list"),
        "more": pgettext("line command", "more"),
        "table": pgettext("line command", "table"),
        "help": pgettext("line command", "help"),
        "quit": pgettext("line command", "quit"),
        "say": pgettext("line command", "say"),
        "seats": pgettext("line command", "seats"),
        "rematch": pgettext("line command", "rematch"),
    }
    return words[command]


def reads(typed: str, english: str, word: Callable[[str], str]) -> bool:
    """Whether a typed word is the move word ``english``: as English writes it, or as ``word`` (a game's
    move words in the current language) gives it."""
    return typed in (english, word(english).lower())


def you() -> str:
    """What a player's own seat is called, in the current language."""
    return _("You")


def _bot_level(level: str) -> str:
    """A built-in player's level (``easy``, ``normal``, ``random``, ...) in the current language; a level named
    after its algorithm (``ismcts``) stays as it is."""
    levels = {
        "easy": pgettext("bot level", "easy"),
        "medium": pgettext("bot level", "medium"),
        "hard": pgettext("bot level", "hard"),
        "built-in": pgettext("bot level", "built-in"),
        # The levels the new-table form and `cardnet play --bot` name as well.
        "normal": pgettext("bot level", "normal"),
        "random": pgettext("bot level", "random"),
        "heuristic": pgettext("bot level", "heuristic"),
    }
    return levels.get(level, level)


class MoveTextError(ValueError):
    """A typed move a renderer understood but refuses before it is sent, such as a card the screen never
    showed; ``str(error)`` is the reason for the player."""


#: ANSI foreground codes for the colour names renderers use.
ANSI = {"red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35", "cyan": "36", "bold": "1"}
_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


def visible_len(text: str) -> int:
    """Length of ``text`` on screen (ANSI colour codes take no room)."""
    return len(_ANSI_RE.sub("", text))


def fit_to_terminal(line: str) -> list[str]:
    """``line`` wrapped at words to the terminal's width, its continuation indented under its start: a sentence
    that fits 80 columns in English may not in Finnish or Indonesian. A word wider than the terminal (an address,
    a path) stays whole."""
    width = shutil.get_terminal_size((80, 24)).columns
    if visible_len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
    return textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def seat_labels(seats: Sequence[Any], me: int | None) -> list[str]:
    """What every client calls each seat of a ``seats`` list: ``You`` for ``me``; a built-in player ``Bot 2 ·
    hard`` (its seat and its level); a player by name, with the seat when two players share a name (``ann
    (seat 3)``); an open seat ``Seat N``."""
    labels: list[str] = []
    for i, seat in enumerate(seats):
        info = seat if isinstance(seat, Mapping) else {}
        name = info.get("name")
        if i == me:
            labels.append(you())
        elif info.get("kind") == "bot":
            level = str(name).removesuffix(" bot") if isinstance(name, str) and name else "built-in"
            labels.append(_("Bot {seat} · {level}").format(seat=i, level=_bot_level(level)))
        elif info.get("kind") == "open" or not isinstance(name, str) or not name:
            labels.append(_("Seat {seat}").format(seat=i))
        else:
            labels.append(name)
    return [
        _("{name} (seat {seat})").format(name=label, seat=i) if labels.count(label) > 1 and i != me else label
        for i, label in enumerate(labels)
    ]


def watching_words(spectators: int | None) -> str:
    """How many spectators watch the table, in player words; empty when the host did not say."""
    if spectators is None:
        return ""
    if spectators == 0:
        return _("nobody watching")
    return ngettext("{count} watching", "{count} watching", spectators).format(count=spectators)


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

    def move_words(self) -> str:
        """The moves as this game's players type them (the help's words); empty for the generic ``TYPE key=value``."""
        return ""

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
        lines = [_("Table:")]
        lines += _json_lines(view.get("public"), "  ")
        private = view.get("private")
        if private is not None:
            lines.append(_("You:"))
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

    def list_hint(self, key: str) -> str:
        """How to see or type the moves of a collapsed group (shown after its first moves)."""
        return _("type: {list} {key}").format(list=command_word("list"), key=key)

    def parse_move(self, text: str, view: View) -> Move | None:
        """A typed move: JSON text, ``TYPE``, or ``TYPE key=value ...``; None when not understood.

        Game renderers read their own move words first and raise :class:`MoveTextError` for words they
        understand but refuse (a card that is not on the screen)."""
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

    def progress(self, public: Mapping[str, Any], seat: int) -> str:
        """How far a game has come, in the game's own terms (``deal 3 of 5``), for a list of unfinished games;
        empty when the game has no such words."""
        return ""

    def unknown_move(self, text: str, view: View) -> Move | None:
        """Typed text none of a game's own words read: a JSON object still passes (for bot authors); anything
        else is refused with the words this game's players type, never the wire's move types."""
        if not self.move_words() or text.strip().startswith("{"):
            return GenericRenderer.parse_move(self, text, view)
        raise MoveTextError(_unknown_move(text.strip(), self.move_words()))

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
        return self.names[seat] if 0 <= seat < len(self.names) else _("Seat {seat}").format(seat=seat)

    def is_you(self, seat: int) -> bool:
        """Whether ``seat`` is the player's own (named :func:`you`; English's ``You`` from older callers)."""
        return self.name(seat) in (you(), "You")

    def does(self, seat: int, third_person: str, base: str) -> str:
        """``"Seat 2 plays"`` or ``"You play"`` from English verb forms: English only, so new text uses
        :meth:`says` (whole sentences in the catalogs) instead."""
        return f"{self.name(seat)} {base if self.is_you(seat) else third_person}"

    def says(self, seat: int, yours: str, theirs: str, **fields: object) -> str:
        """A whole sentence about what ``seat`` did: ``yours`` (``"You play {card}."``) for the player's own
        seat, else ``theirs`` (``"{name} plays {card}."``), filled with ``name`` and ``fields``; two sentences,
        so every language conjugates its verb and orders its words as it must."""
        return (yours if self.is_you(seat) else theirs).format(name=self.name(seat), **fields)

    def outcome_lines(self, outcome: Outcome) -> list[str]:
        """The final standings, one line per seat from best to worst."""
        lines = []
        for place, seat in enumerate(outcome.order, start=1):
            fields = {"place": place, "name": self.name(seat), "score": outcome.scores[seat]}
            if seat in outcome.winners:
                lines.append("  " + _("{place}. {name} (score {score}) - winner").format(**fields))
            else:
                lines.append("  " + _("{place}. {name} (score {score})").format(**fields))
        return lines

    def help(self) -> list[str]:
        """Game-specific help about typing moves: whole paragraphs, which each screen wraps to its width."""
        return [
            _("Type a move as listed (TYPE key=value ..., values in JSON) or as one JSON object."),
        ]


@dataclass(frozen=True)
class MovePage:
    """Lines of a numbered move list, and where the next page starts (None when nothing is left)."""

    lines: list[str]
    next_start: int | None


def _move_line(renderer: GenericRenderer, index: int, move: Move, view: View) -> str:
    text = renderer.move_text(move)
    note = renderer.move_note(move, view)
    return f"  {index + 1:>4}. {text}" + (f"   ({note})" if note else "")


def move_list(
    renderer: GenericRenderer,
    moves: Sequence[Move],
    view: View,
    *,
    room: int,
    filter_text: str | None = None,
    start: int | None = None,
) -> MovePage:
    """The numbered legal moves in at most ``room`` lines, so a hand drawn above stays on the screen.

    Without ``start`` a list too long for the room is collapsed: the first moves of each group (the
    renderer's :meth:`~GenericRenderer.group_key`), with a line saying how many more each has. With
    ``start`` the moves are paged in order from that position, and ``next_start`` says where the next page
    begins. ``filter_text`` keeps only moves whose text contains it.
    """
    room = max(_MIN_ROOM, min(room, LIST_LIMIT))
    shown = [(i, m) for i, m in enumerate(moves) if not filter_text or filter_text in renderer.move_text(m)]
    if filter_text and not shown:
        return MovePage([_("No legal move matches '{text}'.").format(text=filter_text)], None)
    if filter_text:
        head = _("Your moves ({count}, {matching} with '{text}'):").format(
            count=len(moves), matching=len(shown), text=filter_text
        )
    else:
        head = _("Your moves ({count}):").format(count=len(moves))
    budget = room - 1
    if start is not None:
        page = shown[start : start + budget - 1] if len(shown) - start > budget else shown[start:]
        lines = [head] + [_move_line(renderer, i, m, view) for i, m in page]
        end = start + len(page)
        if end < len(shown):
            more = _("... {count} more: type '{more}' for the next page").format(
                count=len(shown) - end, more=command_word("more")
            )
            lines.append("        " + more)
            return MovePage(lines, end)
        return MovePage(lines, None)
    if len(shown) <= budget:
        return MovePage([head] + [_move_line(renderer, i, m, view) for i, m in shown], None)
    groups: dict[str, list[tuple[int, Move]]] = {}
    for i, move in shown:
        groups.setdefault(renderer.group_key(move), []).append((i, move))
    # Each collapsed group takes its moves plus one line saying what is hidden.
    per_group = max(1, (budget - len(groups)) // len(groups))
    body: list[str] = []
    for key, members in groups.items():
        body += [_move_line(renderer, i, m, view) for i, m in members[:per_group]]
        hidden = len(members) - per_group
        if hidden > 0:
            hint = renderer.list_hint(key)
            body.append("        " + _("... {count} more '{key}' ({hint})").format(count=hidden, key=key, hint=hint))
    if len(body) > budget:
        every = _("... more: '{list}' shows every move, page by page").format(list=command_word("list"))
        body = body[: budget - 1] + ["        " + every]
    return MovePage([head] + body, None)


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
    """The game's own renderer (``cardnet.ui.render.<game>.Renderer``) or the generic one."""
    module_name = f"cardnet.ui.render.{game}"
    if importlib.util.find_spec(module_name) is not None:
        module = importlib.import_module(module_name)
        cls: type[GenericRenderer] = module.Renderer
        return cls(names)
    return GenericRenderer(names)
