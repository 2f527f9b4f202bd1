"""Cherki in line mode: the hand grouped by kind with each card's suit and id, whether it is ready to call,
the discard pile and the scores; moves typed ``draw``, ``take``, ``call``, ``discard 42`` or
``discard 42 call``; wins shown with the revealed hand and every payment."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...games import Outcome
from ...i18n import gettext as _
from ...i18n import ngettext, pgettext
from . import GenericRenderer, Move, View, reads, you

__all__ = ["Renderer", "card_kind", "card_name", "pair_kind_of"]

_SUITS = ("Coins", "Strings", "Myriads")
#: The honours' faces by the kind the core writes for them.
_HONOURS = {27: "white-flower", 28: "red-flower", 29: "old-thousand"}
#: Faces printed with the red stamp: the 9 of Strings, Red Flower and Old Thousand.
_RED_STAMP = {17, 28, 29}
_SUIT_PAINT = {"Coins": "yellow", "Strings": "green", "Myriads": "blue"}
#: Discards shown on the table (older ones are only counted).
_DISCARDS_SHOWN = 6


def card_kind(card: int) -> str:
    """The kind of a card as the core writes it: ``"1"``-``"9"`` or the honour's name."""
    face = card // 4
    if face in _HONOURS:
        return _HONOURS[face]
    return str(face % 9 + 1)


def _suit_card(rank: int, suit: str) -> str:
    """A number card's face in the current language (``3 Coins``)."""
    faces = {
        "Coins": _("{rank} Coins"),
        "Strings": _("{rank} Strings"),
        "Myriads": _("{rank} Myriads"),
    }
    return faces[suit].format(rank=rank)


