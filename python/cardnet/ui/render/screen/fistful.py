"""A Fistful of Gold on the full screen: stars, gold and pot, both players' cards in their colours, the hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ....i18n import N_
from ....i18n import gettext as _
from ....i18n import ngettext
from ...markdown import wrap_runs
from ..fistful import DYNAMITE, card_label
from ..fistful import Renderer as FistfulRenderer
from . import (
    Choice,
    Fragments,
    GameScreen,
    TableView,
    chosen,
    exact_choice,
    fit,
    focus_style,
    seat_marker,
    wrap_fragments,
)

__all__ = ["Screen"]

_PAINT = {"pink": "class:pink", "green": "class:green"}


class Screen(GameScreen):
    """A Fistful of Gold's table: the duel, the scores, the cards played and barred, the hand or discard pile."""

    card_row = True
    has_pass = False
    help_note = N_(
        "On screen: cards are drawn in their owner's colour ([D] is the Dynamite); 'bar' under a card marks the one"
        " the +1 rule bars this duel. Gold, the pot and the stars are at the top."
    )
    styles = {"pink": "bold #ff5fd7", "star": "bold #ffd700"}
    option_labels = {"length": N_("Match length"), "colours": N_("Pink deck")}
    option_values = {
        "length=short": N_("short"),
        "length=long": N_("long"),
        "colours=random": N_("drawn at random"),
        "colours=seat0_pink": N_("seat 0 plays Pink"),
        "colours=seat0_green": N_("seat 0 plays Green"),
    }

    def draw(self, ts: TableView, width: int, height: int, no_color: bool) -> list[Fragments]:
        return _draw(ts, width, self.cursor_cards(ts))

    def turn_hint(self, ts: TableView) -> str:
        phase = ts.view.get("public", {}).get("phase")
        if phase in ("setup_discard", "round_end_discard"):
            return _("Space selects the cards to discard, Enter discards them.")
        if phase == "green8_retrieve":
            return _("Pick the card to take back and press Enter.")
        return _("Pick a card with the arrows and press Enter.")

    def cursor_cards(self, ts: TableView) -> list[int]:
        private = ts.view.get("private")
        if not isinstance(private, dict):
            return []
        phase = ts.view.get("public", {}).get("phase")
        return list(private.get("discard" if phase == "green8_retrieve" else "hand", []))

    def selection_choices(self, ts: TableView) -> list[Choice]:
        cards = chosen(ts, self.cursor_cards(ts))
        phase = ts.view.get("public", {}).get("phase")
        if not cards:
            return []
        if phase in ("setup_discard", "round_end_discard"):
            return [exact_choice(ts, {"type": "discard", "cards": sorted(cards)})]
        kind = "retrieve" if phase == "green8_retrieve" else "pick"
        return [exact_choice(ts, {"type": kind, "card": cards[0]})]


def _fcard(ts: TableView, seat: int, card: int, extra: str = "") -> tuple[str, str]:
    colours = ts.view["public"].get("colours") or []
    colour = colours[seat] if 0 <= seat < len(colours) else ""
    return (f"{_PAINT.get(colour, '')} {extra}".strip(), f"[{card_label(card)}]")


