"""TEN in line mode: the tableau with its sums and how far it is from a bust, the market with prices, every
collection by colour with its current score, auctions and payments in progress. Colours are written as
names, and painted when the terminal allows it. Moves are typed ``draw``, ``stop``, ``numbers``,
``currency``, ``buy 49``, ``skip``, ``bid 3``, ``pass``, ``pay token``, ``pay bust``, ``pay card 17``,
``accept`` or ``decline``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ...games import Outcome, ten_deck
from ...i18n import gettext as _
from ...i18n import ngettext, pgettext
from . import GenericRenderer, Move, View, you

__all__ = ["COLOURS", "BustRisk", "Renderer", "bust_risk", "card_text", "unseen_cards"]

#: The four colours in the order scores are broken down (``per_colour``).
COLOURS = ("red", "blue", "orange", "green")
#: ANSI paint per colour (orange has no basic ANSI code; yellow is the nearest).
_PAINT = {"red": "red", "blue": "blue", "orange": "yellow", "green": "green"}
#: A tableau busts when numbers - currency, or currency alone, reaches this.
BUST_AT = 11
#: The highest number and currency card values (a margin at or above them is no risk at all).
_MAX_NUMBER = 9
_MAX_CURRENCY = 5


def colour_name(colour: str) -> str:
    """A TEN colour in the current language (the core's word when it is none of the four)."""
    names = {"red": _("red"), "blue": _("blue"), "orange": _("orange"), "green": _("green")}
    return names.get(colour, colour)


def _purpose(purpose: str) -> str:
    """What a payment is for, in words."""
    purposes = {
        "buy": _("a purchase"),
        "final_buy": _("a final purchase"),
        "auction": _("an auction win"),
        "solo_wild": _("a wild"),
    }
    return purposes.get(purpose, _("payment"))


def _word(word: str) -> str:
    """A move word or phrase a TEN player types, in the current language."""
    words = {
        "draw": pgettext("ten move", "draw"),
        "stop": pgettext("ten move", "stop"),
        "numbers": pgettext("ten move", "numbers"),
        "currency": pgettext("ten move", "currency"),
        "buy": pgettext("ten move", "buy"),
        "skip": pgettext("ten move", "skip"),
        "bid": pgettext("ten move", "bid"),
        "pass": pgettext("ten move", "pass"),
        "pay token": pgettext("ten move", "pay token"),
        "pay bust": pgettext("ten move", "pay bust"),
        "pay card": pgettext("ten move", "pay card"),
        "accept": pgettext("ten move", "accept"),
        "decline": pgettext("ten move", "decline"),
    }
    return words[word]


def _typed_words() -> dict[str, str]:
    """Every move word, by the field the help texts name it with (``pass_``, ``pay_token``...)."""
    english = ("draw", "stop", "numbers", "currency", "buy", "skip", "bid", "pass", "pay token", "pay bust")
    fields = {e.replace(" ", "_") + ("_" if e == "pass" else ""): _word(e) for e in english}
    return fields | {"pay_card": _word("pay card"), "accept": _word("accept"), "decline": _word("decline")}


#: The moves typed as a word or phrase alone, by their English words, with the wire move they make.
_SIMPLE = {
    "draw": {"type": "draw"},
    "stop": {"type": "stop"},
    "skip": {"type": "skip_buy"},
    "pass": {"type": "pass_bid"},
    "accept": {"type": "accept_wild"},
    "decline": {"type": "decline_wild"},
    "pay token": {"type": "pay_token"},
    "pay bust": {"type": "pay_bust"},
    "numbers": {"type": "prize", "kind": "numbers"},
    "currency": {"type": "prize", "kind": "currency"},
}
#: The moves typed as a word or phrase and a number, with the wire move type and the number's field.
_NUMBERED = {"buy": ("buy", "card"), "bid": ("bid", "amount"), "pay card": ("pay_card", "card")}


def card_text(card: Mapping[str, Any]) -> str:
    """A card in words: ``blue 5``, ``red wild #`` (any number), ``wild 8`` (any colour), ``wild #``
    (anything), ``currency 4``."""
    kind = card.get("type")
    if kind == "number":
        return _("{colour} {value}").format(colour=colour_name(card["colour"]), value=card["value"])
    if kind == "colour_wild":
        return _("{colour} wild #").format(colour=colour_name(card["colour"]))
    if kind == "number_wild":
        return _("wild {value}").format(value=card["value"])
    if kind == "any_wild":
        return _("wild #")
    if kind == "currency":
        return _("currency {value}").format(value=card["value"])
    return str(kind)


def unseen_cards(pub: Mapping[str, Any], players: int) -> list[Mapping[str, Any]]:
    """The cards of the deck that the public view does not show anywhere: exactly the draw pile, in some order.

    The deck comes from the core's card data (``_core.ten_deck``); every place a card can be seen is taken off.
    """
    seen: set[int] = set()
    places: list[Any] = [pub["tableau"]["cards"], pub.get("market") or [], pub["discard"].get("cards") or []]
    places += [info["collection"] for info in pub["seats"]]
    for holder, key in (("auction", "card"), ("offer", "card"), ("payment", "card")):
        item = pub.get(holder)
        if item and item.get(key):
            places.append([item[key]])
    payment = pub.get("payment")
    if payment:
        places.append(payment.get("cards") or [])
    for cards in places:
        seen.update(int(c["id"]) for c in cards)
    return [c for c in ten_deck(players) if int(c["id"]) not in seen]


class BustRisk(NamedTuple):
    """What the next draw risks: ``busting`` of the ``unseen`` cards would bust the tableau."""

    busting: int
    unseen: int


def bust_risk(pub: Mapping[str, Any], players: int) -> BustRisk:
    """How many of the cards still in the draw pile would bust the tableau if drawn next (wilds never do)."""
    tab = pub["tableau"]
    numbers, currency = int(tab["numbers"]), int(tab["currency"])
    unseen = unseen_cards(pub, players)
    busting = 0
    for card in unseen:
        kind = card.get("type")
        if kind == "number" and numbers + int(card["value"]) - currency >= BUST_AT:
            busting += 1
        elif kind == "currency" and currency + int(card["value"]) >= BUST_AT:
            busting += 1
    return BustRisk(busting, len(unseen))


def _tokens(n: int) -> str:
    return ngettext("{count} token", "{count} tokens", n).format(count=n)


def _is_wild(card: Mapping[str, Any]) -> bool:
    return str(card.get("type", "")).endswith("wild")


class Renderer(GenericRenderer):
    """Draws a TEN table: tableau, market, collections, auction and payment."""

    def move_words(self) -> str:
        return _(
            "{draw}, {stop}, {numbers}, {currency}, {buy} ID, {skip}, {bid} N, {pass_}, {pay_token}, {pay_bust},"
            " {pay_card} ID, {accept}, {decline}"
        ).format(**_typed_words())

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(names)
        #: The seat whose moves are listed: the one named "You", or the last seat a table was drawn for.
        mine = [s for s in range(len(self.names)) if self.names[s] in (you(), "You")]
        self.me = mine[0] if mine else 0

    def card(self, card: Mapping[str, Any]) -> str:
        """A card in words, painted in its colour when colour is on."""
        return self.paint(card_text(card), _PAINT.get(str(card.get("colour", ""))))

    # -- the table ----------------------------------------------------------------------------------

    def table(self, view: View, me: int) -> list[str]:
        pub: Mapping[str, Any] = view["public"]
        self.me = me
        active: int = pub["active"]
        discard = pub["discard"]
        fields = {
            "turn": pub["turn"],
            "draw": pub["draw_pile"],
            "discards": discard["size"],
            "top": self.card(discard["top"]) if discard.get("top") else "",
        }
        if discard.get("top"):
            head = self.says(
                active,
                _("Turn {turn}: You are active. Draw pile {draw}, discard pile {discards} (top: {top})."),
                _("Turn {turn}: {name} is active. Draw pile {draw}, discard pile {discards} (top: {top})."),
                **fields,
            )
        else:
            head = self.says(
                active,
                _("Turn {turn}: You are active. Draw pile {draw}, discard pile {discards}."),
                _("Turn {turn}: {name} is active. Draw pile {draw}, discard pile {discards}."),
                **fields,
            )
        lines = [head]
        if pub.get("house_rules"):
            lines.append(_("Solo (house rules): reach {target} points to win.").format(target=pub["solo_target"]))
        lines += self.tableau_lines(pub)
        lines += self.market_lines(pub)
        lines.append(_("Players (a bust token pays 3; score = longest run in each colour):"))
        # Names padded to the longest, so every seat's supplies line up ("Seat 1" is longer in most languages).
        width = max(7, *(len(self.name(seat)) for seat in range(len(pub["seats"]))))
        for seat, info in enumerate(pub["seats"]):
            lines += self.seat_lines(seat, info, seat == active, width)
        lines += self.pending_lines(pub, me)
        return lines

    def tableau_lines(self, pub: Mapping[str, Any]) -> list[str]:
        """The tableau, its sums, and which next card would bust."""
        tab = pub["tableau"]
        cards = [self.card(c) for c in tab["cards"]]
        if not cards:
            return [_("Tableau: empty.")]
        numbers, currency = tab["numbers"], tab["currency"]
        lines = self.wrap(_("Tableau:"), cards, sep=", ")
        lines.append(
            "  "
            + _(
                "numbers {numbers} - currency {currency} = {difference}, currency {currency} (either one reaching 11"
                " busts)"
            ).format(numbers=numbers, currency=currency, difference=numbers - currency)
        )
        lines.append("  " + _("Bust margin: safe next card is {margin}").format(margin=self.margin(numbers, currency)))
        return lines

    @staticmethod
    def margin(numbers: int, currency: int) -> str:
        """Which next card is still safe: a number card busts once numbers - currency reaches 11, a
        currency card once currency reaches 11."""
        room_n = BUST_AT - 1 - (numbers - currency)
        room_c = BUST_AT - 1 - currency
        if room_n >= _MAX_NUMBER:
            number = _("any number")
        elif room_n >= 1:
            number = _("a number up to {room}").format(room=room_n)
        else:
            number = _("no number")
        if room_c >= _MAX_CURRENCY:
            money = _("any currency")
        elif room_c >= 1:
            money = _("a currency up to {room}").format(room=room_c)
        else:
            money = _("no currency")
        return f"{number}, {money}"

    def market_lines(self, pub: Mapping[str, Any]) -> list[str]:
        """The market by colour; a card's price is its number."""
        market = pub.get("market") or []
        if not market:
            return [_("Market: empty.")]
        groups = []
        for colour in COLOURS:
            values = sorted(c["value"] for c in market if c.get("colour") == colour and c.get("type") == "number")
            if values:
                groups.append(self.paint(f"{colour_name(colour)} " + " ".join(map(str, values)), _PAINT[colour]))
        return self.wrap(_("Market (price = number):"), groups, sep=" | ")

    def seat_lines(self, seat: int, info: Mapping[str, Any], active: bool, width: int = 7) -> list[str]:
        """One seat's supplies, score and collection by colour, its name padded to ``width``."""
        collection: list[Mapping[str, Any]] = info["collection"]
        head = f"  {'*' if active else ' '}{self.name(seat):<{width}} " + _(
            "tokens {tokens}, busts {busts}, score {score}:"
        ).format(tokens=f"{info['tokens']:>2}", busts=info["bust_tokens"], score=f"{info['score']:>2}")
        groups = []
        for colour in COLOURS:
            values = sorted(c["value"] for c in collection if c.get("type") == "number" and c["colour"] == colour)
            if values:
                groups.append(self.paint(f"{colour_name(colour)} " + " ".join(map(str, values)), _PAINT[colour]))
        wilds = [self.card(c) for c in collection if _is_wild(c)]
        if wilds:
            groups.append(_("wilds: {cards}").format(cards=", ".join(wilds)))
        return self.wrap(head, groups or [_("no cards")], indent=" " * 12, sep=" | ")

    def pending_lines(self, pub: Mapping[str, Any], me: int) -> list[str]:
        """The auction, offer, payment or final round in progress, and the prompt."""
        lines = []
        auction = pub.get("auction")
        if auction:
            high = auction.get("high_seat")
            fields = {"card": self.card(auction["card"]), "least": auction["min_bid"]}
            if high is not None:
                text = _("Auction of {card}: high bid {bid} by {name}, next bid at least {least}.").format(
                    bid=auction["high_bid"], name=self.name(high), **fields
                )
            else:
                text = _("Auction of {card}: no bid yet, next bid at least {least}.").format(**fields)
            lines.append(text)
            order = ", ".join(self.name(s) for s in auction["order"])
            lines.append(
                "  "
                + _("One bid each, in order {order}; now {name}.").format(order=order, name=self.name(auction["next"]))
            )
        offer = pub.get("offer")
        if offer:
            lines.append(
                _("Offer: {card} for {price} ({accept} or {decline}).").format(
                    card=self.card(offer["card"]),
                    price=offer["price"],
                    accept=_word("accept"),
                    decline=_word("decline"),
                )
            )
        pay = pub.get("payment")
        if pay:
            pieces = []
            if pay["tokens"]:
                pieces.append(_tokens(pay["tokens"]))
            if pay["bust_tokens"]:
                pieces.append(
                    ngettext("{count} bust token", "{count} bust tokens", pay["bust_tokens"]).format(
                        count=pay["bust_tokens"]
                    )
                )
            pieces += [self.card(c) for c in pay["cards"]]
            lines.append(
                self.says(
                    pay["payer"],
                    _("Payment: You owe {owed} for {card} ({purpose}, price {price})."),
                    _("Payment: {name} owes {owed} for {card} ({purpose}, price {price})."),
                    owed=pay["owed"],
                    card=self.card(pay["card"]),
                    purpose=_purpose(pay["purpose"]),
                    price=pay["price"],
                )
            )
            if pieces:
                lines += self.wrap("  " + _("Paid so far ({paid}):").format(paid=pay["paid"]), pieces, sep=", ")
            if pay["payer"] == me:
                lines.append("  " + _("Pay exactly, or with bust tokens alone (3 each, no change)."))
        final = pub.get("final_round")
        if final:
            order = ", ".join(self.name(s) for s in final["order"])
            lines.append(_("Final buy round ({order}): now {name}.").format(order=order, name=self.name(final["next"])))
        if pub["phase"] == "prize" and pub["active"] == me:
            lines.append(_("Choose a prize: the numbers (then buy one card) or the currency tokens."))
        return lines

    # -- moves --------------------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        kind = move.get("type")
        simple = {
            "draw": "draw",
            "stop": "stop",
            "skip_buy": "skip",
            "pass_bid": "pass",
            "pay_token": "pay token",
            "pay_bust": "pay bust",
            "accept_wild": "accept",
            "decline_wild": "decline",
        }
        if kind in simple:
            return _word(simple[str(kind)])
        if kind == "prize" and move.get("kind") in ("numbers", "currency"):
            return _word(str(move["kind"]))
        if kind == "buy":
            return f"{_word('buy')} {move['card']}"
        if kind == "bid":
            return f"{_word('bid')} {move['amount']}"
        if kind == "pay_card":
            return f"{_word('pay card')} {move['card']}"
        return super().move_text(move)

    def move_note(self, move: Move, view: View) -> str:
        pub = view["public"]
        me = self.me
        kind = move.get("type")
        tab = pub["tableau"]
        if kind == "draw":
            return _("{count} left; safe next card: {margin}").format(
                count=pub["draw_pile"], margin=self.margin(tab["numbers"], tab["currency"])
            )
        if kind == "stop":
            return _("keep the tableau and choose a prize") if tab["cards"] else _("end the turn")
        if kind == "prize":
            numbers = ", ".join(self.card(c) for c in tab["cards"] if c.get("type") == "number")
            if move["kind"] == "numbers":
                if tab["currency"] and len(pub["seats"]) > 1:
                    return _("take {cards}; others gain {count}, then buy").format(cards=numbers, count=tab["currency"])
                return _("take {cards}; then buy").format(cards=numbers)
            return _("gain {count} tokens (10 at most); numbers go to the market").format(count=tab["currency"])
        if kind == "buy":
            card = self.find(pub.get("market") or [], move["card"])
            return _("{card}, price {price}").format(card=self.card(card), price=card["value"]) if card else ""
        if kind == "skip_buy":
            return _("buy nothing")
        if kind == "bid":
            return _("for {card}").format(card=self.card(pub["auction"]["card"])) if pub.get("auction") else ""
        if kind == "pass_bid":
            return _("no bid")
        if kind == "accept_wild" and pub.get("offer"):
            return _("pay {price} for {card}").format(price=pub["offer"]["price"], card=self.card(pub["offer"]["card"]))
        if kind in ("pay_token", "pay_bust", "pay_card"):
            return self.pay_note(move, pub, me)
        return ""

    def pay_note(self, move: Move, pub: Mapping[str, Any], me: int) -> str:
        """What a payment piece is worth against what is owed."""
        owed: int = (pub.get("payment") or {}).get("owed", 0)
        seat = pub["seats"][me]
        kind = move.get("type")
        if kind == "pay_token":
            return _("worth 1 of {owed} owed; you have {count}").format(owed=owed, count=seat["tokens"])
        if kind == "pay_bust":
            lost = max(0, 3 - owed)
            if lost:
                return _("worth 3 of {owed} owed, {lost} lost; you have {count}").format(
                    owed=owed, lost=lost, count=seat["bust_tokens"]
                )
            return _("worth 3 of {owed} owed; you have {count}").format(owed=owed, count=seat["bust_tokens"])
        card = self.find(seat["collection"], move["card"])
        return _("{card}, worth 1").format(card=self.card(card)) if card else _("worth 1")

    @staticmethod
    def find(cards: Sequence[Mapping[str, Any]], card_id: int) -> Mapping[str, Any] | None:
        """The card with this id among ``cards``."""
        return next((c for c in cards if c.get("id") == card_id), None)

    def group_key(self, move: Move) -> str:
        kind = move.get("type")
        named = {"pay_card": "pay card", "buy": "buy", "bid": "bid"}
        return _word(named[str(kind)]) if kind in named else self.move_text(move)

    def progress(self, public: Mapping[str, Any], seat: int) -> str:
        return ngettext(
            "turn {turn}, {count} card left to draw", "turn {turn}, {count} cards left to draw", public["draw_pile"]
        ).format(turn=public["turn"], count=public["draw_pile"])

    def parse_move(self, text: str, view: View) -> Move | None:
        words = text.lower().split()
        if not words:
            return None
        typed = " ".join(words)
        for english, move in _SIMPLE.items():
            if typed in (english, _word(english).lower(), english.replace(" ", "_")):
                return dict(move)
        if words[0] in ("skip_buy", "pass_bid", "accept_wild", "decline_wild") and len(words) == 1:
            return {"type": words[0]}
        if words[0] == "prize" and words[1:] in (["numbers"], ["currency"]):
            return {"type": "prize", "kind": words[1]}
        head, number = " ".join(words[:-1]), words[-1]
        if number.isdigit():
            for english, (kind, field) in _NUMBERED.items():
                if head in (english, _word(english).lower(), english.replace(" ", "_")):
                    return {"type": kind, field: int(number)}
        return self.unknown_move(text, view)

    # -- events -------------------------------------------------------------------------------------

    def event_text(self, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type")
        seat: int = event.get("seat", -1)
        if kind == "draw":
            return self.says(seat, _("You draw {card}."), _("{name} draws {card}."), card=self.card(event["card"]))
        if kind == "stop":
            return self.says(seat, _("You stop drawing."), _("{name} stops drawing."))
        if kind == "prize":
            if event["kind"] == "numbers":
                return self.says(seat, _("You take the numbers."), _("{name} takes the numbers."))
            return self.says(seat, _("You take the currency."), _("{name} takes the currency."))
        if kind == "bust":
            numbers = event["kind"] == "numbers"
            if event.get("bust_token"):
                text = (
                    _("BUST! {name} (numbers - currency >= 11): numbers to the market, +1 bust token.")
                    if numbers
                    else _("BUST! {name} (currency >= 11): numbers to the market, +1 bust token.")
                )
            else:
                text = (
                    _("BUST! {name} (numbers - currency >= 11): numbers to the market.")
                    if numbers
                    else _("BUST! {name} (currency >= 11): numbers to the market.")
                )
            return text.format(name=self.name(seat))
        if kind == "gain":
            tokens = _tokens(event["tokens"])
            if event.get("lost"):
                return self.says(
                    seat,
                    _("You gain {tokens} ({lost} lost to the cap of 10)."),
                    _("{name} gains {tokens} ({lost} lost to the cap of 10)."),
                    tokens=tokens,
                    lost=event["lost"],
                )
            return self.says(seat, _("You gain {tokens}."), _("{name} gains {tokens}."), tokens=tokens)
        if kind == "auction":
            return _("Wild drawn: {card} goes to auction.").format(card=self.card(event["card"]))
        if kind == "bid":
            return self.says(seat, _("You bid {amount}."), _("{name} bids {amount}."), amount=event["amount"])
        if kind == "pass_bid":
            return self.says(seat, _("You pass."), _("{name} passes."))
        if kind == "auction_won":
            return self.says(
                seat,
                _("You win {card} for {amount}."),
                _("{name} wins {card} for {amount}."),
                card=self.card(event["card"]),
                amount=event["amount"],
            )
        if kind == "wild_discarded":
            return _("Nobody takes {card}: it is discarded.").format(card=self.card(event["card"]))
        if kind == "offer":
            return _("Wild drawn: {card} is offered for {price}.").format(
                card=self.card(event["card"]), price=event["price"]
            )
        if kind == "buy":
            card = event["card"]
            if card.get("type") == "number":
                return self.says(
                    seat,
                    _("You buy {card} (price {price})."),
                    _("{name} buys {card} (price {price})."),
                    card=self.card(card),
                    price=card["value"],
                )
            return self.says(seat, _("You buy {card}."), _("{name} buys {card}."), card=self.card(card))
        if kind == "skip_buy":
            return self.says(seat, _("You buy nothing."), _("{name} buys nothing."))
        if kind == "pay":
            return self.pay_text(seat, event)
        if kind == "collect":
            return self.says(
                seat, _("You collect {card}."), _("{name} collects {card}."), card=self.card(event["card"])
            )
        if kind == "turn_end":
            return None
        if kind == "turn":
            return "-- " + _("Turn {turn}: {name}").format(turn=event["turn"], name=self.name(seat)) + " --"
        if kind == "final_round":
            return _("The draw pile is empty: final buy round, starting with {name}.").format(
                name=self.name(event["first"])
            )
        if kind == "game_over":
            return None
        return super().event_text(event)

    def pay_text(self, seat: int, event: Mapping[str, Any]) -> str:
        """A payment piece handed over, and what is still owed."""
        piece = {"token": _("a token"), "bust_token": _("a bust token")}.get(event["piece"])
        if piece is None:
            piece = self.card(event["card"]) if event.get("card") else _("a card")
        if event.get("owed"):
            return self.says(
                seat,
                _("You pay {piece}, {owed} still owed."),
                _("{name} pays {piece}, {owed} still owed."),
                piece=piece,
                owed=event["owed"],
            )
        return self.says(
            seat, _("You pay {piece}, paid in full."), _("{name} pays {piece}, paid in full."), piece=piece
        )

    def outcome_lines(self, outcome: Outcome) -> list[str]:
        detail = outcome.detail
        lines = []
        for place, seat in enumerate(outcome.order, start=1):
            score = outcome.scores[seat]
            fields: dict[str, object] = {"place": place, "name": self.name(seat), "count": score}
            if "tokens" in detail and "cards" in detail:
                fields["tokens"] = _tokens(detail["tokens"][seat])
                fields["cards"] = ngettext("{count} card", "{count} cards", detail["cards"][seat]).format(
                    count=detail["cards"][seat]
                )
                if seat in outcome.winners:
                    text = ngettext(
                        "{place}. {name}: {count} point, {tokens}, {cards} - winner",
                        "{place}. {name}: {count} points, {tokens}, {cards} - winner",
                        score,
                    )
                else:
                    text = ngettext(
                        "{place}. {name}: {count} point, {tokens}, {cards}",
                        "{place}. {name}: {count} points, {tokens}, {cards}",
                        score,
                    )
            elif seat in outcome.winners:
                text = ngettext(
                    "{place}. {name}: {count} point - winner", "{place}. {name}: {count} points - winner", score
                )
            else:
                text = ngettext("{place}. {name}: {count} point", "{place}. {name}: {count} points", score)
            lines.append("  " + text.format(**fields))
            breakdown = (detail.get("breakdown") or [])[seat : seat + 1]
            if breakdown:
                lines += self.breakdown_lines(breakdown[0])
        if detail.get("solo_target") is not None:
            target = detail["solo_target"]
            if outcome.winners:
                lines.append("  " + _("Solo target {target}: reached.").format(target=target))
            else:
                lines.append("  " + _("Solo target {target}: missed.").format(target=target))
        return lines

    def breakdown_lines(self, breakdown: Mapping[str, Any]) -> list[str]:
        """Each colour's scoring run, and where the wilds went."""
        runs = []
        for colour, points, run in zip(COLOURS, breakdown.get("per_colour", []), breakdown.get("runs", [])):
            if run:
                runs.append(self.paint(f"{colour_name(colour)} {run[0]}-{run[1]} = {points}", _PAINT[colour]))
        wilds = [
            _("{colour} {value}").format(colour=colour_name(w["colour"]), value=w["value"])
            for w in breakdown.get("wilds", [])
        ]
        items = runs + ([_("wilds played as {cards}").format(cards=", ".join(wilds))] if wilds else [])
        return self.wrap("       " + _("runs:"), items or [_("none")], indent="         ", sep=" | ")

    def help(self) -> list[str]:
        return [
            _(
                "Moves: '{draw}' / '{stop}'; prize '{numbers}' or '{currency}'; '{buy} ID' or '{skip}'; '{bid} N' or"
                " '{pass_}'; '{pay_token}', '{pay_bust}' (worth 3, no change), '{pay_card} ID' (worth 1); solo:"
                " '{accept}' / '{decline}'."
            ).format(**_typed_words()),
            _(
                "Bust: numbers - currency reaches 11, or currency reaches 11. Score: the longest run of numbers in"
                " each colour (1-9 scores 10). Wilds: '{colour_wild}' is any red number, '{number_wild}' an 8 of any"
                " colour, '{any_wild}' anything."
            ).format(
                colour_wild=card_text({"type": "colour_wild", "colour": "red"}),
                number_wild=card_text({"type": "number_wild", "value": 8}),
                any_wild=card_text({"type": "any_wild"}),
            ),
        ]
