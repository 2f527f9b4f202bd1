"""Matchstick Tycoon on the full screen: seven-segment cards with their matchsticks, the trick, the hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .... import segments
from ....i18n import N_
from ....i18n import gettext as _
from ....i18n import ngettext
from ...markdown import wrap_runs
from ..matchstick import card_label
from . import (
    Choice,
    Fragments,
    GameScreen,
    TableView,
    chosen,
    exact_choice,
    focus_style,
    legal_of,
    seat_marker,
    wrap_fragments,
    choice_at,
)

__all__ = ["COMPACT_BELOW", "Screen"]

#: Below this height the seven-segment cards are drawn 3 rows tall instead of 5.
COMPACT_BELOW = 34


class Screen(GameScreen):
    """Matchstick Tycoon's table: the order, the seats, the trick and the hand as seven-segment cards."""

    card_row = True
    help_note = N_(
        "On screen: matchsticks added to a card are drawn in orange (= and ! without colour); a card played turned"
        " shows ~ before its printed type; under each card of your hand is the value it shows, then its position."
        " Select several cards with Space: Enter then offers every value they can show together."
    )
    styles = {"seg.lit": "bold", "seg.added": "bold #ff8700", "seg.blank": "", "revolution": "reverse bold #ff5555"}
    option_labels = {"expansion": N_("Expansion cards"), "deal_all": N_("Deal whole deck")}

    def draw(self, ts: TableView, width: int, height: int, no_color: bool) -> list[Fragments]:
        return _draw(ts, width, height, no_color)

    def turn_hint(self, ts: TableView) -> str:
        return _("Space selects cards, Enter plays them, p passes.")

    def cursor_cards(self, ts: TableView) -> list[int]:
        private = ts.view.get("private")
        if not isinstance(private, dict):
            return []
        return [int(c["id"]) for c in private.get("hand", [])]

    def selection_choices(self, ts: TableView) -> list[Choice]:
        cards = chosen(ts, self.cursor_cards(ts))
        hand = {int(c["id"]): str(c["card"]) for c in ts.view.get("private", {}).get("hand", [])}
        wanted = Counter(hand.get(c, "?") for c in cards)
        found = [
            choice_at(ts, i)
            for i, m in legal_of(ts, "play")
            if Counter(hand.get(int(c), "?") for c in m.get("cards", [])) == wanted
        ]
        if found or not cards:
            return found
        # Not in the list: the host explains why (e.g. the cards cannot show one value, or it does not beat the
        # table).
        first = hand.get(cards[0], "?")
        move = {"type": "play", "value": first[0], "cards": sorted(cards)}
        return [Choice(ts.renderer.move_text(move), move=move)]

    def pass_choice(self, ts: TableView) -> Choice | None:
        # Always sent, legal or not: a refused pass gets the host's reason.
        return exact_choice(ts, {"type": "pass"})


def _seg_rows(lit: str, added: str, compact: bool, extra: str, no_color: bool) -> list[Fragments]:
    rows: list[Fragments] = []
    for cells in segments.render_cells(lit, added, compact):
        row: Fragments = []
        for char, kind in cells:
            if kind == "added" and no_color:
                # Without colour a matchstick must still look different from a printed segment.
                char = "!" if char == "|" else "="
            style = {"lit": "class:seg.lit", "added": "class:seg.added"}.get(kind, "class:seg.blank")
            row.append((f"{style} {extra}".strip(), char))
        rows.append(row)
    return rows