def _draw(ts: TableView, width: int, cards: list[int]) -> list[Fragments]:
    pub: Mapping[str, Any] = ts.view["public"]
    priv: Mapping[str, Any] | None = ts.view.get("private")
    r = ts.renderer
    assert isinstance(r, FistfulRenderer)
    r.observe(ts.view)
    me = ts.seat if ts.seat is not None else 0
    them = 1 - me
    rows: list[Fragments] = []
    stars = int(pub["target_stars"])
    if pub["length"] == "long":
        length = ngettext("long match: first to {stars} star", "long match: first to {stars} stars", stars)
    else:
        length = ngettext("short match: first to {stars} star", "short match: first to {stars} stars", stars)
    heading = _("A Fistful of Gold - round {round}, duel {duel} of {duels}").format(
        round=pub["round"], duel=pub["duel"], duels=pub["duels_in_round"]
    )
    rows += wrap_fragments([("class:heading", heading), ("class:dim", f"  ({length.format(stars=stars)})")], width)
    scores: Fragments = [("class:heading", _("Stars"))]
    for seat in (me, them):
        scores += [("", f" {r.name(seat)} "), ("class:star", "*" * int(pub["stars"][seat]) or "-")]
    scores += [("class:heading", "   " + _("Gold"))]
    for seat in (me, them):
        scores += [("", f" {r.name(seat)} "), ("class:gold", str(pub["gold"][seat]))]
    scores += [("class:heading", "   " + _("Pot") + " "), ("class:gold", str(pub["pot"]))]
    rows += wrap_fragments(scores, width)
    barred = pub.get("barred") or [None, None]
    who = {seat: f"{r.name(seat)}{seat_marker(ts, seat)} ({r.colour_of(seat)})" for seat in (them, me)}
    # Both rows' cards start in one column, one space at least after the longer label (a long name or colour).
    column = max(22, *(len(label) + 1 for label in who.values()))
    for seat in (them, me):
        row: Fragments = [("class:seat.turn" if seat in ts.to_act else "class:seat", who[seat].ljust(column))]
        for card in pub["played"][seat]:
            row += [_fcard(ts, seat, card), ("", " ")]
        if not pub["played"][seat]:
            row.append(("class:dim", _("no card yet")))
        sizes = _("hand {hand}, discards {discards}").format(
            hand=pub["hand_sizes"][seat], discards=pub["discard_sizes"][seat]
        )
        row.append(("class:dim", f"   {sizes}"))
        if pub["phase"] == "pick" and pub["picked"][seat] and seat != me:
            row.append(("class:turn", "  " + _("has picked")))
        rows += wrap_fragments(row, width)
    bars: Fragments = []
    for seat in (me, them):
        if pub["phase"] == "pick" and barred[seat] is not None:
            whose = _("you") if seat == me else r.name(seat)
            bars += [("class:dim", f"  {whose}: "), _fcard(ts, seat, int(barred[seat]))]
    if bars:
        rows += wrap_fragments([("class:dim", _("Barred by the +1 rule:"))] + bars, width)
    last = pub.get("last_duel")
    if last and last.get("round") == pub["round"]:
        a, b = last["cards"]
        steps = [r.step_text(s) for s in last.get("steps", [])] or [_("nothing happens")]
        said: Fragments = [("", (": " if n == 0 else "; ") + step) for n, step in enumerate(steps)]
        head = _("Last duel ({number})").format(number=last["duel"])
        # Wrapped at words: a step's words go on under the duel, never a lone ": " at a line's start.
        rows += wrap_runs(
            [("class:heading", f"{head}: "), ("", f"{r.name(0)} "), _fcard(ts, 0, a)]
            + [("", " " + _("vs") + f" {r.name(1)} "), _fcard(ts, 1, b)]
            + said,
            width,
            "",
            "  ",
        )
    for line in r.effects(pub):
        rows += fit(line, "class:dim", width)
    if priv is not None:
        phase = pub["phase"]
        pile = phase == "green8_retrieve"
        heading = (
            _("Your discard pile - take one back:")
            if pile
            else _("Your hand ({colour}):").format(colour=r.colour_of(me))
        )
        rows.append([("class:heading", heading)])
        rows += _fistful_hand(ts, me, cards, barred[me] if phase == "pick" else None)
        extra: Fragments = []
        if not pile and priv.get("discard"):
            extra += [("class:dim", _("Discard pile:") + " ")] + [
                f for c in priv["discard"] for f in (_fcard(ts, me, c), ("", " "))
            ]
        if priv.get("pick") is not None:
            extra += [("class:dim", "   " + _("Your pick:") + " "), _fcard(ts, me, int(priv["pick"]))]
        if extra:
            rows += wrap_fragments(extra, width)
    for line in r.prompt(pub, priv):
        rows += fit(line, "class:dim", width)
    return rows


def _fistful_hand(ts: TableView, me: int, cards: Sequence[int], barred: int | None) -> list[Fragments]:
    if not cards:
        return [[("class:dim", "  (" + _("none") + ")")]]
    top: Fragments = [("", "  ")]
    mid: Fragments = [("", "  ")]
    bottom: Fragments = [("", "  ")]
    notes: Fragments = [("", "  ")]
    for pos, card in enumerate(cards):
        extra = focus_style(ts, pos, card, cards)
        style, _face = _fcard(ts, me, card, extra)
        face = "DYN" if card == DYNAMITE else f" {card} "
        top += [(style, "+---+"), ("", " ")]
        mid += [(style, "|"), (f"{style} class:face", face), (style, "|"), ("", " ")]
        bottom += [(style, "+---+"), ("", " ")]
        # Translators: "bar" and "sel" stand under a card 5 columns wide: at most 5 letters each.
        mark = _("bar") if card == barred else (_("sel") if card in ts.selected else "")
        notes += [("class:dim", f"{mark[:5]:^5}"), ("", " ")]
    return [top, mid, bottom, notes]
