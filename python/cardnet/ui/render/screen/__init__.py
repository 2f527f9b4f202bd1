"""Full-screen drawing, keys and form words per game: the interface the full-screen client (``ui/app``) asks.

The client knows no game by name. For the table it is showing it asks :func:`screen_for` for the game's
:class:`GameScreen` (``cardnet.ui.render.screen.<game>.Screen``, else the generic one) and leaves to it what
differs between games: the table's drawing as styled fragments, the turn hint, the cards the cursor walks,
which moves Enter and ``p`` mean, the game's one-key moves, its help paragraph and its form's option labels.
Every word a screen shows goes through the gettext catalogs (:mod:`cardnet.i18n`); words kept in class
attributes are marked with ``N_`` and translated when shown, so a language switched while running applies.
Screens read the table through :class:`TableView` (the client's table state has these fields), import no
terminal library and do no I/O, so they are checked from recorded views.
"""

from __future__ import annotations

import importlib
import importlib.util
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from ....i18n import gettext as _
from ...markdown import text_width, wrap_runs
from .. import GenericRenderer

__all__ = [
    "Choice",
    "Fragments",
    "GameKey",
    "GameScreen",
    "TableView",
    "all_choices",
    "all_screens",
    "exact_choice",
    "focus_style",
    "legal_of",
    "quick_choice",
    "screen_for",
    "seat_marker",
    "styled",
    "wrap_fragments",
]

#: Styled text as prompt_toolkit takes it: (style, text) pairs, style names ``class:...`` of ``ui/app/style``.
Fragments = list[tuple[str, str]]


@dataclass(frozen=True)
class Choice:
    """One entry of a pick-one list: a label, and either an index into the open decision's legal list or a
    move object to send (a typed or keyboard move the client could not find in the list)."""

    label: str
    index: int | None = None
    move: dict[str, Any] | None = None


