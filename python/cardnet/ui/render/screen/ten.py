"""TEN on the full screen: the tableau with its bust margin, the market, the players' collections, auctions,
offers and payments; the one-key moves (draw, stop, prizes, accept), the bid form and settling a debt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ....i18n import N_
from ....i18n import gettext as _
from ....i18n import ngettext
from ...markdown import wrap_runs
from ..ten import COLOURS, bust_risk, card_text
from ..ten import Renderer as TenRenderer
from . import (
    Choice,
    Fragments,
    GameKey,
    GameScreen,
    TableView,
    all_choices,
    choice_at,
    exact_choice,
    focus_style,
    legal_of,
    quick_choice,
    seat_marker,
    styled,
    wrap_fragments,
)

__all__ = ["BUST_TOKEN", "TOKEN", "Screen", "by_colour", "ten_chip"]

#: Payments: the cursor's stand-ins for a currency token and a bust token (card ids are never negative).
TOKEN, BUST_TOKEN = -1, -2
#: A colour's first letter on a chip, so cards stay apart without colour.
_TEN_LETTER = {"red": "R", "blue": "B", "orange": "O", "green": "G"}


class Screen(GameScreen):
    """TEN's table; the cursor row is the market while buying and the payment pieces while paying."""

    cursor_restarts = True
    keys = (
        GameKey("draw", ("d",), N_("d draw"), N_("TEN: draw a card."), {"type": "draw"}, N_("You cannot draw now.")),
        GameKey("stop", ("s",), N_("s stop"), N_("TEN: stop drawing."), {"type": "stop"}, N_("You cannot stop now.")),
        GameKey(
            "numbers",
            ("n",),
            "",
            N_("TEN: take the numbers as your prize."),
            {"type": "prize", "kind": "numbers"},
            N_("You cannot take the numbers now."),
        ),
        GameKey(
            "currency",
            ("c",),
            "",
            N_("TEN: take the currency as your prize."),
            {"type": "prize", "kind": "currency"},
            N_("You cannot take the currency now."),
        ),
        GameKey(
            "accept",
            ("a",),
            "",
            N_("TEN solo: accept the offered wild."),
            {"type": "accept_wild"},
            N_("You cannot accept a wild now."),
        ),
        GameKey(
            "settle", ("e",), "", N_("TEN: pay the least that settles what you owe, all at once."), action="settle"
        ),
        GameKey("bid-up", ("+", "="), "", N_("TEN: raise your bid."), action="bid", step=1),
        GameKey("bid-down", ("-",), "", N_("TEN: lower your bid."), action="bid", step=-1),
    )
    help_note = N_(
        "On screen: R5 is a red 5 (B blue, O orange, G green), B# a blue wild, *8 an 8 of any colour, *# a card of"
        " any colour and number, $3 currency 3. 'Next draw: N of M' counts the cards left that would bust you."
        " Keys: d draw, s stop, n numbers, c currency, arrows + Enter buy or pay, e pays the least that settles a debt,"
        " +/- and Enter bid, p pass or skip."
    )
    styles = {
        "ten.red": "bold #ff5f5f",
        "ten.blue": "bold #5f87ff",
        "ten.orange": "bold #ff8700",
        "ten.green": "bold #5fd75f",
        "ten.currency": "bold #ffd700",
        "ten.wild": "bold #d787ff",
    }
    option_labels = {"solo_target": N_("Solo target")}

    def draw(self, ts: TableView, width: int, height: int, no_color: bool) -> list[Fragments]:
        return _draw(ts, width)

    def turn_hint(self, ts: TableView) -> str:
        phase = ts.view.get("public", {}).get("phase")
        if phase == "draw":
            return _("d draws, s stops (the risk is shown above).")
        if phase == "prize":
            return _("n takes the numbers (then buy), c the currency.")
        if phase in ("buy", "final_buy"):
            return _("Arrows pick a market card, Enter buys it, p buys nothing.")
        if phase == "auction":
            return _("+/- set your bid, Enter bids, p passes.")
        if phase == "pay":
            return _("Arrows pick a token, bust token or card, Enter pays it.")
        return _("a accepts, p declines.")

    def cursor_cards(self, ts: TableView) -> list[int]:
        """The market while buying, the payment pieces while paying (what the legal list allows)."""
        pub = ts.view.get("public", {})
        phase = pub.get("phase")
        if phase in ("buy", "final_buy"):
            return [int(c["id"]) for c in by_colour(pub.get("market") or [])]
        if phase == "pay" and ts.my_turn:
            kinds = {m.get("type") for m in ts.legal if isinstance(m, dict)}
            pieces = [p for p, kind in ((TOKEN, "pay_token"), (BUST_TOKEN, "pay_bust")) if kind in kinds]
            return pieces + [int(m["card"]) for _, m in legal_of(ts, "pay_card")]
        return []

    def bid_range(self, ts: TableView) -> tuple[int, int] | None:
        amounts = [int(m["amount"]) for _, m in legal_of(ts, "bid")]
        return (min(amounts), max(amounts)) if amounts else None

    def selection_choices(self, ts: TableView) -> list[Choice]:
        phase = ts.view.get("public", {}).get("phase")
        cards = self.cursor_cards(ts)
        at = cards[ts.cursor] if 0 <= ts.cursor < len(cards) else None
        if phase in ("buy", "final_buy") and at is not None:
            return [exact_choice(ts, {"type": "buy", "card": at})]
        if phase == "auction" and self.bid_range(ts) is not None:
            return [exact_choice(ts, {"type": "bid", "amount": ts.bid})]
        if phase == "pay" and at is not None:
            if at == TOKEN:
                return [exact_choice(ts, {"type": "pay_token"})]
            if at == BUST_TOKEN:
                return [exact_choice(ts, {"type": "pay_bust"})]
            return [exact_choice(ts, {"type": "pay_card", "card": at})]
        return all_choices(ts)

    def pass_choice(self, ts: TableView) -> Choice | None:
        passes = legal_of(ts, "skip_buy") + legal_of(ts, "pass_bid") + legal_of(ts, "decline_wild")
        return choice_at(ts, passes[0][0]) if passes else None

    def owes(self, ts: TableView) -> bool:
        return (ts.view.get("public", {}).get("payment") or {}).get("payer") == ts.seat

    def settle_choice(self, ts: TableView) -> Choice | None:
        """A token while there are tokens (cards make up the rest), a bust token when tokens and cards together
        cannot settle it; None when nothing is owed or what is left must be paid with cards the player chooses."""
        pub = ts.view.get("public", {})
        pay = pub.get("payment")
        if not pay or ts.seat is None or pay.get("payer") != ts.seat:
            return None
        seat = pub["seats"][ts.seat]
        owed, tokens, cards = int(pay["owed"]), int(seat["tokens"]), len(seat["collection"])
        if owed <= 0:
            return None
        if tokens + cards < owed:
            return quick_choice(ts, {"type": "pay_bust"})
        if tokens > 0:
            return quick_choice(ts, {"type": "pay_token"})
        return None


