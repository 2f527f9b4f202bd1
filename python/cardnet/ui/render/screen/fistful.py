"""A Fistful of Gold on the full screen: stars, gold and pot, both players' cards in their colours, the hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..fistful import DYNAMITE, card_label
from ..fistful import Renderer as FistfulRenderer
from . import (
    Choice,
    Fragments,
    GameScreen,
    TableView,
    chosen,
    exact_choice,
    focus_style,
    plural,
    seat_marker,
    wrap_fragments,
)

__all__ = ["Screen"]

_PAINT = {"pink": "class:pink", "green": "class:green"}


class Screen(GameScreen):
    """A Fistful of Gold's table: the duel, the scores, the cards played and barred, the hand or discard pile."""

    card_row = True
    help_note = (
        "On screen: cards are drawn in their owner's colour ([D] is the Dynamite); 'bar' under a card marks the one"
        " the +1 rule bars this duel. Gold, the pot and the stars are at the top."
    )
    styles = {"pink": "bold #ff5fd7", "star": "bold #ffd700"}
    option_labels = {"length": "Match length", "colours": "Pink deck"}

    def draw(self, ts: TableView, width: int, height: int, no_color: bool) -> list[Fragments]:
        return _draw(ts, width, self.cursor_cards(ts))

    def turn_hint(self, ts: TableView) -> str:
        phase = ts.view.get("public", {}).get("phase")
        if phase in ("setup_discard", "round_end_discard"):
            return "Space selects the cards to discard, Enter discards them."
        if phase == "green8_retrieve":
            return "Pick the card to take back and press Enter."
        return "Pick a card with the arrows and press Enter."

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
    length = f"{pub['length']} match: first to {plural(pub['target_stars'], 'star')}"
    rows.append(
        [
            (
                "class:heading",
                f"A Fistful of Gold - round {pub['round']}, duel {pub['duel']} of {pub['duels_in_round']}",
            ),
            ("class:dim", f"  ({length})"),
        ]
    )
    scores: Fragments = [("class:heading", "Stars")]
    for seat in (me, them):
        scores += [("", f" {r.name(seat)} "), ("class:star", "*" * int(pub["stars"][seat]) or "-")]
    scores += [("class:heading", "   Gold")]
    for seat in (me, them):
        scores += [("", f" {r.name(seat)} "), ("class:gold", str(pub["gold"][seat]))]
    scores += [("class:heading", "   Pot "), ("class:gold", str(pub["pot"]))]
    rows.append(scores)
    barred = pub.get("barred") or [None, None]
    for seat in (them, me):
        who = f"{r.name(seat)}{seat_marker(ts, seat)} ({r.colour_of(seat)})"
        row: Fragments = [("class:seat.turn" if seat in ts.to_act else "class:seat", f"{who:<22}")]
        for card in pub["played"][seat]:
            row += [_fcard(ts, seat, card), ("", " ")]
        if not pub["played"][seat]:
            row.append(("class:dim", "no card yet"))
        row.append(("class:dim", f"   hand {pub['hand_sizes'][seat]}, discards {pub['discard_sizes'][seat]}"))
        if pub["phase"] == "pick" and pub["picked"][seat] and seat != me:
            row.append(("class:turn", "  has picked"))
        rows.append(row)
    bars: Fragments = []
    for seat in (me, them):
        if pub["phase"] == "pick" and barred[seat] is not None:
            whose = "your" if seat == me else f"{r.name(seat)}'s"
            bars += [("class:dim", f"  {whose} "), _fcard(ts, seat, int(barred[seat]))]
    if bars:
        rows.append([("class:dim", "Barred by the +1 rule:")] + bars)
    last = pub.get("last_duel")
    if last and last.get("round") == pub["round"]:
        a, b = last["cards"]
        steps = [r.step_text(s) for s in last.get("steps", [])] or ["nothing happens"]
        said: Fragments = [("", (": " if n == 0 else "; ") + step) for n, step in enumerate(steps)]
        rows += wrap_fragments(
            [("class:heading", f"Last duel ({last['duel']}): "), ("", f"{r.name(0)} "), _fcard(ts, 0, a)]
            + [("", f" vs {r.name(1)} "), _fcard(ts, 1, b)]
            + said,
            width,
        )
    for line in r.effects(pub):
        rows.append([("class:dim", line)])
    if priv is not None:
        phase = pub["phase"]
        pile = phase == "green8_retrieve"
        rows.append(
            [("class:heading", "Your discard pile - take one back:" if pile else f"Your hand ({r.colour_of(me)}):")]
        )
        rows += _fistful_hand(ts, me, cards, barred[me] if phase == "pick" else None)
        extra: Fragments = []
        if not pile and priv.get("discard"):
            extra += [("class:dim", "Discard pile: ")] + [
                f for c in priv["discard"] for f in (_fcard(ts, me, c), ("", " "))
            ]
        if priv.get("pick") is not None:
            extra += [("class:dim", "   Your pick: "), _fcard(ts, me, int(priv["pick"]))]
        if extra:
            rows.append(extra)
    for line in r.prompt(pub, me):
        rows.append([("class:dim", line)])
    return rows


def _fistful_hand(ts: TableView, me: int, cards: Sequence[int], barred: int | None) -> list[Fragments]:
    if not cards:
        return [[("class:dim", "  (none)")]]
    top: Fragments = [("", "  ")]
    mid: Fragments = [("", "  ")]
    bottom: Fragments = [("", "  ")]
    notes: Fragments = [("", "  ")]
    for pos, card in enumerate(cards):
        extra = focus_style(ts, pos, card, cards)
        style, _ = _fcard(ts, me, card, extra)
        face = "DYN" if card == DYNAMITE else f" {card} "
        top += [(style, "+---+"), ("", " ")]
        mid += [(style, "|"), (f"{style} class:face", face), (style, "|"), ("", " ")]
        bottom += [(style, "+---+"), ("", " ")]
        mark = "bar" if card == barred else ("sel" if card in ts.selected else "")
        notes += [("class:dim", f"{mark:^5}"), ("", " ")]
    return [top, mid, bottom, notes]
