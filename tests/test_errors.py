"""Every core error arrives as one documented exception class; a refused call changes nothing."""

from __future__ import annotations

import json
import pickle
import random

import pytest

import cardnet
from cardnet import BadOptions, CardnetError, CorruptState, IllegalMove, InvalidMove, UnknownGame
from gamehelpers import play_random

GAMES = list(cardnet.GAMES)


def test_hierarchy_and_codes() -> None:
    for cls, code in [
        (InvalidMove, "invalid_move"),
        (UnknownGame, "unknown_game"),
        (BadOptions, "bad_options"),
        (CorruptState, "corrupt_state"),
    ]:
        error = cls("why")
        assert isinstance(error, CardnetError) and isinstance(error, ValueError)
        assert (error.code, error.reason, str(error)) == (code, "why", "why")
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is cls and again.code == code and again.reason == "why"
    illegal = IllegalMove("not_your_turn", "wait")
    assert isinstance(illegal, ValueError) and (illegal.code, illegal.reason) == ("not_your_turn", "wait")
    assert pickle.loads(pickle.dumps(illegal)).code == "not_your_turn"
    base = CardnetError("internal", "bug")
    assert not isinstance(base, ValueError) and base.code == "internal"


def test_unknown_game() -> None:
    with pytest.raises(UnknownGame) as info:
        cardnet.new_game("chess")
    assert info.value.code == "unknown_game" and "chess" in info.value.reason
    with pytest.raises(UnknownGame):
        cardnet.simulate("chess", ["random"], games=1, seed=1)


@pytest.mark.parametrize("name", GAMES)
def test_bad_options(name: str) -> None:
    info = cardnet.GAMES[name]
    for players in (info.max_players + 1, -1, True):
        with pytest.raises(BadOptions):
            cardnet.new_game(name, players=players)
    with pytest.raises(BadOptions):
        cardnet.new_game(name, options={"no_such_option": 1})
    with pytest.raises(BadOptions):
        cardnet.new_game(name, options={"x": 1.5})
    for seed in (-1, 2**64, "7"):
        with pytest.raises(BadOptions):
            cardnet.new_game(name, seed=seed)  # type: ignore[arg-type]
    for spec in info.options:
        wrong: object = "surely not" if spec.kind != "choice" else 12345
        with pytest.raises(BadOptions):
            cardnet.new_game(name, options={spec.name: wrong})
    with pytest.raises(BadOptions):
        cardnet.simulate(name, ["random"] * info.default_players, games=-1, seed=1)
    with pytest.raises(BadOptions):
        cardnet.simulate(name, ["nobody"] * info.default_players, games=1, seed=1)


@pytest.mark.parametrize("name", GAMES)
def test_refusals_change_nothing(name: str) -> None:
    g = cardnet.new_game(name, seed=8)
    before = g.to_json()
    seat = g.to_act()[0]
    waiting = [s for s in range(g.players) if s not in g.to_act()]

    def refused(cls: type[CardnetError], call: object, code: str | None = None) -> None:
        assert callable(call)
        with pytest.raises(cls) as info:
            call()
        if code is not None:
            assert info.value.code == code
        assert info.value.reason
        assert g.to_json() == before

    refused(InvalidMove, lambda: g.apply(seat, "pass"), "invalid_move")
    refused(InvalidMove, lambda: g.apply(seat, {"type": 1.5}), "invalid_move")
    refused(InvalidMove, lambda: g.apply(seat, {"type": "no_such_move_type"}), "invalid_move")
    refused(InvalidMove, lambda: g.apply(seat, {"type": "pass", "surprise": 1}), "invalid_move")
    refused(InvalidMove, lambda: g.apply(seat, {1: 2}), "invalid_move")
    refused(InvalidMove, lambda: g.apply(seat, object()), "invalid_move")
    refused(InvalidMove, lambda: g.apply_json(seat, "{not json"), "invalid_move")
    refused(InvalidMove, lambda: g.apply_json(seat, "[" * 10_000 + "]" * 10_000), "invalid_move")
    deep: list[object] = []
    for _ in range(10_000):
        deep = [deep]
    refused(InvalidMove, lambda: g.apply(seat, {"type": "play", "cards": deep}), "invalid_move")
    refused(IllegalMove, lambda: g.apply_index(seat, g.legal_count(seat)), "no_such_move")
    refused(IllegalMove, lambda: g.apply_index(seat, -1), "no_such_move")
    refused(IllegalMove, lambda: g.legal_move(seat, g.legal_count(seat)), "no_such_move")
    for bad_seat in (-1, g.players, 2**40):
        refused(IllegalMove, lambda: g.apply_index(bad_seat, 0), "no_such_seat")
        refused(IllegalMove, lambda: g.view(bad_seat), "no_such_seat")
        refused(IllegalMove, lambda: g.legal_count(bad_seat), "no_such_seat")
        refused(IllegalMove, lambda: g.determinize(bad_seat, 1), "no_such_seat")
    if waiting:
        other = waiting[0]
        refused(IllegalMove, lambda: g.apply(other, g.legal_move(seat, 0)), "not_your_turn")
        refused(IllegalMove, lambda: g.apply_index(other, 0), "not_your_turn")
        refused(IllegalMove, lambda: cardnet.ai.choose_index(g, other), "not_your_turn")


@pytest.mark.parametrize("name", GAMES)
def test_game_over(name: str) -> None:
    g = cardnet.new_game(name, seed=13)
    play_random(g, random.Random(13))
    with pytest.raises(IllegalMove) as info:
        g.apply_index(0, 0)
    assert info.value.code == "game_over"


@pytest.mark.parametrize("name", GAMES)
def test_corrupt_saves(name: str) -> None:
    g = cardnet.new_game(name, seed=6)
    play_random(g, random.Random(6), limit=10)
    doc = json.loads(g.to_json())

    def corrupt(text: str | bytes, fragment: str = "") -> None:
        with pytest.raises(CorruptState) as info:
            cardnet.load_game(text)
        assert info.value.code == "corrupt_state"
        assert fragment in info.value.reason

    corrupt("")
    corrupt("[]")
    corrupt(b"\xff\xfe")
    corrupt(json.dumps({**doc, "format": 999}), "format")
    corrupt(json.dumps({**doc, "game": "chess"}), "chess")
    corrupt(json.dumps({k: v for k, v in doc.items() if k != "moves"}), "move")
    if doc["moves"]:
        bad_moves = [dict(doc["moves"][0], move={"type": "no_such_move_type"})] + doc["moves"][1:]
        corrupt(json.dumps({**doc, "moves": bad_moves}), "move 0")
    tampered = json.loads(json.dumps(doc))
    tampered["state"] = {"tampered": True}
    corrupt(json.dumps(tampered), "state")