def by_colour(cards: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """TEN cards as the screen lays them out: numbers by colour then value, wilds after them (a collection reads
    as its runs; the market cursor walks the same order)."""
    order = {c: n for n, c in enumerate(COLOURS)}

    def key(card: Mapping[str, Any]) -> tuple[int, int, int]:
        wild = str(card.get("type", "")).endswith("wild")
        return (1 if wild else 0, order.get(str(card.get("colour", "")), 9), int(card.get("value") or 0))

    return sorted(cards, key=key)


def ten_chip(card: Mapping[str, Any]) -> tuple[str, str]:
    """A TEN card's style and short face: ``R5`` (red 5), ``B#`` (blue wild, any number), ``*8`` (an 8 of any
    colour), ``*#`` (anything), ``$3`` (currency 3)."""
    kind = card.get("type")
    colour = str(card.get("colour", ""))
    style = f"class:ten.{colour}" if colour else ("class:ten.currency" if kind == "currency" else "class:ten.wild")
    if kind == "number":
        face = f"{_TEN_LETTER.get(colour, '?')}{card['value']}"
    elif kind == "colour_wild":
        face = f"{_TEN_LETTER.get(colour, '?')}#"
    elif kind == "number_wild":
        face = f"*{card['value']}"
    elif kind == "any_wild":
        face = "*#"
    else:
        face = f"${card.get('value', '?')}"
    return style, face


def _ten_chips(cards: Sequence[Mapping[str, Any]], extra: Mapping[int, str] | None = None) -> Fragments:
    out: Fragments = []
    for card in cards:
        style, face = ten_chip(card)
        more = (extra or {}).get(int(card["id"]), "")
        out += [(f"{style} {more}".strip(), f"[{face}]"), ("", " ")]
    return out


def _draw(ts: TableView, width: int) -> list[Fragments]:
    pub: Mapping[str, Any] = ts.view["public"]
    r = ts.renderer
    assert isinstance(r, TenRenderer)
    me = ts.seat
    r.me = me if me is not None else 0
    active = int(pub["active"])
    rows: list[Fragments] = []
    playing = _("your turn") if active == me else _("{name} to play").format(name=r.name(active))
    head: Fragments = [("class:heading", _("TEN - turn {turn}").format(turn=pub["turn"])), ("", f"  {playing}")]
    if pub.get("house_rules"):
        target = int(pub["solo_target"])
        solo = ngettext("SOLO (house rules): reach {points} point", "SOLO (house rules): reach {points} points", target)
        head.append(("class:turn", "  " + solo.format(points=target)))
    top = pub["discard"].get("top")
    piles = _("draw pile {draw}, discards {discards}").format(draw=pub["draw_pile"], discards=pub["discard"]["size"])
    head.append(("class:dim", f"  {piles}"))
    if top:
        head += [("class:dim", " " + _("top") + " "), ten_chip(top)]
    rows += wrap_fragments(head, width)
    tab = pub["tableau"]
    numbers, currency = int(tab["numbers"]), int(tab["currency"])
    line: Fragments = [("class:heading", _("Tableau") + " ")]
    line += _ten_chips(tab["cards"]) if tab["cards"] else [("class:dim", _("empty") + " ")]
    rows += wrap_fragments(line, width)
    sums = styled(
        _("Bust at 11: numbers-currency {difference}, currency {currency}. Safe next card: {margin}"),
        "",
        difference=("class:error" if numbers - currency >= 8 else "", str(numbers - currency)),
        currency=("class:error" if currency >= 8 else "", str(currency)),
        margin=("class:dim", r.margin(numbers, currency)),
    )
    # Wrapped at words with a hanging indent: a continuation reads on, it never starts with stray punctuation.
    rows += wrap_runs(sums, width, "  ", "    ")
    if pub["phase"] == "draw":
        risk = bust_risk(pub, ts.players)
        share = _("{percent}%").format(percent=100 * risk.busting // risk.unseen) if risk.unseen else "-"
        template = ngettext(
            "Next draw: {risk} card left would bust you ({share})",
            "Next draw: {risk} cards left would bust you ({share})",
            risk.unseen,
        )
        odds = _("{busting} of {unseen}").format(busting=risk.busting, unseen=risk.unseen)
        risky = styled(template, "", risk=("class:error" if risk.busting else "class:green", odds), share=share)
        rows += wrap_runs(risky, width, "  ", "    ")
    rows += _ten_market(ts, pub, width)
    rows += wrap_runs(
        [("class:heading", _("Players")), ("class:dim", "  " + _("(points: what each collection scores now)"))],
        width,
        "",
        "  ",
    )
    names = [r.name(seat) + seat_marker(ts, seat) for seat in range(len(pub["seats"]))]
    # One column for every seat's points, after the longest name ("Botti 1 · normaali" is longer than 12).
    column = max(12, *(len(name) + 1 for name in names))
    for seat, info in enumerate(pub["seats"]):
        turn = seat == active and not ts.over
        style = "class:seat.turn" if turn else ("class:seat.me" if seat == me else "class:seat")
        seat_row: Fragments = [
            (style, (">" if turn else " ") + names[seat].ljust(column)),
            ("class:gold", _("{score} pts").format(score=f"{info['score']:>3}")),
            (
                "class:dim",
                "  "
                + _("tokens {tokens}  busts {busts}").format(tokens=f"{info['tokens']:>2}", busts=info["bust_tokens"])
                + "  ",
            ),
        ]
        seat_row += _ten_chips(by_colour(info["collection"])) if info["collection"] else [("class:dim", _("no cards"))]
        # A long collection goes on under its first cards, not under the name.
        indent = sum(len(text) for _, text in seat_row[:3])
        if width - indent < 12:
            rows.append(seat_row[:3])
            indent = 2
        cards = wrap_fragments(seat_row[3:], width - indent)
        rows.append((seat_row[:3] if indent > 2 else [("", "  ")]) + cards[0])
        rows += [[("", " " * indent)] + more for more in cards[1:]]
    rows += _ten_pending(ts, pub, width)
    return rows


def _ten_market(ts: TableView, pub: Mapping[str, Any], width: int) -> list[Fragments]:
    market = by_colour(pub.get("market") or [])
    if not market:
        return [[("class:heading", _("Market") + " "), ("class:dim", _("empty"))]]
    buying = pub["phase"] in ("buy", "final_buy") and ts.my_turn
    cards = Screen().cursor_cards(ts) if buying else []
    extra = {c: focus_style(ts, pos, c, cards) for pos, c in enumerate(cards)}
    out: Fragments = [("class:heading", _("Market") + " "), ("class:dim", "(" + _("price = number") + ") ")]
    out += _ten_chips(market, extra)
    rows = wrap_fragments(out, width)
    if buying and 0 <= ts.cursor < len(cards):
        card = TenRenderer.find(market, cards[ts.cursor])
        tokens = pub["seats"][ts.seat]["tokens"] if ts.seat is not None else 0
        if card is not None:
            cursor = ngettext(
                "At the cursor: {card} for {price}; you have {tokens} token.",
                "At the cursor: {card} for {price}; you have {tokens} tokens.",
                int(tokens),
            ).format(card=card_text(card), price=card["value"], tokens=tokens)
            rows += wrap_runs([("class:dim", cursor)], width, "  ", "    ")
    return rows


def _ten_pending(ts: TableView, pub: Mapping[str, Any], width: int) -> list[Fragments]:
    r = ts.renderer
    rows: list[Fragments] = []
    auction = pub.get("auction")
    if auction:
        high = auction.get("high_seat")
        order = ", ".join(r.name(s) for s in auction["order"])
        if high is not None:
            state = _("high bid {bid} by {name}; one bid each ({order}), now {next}.").format(
                bid=auction["high_bid"], name=r.name(high), order=order, next=r.name(auction["next"])
            )
        else:
            state = _("no bid yet; one bid each ({order}), now {next}.").format(
                order=order, next=r.name(auction["next"])
            )
        rows += wrap_runs(
            [("class:heading", _("Auction") + " "), ten_chip(auction["card"]), ("", " " + state)], width, "", "  "
        )
        low_high = Screen().bid_range(ts)
        if ts.my_turn and low_high is not None:
            low, top = low_high
            bid_row: Fragments = [
                ("", "  " + _("Your bid:") + " "),
                ("class:cursor", f"< {ts.bid} >"),
                (
                    "class:dim",
                    "  " + _("legal {low} to {high}; +/- change, Enter bids, p passes").format(low=low, high=top),
                ),
            ]
            # As drawn when it fits (the bid box stays whole), else wrapped at words under its indent.
            fits = sum(len(text) for _style, text in bid_row) <= width
            rows += [bid_row] if fits else wrap_runs(bid_row, width, "  ", "    ")
    offer = pub.get("offer")
    if offer:
        price = int(offer["price"])
        offered = ngettext(
            "for {price} token: a accepts, p declines.", "for {price} tokens: a accepts, p declines.", price
        ).format(price=price)
        rows += wrap_runs(
            [("class:heading", _("Offer") + " "), ten_chip(offer["card"]), ("", " " + offered)], width, "", "  "
        )
    pay = pub.get("payment")
    if pay:
        if pay["payer"] == ts.seat:
            owing = _("you owe {owed} for {card} (price {price}, paid {paid})")
        else:
            owing = _("{name} owes {owed} for {card} (price {price}, paid {paid})")
        facts = {"owed": str(pay["owed"]), "price": str(pay["price"]), "paid": str(pay["paid"])}
        said = styled(owing, "", name=r.name(pay["payer"]), card=ten_chip(pay["card"]), **facts)
        rows += wrap_fragments([("class:heading", _("Payment") + " "), *said], width)
        if pay["payer"] == ts.seat and ts.my_turn:
            rows += _ten_pay_rows(ts, pub, pay, width)
    final = pub.get("final_round")
    if final:
        order = ", ".join(r.name(s) for s in final["order"])
        now = _("({order}): now {next}.").format(order=order, next=r.name(final["next"]))
        rows += wrap_runs([("class:heading", _("Final buy round") + " "), ("", now)], width, "", "  ")
    return rows


def _ten_pay_rows(ts: TableView, pub: Mapping[str, Any], pay: Mapping[str, Any], width: int) -> list[Fragments]:
    """What the payer can pay with (the cursor picks one piece), and the least that settles the debt."""
    seat = pub["seats"][ts.seat if ts.seat is not None else 0]
    pieces = Screen().cursor_cards(ts)
    out: Fragments = [("", "  " + _("Pay with:") + " ")]
    for pos, piece in enumerate(pieces):
        extra = focus_style(ts, pos, piece, pieces)
        if piece == TOKEN:
            chip = _("token x{count}").format(count=seat["tokens"])
            out += [(f"class:gold {extra}".strip(), f"[{chip}]"), ("", " ")]
        elif piece == BUST_TOKEN:
            chip = _("bust token x{count} = 3").format(count=seat["bust_tokens"])
            out += [(f"class:dim {extra}".strip(), f"[{chip}]"), ("", " ")]
        else:
            card = TenRenderer.find(seat["collection"], piece)
            if card is not None:
                style, face = ten_chip(card)
                out += [(f"{style} {extra}".strip(), f"[{face}]"), ("", " ")]
    rows = wrap_fragments(out, width)
    owed, tokens = int(pay["owed"]), int(seat["tokens"])
    if tokens >= owed:
        least = ngettext("{count} token (exact)", "{count} tokens (exact)", owed).format(count=owed)
    elif tokens + len(seat["collection"]) >= owed:
        least = _("{tokens} and {cards} (each card is worth 1)").format(
            tokens=ngettext("all {count} token", "all {count} tokens", tokens).format(count=tokens),
            cards=ngettext("{count} card", "{count} cards", owed - tokens).format(count=owed - tokens),
        )
    else:
        busts = -(-owed // 3)
        least = ngettext("{count} bust token (3 each, no change)", "{count} bust tokens (3 each, no change)", busts)
        least = least.format(count=busts)
    settles = _("Least that settles {owed}: {least}. e pays it, Enter the piece at the cursor.")
    rows += wrap_runs([("class:dim", settles.format(owed=owed, least=least))], width, "  ", "  ")
    return rows
