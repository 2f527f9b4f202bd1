"""From keys to moves: which cards a table screen lets the player point at, and which moves a selection means.

Every move offered comes from the open decision's legal list (sent by its index). When the player asks for
something that is not in the list, the move is still sent as an object so the host answers with the core's
reason; the client itself never decides that a move is illegal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..render.cherki import card_kind
from ..render.ten import COLOURS
from .state import Choice, TableState

__all__ = ["BUST_TOKEN", "TOKEN", "bid_range", "by_colour", "hand_cards", "pass_choice", "quick_choice", "selection_choices",
           "settle_choice"]

#: TEN payments: the cursor's stand-ins for a currency token and a bust token (card ids are never negative).
TOKEN, BUST_TOKEN = -1, -2


def hand_cards(ts: TableState) -> list[int]:
    """The ids of the cards the cursor moves over, in screen order (empty when the game has no card row)."""
    if ts.game == "ten":
        return _ten_cursor_cards(ts)
    private = ts.view.get("private")
    if not isinstance(private, dict):
        return []
    if ts.game == "matchstick":
        return [int(c["id"]) for c in private.get("hand", [])]
    if ts.game == "fistful":
        phase = ts.view.get("public", {}).get("phase")
        return list(private.get("discard" if phase == "green8_retrieve" else "hand", []))
    if ts.game == "cherki":
        # Grouped by kind as the screen draws them: numbers first, then the honours.
        return sorted(private.get("hand", []), key=lambda c: (not card_kind(c).isdigit(), card_kind(c), c))
    return []


def _ten_cursor_cards(ts: TableState) -> list[int]:
    """TEN's cursor row: the market while buying, the payment pieces while paying (what the legal list allows)."""
    pub = ts.view.get("public", {})
    phase = pub.get("phase")
    if phase in ("buy", "final_buy"):
        return [int(c["id"]) for c in by_colour(pub.get("market") or [])]
    if phase == "pay" and ts.my_turn:
        kinds = {m.get("type") for m in ts.legal if isinstance(m, dict)}
        pieces = [p for p, kind in ((TOKEN, "pay_token"), (BUST_TOKEN, "pay_bust")) if kind in kinds]
        return pieces + [int(m["card"]) for _, m in _legal(ts, "pay_card")]
    return []


