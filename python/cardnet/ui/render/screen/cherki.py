"""Cherki on the full screen: the table as line mode says it, the hand as cards grouped by kind, the progress
towards a call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ....i18n import N_
from ....i18n import gettext as _
from ....i18n import ngettext
from ...markdown import wrap_runs
from ..cherki import Renderer as CherkiRenderer
from ..cherki import card_kind, card_name, kind_name
from . import (
    Choice,
    Fragments,
    GameScreen,
    TableView,
    all_choices,
    chosen,
    choice_at,
    fit,
    focus_style,
    legal_of,
    wrap_fragments,
)

__all__ = ["Screen", "cherki_face"]

#: Each suit's letter on a card's face and its style, by the suit's number in the deck (Coins, Strings, Myriads).
#: The letters are the same in every language, as a printed deck's marks are; the help says what they stand for.
_SUITS = (("C", "class:coins"), ("S", "class:strings"), ("M", "class:myriads"))
#: The honours' faces (White Flower, Red Flower, Old Thousand), by the card's face number.
_HONOUR_FACES = {27: "WF", 28: "RF", 29: "OT"}


class Screen(GameScreen):
    """Cherki's table: the line-mode table, then the hand as cards grouped by kind."""

    card_row = True
    has_pass = False
    help_note = N_(
        "On screen: your hand is grouped by kind; 3C is the 3 of Coins (yellow), S Strings (green), M Myriads"
        " (blue); WF, RF and OT are the honours; * (red) marks the red stamp. Under each card: its id."
    )
    styles = {
        "coins": "bold #ffd700",
        "strings": "bold #5fd75f",
        "myriads": "bold #5f87ff",
        "honour": "bold",
        "stamp": "bold #ff5555",
    }
    option_labels = {"deals": N_("Deals")}

    def draw(self, ts: TableView, width: int, height: int, no_color: bool) -> list[Fragments]:
        return _draw(ts, width, self.cursor_cards(ts))

    def turn_hint(self, ts: TableView) -> str:
        if ts.view.get("public", {}).get("phase") == "drawn":
            return _("Pick the card to discard and press Enter (l lists every move).")
        return _("Enter: draw, take or call; l lists your moves.")

    def cursor_cards(self, ts: TableView) -> list[int]:
        private = ts.view.get("private")
        if not isinstance(private, dict):
            return []
        # Grouped by kind as the screen draws them: numbers first, then the honours.
        return sorted(private.get("hand", []), key=lambda c: (not card_kind(c).isdigit(), card_kind(c), c))

    def selection_choices(self, ts: TableView) -> list[Choice]:
        # Discarding the card under the cursor (and calling with it, when that is legal); a decision that
        # takes no card (draw, take, call) lists its moves.
        cards = chosen(ts, self.cursor_cards(ts))
        found = [choice_at(ts, i) for i, m in legal_of(ts, "discard") if cards and m.get("card") == cards[0]]
        return found or all_choices(ts)


def cherki_face(card: int) -> tuple[str, str]:
    """A money card's style and short face: ``3C``, ``9S*`` (``*`` = red stamp), ``WF``, ``RF*``, ``OT*``."""
    # Made from the card's number, not its (translated) name; the name's trailing * is the red stamp.
    stamp = card_name(card).endswith("*")
    number = card // 4
    if number in _HONOUR_FACES:
        face, style = _HONOUR_FACES[number], "class:honour"
    else:
        letter, style = _SUITS[number // 9]
        face = f"{number % 9 + 1}{letter}"
    return ("class:stamp" if stamp else style), face + ("*" if stamp else "")


def _draw(ts: TableView, width: int, cards: list[int]) -> list[Fragments]:
    pub: Mapping[str, Any] = ts.view["public"]
    priv: Mapping[str, Any] | None = ts.view.get("private")
    r = ts.renderer
    assert isinstance(r, CherkiRenderer)
    me = ts.seat if ts.seat is not None else 0
    # The table as line mode says it; the hand is drawn below as cards, grouped by kind.
    rows: list[Fragments] = [
        row for line in r.table({"public": pub, "private": None}, me) for row in fit(line, "", width)
    ]
    if priv is None:
        return rows
    heading = ngettext(
        "Your hand ({count} card, by kind; number = card id):",
        "Your hand ({count} cards, by kind; number = card id):",
        len(cards),
    ).format(count=len(cards))
    rows += wrap_runs([("class:heading", heading)], width, "", "  ")
    top: Fragments = [("", "  ")]
    mid: Fragments = [("", "  ")]
    ids: Fragments = [("", "  ")]
    kind = None
    for pos, card in enumerate(cards):
        gap = "  " if kind is not None and card_kind(card) != kind else " "
        kind = card_kind(card)
        style, face = cherki_face(card)
        extra = focus_style(ts, pos, card, cards)
        full = f"{style} {extra}".strip()
        top += [("", gap), (full, "+---+")]
        mid += [("", gap), (full, "|"), (f"{full} class:face", f"{face:^3}"), (full, "|")]
        ids += [("", gap), ("class:label", f"{card:^5}")]
    per_row = max(1, (width - 4) // 6)
    if len(cards) > per_row:
        # Too many for one row at this width: the faces alone, still grouped.
        chips = [f for card in cards for f in (_cherki_chip(ts, card, cards), ("", " "))]
        rows += [[("", "  "), *row] for row in wrap_fragments(chips, width - 2)]
    else:
        rows += [top, mid, list(top), ids]
    if priv.get("pair_kind") is None:
        rows += wrap_runs(_cherki_progress(cards), width, "", "  ")
    # After line mode's heading and its indented kinds (drawn above as cards): the card just drawn and whether
    # the hand is ready.
    for line in r.hand_lines(priv, pub, me)[1:]:
        if not line.startswith(" "):
            rows += fit(line, "class:dim", width)
    return rows


def _cherki_progress(cards: Sequence[int]) -> Fragments:
    """The sets the hand holds towards a call (two triples and a pair), as the player builds them."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card_kind(card)] = counts.get(card_kind(card), 0) + 1
    triples = [k for k, n in counts.items() for _ in range(n // 3)]
    pairs = [k for k, n in counts.items() if n % 3 == 2]
    have: Fragments = [("class:heading", _("Towards a call:") + " ")]
    have.append(("class:green" if len(triples) >= 2 else "", _("triples {count} of 2").format(count=len(triples))))
    if triples:
        have.append(("class:dim", " (" + ", ".join(kind_name(k) for k in triples) + ")"))
    have.append(("class:green" if pairs else "", ", " + _("pairs {count} of 1").format(count=len(pairs))))
    if pairs:
        have.append(("class:dim", " (" + ", ".join(kind_name(k) for k in pairs) + ")"))
    return have


def _cherki_chip(ts: TableView, card: int, cards: Sequence[int]) -> tuple[str, str]:
    style, face = cherki_face(card)
    extra = focus_style(ts, cards.index(card), card, cards)
    return (f"{style} {extra}".strip(), f"[{face} {card}]")
