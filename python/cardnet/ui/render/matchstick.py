"""Matchstick Tycoon in line mode: cards drawn as seven-segment digits (matchsticks as ``=`` and ``!``), each
hand card labelled with the value it shows (``6/9``: 6 upright, 9 turned) and its position in the hand; moves
typed as ``play VALUE POS POS ...`` (positions, never internal card ids), ``pass`` or ``discard``."""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from typing import Any

from ... import segments
from ...i18n import current_language, ngettext, pgettext
from ...i18n import gettext as _
from . import GenericRenderer, Move, MoveTextError, View, reads

__all__ = ["Renderer", "card_label"]

_ORDINALS = {1: "st", 2: "nd", 3: "rd"}
#: Columns one card takes in a row of cards (4 drawn + 1 gap).
_CARD_WIDTH = 5
#: Terminals shorter than this draw cards 3 rows tall instead of 5, so the moves fit under the hand.
_COMPACT_BELOW_ROWS = 32


def _ordinal(n: int) -> str:
    """A finishing place as an ordinal number: ``1st`` in English, ``1.`` in Finnish, ``ke-1`` in Indonesian."""
    if current_language() == "en":
        suffix = "th" if 10 <= n % 100 <= 20 else _ORDINALS.get(n % 10, "th")
        return f"{n}{suffix}"
    # Translators: an ordinal number, a finishing place (1st, 2nd): "{n}." in Finnish, "{n}.º" in Spanish.
    return _("{n}th").format(n=n)


def _cards(n: int) -> str:
    return ngettext("{count} card", "{count} cards", n).format(count=n)


def _sticks(n: int) -> str:
    return ngettext("{count} matchstick", "{count} matchsticks", n).format(count=n)


def _word(word: str) -> str:
    """A move word a Matchstick Tycoon player types (``play``, ``pass``, ``discard``) in the current language."""
    words = {
        "play": pgettext("matchstick move", "play"),
        "pass": pgettext("matchstick move", "pass"),
        "discard": pgettext("matchstick move", "discard"),
    }
    return words[word]


def card_label(card: str) -> str:
    """What a printed card reads: its upright value, then its turned value where that differs (``6/9``)."""
    upright = segments.value_of_shape(segments.shape(card), expansion=True) or card
    turned = segments.value_of_shape(segments.shape(card, rotated=True), expansion=True)
    return upright if turned in (None, upright) else f"{upright}/{turned}"


