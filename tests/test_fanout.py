"""`Game.play` / `Game.fan_out`: the host's one native call per move returns the same bytes as the per-seat calls."""

from __future__ import annotations

import random

import pytest

import cardnet


@pytest.mark.parametrize(("name", "players"), [("matchstick", 4), ("fistful", 2), ("cherki", 3), ("ten", 2)])
def test_play_returns_what_the_per_seat_calls_return(name: str, players: int) -> None:
    game = cardnet.new_game(name, players=players, seed=11)
    observers: list[int | None] = [*range(players), None]
    rnd = random.Random(3)
    for turn in range(60):
        decision = game.decision()
        if decision is None:
            break
        seat, count = decision
        index = rnd.randrange(count)
        listed = game.legal_move(seat, index)
        # Half the moves by index, half as the dict a peer sends: both journal the listed move's bytes.
        fan = game.play(seat, index if turn % 2 else listed, observers)
        assert fan.move_json == cardnet.json_dumps(listed)
        assert fan.state_hash == game.state_hash()
        assert fan.to_act == game.to_act()
        assert fan.over == game.is_over()
        assert fan.outcome_json == game.outcome_json()
        assert [s for s, _, _ in fan.seats] == observers
        for observer, view, events in fan.seats:
            assert view == game.view_json(observer)
            assert events == game.events_json(observer)
        assert [(s, n) for s, n, _ in fan.legal] == [(s, game.legal_count(s)) for s in game.to_act()]
        for s, _, legal in fan.legal:
            assert legal == game.legal_moves_json(s)
    assert game.fan_out([]).move_json is None


def test_refused_play_changes_nothing() -> None:
    game = cardnet.new_game("matchstick", players=4, seed=2)
    before = game.to_json()
    decision = game.decision()
    assert decision is not None
    seat, count = decision
    with pytest.raises(cardnet.IllegalMove):
        game.play((seat + 1) % 4, 0, [0])
    with pytest.raises(cardnet.IllegalMove):
        game.play(seat, count, [0])
    with pytest.raises(cardnet.IllegalMove):
        game.play(seat, -1, [0])
    with pytest.raises(cardnet.InvalidMove):
        game.play(seat, True, [0])
    with pytest.raises(cardnet.InvalidMove):
        game.play(seat, {"type": "fly"}, [0])
    with pytest.raises(cardnet.IllegalMove):
        game.play(seat, 0, [7])
    assert game.to_json() == before
