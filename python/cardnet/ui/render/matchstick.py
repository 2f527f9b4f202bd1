"""Matchstick Tycoon in line mode: cards drawn as seven-segment digits (matchsticks as ``=`` and ``!``), each
hand card labelled with the value it shows (``6/9``: 6 upright, 9 turned) and its position in the hand; moves
typed as ``play VALUE POS POS ...`` (positions, never internal card ids), ``pass`` or ``discard``."""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from typing import Any

from ... import segments
from . import GenericRenderer, Move, MoveTextError, View

__all__ = ["Renderer", "card_label"]

_ORDINALS = {1: "st", 2: "nd", 3: "rd"}
#: Columns one card takes in a row of cards (4 drawn + 1 gap).
_CARD_WIDTH = 5
#: Terminals shorter than this draw cards 3 rows tall instead of 5, so the moves fit under the hand.
_COMPACT_BELOW_ROWS = 32


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else _ORDINALS.get(n % 10, "th")
    return f"{n}{suffix}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def card_label(card: str) -> str:
    """What a printed card reads: its upright value, then its turned value where that differs (``6/9``)."""
    upright = segments.value_of_shape(segments.shape(card), expansion=True) or card
    turned = segments.value_of_shape(segments.shape(card, rotated=True), expansion=True)
    return upright if turned in (None, upright) else f"{upright}/{turned}"


