"""Line-mode renderers of A Fistful of Gold, Cherki and TEN: whole games driven through ``cardnet play
--plain``, and each renderer checked on views, moves and events taken from the golden playthroughs."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardnet
from cardnet.games import Scores
from cardnet.ui.render import cherki, fistful, ten
from cardnet.ui.plain import play_plain
from cardnet.ui.render import GenericRenderer, renderer_for, use_colour, visible_len

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "rust" / "core" / "tests" / "golden"
GAMES = ("fistful", "cherki", "ten")


def records(name: str) -> list[dict[str, Any]]:
    """The move records (with the actor's view before the move) of one golden transcript."""
    lines = (GOLDEN_DIR / name).read_text(encoding="ascii").splitlines()
    return [r for r in (cardnet.json_loads(t) for t in lines[1:]) if "move" in r]


def full_records(game: str) -> Iterator[dict[str, Any]]:
    for path in sorted(GOLDEN_DIR.glob(f"{game}-full*.jsonl")):
        yield from records(path.name)


def names_for(seat: int, players: int) -> list[str]:
    return ["You" if s == seat else f"Seat {s}" for s in range(players)]


def run_cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardnet", *args], input=stdin, capture_output=True, text=True, timeout=300
    )


# -- whole games through the command line -------------------------------------------------------------


@pytest.mark.parametrize(("game", "seed"), [("fistful", 5), ("cherki", 7), ("ten", 3)])
def test_whole_game_with_scripted_input(game: str, seed: int) -> None:
    out = run_cli("play", "--plain", game, "--seed", str(seed), stdin="help\n" + "1\n" * 5000)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    text = out.stdout
    assert "Game over (" in text
    assert "1. " in text.split("Game over (")[1]
    # The game's own renderer drew it, not the JSON fallback.
    assert "Table:" not in text and '{"' not in text
    for line in text.splitlines():
        # The journal's path is the only line the renderer does not draw.
        assert visible_len(line) <= 80 or line.startswith("journal: "), line


def test_fistful_typed_moves_and_refusal() -> None:
    out = io.StringIO()
    # Card words are the faces the screen shows: the Dynamite is D, never its id 9 (issue 10).
    script = "discard 9 2\ndiscard 4 8\npick 4\npick 2\nquit\n"
    assert play_plain("fistful", seed=11, stdin=io.StringIO(script), stdout=out) == 0
    text = out.getvalue()
    assert "Refused: there is no card 9: the cards are 1 to 8 and D (the Dynamite)" in text
    assert "You: discard 4 8" in text
    assert "You discard " in text and " face down (setup)" in text
    assert "Refused: " in text
    assert "Duel 1: " in text
    assert text.rstrip().endswith("Bye.")


def test_cherki_typed_draw() -> None:
    seed = next(s for s in range(200) if cardnet.new_game("cherki", seed=s).to_act() == [0])
    out = io.StringIO()
    assert play_plain("cherki", seed=seed, stdin=io.StringIO("take\ndraw\nquit\n"), stdout=out) == 0
    text = out.getvalue()
    assert "Refused: " in text
    assert "You draw [" in text and "left in the stock" in text
    assert "Your hand (9 cards, by kind):" in text


def test_ten_typed_moves() -> None:
    def opens_with_a_number(seed: int) -> bool:
        g = cardnet.new_game("ten", seed=seed)
        if g.to_act() != [0]:
            return False
        g.apply(0, {"type": "draw"})
        return bool(g.view(0)["public"]["tableau"]["cards"])

    seed = next(s for s in range(200) if opens_with_a_number(s))
    out = io.StringIO()
    assert play_plain("ten", seed=seed, stdin=io.StringIO("buy 999\nstop\nquit\n"), stdout=out) == 0
    text = out.getvalue()
    assert "Your only move: draw" in text and "You draw " in text
    assert "Bust margin: safe next card is " in text
    assert "Refused: " in text
    assert "You: stop" in text and "You stop drawing." in text


# -- every golden move and event --------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_golden_moves_round_trip_through_text(game: str) -> None:
    seen = 0
    for record in full_records(game):
        view = record["view"]
        renderer = renderer_for(game, names_for(record["seat"], 6))
        renderer.observe(view)
        move = record["move"]
        text = renderer.move_text(move)
        assert renderer.parse_move(text, view) == move, text
        renderer.move_note(move, view)
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("game", GAMES)
def test_golden_events_read_as_sentences(game: str) -> None:
    kinds = set()
    for record in full_records(game):
        for who, seat in (("seat", record["seat"]), ("spectator", None)):
            names = names_for(seat if seat is not None else -1, 6)
            renderer = renderer_for(game, names)
            renderer.observe(record["view"])
            for event in record["events"][who]:
                kinds.add(event["type"])
                text = renderer.event_text(event)
                assert text is None or ("{" not in text and text.strip()), (event, text)
    assert len(kinds) >= 6


