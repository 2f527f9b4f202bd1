"""Property tests through the Python API, mirroring the core's conformance harness: random games checked
at every step (legal-move engine agrees with itself, moves survive JSON, clones and saves reproduce the
state, `public` is the same for every observer, determinize keeps each observer's view and events)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardnet
from cardnet import Game

GAMES = list(cardnet.GAMES)
#: Decisions checked per game; long games are cut there (the core's own tests play them out).
STEP_LIMIT = 150


def check_step(g: Game, rng: random.Random) -> None:
    to_act = g.to_act()
    assert (not to_act) == g.is_over() == (g.decision() is None)
    for seat in range(g.players):
        count = g.legal_count(seat)
        assert (seat in to_act) == (count > 0)
        with pytest.raises(cardnet.IllegalMove):
            g.legal_move(seat, count)
        picks = range(count) if count <= 8 else [0, count - 1, *rng.sample(range(count), 6)]
        for i in picks:
            move = g.legal_move(seat, i)
            assert g.index_of(seat, move) == i
            assert g.index_of(seat, cardnet.json_loads(cardnet.json_dumps(move))) == i
    public = g.view(None)["public"]
    for observer in [None, *range(g.players)]:
        view = g.view(observer)
        assert view["public"] == public
        det = g.determinize(observer, rng.getrandbits(64))
        assert det.view_json(observer) == g.view_json(observer)
        assert det.events_json(observer) == g.events_json(observer)
        assert det.to_act() == to_act
        if observer is not None:
            assert det.legal_count(observer) == g.legal_count(observer)
    assert g.clone().to_json() == g.to_json()


def check_save(g: Game) -> None:
    text = g.to_json()
    loaded = cardnet.load_game(text)
    assert loaded.to_json() == text
    assert loaded.state_hash() == g.state_hash()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), move_seed=st.integers(0, 2**32), data=st.data())
def test_random_games(name: str, seed: int, move_seed: int, data: st.DataObject) -> None:
    info = cardnet.GAMES[name]
    players = data.draw(st.integers(info.min_players, info.max_players), label="players")
    options = {spec.name: data.draw(_option_values(spec), label=spec.name) for spec in info.options}
    # Every option value a spec offers is valid at every player count, so BadOptions here is a failure.
    g = cardnet.new_game(name, players=players, seed=seed, options=options)
    rng = random.Random(move_seed)
    steps = 0
    while steps < STEP_LIMIT:
        check_step(g, rng)
        if steps % 25 == 0:
            check_save(g)
        d = g.decision()
        if d is None:
            break
        seat, count = d
        if rng.random() < 0.5:
            g.apply_index(seat, rng.randrange(count))
        else:
            g.apply(seat, g.legal_move(seat, rng.randrange(count)))
        steps += 1
    check_save(g)


def _option_values(spec: cardnet.OptionSpec) -> st.SearchStrategy[object]:
    if spec.kind == "bool":
        return st.booleans()
    if spec.choices is not None:
        return st.sampled_from(spec.choices)
    if spec.min is not None and spec.max is not None:
        return st.integers(spec.min, spec.max)
    return st.just(spec.default)


@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
        max_leaves=20,
    )
)
@settings(max_examples=200, deadline=None)
def test_json_round_trip(value: object) -> None:
    text = cardnet.json_dumps(value)
    assert text.isascii()
    assert cardnet.json_loads(text) == value
    assert cardnet.json_dumps(cardnet.json_loads(text)) == text
