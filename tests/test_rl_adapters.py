"""The adapters pass the frameworks' own test suites: PettingZoo's ``api_test`` for every game, and
OpenSpiel's ``random_sim_test`` (with serialization) plus its observation API on every game."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from cardnet.rl import new_state
from cardnet.rl import pettingzoo as pz
from cardnet import derive
from cardnet.rl.openspiel import deal_radices, load

GAMES = ["matchstick", "fistful", "cherki", "ten"]
PLAYERS = {"matchstick": 3, "fistful": 2, "cherki": 3, "ten": 2}


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api(game: str) -> None:
    env = pz.env(game, PLAYERS[game], seed=7)
    api_test(env, num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_with_reused_arrays(game: str) -> None:
    env = pz.env(game, PLAYERS[game], seed=7, reuse_arrays=True)
    api_test(env, num_cycles=100, verbose_progress=False)
    fresh = pz.env(game, PLAYERS[game], seed=3)
    reused = pz.env(game, PLAYERS[game], seed=3, reuse_arrays=True)
    for _ in range(30):
        a, b = fresh.last()[0], reused.last()[0]
        assert a is not None and b is not None
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"]) and b["action_mask"].dtype == np.int8
        if fresh.terminations[fresh.agent_selection]:
            break
        action = int(np.flatnonzero(a["action_mask"])[0])
        fresh.step(action)
        reused.step(action)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_parallel_api(game: str) -> None:
    parallel_api_test(pz.parallel_env(game, PLAYERS[game], seed=5), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_random_game_ends(game: str) -> None:
    env = pz.env(game, PLAYERS[game], seed=9)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    steps = 0
    for _agent in env.agent_iter(max_iter=100_000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert obs is not None
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    assert env.state_object.is_over()
    assert steps == env.state_object.move_count() <= env.state_object.max_game_length()


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_sim(game: str) -> None:
    import pyspiel

    spiel_game = load(game, deals=16, players=PLAYERS[game])
    pyspiel.random_sim_test(spiel_game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_observations(game: str) -> None:
    import pyspiel

    spiel_game = load(game, deals=4, players=PLAYERS[game])
    state = spiel_game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(1)
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        player = state.current_player()
        seats = range(spiel_game.num_players()) if player == pyspiel.PlayerId.SIMULTANEOUS else [player]
        for seat in seats:
            tensor = np.asarray(state.observation_tensor(seat))
            assert tensor.shape == tuple(spiel_game.observation_tensor_shape())
            assert len(state.information_state_tensor(seat)) == spiel_game.information_state_tensor_size()
            assert state.information_state_string(seat).startswith("{")
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions(
                [int(rng.choice(state.legal_actions(p))) if state.legal_actions(p) else 0 for p in seats]
            )
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert all(0.0 <= r <= 1.0 for r in state.returns())


def test_deal_radices_multiply_to_the_deals() -> None:
    assert deal_radices(1024) == [32, 32]
    assert deal_radices(16) == [16]
    assert deal_radices(1) == [1]
    assert deal_radices(37 * 3) == [3, 37]
    for deals in range(1, 300):
        radices = deal_radices(deals)
        assert int(np.prod(radices)) == deals
        assert all(r <= 32 or all(r % p for p in range(2, r)) for r in radices), radices


def test_openspiel_deal_digits_pick_the_seed() -> None:
    spiel_game = load("cherki", deals=1024, players=3, seed=5)
    assert spiel_game.max_chance_outcomes() == 32
    state = spiel_game.new_initial_state()
    for digit in (7, 3):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 32
        state.apply_action(digit)
    assert not state.is_chance_node()
    assert state.core is not None and state.core.seed == derive(5, 7 + 3 * 32)


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_python_answers_match_the_cpp_layer(game: str) -> None:
    """The answers the state gives from Python equal what OpenSpiel's C++ layer works out from the
    overridden hooks, and the information-state string replayed on demand equals a game logged all along."""
    import pyspiel

    spiel_game = load(game, deals=8, players=PLAYERS[game])
    state = spiel_game.new_initial_state()
    rng = np.random.default_rng(3)
    players = range(spiel_game.num_players())
    logged = None
    for step in range(spiel_game.max_game_length() + 3):
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.is_simultaneous_node() == pyspiel.State.is_simultaneous_node(state)
        assert state.is_player_node() == pyspiel.State.is_player_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for p in players:
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
        # A clone made with the legal ids cached starts with no cache and answers alike.
        twin = state.clone()
        assert [twin.legal_actions(p) for p in players] == [state.legal_actions(p) for p in players]
        if state.is_terminal():
            break
        if state.is_chance_node():
            assert state.chance_outcomes() == pyspiel.State.chance_outcomes(state)
            state.apply_action(int(rng.choice(state.legal_actions())))
            continue
        if logged is None:
            assert state.core is not None
            logged = new_state(game, PLAYERS[game], state.core.seed)
        # Asked at some steps only, so the logged copy also catches up over several moves at once.
        if step % 3 == 0:
            for p in players:
                assert state.information_state_string(p) == logged.information_state_string(p)
        if state.is_simultaneous_node():
            picks = [int(rng.choice(state.legal_actions(p))) for p in players]
            state.apply_actions(picks)
            for p in players:
                logged.apply_action_id(p, picks[p])
        else:
            seat = state.current_player()
            pick = int(rng.choice(state.legal_actions()))
            state.apply_action(pick)
            logged.apply_action_id(seat, pick)
    assert state.is_terminal() and logged is not None
    for p in players:
        assert state.information_state_string(p) == logged.information_state_string(p)
