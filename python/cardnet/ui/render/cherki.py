"""Cherki in line mode: the hand grouped by kind with each card's suit and id, whether it is ready to call,
the discard pile and the scores; moves typed ``draw``, ``take``, ``call``, ``discard 42`` or
``discard 42 call``; wins shown with the revealed hand and every payment."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...games import Outcome
from . import GenericRenderer, Move, View

__all__ = ["Renderer", "card_kind", "card_name", "pair_kind_of"]

_SUITS = ("Coins", "Strings", "Myriads")
_HONOURS = {
    27: ("White Flower", "white-flower"),
    28: ("Red Flower", "red-flower"),
    29: ("Old Thousand", "old-thousand"),
}
#: Faces printed with the red stamp: the 9 of Strings, Red Flower and Old Thousand.
_RED_STAMP = {17, 28, 29}
_SUIT_PAINT = {"Coins": "yellow", "Strings": "green", "Myriads": "blue"}
#: Discards shown on the table (older ones are only counted).
_DISCARDS_SHOWN = 6


def card_kind(card: int) -> str:
    """The kind of a card as the core writes it: ``"1"``-``"9"`` or the honour's name."""
    face = card // 4
    if face in _HONOURS:
        return _HONOURS[face][1]
    return str(face % 9 + 1)


def card_name(card: int) -> str:
    """A card's face: ``3 Coins``, ``9 Strings*``, ``White Flower``, ``Red Flower*`` (``*`` = red stamp)."""
    face = card // 4
    stamp = "*" if face in _RED_STAMP else ""
    if face in _HONOURS:
        return _HONOURS[face][0] + stamp
    return f"{face % 9 + 1} {_SUITS[face // 9]}{stamp}"


def kind_name(kind: str) -> str:
    """A kind for people: ``8`` stays ``8``, ``red-flower`` becomes ``Red Flower``."""
    return kind.replace("-", " ").title()


def pair_kind_of(cards: Iterable[int]) -> str | None:
    """The pair kind when the 8 cards make two triples and a pair (None when they do not): exactly one kind
    counts 2, 5 or 8 and every other kind counts 3 or 6."""
    counts = Counter(card_kind(c) for c in cards)
    if sum(counts.values()) != 8:
        return None
    pairs = [k for k, n in counts.items() if n % 3 == 2]
    rest_ok = all(n % 3 == 0 for k, n in counts.items() if k not in pairs)
    return pairs[0] if len(pairs) == 1 and rest_ok else None