@pytest.mark.parametrize("game", GAMES)
def test_tables_fit_80_columns(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GenericRenderer, "width", lambda self: 80)
    for record in full_records(game):
        view = record["view"]
        renderer = renderer_for(game, names_for(record["seat"], 6))
        renderer.observe(view)
        for line in renderer.table(view, record["seat"]):
            assert len(line) <= 80, line
        spectator = {"public": view["public"], "private": None}
        assert renderer.table(spectator, record["seat"])


# -- A Fistful of Gold ------------------------------------------------------------------------------


def fistful_view(phase: str) -> tuple[int, dict[str, Any]]:
    for record in records("fistful-full-short.jsonl") + records("fistful-full-long.jsonl"):
        if record["view"]["public"]["phase"] == phase:
            return record["seat"], record["view"]
    raise AssertionError(f"no {phase} view")


def test_fistful_table_names_colours_gold_and_pot() -> None:
    for record in records("fistful-full-short.jsonl"):
        pub = record["view"]["public"]
        if pub["phase"] == "pick" and pub["played"][0] and any(b is not None for b in pub["barred"]):
            break
    else:
        raise AssertionError("no pick view with a barred card")
    seat = record["seat"]
    r = renderer_for("fistful", names_for(seat, 2))
    r.observe(record["view"])
    text = "\n".join(r.table(record["view"], seat))
    assert "Pink" in text and "Green" in text
    assert f"pot {pub['pot']}" in text
    assert f"Duel {pub['duel']} of {pub['duels_in_round']}" in text
    assert "Barred by the +1 rule" in text
    assert "Your hand (" in text and "discard pile:" in text


def test_fistful_move_notes() -> None:
    seat, view = fistful_view("pick")
    r = renderer_for("fistful", names_for(seat, 2))
    r.observe(view)
    view["public"]["colours"] = ["pink", "green"] if seat == 0 else ["green", "pink"]
    r.observe(view)
    assert r.move_note({"type": "pick", "card": 7}, view).startswith("Pink 7: ends the round")
    assert "Pink 8" in r.move_note({"type": "pick", "card": 8}, view)
    assert "Dynamite" in r.move_note({"type": "pick", "card": 9}, view)
    assert r.move_text({"type": "pick", "card": 9}) == "pick D"
    assert r.parse_move("pick d", view) == {"type": "pick", "card": 9}
    assert r.parse_move("discard 5 3", view) == {"type": "discard", "cards": [3, 5]}
    assert r.parse_move("retrieve 4", view) == {"type": "retrieve", "card": 4}


def test_fistful_events() -> None:
    r = fistful.Renderer(["You", "Seat 1"])
    r.observe({"public": {"colours": ["pink", "green"]}})
    assert r.event_text({"cards": [2, 5], "duel": 1, "round": 1, "type": "reveal"}) == (
        "Duel 1: You Pink 2 vs Seat 1 Green 5"
    )
    assert r.event_text({"gold": 3, "seat": 1, "type": "base"}) == "  - Seat 1 wins 3 gold"
    assert "pot 2" in (r.event_text({"pot": 2, "type": "tie"}) or "")
    assert "Green 7" in (r.event_text({"card": 7, "seat": 1, "type": "green8_retrieve"}) or "")
    assert r.event_text({"seat": 1, "type": "pick"}) == "Seat 1 has picked a card."
    assert r.event_text({"card": 7, "seat": 0, "type": "pick"}) == "You pick Pink 7."
    end = r.event_text({"gold": [7, 17], "round": 1, "star": 1, "stars": [0, 1], "type": "round_end"}) or ""
    assert "Seat 1 wins a sheriff star" in end and "You 7, Seat 1 17" in end


# -- Cherki -----------------------------------------------------------------------------------------


def test_cherki_card_names() -> None:
    assert cherki.card_name(0) == "1 Coins"
    assert cherki.card_name(4 * 17) == "9 Strings*"
    assert cherki.card_name(4 * 18 + 3) == "1 Myriads"
    assert cherki.card_name(4 * 27) == "White Flower"
    assert cherki.card_name(4 * 29 + 1) == "Old Thousand*"
    assert cherki.card_kind(4 * 28) == "red-flower"
    # Two triples and a pair of 8 (the golden's ready hand), and the same hand with one card swapped.
    ready = [28, 43, 54, 65, 77, 79, 88, 89]
    assert cherki.pair_kind_of(ready) == "8"
    assert cherki.pair_kind_of(ready[:-1] + [0]) is None


def test_cherki_table_ready_hand_by_kind() -> None:
    record = records("cherki-full-3p-2deals.jsonl")[0]
    seat, view = record["seat"], record["view"]
    r = renderer_for("cherki", names_for(seat, 3))
    text = "\n".join(r.table(view, seat))
    assert "Deal 1 of 2, dealer Seat 0, stock 96." in text
    assert "Your hand (8 cards, by kind):" in text
    assert "Coins" in text and "Strings" in text and "Myriads" in text
    assert "8 x" in text
    assert "Ready: two triples and a pair of 8 - you may call now ('call')." in text
    assert r.move_note({"type": "call"}, view) == "lock your hand, then win with any 8"