def _card_row(
    cards: Sequence[tuple[str, str, str, str]], width: int, compact: bool, no_color: bool, focus: int | None
) -> list[Fragments]:
    """Cards ``(lit, added, label, extra style)`` side by side (a label may have several lines, one under the
    other); when they need more than one row, the row with
    ``focus`` (the cursor) is the one shown, with a count of the cards left out."""
    if not cards:
        return [[("class:dim", "  (none)")]]
    cell = 3 if compact else 4
    per_row = max(1, (width - 4) // (cell + 1))
    start = 0
    if len(cards) > per_row and focus is not None:
        start = min(max(0, focus - per_row // 2), len(cards) - per_row)
    chunk = cards[start : start + per_row]
    drawn = [_seg_rows(lit, added, compact, extra, no_color) for lit, added, _, extra in chunk]
    rows: list[Fragments] = []
    before, after = start, len(cards) - start - len(chunk)
    for r in range(len(drawn[0])):
        row: Fragments = [("class:dim", "< " if before and r == 0 else "  ")]
        for d in drawn:
            row += d[r] + [("", " ")]
        if after and r == 0:
            row.append(("class:dim", ">"))
        rows.append(row)
    # A label of several lines (a hand card's value, then its position) takes a row for each.
    for k in range(max(len(label.split("\n")) for _lit, _added, label, _extra in chunk)):
        labels: Fragments = [("", "  ")]
        for _lit, _added, label, extra in chunk:
            lines = label.split("\n")
            text = lines[k] if k < len(lines) else ""
            labels += [(f"class:label {extra}".strip(), f"{text:^{cell}}"), ("", " ")]
        if k == 0 and (before or after):
            labels.append(("class:dim", " (" + _("{left} left, {right} right").format(left=before, right=after) + ")"))
        rows.append(labels)
    return rows


def _draw(ts: TableView, width: int, height: int, no_color: bool) -> list[Fragments]:
    pub: Mapping[str, Any] = ts.view["public"]
    priv: Mapping[str, Any] | None = ts.view.get("private")
    r = ts.renderer
    compact = height < COMPACT_BELOW
    rows: list[Fragments] = []
    if pub.get("revolution"):
        order: Fragments = [("class:revolution", " " + _("REVOLUTION") + " "), ("", " " + _("0 is the strongest"))]
    else:
        order = [("class:dim", _("normal order: F is the strongest"))]
    pile = _("pile {count}").format(count=pub.get("pile_size", 0))
    rows += wrap_fragments([("class:heading", "Matchstick Tycoon  "), *order, ("class:dim", f"   {pile}")], width)
    passed = set(pub.get("passed") or [])
    seats: Fragments = []
    for p in pub["players"]:
        seat = int(p["seat"])
        turn = seat == pub.get("turn") and not pub.get("over")
        name = r.name(seat) + seat_marker(ts, seat)
        style = "class:seat.turn" if turn else ("class:seat.me" if seat == ts.seat else "class:seat")
        if p.get("out"):
            finish = p.get("finish")
            if finish:
                text = _("{name}: out ({place}.)").format(name=name, place=finish)
            else:
                text = _("{name}: out").format(name=name)
        else:
            text = f"{name}: {_cards_and_sticks(int(p['hand_size']), int(p['matchsticks']))}"
            if seat in passed:
                text = _("{player}, passed").format(player=text)
        seats += [(style, (">" if turn else " ") + text), ("", "  ")]
    rows += wrap_fragments(seats, width)
    top = pub.get("table")
    if top:
        cost = int(top.get("cost", 0))
        facts = {"name": r.name(top["seat"]), "count": top["count"], "value": top["value"], "sticks": cost}
        if top["seat"] == ts.seat:
            played = (
                ngettext(
                    "you played {count} x {value} with {sticks} matchstick",
                    "you played {count} x {value} with {sticks} matchsticks",
                    cost,
                )
                if cost
                else _("you played {count} x {value}")
            )
        else:
            played = (
                ngettext(
                    "{name} played {count} x {value} with {sticks} matchstick",
                    "{name} played {count} x {value} with {sticks} matchsticks",
                    cost,
                )
                if cost
                else _("{name} played {count} x {value}")
            )
        rows += wrap_fragments([("class:heading", _("Trick:") + " "), ("", played.format(**facts))], width)
        shown = [
            (str(c["lit"]), str(c["added"]), ("~" if c.get("rotated") else "") + str(c["card"]), "")
            for c in top["cards"]
        ]
        rows += _card_row(shown, width, compact, no_color, None)
    else:
        leader = pub.get("turn")
        if leader == ts.seat:
            leads = _("empty - you lead")
        elif isinstance(leader, int):
            leads = _("empty - {name} leads").format(name=r.name(leader))
        else:
            leads = _("empty - the leader leads")
        rows += wrap_fragments([("class:heading", _("Trick:") + " "), ("class:dim", leads)], width)
    if priv is not None and ts.seat is not None:
        hand = priv.get("hand", [])
        mine = pub["players"][ts.seat]["matchsticks"]
        heading = [
            ("class:heading", _("Your hand") + " "),
            (
                "class:dim",
                "("
                + _("{cards}; value and position under each").format(cards=_cards_and_sticks(len(hand), int(mine)))
                + ")",
            ),
        ]
        rows += wrap_runs(heading, width, "", "  ")
        ids = Screen().cursor_cards(ts)
        drawn = []
        for pos, c in enumerate(hand):
            extra = focus_style(ts, pos, int(c["id"]), ids)
            # The value it shows (as line mode writes it), then the position typed moves use (`:play 8 2 5`).
            drawn.append((segments.shape(str(c["card"])), "", f"{card_label(str(c['card']))}\n{pos + 1}", extra))
        rows += _card_row(drawn, width, compact, no_color, ts.cursor)
    return rows


def _cards_and_sticks(cards: int, sticks: int) -> str:
    """``5 cards, 1 matchstick`` with each count's own plural form."""
    return _("{cards}, {matchsticks}").format(
        cards=ngettext("{count} card", "{count} cards", cards).format(count=cards),
        matchsticks=ngettext("{count} matchstick", "{count} matchsticks", sticks).format(count=sticks),
    )