def card_name(card: int) -> str:
    """A card's face: ``3 Coins``, ``9 Strings*``, ``White Flower``, ``Red Flower*`` (``*`` = red stamp)."""
    face = card // 4
    stamp = "*" if face in _RED_STAMP else ""
    if face in _HONOURS:
        return kind_name(_HONOURS[face]) + stamp
    return _suit_card(face % 9 + 1, _SUITS[face // 9]) + stamp


def kind_name(kind: str) -> str:
    """A kind for people: ``8`` stays ``8``, ``red-flower`` becomes ``Red Flower`` (in the current language)."""
    honours = {
        "white-flower": _("White Flower"),
        "red-flower": _("Red Flower"),
        "old-thousand": _("Old Thousand"),
    }
    return honours.get(kind, kind.replace("-", " ").title())


def _word(word: str) -> str:
    """A move word a Cherki player types (``draw``, ``take``, ``call``, ``discard``) in the current language."""
    words = {
        "draw": pgettext("cherki move", "draw"),
        "take": pgettext("cherki move", "take"),
        "call": pgettext("cherki move", "call"),
        "discard": pgettext("cherki move", "discard"),
    }
    return words[word]


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


def _cards(n: int) -> str:
    return ngettext("{count} card", "{count} cards", n).format(count=n)


class Renderer(GenericRenderer):
    """Draws a Cherki deal: hand by kind, discard pile, stock and scores."""

    def move_words(self) -> str:
        return _("{draw}, {take}, {call}, {discard} N, {discard} N {call}").format(
            draw=_word("draw"), take=_word("take"), call=_word("call"), discard=_word("discard")
        )

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(names)
        #: The seat whose moves are listed: the one named "You", or the last seat a table was drawn for.
        mine = [s for s in range(len(self.names)) if self.names[s] in (you(), "You")]
        self.me = mine[0] if mine else 0

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
        head = _("Deal {deal} of {deals}, dealer {dealer}, stock {stock}. Scores:").format(
            deal=pub["deal"], deals=pub["deals"], dealer=self.name(pub["dealer"]), stock=pub["stock"]
        )
        lines = self.wrap(head, scores, sep=", ")
        last = pub.get("last_deal")
        if last:
            lines.append(_("Last deal: {summary}").format(summary=self.deal_summary(last)))
        players = []
        for seat, p in enumerate(pub["players"]):
            fields = {"name": self.name(seat), "cards": _cards(p["hand_size"])}
            to_play = pub.get("turn") == seat
            if p.get("called"):
                text = _("{name} {cards}, CALLED (to play)") if to_play else _("{name} {cards}, CALLED")
            else:
                text = _("{name} {cards} (to play)") if to_play else _("{name} {cards}")
            players.append(text.format(**fields))
        lines += self.wrap(_("Players:"), players, sep=" | ")
        discards = pub.get("discards") or []
        if discards:
            shown = []
            for d in discards[-_DISCARDS_SHOWN:]:
                taken = d.get("taken_by")
                card = self.card(d["card"], with_id=False)
                if taken is not None and taken == me:
                    # "you" has its own sentence: "taken by {taker}" with "You" reads wrong in most languages.
                    text = _("{card} ({name}, taken by you)").format(card=card, name=self.name(d["seat"]))
                elif taken is not None:
                    text = _("{card} ({name}, taken by {taker})").format(
                        card=card, name=self.name(d["seat"]), taker=self.name(taken)
                    )
                else:
                    text = _("{card} ({name})").format(card=card, name=self.name(d["seat"]))
                shown.append(text)
            older = len(discards) - len(shown)
            if older > 0:
                head = ngettext("Discards ({count} older, then):", "Discards ({count} older, then):", older).format(
                    count=older
                )
            else:
                head = _("Discards:")
            lines += self.wrap(head, shown, sep=", ")
        top = pub.get("top_discard")
        if top:
            fields = {"card": self.card(top["card"]), "name": self.name(top["seat"])}
            if pub.get("phase") != "start":
                text = _("Top discard: {card} from {name}")
            elif not top.get("takeable"):
                text = _("Top discard: {card} from {name} - it cannot be taken")
            elif priv is not None and not priv.get("can_take") and pub.get("turn") == me:
                text = _("Top discard: {card} from {name} - you may not take it now")
            else:
                text = _("Top discard: {card} from {name} - it may be taken")
            lines.append(text.format(**fields))
        elif pub.get("phase") != "over":
            lines.append(_("Top discard: none to take (draw from the stock)"))
        if priv is not None:
            lines += self.hand_lines(priv, pub, me)
        return lines

    def hand_lines(self, priv: Mapping[str, Any], pub: Mapping[str, Any], me: int) -> list[str]:
        """The hand by kind, then whether it is ready and what calling would wait for."""
        hand: list[int] = priv["hand"]
        drawn = priv.get("drawn")
        lines = [_("Your hand ({cards}, by kind):").format(cards=_cards(len(hand)))]
        for kind, texts in self.grouped(hand):
            label = f"  {kind_name(kind)} x{len(texts)}"
            lines += self.wrap(f"{label:<18}", texts, indent=" " * 18, sep="  ")
        if drawn is not None:
            lines.append(_("Just drawn: {card}").format(card=self.card(drawn)))
        locked = priv.get("pair_kind")
        if locked is not None:
            lines.append(
                _("You called Cherki: you win with any {kind} you draw or take.").format(kind=kind_name(locked))
            )
        elif priv.get("ready"):
            kind = kind_name(priv["ready_pair_kind"])
            if pub.get("phase") == "start":
                text = _("Ready: two triples and a pair of {kind} - you may call now ('{call}').")
            else:
                text = _("Ready: two triples and a pair of {kind}.")
            lines.append(text.format(kind=kind, call=_word("call")))
        elif pub.get("phase") == "drawn" and pub.get("turn") == me:
            discards = pub.get("discards") or []
            # A card just taken from the discard pile may not go straight back.
            taken = drawn if discards and discards[-1].get("taken_by") == me and discards[-1]["card"] == drawn else None
            calls = [c for c in hand if c != taken and pair_kind_of(x for x in hand if x != c) is not None]
            if calls:
                cards = ", ".join(self.card(c) for c in calls)
                lines.append(_("Ready after discarding {cards}: you may call.").format(cards=cards))
            else:
                lines.append(_("Not ready: no discard makes two triples and a pair."))
        else:
            lines.append(_("Not ready: you need two triples and a pair to call."))
        return lines

    def deal_summary(self, deal: Mapping[str, Any]) -> str:
        """A finished deal in one line."""
        if deal.get("result") != "win":
            return _("deal {deal} was drawn (the stock ran out), nobody paid").format(deal=deal["deal"])
        fields = {
            "name": self.name(deal["winner"]),
            "deal": deal["deal"],
            "total": deal["total"],
            "gain": f"{deal['payments'][deal['winner']]:+d}",
        }
        if deal.get("by") == "take_discard":
            return _("{name} won deal {deal} by taking the discard, total {total} ({gain})").format(**fields)
        return _("{name} won deal {deal} by drawing from the stock, total {total} ({gain})").format(**fields)

    # -- moves --------------------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        kind = move.get("type")
        if kind == "draw_stock":
            return _word("draw")
        if kind == "take_discard":
            return _word("take")
        if kind == "call":
            return _word("call")
        if kind == "discard":
            text = f"{_word('discard')} {move['card']}"
            return f"{text} {_word('call')}" if move.get("call") else text
        return super().move_text(move)

    def move_note(self, move: Move, view: View) -> str:
        pub = view["public"]
        priv = view.get("private") or {}
        kind = move.get("type")
        if kind == "draw_stock":
            return _("from the stock, {count} left").format(count=pub["stock"])
        if kind == "take_discard":
            top = pub.get("top_discard")
            if not top:
                return ""
            fields = {"card": self.card(top["card"], with_id=False), "name": self.name(top["seat"])}
            locked = priv.get("pair_kind")
            if locked is not None and card_kind(top["card"]) == locked:
                return _("{card} from {name}: completes your hand, you win").format(**fields)
            return _("{card} from {name}").format(**fields)
        if kind == "call":
            ready = priv.get("ready_pair_kind")
            if ready:
                return _("lock your hand, then win with any {kind}").format(kind=kind_name(ready))
            return _("lock your hand")
        if kind == "discard":
            card = self.card(move["card"], with_id=False)
            after = pair_kind_of(c for c in priv.get("hand", []) if c != move["card"]) if move.get("call") else None
            fields = {"card": card, "kind": kind_name(after) if after is not None else ""}
            if move["card"] == priv.get("drawn"):
                if after is not None:
                    return _("{card}, just drawn; call Cherki, then win with any {kind}").format(**fields)
                return _("{card}, just drawn").format(**fields)
            if after is not None:
                return _("{card}; call Cherki, then win with any {kind}").format(**fields)
            return card
        return ""

    def group_key(self, move: Move) -> str:
        if move.get("type") == "discard" and move.get("call"):
            return f"{_word('discard')} {_word('call')}"
        if move.get("type") == "discard":
            return _word("discard")
        return self.move_text(move)

    def progress(self, public: Mapping[str, Any], seat: int) -> str:
        return ngettext(
            "deal {deal} of {deals}, {count} card in the stock",
            "deal {deal} of {deals}, {count} cards in the stock",
            public["stock"],
        ).format(deal=public["deal"], deals=public["deals"], count=public["stock"])

    def parse_move(self, text: str, view: View) -> Move | None:
        words = text.lower().split()
        if not words:
            return None
        head, rest = words[0], words[1:]
        if (reads(head, "draw", _word) or head in ("stock", "draw_stock")) and not rest:
            return {"type": "draw_stock"}
        if (reads(head, "take", _word) or head == "take_discard") and not rest:
            return {"type": "take_discard"}
        if reads(head, "call", _word) and not rest:
            return {"type": "call"}
        calls = rest[1:] == [] or (len(rest) == 2 and reads(rest[1], "call", _word))
        if reads(head, "discard", _word) and rest and rest[0].isdigit() and calls:
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
                return self.says(
                    seat,
                    _("You draw {card} ({count} left in the stock)."),
                    _("{name} draws {card} ({count} left in the stock)."),
                    card=self.card(event["card"]),
                    count=event["stock"],
                )
            return self.says(
                seat,
                _("You draw from the stock ({count} left)."),
                _("{name} draws from the stock ({count} left)."),
                count=event["stock"],
            )
        if kind == "take_discard":
            return self.says(
                seat,
                _("You take {card}, discarded by {giver}."),
                _("{name} takes {card}, discarded by {giver}."),
                card=self.card(event["card"]),
                giver=self.name(event["from"]),
            )
        if kind == "discard":
            return self.says(
                seat, _("You discard {card}."), _("{name} discards {card}."), card=self.card(event["card"])
            )
        if kind == "call":
            return self.says(seat, _("You call Cherki!"), _("{name} calls Cherki!"))
        if kind == "win":
            return self.win_text(event)
        if kind == "deal_drawn":
            return _("The stock ran out: deal {deal} is drawn, nobody pays.").format(deal=event["deal"])
        if kind == "new_deal":
            return _("Deal {deal} is dealt, dealer {name}.").format(deal=event["deal"], name=self.name(event["dealer"]))
        return super().event_text(event)

    def win_text(self, event: Mapping[str, Any]) -> str:
        """A win: how, the nine cards by kind, the total and what each seat pays or gets."""
        winner: int = event["winner"]
        fields = {"deal": event["deal"], "kind": kind_name(str(event.get("pair_kind", "")))}
        if event.get("by") == "take_discard":
            head = self.says(
                winner,
                _("You win deal {deal} by taking the discard, completing the {kind}s:"),
                _("{name} wins deal {deal} by taking the discard, completing the {kind}s:"),
                **fields,
            )
        else:
            head = self.says(
                winner,
                _("You win deal {deal} by drawing from the stock, completing the {kind}s:"),
                _("{name} wins deal {deal} by drawing from the stock, completing the {kind}s:"),
                **fields,
            )
        lines = [head]
        for kind, texts in self.grouped(event["hand"], with_id=False):
            lines.append(f"    {kind_name(kind)}: " + ", ".join(texts))
        payments = []
        for seat, amount in enumerate(event["payments"]):
            if seat == winner:
                payments.append(self.says(seat, _("You get {amount}"), _("{name} gets {amount}"), amount=amount))
            else:
                payments.append(self.says(seat, _("You pay {amount}"), _("{name} pays {amount}"), amount=-amount))
        lines += self.wrap(
            "    " + _("Total {total}:").format(total=event["total"]), payments, indent="      ", sep=", "
        )
        return "\n".join(lines)

    def outcome_lines(self, outcome: Outcome) -> list[str]:
        lines = []
        for place, seat in enumerate(outcome.order, start=1):
            points = outcome.scores[seat]
            fields = {"place": place, "name": self.name(seat), "points": f"{points:+d}"}
            if seat in outcome.winners:
                text = ngettext(
                    "{place}. {name}: {points} point - winner", "{place}. {name}: {points} points - winner", abs(points)
                )
            else:
                text = ngettext("{place}. {name}: {points} point", "{place}. {name}: {points} points", abs(points))
            lines.append("  " + text.format(**fields))
        for deal in outcome.detail.get("deals", []):
            summary = self.deal_summary(deal)
            lines.append(f"  {summary[0].upper()}{summary[1:]}")
        return lines

    def help(self) -> list[str]:
        return [
            _(
                "Moves: '{draw}' takes the top stock card, '{take}' the last discard; then '{discard} ID' (the number"
                " in brackets), or '{discard} ID {call}' to call Cherki as you discard; '{call}' before drawing when"
                " your 8 cards are ready (two triples and a pair). After calling, draw or take a card of your pair's"
                " kind to win. Numbers of any suit share a kind; honours only match themselves. '*' marks the red"
                " stamp (display only)."
            ).format(draw=_word("draw"), take=_word("take"), call=_word("call"), discard=_word("discard")),
        ]