def test_cherki_win_event_shows_hand_and_payments() -> None:
    for record in records("cherki-full-3p-2deals.jsonl"):
        wins = [e for e in record["events"]["spectator"] if e["type"] == "win"]
        if wins:
            break
    else:
        raise AssertionError("no win")
    r = cherki.Renderer(["You", "Seat 1", "Seat 2"])
    text = r.event_text(wins[0]) or ""
    assert "Seat 1 wins deal 1 by taking the discard, completing the 8s:" in text
    assert "Total 45:" in text and "You pay 45" in text and "Seat 1 gets 90" in text
    assert text.count("\n") >= 3


def test_cherki_call_discard_note() -> None:
    for record in full_records("cherki"):
        if record["move"].get("call"):
            break
    else:
        raise AssertionError("no discard with a call")
    r = renderer_for("cherki", names_for(record["seat"], 3))
    note = r.move_note(record["move"], record["view"])
    assert "call Cherki, then win with any " in note
    assert r.move_text(record["move"]) == f"discard {record['move']['card']} call"


def test_cherki_private_draw_event() -> None:
    r = cherki.Renderer(["You", "Seat 1", "Seat 2"])
    assert r.event_text({"card": 115, "seat": 0, "stock": 94, "type": "draw_stock"}) == (
        "You draw [115] Red Flower* (94 left in the stock)."
    )
    assert r.event_text({"seat": 1, "stock": 94, "type": "draw_stock"}) == "Seat 1 draws from the stock (94 left)."


# -- TEN --------------------------------------------------------------------------------------------


def test_ten_payment_view() -> None:
    record = records("ten-full-3p.jsonl")[13]
    view = record["view"]
    assert view["public"]["phase"] == "pay"
    r = renderer_for("ten", names_for(2, 3))
    text = "\n".join(r.table(view, 2))
    assert "Payment: You owe 6 for wild 8 (an auction win, price 6)." in text
    assert "Market (price = number): orange 3" in text
    assert "green 4" in text and "score  1:" in text
    assert "Tableau:" in text and "currency 4" in text and "Bust margin" in text
    assert r.move_note({"type": "pay_card", "card": 73}, view) == "green 4, worth 1"
    assert r.move_text({"type": "pay_card", "card": 73}) == "pay card 73"
    assert r.parse_move("pay card 73", view) == {"type": "pay_card", "card": 73}
    assert r.parse_move("pay_token", view) == {"type": "pay_token"}
    assert r.move_note({"type": "pay_token"}, view) == "worth 1 of 6 owed; you have 5"


def test_ten_bust_margin() -> None:
    assert ten.Renderer.margin(8, 4) == "a number up to 6, any currency"
    assert ten.Renderer.margin(0, 7) == "any number, a currency up to 3"
    assert ten.Renderer.margin(10, 0) == "no number, any currency"


def test_ten_events_and_cards() -> None:
    r = ten.Renderer(["Seat 0", "Seat 1", "You"])
    assert ten.card_text({"type": "colour_wild", "colour": "red"}) == "red wild #"
    assert ten.card_text({"type": "any_wild"}) == "wild #"
    won = {"amount": 6, "card": {"id": 99, "type": "number_wild", "value": 8}, "seat": 2, "type": "auction_won"}
    assert r.event_text(won) == "You win wild 8 for 6."
    pay = {
        "card": {"colour": "green", "id": 73, "type": "number", "value": 4},
        "owed": 5,
        "piece": "card",
        "seat": 2,
        "type": "pay",
    }
    assert r.event_text(pay) == "You pay green 4, 5 still owed."
    bust = r.event_text({"bust_token": True, "kind": "numbers", "seat": 1, "type": "bust"}) or ""
    assert bust.startswith("BUST! Seat 1") and "bust token" in bust


def test_ten_outcome_lines() -> None:
    text = (GOLDEN_DIR / "ten-full-3p.jsonl").read_text(encoding="ascii").splitlines()[-1]
    outcome = cardnet.json_loads(text)["outcome"]
    result = Scores(
        winners=tuple(outcome["winners"]),
        scores=tuple(outcome["scores"]),
        order=tuple(outcome["order"]),
        detail=outcome["detail"],
    )
    lines = ten.Renderer(["You", "Seat 1", "Seat 2"]).outcome_lines(result)
    assert lines[0] == "  1. You: 3 points, 1 token, 3 cards - winner"
    assert any("blue 8-9 = 2" in line and "wilds played as blue 8" in line for line in lines)


# -- colour -----------------------------------------------------------------------------------------


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_tty_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert not use_colour(io.StringIO())
    assert use_colour(_Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(_Tty())


def test_colour_names_always_paint_only_when_on() -> None:
    record = records("ten-full-3p.jsonl")[13]
    r = renderer_for("ten", names_for(2, 3))
    plain = "\n".join(r.table(record["view"], 2))
    assert "\x1b[" not in plain and "green 4" in plain
    r.colour = True
    painted = "\n".join(r.table(record["view"], 2))
    assert "\x1b[32mgreen 4\x1b[0m" in painted
    f = fistful.Renderer(["You", "Seat 1"])
    f.colour = True
    f.observe({"public": {"colours": ["pink", "green"]}})
    assert f.card(0, 7) == "\x1b[35mPink 7\x1b[0m"