class Renderer(GenericRenderer):
    """Draws hands and the table as seven-segment cards."""

    def move_words(self) -> str:
        return _("{play} VALUE POSITION ..., {pass_}, {discard}").format(
            play=_word("play"), pass_=_word("pass"), discard=_word("discard")
        )

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
        revolution = bool(public.get("revolution"))
        top = public.get("table")
        if top:
            fields = {"name": self.name(top["seat"]), "count": top["count"], "value": top["value"]}
            cost = top.get("cost", 0)
            # Your own play has sentences of its own: "{name} played" with "You" is wrong in Spanish and Finnish.
            if top["seat"] == me and revolution and cost:
                text = _("Table (REVOLUTION: 0 is strongest): you played {count} x {value}, {sticks}")
            elif top["seat"] == me and revolution:
                text = _("Table (REVOLUTION: 0 is strongest): you played {count} x {value}")
            elif top["seat"] == me and cost:
                text = _("Table (normal order: F is strongest): you played {count} x {value}, {sticks}")
            elif top["seat"] == me:
                text = _("Table (normal order: F is strongest): you played {count} x {value}")
            elif revolution and cost:
                text = _("Table (REVOLUTION: 0 is strongest): {name} played {count} x {value}, {sticks}")
            elif revolution:
                text = _("Table (REVOLUTION: 0 is strongest): {name} played {count} x {value}")
            elif cost:
                text = _("Table (normal order: F is strongest): {name} played {count} x {value}, {sticks}")
            else:
                text = _("Table (normal order: F is strongest): {name} played {count} x {value}")
            lines.append(text.format(sticks=_sticks(cost), **fields))
            lines += self.card_rows([(c["lit"], c["added"], [card_label(c["card"])]) for c in top["cards"]])
        else:
            if public.get("turn") == me:
                text = (
                    _("Table (REVOLUTION: 0 is strongest): empty - you lead")
                    if revolution
                    else _("Table (normal order: F is strongest): empty - you lead")
                )
            else:
                text = (
                    _("Table (REVOLUTION: 0 is strongest): empty - the leader leads")
                    if revolution
                    else _("Table (normal order: F is strongest): empty - the leader leads")
                )
            lines.append(text)
        passed = set(public.get("passed") or [])
        status = []
        for p in public["players"]:
            seat = p["seat"]
            name = self.name(seat)
            if p.get("out"):
                finish = p.get("finish")
                status.append(
                    _("{name}: out ({place})").format(name=name, place=_ordinal(finish))
                    if finish
                    else _("{name}: out").format(name=name)
                )
                continue
            fields = {"name": name, "cards": _cards(p["hand_size"]), "sticks": _sticks(p["matchsticks"])}
            if seat in passed:
                status.append(_("{name}: {cards}, {sticks}, passed").format(**fields))
            else:
                status.append(_("{name}: {cards}, {sticks}").format(**fields))
        lines.append(_("Players:"))
        lines += ["  " + text for text in status]
        if private:
            hand = private.get("hand", [])
            mine = public["players"][me]["matchsticks"]
            lines.append(
                _("Your hand ({cards}, {sticks}; value and position under each):").format(
                    cards=_cards(len(hand)), sticks=_sticks(mine)
                )
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
            return " ".join([_word("play"), str(move["value"]), *where])
        if kind == "discard_matchstick":
            return _word("discard")
        if kind == "pass":
            return _word("pass")
        return str(kind or "?")

    def move_note(self, move: Move, view: View) -> str:
        if move.get("type") == "pass":
            return _("take a matchstick")
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
        return f"{note}, {_sticks(sticks)}" if sticks else note

    def group_key(self, move: Move) -> str:
        if move.get("type") == "play":
            return f"{_word('play')} {move['value']}"
        return self.move_text(move)

    def progress(self, public: Mapping[str, Any], seat: int) -> str:
        players = public["players"]
        out = sum(1 for p in players if p.get("out"))
        mine = next((p for p in players if p["seat"] == seat), None)
        if mine and not mine.get("out"):
            return ngettext(
                "{cards} in your hand, {out} of {count} player out",
                "{cards} in your hand, {out} of {count} players out",
                len(players),
            ).format(cards=_cards(mine["hand_size"]), out=out, count=len(players))
        return ngettext("{out} of {count} player out", "{out} of {count} players out", len(players)).format(
            out=out, count=len(players)
        )

    def parse_move(self, text: str, view: View) -> Move | None:
        words = text.split()
        if not words:
            return None
        head = words[0].lower()
        if (reads(head, "pass", _word) or head == "p") and len(words) == 1:
            return {"type": "pass"}
        if (reads(head, "discard", _word) or head == "discard_matchstick") and len(words) == 1:
            return {"type": "discard_matchstick"}
        if reads(head, "play", _word) and len(words) >= 3 and all(w.isdigit() for w in words[2:]):
            hand = [c["id"] for c in (view.get("private") or {}).get("hand", [])]
            positions = [int(w) for w in words[2:]]
            for p in positions:
                if not 1 <= p <= len(hand):
                    raise MoveTextError(
                        _("there is no card at position {position}: your hand has positions 1 to {last}").format(
                            position=p, last=len(hand)
                        )
                        if hand
                        else _("your hand is empty")
                    )
                if positions.count(p) > 1:
                    raise MoveTextError(
                        _("position {position} is named twice: each card can be played once").format(position=p)
                    )
            return {"type": "play", "value": words[1], "cards": [hand[p - 1] for p in positions]}
        return self.unknown_move(text, view)

    def event_text(self, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type")
        if kind == "play":
            cost = event.get("cost", 0)
            cards = ", ".join(card_label(c["card"]) for c in event.get("cards", []))
            fields = {"count": event["count"], "value": event["value"], "cards": cards, "sticks": _sticks(cost)}
            if cost:
                return self.says(
                    event["seat"],
                    _("You play {count} x {value} with {sticks} (cards {cards})"),
                    _("{name} plays {count} x {value} with {sticks} (cards {cards})"),
                    **fields,
                )
            return self.says(
                event["seat"],
                _("You play {count} x {value} (cards {cards})"),
                _("{name} plays {count} x {value} (cards {cards})"),
                **fields,
            )
        if kind == "pass":
            return self.says(
                event["seat"],
                _("You pass and take a matchstick (now {count})"),
                _("{name} passes and takes a matchstick (now {count})"),
                count=event["matchsticks"],
            )
        if kind == "discard_matchstick":
            return self.says(
                event["seat"],
                _("You discard a matchstick ({count} left)"),
                _("{name} discards a matchstick ({count} left)"),
                count=event["matchsticks"],
            )
        if kind == "revolution":
            return (
                _("Revolution! 0 is now the strongest")
                if event.get("revolution")
                else _("Order restored: F is the strongest")
            )
        if kind == "went_out":
            return self.says(
                event["seat"],
                _("You go out ({place})"),
                _("{name} goes out ({place})"),
                place=_ordinal(event["position"]),
            )
        if kind == "trick_cleared":
            leader = event.get("leader")
            if isinstance(leader, int):
                return self.says(leader, _("Trick over. You lead."), _("Trick over. {name} leads."))
            return _("Trick over.")
        if kind == "game_over":
            return None
        return super().event_text(event)

    def help(self) -> list[str]:
        return [
            _(
                "Moves: '{play} VALUE POS POS ...' shows VALUE with the cards at those positions in your hand (e.g."
                " '{play} 8 2 5'; turning and matchsticks are worked out for you), '{pass_}' takes a matchstick,"
                " '{discard}' drops one. Under each card: the value it shows (6/9: 6 upright, 9 turned), then its"
                " position. '=' and '!' are matchsticks."
            ).format(play=_word("play"), pass_=_word("pass"), discard=_word("discard")),
        ]
