"""The full-screen client's TEN table: every phase drawn from recorded views, the bust risk counted from the core's
deck, and a game played from the keyboard against built-in players (headless, real in-process host)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from test_tui_headless import _views as recorded_views
from tuihelpers import Driver, running

import cardnet
from cardnet.ui.app import StartRequest
from cardnet.ui.app.draw import table_screen, text_of
from cardnet.ui.app.moves import bid_range, hand_cards
from cardnet.ui.render.screen.ten import BUST_TOKEN, TOKEN, ten_chip
from cardnet.ui.app.state import TableState
from cardnet.games import ten_deck
from cardnet.ui.render.ten import bust_risk, unseen_cards

ENTER, RIGHT = "\r", "\x1b[C"


def _views(players: int, seed: int) -> dict[str, tuple[int, dict[str, Any], list[Any]]]:
    """One (seat, view, legal) per phase of a random game, plus a draw with cards on the tableau and the end."""

    def situation(pub: dict[str, Any]) -> str:
        return "draw_tableau" if pub["phase"] == "draw" and pub["tableau"]["numbers"] >= 5 else str(pub["phase"])

    return recorded_views("ten", players, seed, situation)


def _table(players: int, seat: int, view: dict[str, Any], legal: list[Any]) -> TableState:
    ts = TableState.open("ten", players, seat, "test")
    ts.view, ts.legal, ts.to_act, ts.decision_id = view, legal, [seat] if legal else [], 1 if legal else None
    ts.over = not legal
    bids = bid_range(ts)
    ts.bid = bids[0] if bids else 0
    return ts


@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_unseen_cards_are_exactly_the_draw_pile_all_game(players: int) -> None:
    g = cardnet.new_game("ten", players=players, seed=players)
    rng = random.Random(players)
    while not g.is_over():
        seat = g.to_act()[0]
        pub = g.view(seat)["public"]
        assert len(unseen_cards(pub, players)) == pub["draw_pile"], pub["phase"]
        g.apply(seat, rng.choice(g.legal_moves(seat)))


def test_ten_deck_sizes_follow_the_player_count() -> None:
    assert [len(ten_deck(n)) for n in (1, 2, 3, 4, 5)] == [89, 89, 105, 129, 129]
    with pytest.raises(cardnet.BadOptions):
        ten_deck(6)


def test_bust_risk_counts_the_cards_that_would_bust() -> None:
    g = cardnet.new_game("ten", players=3, seed=1)
    pub = g.view(0)["public"]
    assert bust_risk(pub, 3) == (0, 105)
    # Numbers 8 - currency 0: any number of 3 or more busts; no currency card can.
    pub = dict(pub, tableau={"cards": [], "numbers": 8, "currency": 0})
    deck = unseen_cards(pub, 3)
    expected = sum(1 for c in deck if c["type"] == "number" and c["value"] >= 3)
    assert bust_risk(pub, 3) == (expected, 105) and expected > 0


def test_chips_name_colour_and_kind() -> None:
    assert ten_chip({"type": "number", "colour": "red", "value": 5, "id": 1}) == ("class:ten.red", "R5")
    assert ten_chip({"type": "colour_wild", "colour": "blue", "id": 2}) == ("class:ten.blue", "B#")
    assert ten_chip({"type": "number_wild", "value": 8, "id": 3}) == ("class:ten.wild", "*8")
    assert ten_chip({"type": "any_wild", "id": 4}) == ("class:ten.wild", "*#")
    assert ten_chip({"type": "currency", "value": 3, "id": 5}) == ("class:ten.currency", "$3")


@pytest.mark.parametrize("size", [(80, 21), (200, 47)])
def test_every_phase_is_drawn(size: tuple[int, int]) -> None:
    views = _views(3, 4)
    assert {"draw", "draw_tableau", "prize", "buy", "auction", "pay", "final_buy", "over"} <= set(views)
    width, height = size
    for phase, (seat, view, legal) in views.items():
        ts = _table(3, seat, view, legal)
        text = text_of(table_screen(ts, width, height))
        lines = text.split("\n")
        assert all(len(line) <= width for line in lines), text
        assert text.startswith("TEN - turn") and "Players" in text and " pts " in text
        pub = view["public"]
        for info in pub["seats"]:
            assert f"{info['score']:>3} pts" in text
        if phase.startswith("draw"):
            risk = bust_risk(pub, 3)
            assert f"Next draw: {risk.busting} of {risk.unseen} cards left would bust you" in text
        if phase == "draw_tableau":
            assert risk.busting > 0
        if phase == "auction":
            low, high = bid_range(ts) or (0, 0)
            assert f"< {low} >" in text and f"legal {low} to {high}" in text
        if phase == "pay":
            assert "Pay with:" in text and "Least that settles" in text
            assert hand_cards(ts)[0] in (TOKEN, BUST_TOKEN) or hand_cards(ts)
        if phase in ("buy", "final_buy") and pub["market"]:
            assert "Market (price = number)" in text
        if phase == "over":
            assert "Game over." in text


def test_solo_variant_is_labelled() -> None:
    g = cardnet.new_game("ten", players=1, seed=2)
    ts = _table(1, 0, g.view(0), g.legal_moves(0))
    assert "SOLO (house rules): reach 25 points" in text_of(table_screen(ts, 80, 21))


async def _play_turn(d: Driver) -> None:
    """One decision by keys: draw while no card can bust, then stop; numbers; buy what the cursor is on if it is
    affordable (else buy nothing); bid when tokens spare, else pass; pay with the first piece; decline offers."""
    ts = d.state.table
    assert ts is not None
    pub = ts.view["public"]
    phase = pub["phase"]
    if phase == "draw":
        safe = not pub["tableau"]["cards"] or bust_risk(pub, ts.players).busting == 0
        await d.press("d" if safe or len(ts.legal) == 1 else "s")
    elif phase == "prize":
        await d.press("n")
    elif phase in ("buy", "final_buy"):
        tokens = pub["seats"][ts.seat]["tokens"]
        market = {c["id"]: c["value"] for c in pub["market"]}
        cards = hand_cards(ts)
        affordable = [pos for pos, c in enumerate(cards) if market[c] <= tokens]
        if affordable:
            await d.press(RIGHT * affordable[0] + ENTER)
        else:
            await d.press("p")
    elif phase == "auction":
        # The form starts at the lowest legal bid; raise it once when that still leaves tokens to spare.
        tokens = pub["seats"][ts.seat]["tokens"]
        if ts.bid + 1 <= tokens // 2:
            await d.press("+")
            assert ts.bid == min(bid_range(ts) or (0, 0)) + 1
            await d.press(ENTER)
        else:
            await d.press("p")
    else:
        await d.press(ENTER if phase == "pay" else "p")


def test_a_ten_game_played_from_the_keyboard() -> None:
    """Seat 0 of a 3-player TEN game against random players, every decision made with keys, to the end (or to a
    bounded number of our decisions)."""

    async def scenario() -> None:
        async with running(StartRequest(game="ten", players=3, seed=5, player="random")) as d:
            decisions = 0
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline:
                # A decision with one legal move is answered by the client itself.
                await d.until(
                    lambda: (
                        d.state.table is not None
                        and ((d.state.table.my_turn and len(d.state.table.legal) > 1) or d.state.table.over)
                    ),
                    "a decision",
                )
                table = d.state.table
                assert table is not None
                if table.over:
                    break
                cur: TableState = table
                before = cur.decision_id, cur.view
                await _play_turn(d)
                decisions += 1
                await d.until(
                    lambda: (cur.decision_id, cur.view) != before or cur.over or bool(d.state.error),
                    "the host's answer",
                )
                assert not d.state.error.startswith("Refused"), d.state.error
            ts = d.state.table
            assert ts is not None and ts.over, d.screen()
            assert decisions > 10
            assert any(line.startswith("You bid") for line in ts.log), "no bid was made from the form"
            assert "Game over." in d.screen(100, 40)

    asyncio.run(scenario())
