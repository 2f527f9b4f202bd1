"""`cardnet.native.play` / `fan_out`: the host's one native call per move returns the same bytes as the per-seat calls."""

from __future__ import annotations

import random

import pytest

import cardnet
import cardnet.native
from cardnet import protocol as P


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
        fan = cardnet.native.play(game, seat, index if turn % 2 else listed, observers)
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
    assert cardnet.native.fan_out(game, []).move_json is None


def test_refused_play_changes_nothing() -> None:
    game = cardnet.new_game("matchstick", players=4, seed=2)
    before = game.to_json()
    decision = game.decision()
    assert decision is not None
    seat, count = decision
    with pytest.raises(cardnet.IllegalMove):
        cardnet.native.play(game, (seat + 1) % 4, 0, [0])
    with pytest.raises(cardnet.IllegalMove):
        cardnet.native.play(game, seat, count, [0])
    with pytest.raises(cardnet.IllegalMove):
        cardnet.native.play(game, seat, -1, [0])
    with pytest.raises(cardnet.InvalidMove):
        cardnet.native.play(game, seat, True, [0])
    with pytest.raises(cardnet.InvalidMove):
        cardnet.native.play(game, seat, {"type": "fly"}, [0])
    with pytest.raises(cardnet.IllegalMove):
        cardnet.native.play(game, seat, 0, [7])
    assert game.to_json() == before


@pytest.mark.parametrize(("name", "players"), [("matchstick", 4), ("fistful", 2), ("cherki", 3), ("ten", 2)])
def test_native_state_lines_are_the_spliced_lines(name: str, players: int) -> None:
    """``cardnet.native.FanOut.lines`` (every seat's line of a move in one call) writes exactly ``StateMessage.splice``'s bytes."""
    game = cardnet.new_game(name, players=players, seed=5)
    observers: list[int | None] = [*range(players), None]
    rnd = random.Random(8)
    for turn in range(40):
        decision = game.decision()
        if decision is None:
            break
        seat, count = decision
        fan = cardnet.native.play(game, seat, rnd.randrange(count), observers)
        to_act = game.to_act()
        legal = {s: (n, text) for s, n, text in fan.legal}
        wanted = [o for o in range(players + 1) if rnd.random() < 0.8]
        decisions: list[tuple[int, int, int | None, str | None] | None] = []
        for at in wanted:
            if at in legal:
                n, text = legal[at]
                decisions.append((16 * turn + at, n, rnd.choice([None, 0, 1500]), rnd.choice([text, None])))
            else:
                decisions.append(None)
        ack = {"decision_id": 16 * turn + seat, "ref": rnd.choice([None, 7, "r-1"])}
        mover = (wanted.index(seat), P.ack_json(ack)) if seat in wanted else None
        for kind in ("update", "snapshot"):
            lines = fan.lines(kind, turn // 7, turn + 1, to_act, wanted, decisions, mover, P.MAX_HOST_LINE)
            shared = P.StateMessage.shared_part(
                kind,
                game_no=turn // 7,
                state_id=turn + 1,
                state_hash=fan.state_hash,
                to_act=to_act,
                over=fan.over,
                outcome=fan.outcome_json,
            )
            for i, (at, line) in enumerate(zip(wanted, lines)):
                parts = decisions[i]
                decision_msg = (
                    None
                    if parts is None
                    else P.Decision(parts[0], None if parts[3] is None else P.Raw(parts[3]), parts[1], parts[2])
                )
                expected = P.StateMessage.splice(
                    kind,
                    shared,
                    view=fan.seats[at][1],
                    decision=decision_msg,
                    events=fan.seats[at][2],
                    ack=ack if mover is not None and mover[0] == i else None,
                )
                assert line == expected, (name, turn, kind, at)


def test_native_state_lines_refuse_what_splice_refuses() -> None:
    game = cardnet.new_game("matchstick", players=4, seed=1)
    fan = cardnet.native.fan_out(game, [0, 1, 2, 3, None])
    # Over the limit: that seat's line is None (it gets a snapshot instead, as when splice raises).
    assert fan.lines("update", 0, 1, [0], [0, 4], [None, None], None, 10) == [None, None]
    with pytest.raises(ValueError):
        fan.lines("chat", 0, 1, [0], [0], [None], None, P.MAX_HOST_LINE)
    with pytest.raises(ValueError):
        fan.lines("update", 0, 1, [0], [0, 9], [None, None], None, P.MAX_HOST_LINE)
    with pytest.raises(ValueError):
        fan.lines("update", 0, 1, [0], [0], [], None, P.MAX_HOST_LINE)