def _kind_order(kind: str) -> tuple[int, str]:
    return (0, kind) if kind.isdigit() else (1, kind)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class Renderer(GenericRenderer):
    """Draws a Cherki deal: hand by kind, discard pile, stock and scores."""

    move_words = "draw, take, call, discard N, discard N call"

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(names)
        #: The seat whose moves are listed: the one named "You", or the last seat a table was drawn for.
        self.me = self.names.index("You") if "You" in self.names else 0

    def card(self, card: int, with_id: bool = True) -> str:
        """A card as ``[42] 3 Coins``, painted by suit (red for the red stamp) when colour is on."""
        face = card // 4
        colour = "red" if face in _RED_STAMP else _SUIT_PAINT.get(_SUITS[face // 9] if face < 27 else "", "bold")
        text = self.paint(card_name(card), colour)
        return f"[{card}] {text}" if with_id else text

    def grouped(self, cards: Sequence[int], with_id: bool = True) -> list[tuple[str, list[str]]]:
        """Cards grouped by kind (numbers first, then honours), each group with its cards' texts."""
        groups: dict[str, list[int]] = {}
        for c in sorted(cards):
            groups.setdefault(card_kind(c), []).append(c)
        return [(k, [self.card(c, with_id) for c in groups[k]]) for k in sorted(groups, key=_kind_order)]

    # -- the table ----------------------------------------------------------------------------------

    def table(self, view: View, me: int) -> list[str]:
        pub: Mapping[str, Any] = view["public"]
        priv: Mapping[str, Any] | None = view.get("private")
        self.me = me
        scores = [f"{self.name(s)} {n:+d}" if n else f"{self.name(s)} 0" for s, n in enumerate(pub["scores"])]
        head = f"Deal {pub['deal']} of {pub['deals']}, dealer {self.name(pub['dealer'])}, stock {pub['stock']}. Scores:"
        lines = self.wrap(head, scores, sep=", ")
        last = pub.get("last_deal")
        if last:
            lines.append(f"Last deal: {self.deal_summary(last)}")
        players = []
        for seat, p in enumerate(pub["players"]):
            text = f"{self.name(seat)} {_plural(p['hand_size'], 'card')}"
            if p.get("called"):
                text += ", CALLED"
            if pub.get("turn") == seat:
                text += " (to play)"
            players.append(text)
        lines += self.wrap("Players:", players, sep=" | ")
        discards = pub.get("discards") or []
        if discards:
            shown = []
            for d in discards[-_DISCARDS_SHOWN:]:
                taken = d.get("taken_by")
                by = f"{self.name(d['seat'])}" + (f", taken by {self.name(taken)}" if taken is not None else "")
                shown.append(f"{self.card(d['card'], with_id=False)} ({by})")
            older = len(discards) - len(shown)
            head = f"Discards ({older} older, then):" if older > 0 else "Discards:"
            lines += self.wrap(head, shown, sep=", ")
        top = pub.get("top_discard")
        if top:
            can = ""
            if pub.get("phase") == "start":
                if not top.get("takeable"):
                    can = " - it cannot be taken"
                elif priv is not None and not priv.get("can_take") and pub.get("turn") == me:
                    can = " - you may not take it now"
                else:
                    can = " - it may be taken"
            lines.append(f"Top discard: {self.card(top['card'])} from {self.name(top['seat'])}{can}")
        elif pub.get("phase") != "over":
            lines.append("Top discard: none to take (draw from the stock)")
        if priv is not None:
            lines += self.hand_lines(priv, pub, me)
        return lines

    def hand_lines(self, priv: Mapping[str, Any], pub: Mapping[str, Any], me: int) -> list[str]:
        """The hand by kind, then whether it is ready and what calling would wait for."""
        hand: list[int] = priv["hand"]
        drawn = priv.get("drawn")
        lines = [f"Your hand ({_plural(len(hand), 'card')}, by kind):"]
        for kind, texts in self.grouped(hand):
            label = f"  {kind_name(kind)} x{len(texts)}"
            lines += self.wrap(f"{label:<18}", texts, indent=" " * 18, sep="  ")
        if drawn is not None:
            lines.append(f"Just drawn: {self.card(drawn)}")
        locked = priv.get("pair_kind")
        if locked is not None:
            lines.append(f"You called Cherki: you win with any {kind_name(locked)} you draw or take.")
        elif priv.get("ready"):
            kind = kind_name(priv["ready_pair_kind"])
            call = " - you may call now ('call')" if pub.get("phase") == "start" else ""
            lines.append(f"Ready: two triples and a pair of {kind}{call}.")
        elif pub.get("phase") == "drawn" and pub.get("turn") == me:
            discards = pub.get("discards") or []
            # A card just taken from the discard pile may not go straight back.
            taken = drawn if discards and discards[-1].get("taken_by") == me and discards[-1]["card"] == drawn else None
            calls = [c for c in hand if c != taken and pair_kind_of(x for x in hand if x != c) is not None]
            if calls:
                lines.append("Ready after discarding " + ", ".join(self.card(c) for c in calls) + ": you may call.")
            else:
                lines.append("Not ready: no discard makes two triples and a pair.")
        else:
            lines.append("Not ready: you need two triples and a pair to call.")
        return lines

    def deal_summary(self, deal: Mapping[str, Any]) -> str:
        """A finished deal in one line."""
        if deal.get("result") != "win":
            return f"deal {deal['deal']} was drawn (the stock ran out), nobody paid"
        how = "taking the discard" if deal.get("by") == "take_discard" else "drawing from the stock"
        gain = deal["payments"][deal["winner"]]
        return f"{self.name(deal['winner'])} won deal {deal['deal']} by {how}, total {deal['total']} ({gain:+d})"

    # -- moves --------------------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        kind = move.get("type")
        if kind == "draw_stock":
            return "draw"
        if kind == "take_discard":
            return "take"
        if kind == "call":
            return "call"
        if kind == "discard":
            return f"discard {move['card']}" + (" call" if move.get("call") else "")
        return super().move_text(move)

    def move_note(self, move: Move, view: View) -> str:
        pub = view["public"]
        priv = view.get("private") or {}
        kind = move.get("type")
        if kind == "draw_stock":
            return f"from the stock, {pub['stock']} left"
        if kind == "take_discard":
            top = pub.get("top_discard")
            if not top:
                return ""
            note = f"{self.card(top['card'], with_id=False)} from {self.name(top['seat'])}"
            locked = priv.get("pair_kind")
            if locked is not None and card_kind(top["card"]) == locked:
                note += ": completes your hand, you win"
            return note
        if kind == "call":
            ready = priv.get("ready_pair_kind")
            return f"lock your hand, then win with any {kind_name(ready)}" if ready else "lock your hand"
        if kind == "discard":
            note = self.card(move["card"], with_id=False)
            if move["card"] == priv.get("drawn"):
                note += ", just drawn"
            if move.get("call"):
                after = pair_kind_of(c for c in priv.get("hand", []) if c != move["card"])
                if after is not None:
                    note += f"; call Cherki, then win with any {kind_name(after)}"
            return note
        return ""

    def group_key(self, move: Move) -> str:
        if move.get("type") == "discard" and move.get("call"):
            return "discard call"
        return str(move.get("type", "?"))

    def progress(self, public: Mapping[str, Any], seat: int) -> str:
        return f"deal {public['deal']} of {public['deals']}, {public['stock']} cards in the stock"

    def parse_move(self, text: str, view: View) -> Move | None:
        words = text.lower().split()
        if not words:
            return None
        head, rest = words[0], words[1:]
        if head in ("draw", "stock", "draw_stock") and not rest:
            return {"type": "draw_stock"}
        if head in ("take", "take_discard") and not rest:
            return {"type": "take_discard"}
        if head == "call" and not rest:
            return {"type": "call"}
        if head == "discard" and rest and rest[0].isdigit() and rest[1:] in ([], ["call"]):
            move: Move = {"type": "discard", "card": int(rest[0])}
            if rest[1:]:
                move["call"] = True
            return move
        return self.unknown_move(text, view)

    # -- events -------------------------------------------------------------------------------------

    def event_text(self, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type")
        seat: int = event.get("seat", -1)
        if kind == "draw_stock":
            if event.get("card") is not None:
                return f"{self.does(seat, 'draws', 'draw')} {self.card(event['card'])} ({event['stock']} left in the stock)."
            return f"{self.does(seat, 'draws', 'draw')} from the stock ({event['stock']} left)."
        if kind == "take_discard":
            return f"{self.does(seat, 'takes', 'take')} {self.card(event['card'])}, discarded by {self.name(event['from'])}."
        if kind == "discard":
            return f"{self.does(seat, 'discards', 'discard')} {self.card(event['card'])}."
        if kind == "call":
            return f"{self.does(seat, 'calls', 'call')} Cherki!"
        if kind == "win":
            return self.win_text(event)
        if kind == "deal_drawn":
            return f"The stock ran out: deal {event['deal']} is drawn, nobody pays."
        if kind == "new_deal":
            return f"Deal {event['deal']} is dealt, dealer {self.name(event['dealer'])}."
        return super().event_text(event)

    def win_text(self, event: Mapping[str, Any]) -> str:
        """A win: how, the nine cards by kind, the total and what each seat pays or gets."""
        winner: int = event["winner"]
        how = "taking the discard" if event.get("by") == "take_discard" else "drawing from the stock"
        pair = kind_name(str(event.get("pair_kind", "")))
        lines = [f"{self.does(winner, 'wins', 'win')} deal {event['deal']} by {how}, completing the {pair}s:"]
        for kind, texts in self.grouped(event["hand"], with_id=False):
            lines.append(f"    {kind_name(kind)}: " + ", ".join(texts))
        payments = []
        for seat, amount in enumerate(event["payments"]):
            if seat == winner:
                payments.append(f"{self.does(seat, 'gets', 'get')} {amount}")
            else:
                payments.append(f"{self.does(seat, 'pays', 'pay')} {-amount}")
        lines += self.wrap(f"    Total {event['total']}:", payments, indent="      ", sep=", ")
        return "\n".join(lines)

    def outcome_lines(self, outcome: Outcome) -> list[str]:
        lines = []
        for place, seat in enumerate(outcome.order, start=1):
            won = " - winner" if seat in outcome.winners else ""
            lines.append(f"  {place}. {self.name(seat)}: {outcome.scores[seat]:+d} points{won}")
        for deal in outcome.detail.get("deals", []):
            summary = self.deal_summary(deal)
            lines.append(f"  {summary[0].upper()}{summary[1:]}")
        return lines

    def help(self) -> list[str]:
        return [
            "Moves: 'draw' takes the top stock card, 'take' the last discard; then 'discard ID' (the number in"
            " brackets), or 'discard ID call' to call Cherki as you discard; 'call' before drawing when your 8 cards"
            " are ready (two triples and a pair). After calling, draw or take a card of your pair's kind to win."
            " Numbers of any suit share a kind; honours only match themselves. '*' marks the red stamp (display only).",
        ]