def by_colour(cards: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """TEN cards as the screen lays them out: numbers by colour then value, wilds after them (a collection reads
    as its runs; the market cursor walks the same order)."""
    order = {c: n for n, c in enumerate(COLOURS)}

    def key(card: Mapping[str, Any]) -> tuple[int, int, int]:
        wild = str(card.get("type", "")).endswith("wild")
        return (1 if wild else 0, order.get(str(card.get("colour", "")), 9), int(card.get("value") or 0))

    return sorted(cards, key=key)


def bid_range(ts: TableState) -> tuple[int, int] | None:
    """The lowest and highest legal bid of an open TEN auction decision (None when no bid is legal)."""
    amounts = [int(m["amount"]) for _, m in _legal(ts, "bid")]
    return (min(amounts), max(amounts)) if amounts else None


def _chosen(ts: TableState) -> list[int]:
    """The selected cards, or the card under the cursor when nothing is selected."""
    cards = hand_cards(ts)
    if ts.selected:
        return [c for c in cards if c in ts.selected]
    return [cards[ts.cursor]] if 0 <= ts.cursor < len(cards) else []


def _legal(ts: TableState, kind: str) -> list[tuple[int, dict[str, Any]]]:
    return [(i, m) for i, m in enumerate(ts.legal) if isinstance(m, dict) and m.get("type") == kind]


def _choice(ts: TableState, index: int) -> Choice:
    move = ts.legal[index]
    note = ts.renderer.move_note(move, ts.view)
    text = ts.renderer.move_text(move)
    return Choice(f"{text}   ({note})" if note else text, index=index)


def _matchstick_choices(ts: TableState, cards: Sequence[int]) -> list[Choice]:
    hand = {int(c["id"]): str(c["card"]) for c in ts.view.get("private", {}).get("hand", [])}
    wanted = Counter(hand.get(c, "?") for c in cards)
    found = [
        _choice(ts, i)
        for i, m in _legal(ts, "play")
        if Counter(hand.get(int(c), "?") for c in m.get("cards", [])) == wanted
    ]
    if found or not cards:
        return found
    # Not in the list: the host explains why (e.g. the cards cannot show one value, or it does not beat the table).
    first = hand.get(cards[0], "?")
    move = {"type": "play", "value": first[0], "cards": sorted(cards)}
    return [Choice(ts.renderer.move_text(move), move=move)]


def _exact(ts: TableState, move: dict[str, Any]) -> Choice:
    """The legal entry equal to ``move`` if there is one, else the move itself (for the host's reason)."""
    for i, m in _legal(ts, str(move["type"])):
        if m == move:
            return _choice(ts, i)
    return Choice(ts.renderer.move_text(move), move=move)


def _fistful_choices(ts: TableState, cards: Sequence[int]) -> list[Choice]:
    phase = ts.view.get("public", {}).get("phase")
    if not cards:
        return []
    if phase in ("setup_discard", "round_end_discard"):
        return [_exact(ts, {"type": "discard", "cards": sorted(cards)})]
    kind = "retrieve" if phase == "green8_retrieve" else "pick"
    return [_exact(ts, {"type": kind, "card": cards[0]})]


def selection_choices(ts: TableState) -> list[Choice]:
    """The moves Enter offers for the current selection: one is sent at once, several are listed to pick from.

    For games without a card row (drawn generically until they get their own screen) every legal move is listed.
    """
    if ts.game == "matchstick":
        return _matchstick_choices(ts, _chosen(ts))
    if ts.game == "fistful":
        return _fistful_choices(ts, _chosen(ts))
    if ts.game == "cherki":
        # Discarding the card under the cursor (and calling with it, when that is legal); a decision that
        # takes no card (draw, take, call) lists its moves.
        cards = _chosen(ts)
        found = [_choice(ts, i) for i, m in _legal(ts, "discard") if cards and m.get("card") == cards[0]]
        return found or all_choices(ts)
    if ts.game == "ten":
        return _ten_choices(ts)
    return all_choices(ts)


def _ten_choices(ts: TableState) -> list[Choice]:
    phase = ts.view.get("public", {}).get("phase")
    cards = hand_cards(ts)
    at = cards[ts.cursor] if 0 <= ts.cursor < len(cards) else None
    if phase in ("buy", "final_buy") and at is not None:
        return [_exact(ts, {"type": "buy", "card": at})]
    if phase == "auction" and bid_range(ts) is not None:
        return [_exact(ts, {"type": "bid", "amount": ts.bid})]
    if phase == "pay" and at is not None:
        if at == TOKEN:
            return [_exact(ts, {"type": "pay_token"})]
        if at == BUST_TOKEN:
            return [_exact(ts, {"type": "pay_bust"})]
        return [_exact(ts, {"type": "pay_card", "card": at})]
    return all_choices(ts)


def quick_choice(ts: TableState, move: dict[str, Any]) -> Choice | None:
    """A one-key move (TEN's draw, stop, prizes, accept) when the open decision allows it, else None."""
    for i, m in enumerate(ts.legal):
        if m == move:
            return _choice(ts, i)
    return None


def settle_choice(ts: TableState) -> Choice | None:
    """TEN: the next piece of the least payment that settles the player's debt, so one key pays it all: a
    token while there are tokens (cards make up the rest), a bust token when tokens and cards together cannot
    settle it; None when nothing is owed or what is left must be paid with cards the player chooses."""
    pub = ts.view.get("public", {})
    pay = pub.get("payment")
    if ts.game != "ten" or not pay or ts.seat is None or pay.get("payer") != ts.seat:
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


def all_choices(ts: TableState) -> list[Choice]:
    """Every legal move of the open decision."""
    return [_choice(ts, i) for i in range(len(ts.legal))]


def pass_choice(ts: TableState) -> Choice | None:
    """The pass move (None in a game without one)."""
    if ts.game == "ten":
        passes = _legal(ts, "skip_buy") + _legal(ts, "pass_bid") + _legal(ts, "decline_wild")
        return _choice(ts, passes[0][0]) if passes else None
    if ts.game != "matchstick":
        passes = _legal(ts, "pass")
        return _choice(ts, passes[0][0]) if passes else None
    return _exact(ts, {"type": "pass"})
