"""TEN in line mode: the tableau with its sums and how far it is from a bust, the market with prices, every
collection by colour with its current score, auctions and payments in progress. Colours are written as
names, and painted when the terminal allows it. Moves are typed ``draw``, ``stop``, ``numbers``,
``currency``, ``buy 49``, ``skip``, ``bid 3``, ``pass``, ``pay token``, ``pay bust``, ``pay card 17``,
``accept`` or ``decline``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ...games import Outcome, ten_deck
from . import GenericRenderer, Move, View

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


#: What a payment is for, in words.
_PURPOSES = {"buy": "a purchase", "final_buy": "a final purchase", "auction": "an auction win", "solo_wild": "a wild"}


def card_text(card: Mapping[str, Any]) -> str:
    """A card in words: ``blue 5``, ``red wild #`` (any number), ``wild 8`` (any colour), ``wild #``
    (anything), ``currency 4``."""
    kind = card.get("type")
    if kind == "number":
        return f"{card['colour']} {card['value']}"
    if kind == "colour_wild":
        return f"{card['colour']} wild #"
    if kind == "number_wild":
        return f"wild {card['value']}"
    if kind == "any_wild":
        return "wild #"
    if kind == "currency":
        return f"currency {card['value']}"
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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _is_wild(card: Mapping[str, Any]) -> bool:
    return str(card.get("type", "")).endswith("wild")


class Renderer(GenericRenderer):
    """Draws a TEN table: tableau, market, collections, auction and payment."""

    move_words = (
        "draw, stop, numbers, currency, buy ID, skip, bid N, pass, pay token, pay bust, pay card ID, accept, decline"
    )

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(names)
        #: The seat whose moves are listed: the one named "You", or the last seat a table was drawn for.
        self.me = self.names.index("You") if "You" in self.names else 0

    def card(self, card: Mapping[str, Any]) -> str:
        """A card in words, painted in its colour when colour is on."""
        return self.paint(card_text(card), _PAINT.get(str(card.get("colour", ""))))

    # -- the table ----------------------------------------------------------------------------------

    def table(self, view: View, me: int) -> list[str]:
        pub: Mapping[str, Any] = view["public"]
        self.me = me
        active: int = pub["active"]
        discard = pub["discard"]
        top = f" (top: {self.card(discard['top'])})" if discard.get("top") else ""
        lines = [
            f"Turn {pub['turn']}: {self.name(active)} {'are' if self.name(active) == 'You' else 'is'} active. "
            f"Draw pile {pub['draw_pile']}, discard pile {discard['size']}{top}."
        ]
        if pub.get("house_rules"):
            lines.append(f"Solo (house rules): reach {pub['solo_target']} points to win.")
        lines += self.tableau_lines(pub)
        lines += self.market_lines(pub)
        lines.append("Players (a bust token pays 3; score = longest run in each colour):")
        for seat, info in enumerate(pub["seats"]):
            lines += self.seat_lines(seat, info, seat == active)
        lines += self.pending_lines(pub, me)
        return lines

    def tableau_lines(self, pub: Mapping[str, Any]) -> list[str]:
        """The tableau, its sums, and which next card would bust."""
        tab = pub["tableau"]
        cards = [self.card(c) for c in tab["cards"]]
        if not cards:
            return ["Tableau: empty."]
        numbers, currency = tab["numbers"], tab["currency"]
        lines = self.wrap("Tableau:", cards, sep=", ")
        lines.append(
            f"  numbers {numbers} - currency {currency} = {numbers - currency}, currency {currency} "
            "(either one reaching 11 busts)"
        )
        lines.append("  Bust margin: safe next card is " + self.margin(numbers, currency))
        return lines

    @staticmethod
    def margin(numbers: int, currency: int) -> str:
        """Which next card is still safe: a number card busts once numbers - currency reaches 11, a
        currency card once currency reaches 11."""
        room_n = BUST_AT - 1 - (numbers - currency)
        room_c = BUST_AT - 1 - currency
        parts = []
        for room, top, word in ((room_n, _MAX_NUMBER, "number"), (room_c, _MAX_CURRENCY, "currency")):
            if room >= top:
                parts.append(f"any {word}")
            elif room >= 1:
                parts.append(f"a {word} up to {room}")
            else:
                parts.append(f"no {word}")
        return ", ".join(parts)

    def market_lines(self, pub: Mapping[str, Any]) -> list[str]:
        """The market by colour; a card's price is its number."""
        market = pub.get("market") or []
        if not market:
            return ["Market: empty."]
        groups = []
        for colour in COLOURS:
            values = sorted(c["value"] for c in market if c.get("colour") == colour and c.get("type") == "number")
            if values:
                groups.append(self.paint(f"{colour} " + " ".join(map(str, values)), _PAINT[colour]))
        return self.wrap("Market (price = number):", groups, sep=" | ")

    def seat_lines(self, seat: int, info: Mapping[str, Any], active: bool) -> list[str]:
        """One seat's supplies, score and collection by colour."""
        collection: list[Mapping[str, Any]] = info["collection"]
        head = (
            f"  {'*' if active else ' '}{self.name(seat):<7} tokens {info['tokens']:>2}, busts {info['bust_tokens']}, "
            f"score {info['score']:>2}:"
        )
        groups = []
        for colour in COLOURS:
            values = sorted(c["value"] for c in collection if c.get("type") == "number" and c["colour"] == colour)
            if values:
                groups.append(self.paint(f"{colour} " + " ".join(map(str, values)), _PAINT[colour]))
        wilds = [self.card(c) for c in collection if _is_wild(c)]
        if wilds:
            groups.append("wilds: " + ", ".join(wilds))
        return self.wrap(head, groups or ["no cards"], indent=" " * 12, sep=" | ")

    def pending_lines(self, pub: Mapping[str, Any], me: int) -> list[str]:
        """The auction, offer, payment or final round in progress, and the prompt."""
        lines = []
        auction = pub.get("auction")
        if auction:
            high = auction.get("high_seat")
            state = f"high bid {auction['high_bid']} by {self.name(high)}" if high is not None else "no bid yet"
            order = ", ".join(self.name(s) for s in auction["order"])
            lines.append(f"Auction of {self.card(auction['card'])}: {state}, next bid at least {auction['min_bid']}.")
            lines.append(f"  One bid each, in order {order}; now {self.name(auction['next'])}.")
        offer = pub.get("offer")
        if offer:
            lines.append(f"Offer: {self.card(offer['card'])} for {offer['price']} (accept or decline).")
        pay = pub.get("payment")
        if pay:
            pieces = []
            if pay["tokens"]:
                pieces.append(_plural(pay["tokens"], "token"))
            if pay["bust_tokens"]:
                pieces.append(_plural(pay["bust_tokens"], "bust token"))
            pieces += [self.card(c) for c in pay["cards"]]
            who = self.name(pay["payer"])
            verb = "owe" if who == "You" else "owes"
            lines.append(
                f"Payment: {who} {verb} {pay['owed']} for {self.card(pay['card'])} "
                f"({_PURPOSES.get(pay['purpose'], 'payment')}, price {pay['price']})."
            )
            if pieces:
                lines += self.wrap(f"  Paid so far ({pay['paid']}):", pieces, sep=", ")
            if pay["payer"] == me:
                lines.append("  Pay exactly, or with bust tokens alone (3 each, no change).")
        final = pub.get("final_round")
        if final:
            order = ", ".join(self.name(s) for s in final["order"])
            lines.append(f"Final buy round ({order}): now {self.name(final['next'])}.")
        if pub["phase"] == "prize" and pub["active"] == me:
            lines.append("Choose a prize: the numbers (then buy one card) or the currency tokens.")
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
            return simple[str(kind)]
        if kind == "prize":
            return str(move["kind"])
        if kind == "buy":
            return f"buy {move['card']}"
        if kind == "bid":
            return f"bid {move['amount']}"
        if kind == "pay_card":
            return f"pay card {move['card']}"
        return super().move_text(move)

    def move_note(self, move: Move, view: View) -> str:
        pub = view["public"]
        me = self.me
        kind = move.get("type")
        tab = pub["tableau"]
        if kind == "draw":
            return f"{pub['draw_pile']} left; safe next card: " + self.margin(tab["numbers"], tab["currency"])
        if kind == "stop":
            return "keep the tableau and choose a prize" if tab["cards"] else "end the turn"
        if kind == "prize":
            numbers = [self.card(c) for c in tab["cards"] if c.get("type") == "number"]
            if move["kind"] == "numbers":
                others = (
                    " others gain " + str(tab["currency"]) + "," if tab["currency"] and len(pub["seats"]) > 1 else ""
                )
                return f"take {', '.join(numbers)};{others} then buy"
            return f"gain {tab['currency']} tokens (10 at most); numbers go to the market"
        if kind == "buy":
            card = self.find(pub.get("market") or [], move["card"])
            return f"{self.card(card)}, price {card['value']}" if card else ""
        if kind == "skip_buy":
            return "buy nothing"
        if kind == "bid":
            return f"for {self.card(pub['auction']['card'])}" if pub.get("auction") else ""
        if kind == "pass_bid":
            return "no bid"
        if kind == "accept_wild" and pub.get("offer"):
            return f"pay {pub['offer']['price']} for {self.card(pub['offer']['card'])}"
        if kind in ("pay_token", "pay_bust", "pay_card"):
            return self.pay_note(move, pub, me)
        return ""

    def pay_note(self, move: Move, pub: Mapping[str, Any], me: int) -> str:
        """What a payment piece is worth against what is owed."""
        owed: int = (pub.get("payment") or {}).get("owed", 0)
        seat = pub["seats"][me]
        kind = move.get("type")
        if kind == "pay_token":
            return f"worth 1 of {owed} owed; you have {seat['tokens']}"
        if kind == "pay_bust":
            lost = max(0, 3 - owed)
            return f"worth 3 of {owed} owed" + (f", {lost} lost" if lost else "") + f"; you have {seat['bust_tokens']}"
        card = self.find(seat["collection"], move["card"])
        return f"{self.card(card)}, worth 1" if card else "worth 1"

    @staticmethod
    def find(cards: Sequence[Mapping[str, Any]], card_id: int) -> Mapping[str, Any] | None:
        """The card with this id among ``cards``."""
        return next((c for c in cards if c.get("id") == card_id), None)

    def group_key(self, move: Move) -> str:
        return "pay card" if move.get("type") == "pay_card" else str(move.get("type", "?"))

    def progress(self, public: Mapping[str, Any], seat: int) -> str:
        return f"turn {public['turn']}, {public['draw_pile']} cards left to draw"

    def parse_move(self, text: str, view: View) -> Move | None:
        words = text.lower().split()
        if not words:
            return None
        head, rest = words[0], words[1:]
        simple = {
            "draw": "draw",
            "stop": "stop",
            "skip": "skip_buy",
            "skip_buy": "skip_buy",
            "pass": "pass_bid",
            "pass_bid": "pass_bid",
            "accept": "accept_wild",
            "accept_wild": "accept_wild",
            "decline": "decline_wild",
            "decline_wild": "decline_wild",
            "pay_token": "pay_token",
            "pay_bust": "pay_bust",
        }
        if head in simple and not rest:
            return {"type": simple[head]}
        if head in ("numbers", "currency") and not rest:
            return {"type": "prize", "kind": head}
        if head == "prize" and rest in (["numbers"], ["currency"]):
            return {"type": "prize", "kind": rest[0]}
        if head == "pay" and rest in (["token"], ["bust"]):
            return {"type": f"pay_{rest[0]}"}
        if head == "pay" and len(rest) == 2 and rest[0] == "card" and rest[1].isdigit():
            return {"type": "pay_card", "card": int(rest[1])}
        if head == "pay_card" and len(rest) == 1 and rest[0].isdigit():
            return {"type": "pay_card", "card": int(rest[0])}
        if head == "buy" and len(rest) == 1 and rest[0].isdigit():
            return {"type": "buy", "card": int(rest[0])}
        if head == "bid" and len(rest) == 1 and rest[0].isdigit():
            return {"type": "bid", "amount": int(rest[0])}
        return self.unknown_move(text, view)

    # -- events -------------------------------------------------------------------------------------

    def event_text(self, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type")
        seat: int = event.get("seat", -1)
        if kind == "draw":
            return f"{self.does(seat, 'draws', 'draw')} {self.card(event['card'])}."
        if kind == "stop":
            return f"{self.does(seat, 'stops', 'stop')} drawing."
        if kind == "prize":
            what = "the numbers" if event["kind"] == "numbers" else "the currency"
            return f"{self.does(seat, 'takes', 'take')} {what}."
        if kind == "bust":
            which = "numbers - currency >= 11" if event["kind"] == "numbers" else "currency >= 11"
            token = ", +1 bust token" if event.get("bust_token") else ""
            return f"BUST! {self.name(seat)} ({which}): numbers to the market{token}."
        if kind == "gain":
            lost = f" ({event['lost']} lost to the cap of 10)" if event.get("lost") else ""
            return f"{self.does(seat, 'gains', 'gain')} {_plural(event['tokens'], 'token')}{lost}."
        if kind == "auction":
            return f"Wild drawn: {self.card(event['card'])} goes to auction."
        if kind == "bid":
            return f"{self.does(seat, 'bids', 'bid')} {event['amount']}."
        if kind == "pass_bid":
            return f"{self.does(seat, 'passes', 'pass')}."
        if kind == "auction_won":
            return f"{self.does(seat, 'wins', 'win')} {self.card(event['card'])} for {event['amount']}."
        if kind == "wild_discarded":
            return f"Nobody takes {self.card(event['card'])}: it is discarded."
        if kind == "offer":
            return f"Wild drawn: {self.card(event['card'])} is offered for {event['price']}."
        if kind == "buy":
            card = event["card"]
            price = f" (price {card['value']})" if card.get("type") == "number" else ""
            return f"{self.does(seat, 'buys', 'buy')} {self.card(card)}{price}."
        if kind == "skip_buy":
            return f"{self.does(seat, 'buys', 'buy')} nothing."
        if kind == "pay":
            piece = {"token": "a token", "bust_token": "a bust token"}.get(event["piece"])
            if piece is None:
                piece = self.card(event["card"]) if event.get("card") else "a card"
            left = f", {event['owed']} still owed" if event.get("owed") else ", paid in full"
            return f"{self.does(seat, 'pays', 'pay')} {piece}{left}."
        if kind == "collect":
            return f"{self.does(seat, 'collects', 'collect')} {self.card(event['card'])}."
        if kind == "turn_end":
            return None
        if kind == "turn":
            return f"-- Turn {event['turn']}: {self.name(seat)} --"
        if kind == "final_round":
            return f"The draw pile is empty: final buy round, starting with {self.name(event['first'])}."
        if kind == "game_over":
            return None
        return super().event_text(event)

    def outcome_lines(self, outcome: Outcome) -> list[str]:
        detail = outcome.detail
        lines = []
        for place, seat in enumerate(outcome.order, start=1):
            won = " - winner" if seat in outcome.winners else ""
            extra = ""
            if "tokens" in detail and "cards" in detail:
                extra = f", {_plural(detail['tokens'][seat], 'token')}, {_plural(detail['cards'][seat], 'card')}"
            lines.append(f"  {place}. {self.name(seat)}: {_plural(outcome.scores[seat], 'point')}{extra}{won}")
            breakdown = (detail.get("breakdown") or [])[seat : seat + 1]
            if breakdown:
                lines += self.breakdown_lines(breakdown[0])
        if detail.get("solo_target") is not None:
            reached = "reached" if outcome.winners else "missed"
            lines.append(f"  Solo target {detail['solo_target']}: {reached}.")
        return lines

    def breakdown_lines(self, breakdown: Mapping[str, Any]) -> list[str]:
        """Each colour's scoring run, and where the wilds went."""
        runs = []
        for colour, points, run in zip(COLOURS, breakdown.get("per_colour", []), breakdown.get("runs", [])):
            if run:
                runs.append(self.paint(f"{colour} {run[0]}-{run[1]} = {points}", _PAINT[colour]))
        wilds = [f"{w['colour']} {w['value']}" for w in breakdown.get("wilds", [])]
        items = runs + (["wilds played as " + ", ".join(wilds)] if wilds else [])
        return self.wrap("       runs:", items or ["none"], indent="         ", sep=" | ")

    def help(self) -> list[str]:
        return [
            "Moves: 'draw' / 'stop'; prize 'numbers' or 'currency'; 'buy ID' or 'skip'; 'bid N' or 'pass';"
            " 'pay token', 'pay bust' (worth 3, no change), 'pay card ID' (worth 1); solo: 'accept' / 'decline'.",
            "Bust: numbers - currency reaches 11, or currency reaches 11. Score: the longest run of numbers in each"
            " colour (1-9 scores 10). Wilds: 'red wild #' is any red number, 'wild 8' an 8 of any colour, 'wild #'"
            " anything.",
        ]