class Renderer(GenericRenderer):
    """Draws hands and the table as seven-segment cards."""

    move_words = "play VALUE POSITION ..., pass, discard"

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(names)
        #: The card ids of the player's hand in the order drawn: position p (from 1) is ``hand[p - 1]``.
        self.hand: list[int] = []

    def observe(self, view: View) -> None:
        private = view.get("private")
        if private is not None:
            self.hand = [c["id"] for c in private.get("hand", [])]

    def card_rows(self, cards: Sequence[tuple[str, str, Sequence[str]]], indent: str = "  ") -> list[str]:
        """Cards given as ``(lit, added, labels)`` drawn side by side, wrapped to the terminal width, each
        with its label lines underneath."""
        per_row = max(1, (self.width() - len(indent)) // _CARD_WIDTH)
        compact = shutil.get_terminal_size((80, 24)).lines < _COMPACT_BELOW_ROWS
        lines: list[str] = []
        for start in range(0, len(cards), per_row):
            chunk = cards[start : start + per_row]
            drawn = [[f"{r:<4}" for r in segments.render(lit, added, compact)] for lit, added, _ in chunk]
            for row in range(len(drawn[0])):
                lines.append((indent + " ".join(d[row] for d in drawn)).rstrip())
            for row in range(len(chunk[0][2])):
                lines.append((indent + " ".join(f"{labels[row]:^4}" for _, _, labels in chunk)).rstrip())
        return lines

    def table(self, view: View, me: int) -> list[str]:
        public: Mapping[str, Any] = view["public"]
        private: Mapping[str, Any] | None = view.get("private")
        lines: list[str] = []
        order = "REVOLUTION: 0 is strongest" if public.get("revolution") else "normal order: F is strongest"
        top = public.get("table")
        if top:
            cost = top.get("cost", 0)
            sticks = f", {_plural(cost, 'matchstick')}" if cost else ""
            lines.append(f"Table ({order}): {self.name(top['seat'])} played {top['count']} x {top['value']}{sticks}")
            lines += self.card_rows([(c["lit"], c["added"], [card_label(c["card"])]) for c in top["cards"]])
        else:
            leads = self.does(me, "leads", "lead") if public.get("turn") == me else "the leader leads"
            lines.append(f"Table ({order}): empty - {leads}")
        passed = set(public.get("passed") or [])
        status = []
        for p in public["players"]:
            seat = p["seat"]
            if p.get("out"):
                finish = p.get("finish")
                status.append(f"{self.name(seat)}: out ({_ordinal(finish)})" if finish else f"{self.name(seat)}: out")
                continue
            text = f"{self.name(seat)}: {_plural(p['hand_size'], 'card')}, {_plural(p['matchsticks'], 'matchstick')}"
            if seat in passed:
                text += ", passed"
            status.append(text)
        lines.append("Players:")
        lines += ["  " + text for text in status]
        if private:
            hand = private.get("hand", [])
            mine = public["players"][me]["matchsticks"]
            lines.append(
                f"Your hand ({_plural(len(hand), 'card')}, {_plural(mine, 'matchstick')}; "
                "value and position under each):"
            )
            self.hand = [c["id"] for c in hand]
            cards = [(segments.shape(c["card"]), "", [card_label(c["card"]), str(p)]) for p, c in enumerate(hand, 1)]
            lines += self.card_rows(cards)
        return lines

    def move_text(self, move: Move) -> str:
        kind = move.get("type")
        if kind == "play":
            # Positions in the hand as drawn; an id no longer in the hand can only be named by its id.
            where = [str(self.hand.index(i) + 1) if i in self.hand else f"id {i}" for i in move["cards"]]
            return " ".join(["play", str(move["value"]), *where])
        if kind == "discard_matchstick":
            return "discard"
        return str(kind or "?")

    def move_note(self, move: Move, view: View) -> str:
        if move.get("type") == "pass":
            return "take a matchstick"
        if move.get("type") != "play":
            return ""
        private = view.get("private") or {}
        types = {c["id"]: c["card"] for c in private.get("hand", [])}
        parts = []
        sticks = 0
        for card_id in move["cards"]:
            card = types.get(card_id, "?")
            cost = segments.min_cost(card, move["value"]) if card != "?" else None
            sticks += cost or 0
            label = card_label(card) if card != "?" else card
            parts.append(label if card == move["value"] else f"{label}->{move['value']}")
        note = " ".join(parts)
        return note + (f", {_plural(sticks, 'matchstick')}" if sticks else "")

    def group_key(self, move: Move) -> str:
        if move.get("type") == "play":
            return f"play {move['value']}"
        return str(move.get("type", "?"))

    def progress(self, public: Mapping[str, Any], seat: int) -> str:
        players = public["players"]
        out = sum(1 for p in players if p.get("out"))
        mine = next((p for p in players if p["seat"] == seat), None)
        held = f"{_plural(mine['hand_size'], 'card')} in your hand, " if mine and not mine.get("out") else ""
        return f"{held}{out} of {len(players)} players out"

    def parse_move(self, text: str, view: View) -> Move | None:
        words = text.split()
        if not words:
            return None
        head = words[0].lower()
        if head in ("pass", "p") and len(words) == 1:
            return {"type": "pass"}
        if head in ("discard", "discard_matchstick") and len(words) == 1:
            return {"type": "discard_matchstick"}
        if head == "play" and len(words) >= 3 and all(w.isdigit() for w in words[2:]):
            hand = [c["id"] for c in (view.get("private") or {}).get("hand", [])]
            positions = [int(w) for w in words[2:]]
            for p in positions:
                if not 1 <= p <= len(hand):
                    raise MoveTextError(
                        f"there is no card at position {p}: your hand has positions 1 to {len(hand)}"
                        if hand
                        else "your hand is empty"
                    )
                if positions.count(p) > 1:
                    raise MoveTextError(f"position {p} is named twice: each card can be played once")
            return {"type": "play", "value": words[1], "cards": [hand[p - 1] for p in positions]}
        return self.unknown_move(text, view)

    def event_text(self, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type")
        if kind == "play":
            cost = event.get("cost", 0)
            sticks = f" with {_plural(cost, 'matchstick')}" if cost else ""
            cards = ", ".join(card_label(c["card"]) for c in event.get("cards", []))
            return f"{self.does(event['seat'], 'plays', 'play')} {event['count']} x {event['value']}{sticks} (cards {cards})"
        if kind == "pass":
            return f"{self.does(event['seat'], 'passes and takes', 'pass and take')} a matchstick (now {event['matchsticks']})"
        if kind == "discard_matchstick":
            return f"{self.does(event['seat'], 'discards', 'discard')} a matchstick ({event['matchsticks']} left)"
        if kind == "revolution":
            return (
                "Revolution! 0 is now the strongest"
                if event.get("revolution")
                else "Order restored: F is the strongest"
            )
        if kind == "went_out":
            return f"{self.does(event['seat'], 'goes', 'go')} out ({_ordinal(event['position'])})"
        if kind == "trick_cleared":
            leader = event.get("leader")
            return "Trick over." + (f" {self.does(leader, 'leads', 'lead')}." if isinstance(leader, int) else "")
        if kind == "game_over":
            return None
        return super().event_text(event)

    def help(self) -> list[str]:
        return [
            "Moves: 'play VALUE POS POS ...' shows VALUE with the cards at those positions in your hand (e.g."
            " 'play 8 2 5'; turning and matchsticks are worked out for you), 'pass' takes a matchstick, 'discard'"
            " drops one. Under each card: the value it shows (6/9: 6 upright, 9 turned), then its position. '='"
            " and '!' are matchsticks.",
        ]