class TableView(Protocol):
    """What a screen reads of the table it draws (the full-screen client's ``TableState``)."""

    @property
    def game(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def renderer(self) -> GenericRenderer: ...
    @property
    def view(self) -> dict[str, Any]: ...
    @property
    def to_act(self) -> list[int]: ...
    @property
    def legal(self) -> list[Any]: ...
    @property
    def over(self) -> bool: ...
    @property
    def seats(self) -> list[Any]: ...
    @property
    def cursor(self) -> int: ...
    @property
    def selected(self) -> set[int]: ...
    @property
    def bid(self) -> int: ...
    @property
    def my_turn(self) -> bool: ...


@dataclass(frozen=True)
class GameKey:
    """A game's own key on the table screen: ``move`` sends that move when it is legal (``what`` is the sentence
    saying it cannot be made now); ``action`` names a client action instead: ``settle`` (pay the least that
    settles a debt, one piece per decision) or ``bid`` (change the bid form's amount by ``step``). ``shown``,
    ``doc`` and ``what`` are marked with ``N_`` and translated when shown."""

    name: str
    keys: tuple[str, ...]
    shown: str
    doc: str
    move: Mapping[str, Any] | None = None
    what: str = ""
    action: str = ""
    step: int = 0


class GameScreen:
    """A game drawn without cards of its own: its view as the line-mode renderer writes it, every legal move
    listed on Enter. Each game's screen subclasses it."""

    #: Whether the game has a row of cards the arrows move over and Space selects.
    card_row = False
    #: Whether the game has a move ``p`` makes (the status line offers ``p pass`` only then).
    has_pass = True
    #: Whether the cursor row is a new list at each decision (start at its head) rather than the same hand.
    cursor_restarts = False
    #: The game's own keys (one-key moves, bids), added to the client's table keys.
    keys: tuple[GameKey, ...] = ()
    #: The help's paragraph on how the screen draws the game.
    help_note = ""
    #: The game's own style classes (``class:NAME`` in its fragments) and their prompt_toolkit styles.
    styles: Mapping[str, str] = {}
    #: How the new-table form names each of the game's options (by the option's name).
    option_labels: Mapping[str, str] = {}
    #: How the form shows an option's value that is a word (``"length=short"``: the word); numbers and yes/no
    #: need none.
    option_values: Mapping[str, str] = {}

    def draw(self, ts: TableView, width: int, height: int, no_color: bool) -> list[Fragments]:
        """The game's part of the table screen (``ts.view`` is not empty), ``width`` cells wide."""
        return [[("", line)] for line in ts.renderer.table(ts.view, ts.seat if ts.seat is not None else 0)]

    def turn_hint(self, ts: TableView) -> str:
        """What to press on this player's turn."""
        return _("Enter lists your moves.")

    def cursor_cards(self, ts: TableView) -> list[int]:
        """The ids of the cards the cursor moves over, in screen order (empty when the game has no card row)."""
        return []

    def selection_choices(self, ts: TableView) -> list[Choice]:
        """The moves Enter offers for the current selection: one is sent at once, several are listed."""
        return all_choices(ts)

    def pass_choice(self, ts: TableView) -> Choice | None:
        """The move ``p`` makes (None in a game without one)."""
        passes = legal_of(ts, "pass")
        return choice_at(ts, passes[0][0]) if passes else None

    def bid_range(self, ts: TableView) -> tuple[int, int] | None:
        """The lowest and highest legal bid of an open auction decision (None when no bid is legal)."""
        return None

    def settle_choice(self, ts: TableView) -> Choice | None:
        """The next piece of the least payment that settles this player's debt (None: nothing to settle)."""
        return None

    def owes(self, ts: TableView) -> bool:
        """Whether this player has a debt to pay (so a settle that found nothing says it is paid with cards)."""
        return False


def screen_for(game: str) -> GameScreen:
    """The game's own screen (``cardnet.ui.render.screen.<game>.Screen``) or the generic one."""
    return _screen(game)


@cache
def _screen(game: str) -> GameScreen:
    module_name = f"{__name__}.{game}"
    if game.isidentifier() and importlib.util.find_spec(module_name) is not None:
        cls: type[GameScreen] = importlib.import_module(module_name).Screen
        return cls()
    return GameScreen()


def all_screens() -> list[GameScreen]:
    """The screens of every game the core knows (for key bindings and the help, built once)."""
    from ....games import GAMES

    return [screen_for(name) for name in GAMES]


# -- helpers the games' screens share -------------------------------------------------------------------------


def styled(template: str, style: str = "", **values: str | tuple[str, str]) -> Fragments:
    """A translated sentence as fragments: its words in ``style``, each ``{field}`` replaced by its value, which
    may be a (style, text) fragment of its own (a red number, a card chip) so the words stay in the order the
    language puts them."""
    out: Fragments = []
    for literal, field, _spec, _conversion in string.Formatter().parse(template):
        if literal:
            out.append((style, literal))
        if field is not None:
            value = values[field]
            out.append(value if isinstance(value, tuple) else (style, value))
    return out


def wrap_fragments(items: Fragments, width: int) -> list[Fragments]:
    """Fragments laid out in lines of at most ``width`` cells, breaking only between fragments."""
    rows: list[Fragments] = [[]]
    used = 0
    for style, text in items:
        if used + len(text) > width and rows[-1]:
            rows.append([])
            used = 0
        rows[-1].append((style, text))
        used += len(text)
    return rows


def fit(line: str, style: str, width: int) -> list[Fragments]:
    """A line of text as it is when it fits, else wrapped at words under its own indent (never cut off)."""
    if text_width(line) <= width:
        return [[(style, line)]]
    indent = line[: len(line) - len(line.lstrip())]
    return wrap_runs([(style, line)], width, indent, indent + "  ")


def focus_style(ts: TableView, pos: int, card: int, ids: Sequence[int]) -> str:
    """The extra style of a card in the cursor row: selected, under the cursor."""
    styles = []
    if card in ts.selected:
        styles.append("class:selected")
    if pos == ts.cursor and ts.my_turn and ids:
        styles.append("class:cursor")
    return " ".join(styles)


def seat_marker(ts: TableView, seat: int) -> str:
    """After a seat's name: ``(auto)`` when a built-in player plays for it, ``(gone)`` when its player left."""
    info = ts.seats[seat] if seat < len(ts.seats) and isinstance(ts.seats[seat], Mapping) else {}
    if info.get("auto"):
        return " (" + _("auto") + ")"
    if info.get("kind") == "human" and not info.get("connected") and seat != ts.seat:
        return " (" + _("gone") + ")"
    return ""


def legal_of(ts: TableView, kind: str) -> list[tuple[int, dict[str, Any]]]:
    """The open decision's legal moves of type ``kind``, with their indexes."""
    return [(i, m) for i, m in enumerate(ts.legal) if isinstance(m, dict) and m.get("type") == kind]


def choice_at(ts: TableView, index: int) -> Choice:
    """The legal move at ``index`` as a choice, labelled as the renderer writes it (with its note)."""
    move = ts.legal[index]
    note = ts.renderer.move_note(move, ts.view)
    text = ts.renderer.move_text(move)
    return Choice(f"{text}   ({note})" if note else text, index=index)


def exact_choice(ts: TableView, move: dict[str, Any]) -> Choice:
    """The legal entry equal to ``move`` if there is one, else the move itself (for the host's reason)."""
    for i, m in legal_of(ts, str(move["type"])):
        if m == move:
            return choice_at(ts, i)
    return Choice(ts.renderer.move_text(move), move=move)


def quick_choice(ts: TableView, move: Mapping[str, Any]) -> Choice | None:
    """A one-key move when the open decision allows it, else None."""
    for i, m in enumerate(ts.legal):
        if m == move:
            return choice_at(ts, i)
    return None


def all_choices(ts: TableView) -> list[Choice]:
    """Every legal move of the open decision."""
    return [choice_at(ts, i) for i in range(len(ts.legal))]


def chosen(ts: TableView, cards: Sequence[int]) -> list[int]:
    """The selected cards of the cursor row ``cards``, or the card under the cursor when nothing is selected."""
    if ts.selected:
        return [c for c in cards if c in ts.selected]
    return [cards[ts.cursor]] if 0 <= ts.cursor < len(cards) else []
