"""The OpenSpiel adapter for search algorithms: ``resample_from_infostate`` on every game, OpenSpiel's own
ISMCTS playing whole games through it, the sequential form of Fistful, and built-in players choosing on an
RL state (sized for CI: a few simulations and short games)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel  # the rltest extra: CI installs it, so these tests always run
import pytest

import cardnet
from cardnet import ai
from cardnet.rl import new_state
from cardnet.rl.openspiel import SEQUENTIAL_NAMES, load


GAMES = ["matchstick", "fistful", "cherki", "ten"]
PLAYERS = {"matchstick": 3, "fistful": 2, "cherki": 3, "ten": 2}
#: Every form: (game, sequential).
FORMS = [(game, False) for game in GAMES] + [(game, True) for game in SEQUENTIAL_NAMES]


def _sampler(rng: random.Random) -> Any:
    return rng.random


def _random_step(state: Any, rng: random.Random) -> None:
    if state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(state.num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _random_states(game: str, sequential: bool, count: int, seed: int) -> list[Any]:
    """Decision nodes picked at random along random games from several deals."""
    spiel_game = load(game, sequential=sequential, players=PLAYERS[game], deals=32)
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = spiel_game.new_initial_state()
        seen = []
        while not state.is_terminal():
            if not state.is_chance_node():
                seen.append(state.clone())
            _random_step(state, rng)
        states.append(rng.choice(seen))
    return states


def _assert_same_information(state: Any, twin: Any, player: int) -> None:
    assert twin.information_state_string(player) == state.information_state_string(player)
    assert twin.information_state_tensor(player) == state.information_state_tensor(player)
    assert twin.observation_tensor(player) == state.observation_tensor(player)
    assert twin.current_player() == state.current_player()
    assert twin.legal_actions(player) == state.legal_actions(player)


@pytest.mark.parametrize(("game", "sequential"), FORMS)
def test_resampled_states_keep_what_the_player_knows(game: str, sequential: bool) -> None:
    rng = random.Random(5)
    differs = 0
    for state in _random_states(game, sequential, count=6, seed=11):
        for player in range(state.num_players()):
            for _ in range(3):
                twin = state.resample_from_infostate(player, _sampler(rng))
                _assert_same_information(state, twin, player)
                differs += str(twin) != str(state)
                # The resampled world plays on to the end like any state.
                while not twin.is_terminal():
                    _random_step(twin, rng)
                assert len(twin.returns()) == state.num_players()
    # Something hidden was really re-dealt (TEN hides only the draw pile's order and its randomness).
    assert differs > 0


def test_resampling_keeps_the_own_pick_at_a_simultaneous_node() -> None:
    """Seat 0's own past picks at simultaneous nodes stay; the other seat's unrevealed pick is re-dealt."""
    spiel_game = load("fistful", players=2, deals=8)
    rng = random.Random(2)
    state = spiel_game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    for _ in range(4):
        assert state.is_simultaneous_node()
        _random_step(state, rng)
    for player in (0, 1):
        twin = state.resample_from_infostate(player, _sampler(rng))
        _assert_same_information(state, twin, player)
        assert twin.core.action_history() == [(s, a) for s, a in state.core.action_history() if s == player]


@pytest.mark.parametrize("game", GAMES)
def test_resampled_states_clone_serialize_and_pickle(game: str) -> None:
    spiel_game = load(game, players=PLAYERS[game], deals=8)
    rng = random.Random(3)
    state = _random_states(game, False, count=1, seed=4)[0]
    twin = state.resample_from_infostate(0, _sampler(rng))
    if not twin.is_simultaneous_node():
        twin.apply_action(rng.choice(twin.legal_actions()))  # a move made after the resample is kept too
    copies = [
        twin.clone(),
        pickle.loads(pickle.dumps(twin)),
        spiel_game.deserialize_state(twin.serialize()),
        twin.resample_from_infostate(0, _sampler(rng)).clone(),
    ]
    for copy in copies[:3]:
        assert str(copy) == str(twin)
        for player in range(state.num_players()):
            assert copy.information_state_string(player) == twin.information_state_string(player)
        assert copy.core.to_json() == twin.core.to_json()
    assert copies[3].information_state_string(0) == twin.information_state_string(0)


def test_a_resample_before_the_deal_is_the_root() -> None:
    state = load("cherki", players=3, deals=4).new_initial_state()
    twin = state.resample_from_infostate(1, random.Random(0).random)
    assert twin.is_chance_node() and str(twin) == str(state)
    with pytest.raises(ValueError, match="seat"):
        state.resample_from_infostate(3, random.Random(0).random)


def test_the_sequential_fistful_hides_the_first_pick() -> None:
    """In the sequential form seat 0 picks first; seat 1 then sees that it picked, never what."""
    simultaneous = load("fistful", players=2, deals=4).new_initial_state()
    sequential = load("fistful", sequential=True, players=2, deals=4).new_initial_state()
    assert sequential.get_game().get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert simultaneous.get_game().get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    for state in (simultaneous, sequential):
        while state.is_chance_node():
            state.apply_action(1)
    assert simultaneous.is_simultaneous_node() and sequential.current_player() == 0
    picks = sequential.legal_actions(0)
    seen_by_1 = set()
    for pick in picks[:2]:
        after = sequential.clone()
        after.apply_action(pick)
        assert after.current_player() == 1
        seen_by_1.add(after.information_state_string(1))
        assert after.legal_actions(1) == simultaneous.legal_actions(1)
    assert len(seen_by_1) == 1
    # The same picks give the same game in both forms.
    rng = random.Random(8)
    while not simultaneous.is_terminal():
        if simultaneous.is_simultaneous_node():
            actions = [rng.choice(simultaneous.legal_actions(p)) for p in (0, 1)]
            simultaneous.apply_actions(actions)
            for seat in (0, 1):
                assert sequential.current_player() == seat
                sequential.apply_action(actions[seat])
        else:
            action = rng.choice(simultaneous.legal_actions())
            simultaneous.apply_action(action)
            sequential.apply_action(action)
        assert str(sequential) == str(simultaneous)
    assert sequential.is_terminal() and sequential.returns() == simultaneous.returns()


@pytest.mark.parametrize(("game", "players"), [("matchstick", 3), ("fistful", 2), ("cherki", 3), ("ten", 2)])
def test_openspiel_ismcts_plays_whole_games(game: str, players: int) -> None:
    """OpenSpiel's own ISMCTSBot (which checks every resample against the root's information state) plays
    a whole game on every game against the built-in ``easy`` player."""
    from open_spiel.python.algorithms import ismcts, mcts

    spiel_game = load(game, sequential=game in SEQUENTIAL_NAMES, players=players, deals=16, seed=1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(spiel_game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(1))
    state = spiel_game.new_initial_state()
    rng = random.Random(0)
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
            searched += 1
        else:
            state.apply_action(state.choose_action(level="easy", seed=rng.randrange(2**32)))
    assert searched > 0
    assert len(state.returns()) == players


@pytest.mark.parametrize("game", GAMES)
def test_built_in_players_choose_on_an_rl_state_as_on_a_game(game: str) -> None:
    rl = new_state(game, PLAYERS[game], seed=21, log_events=False)
    table = cardnet.new_game(game, players=PLAYERS[game], seed=21)
    rng = random.Random(6)
    for _ in range(15):
        if rl.is_over():
            break
        seat = rl.to_act()[0]
        for level in ("easy", "normal"):
            seed = rng.randrange(2**32)
            index = table.choose(seat, level=level, seed=seed)
            expected = rl.move_to_action_id(seat, table.legal_move(seat, index))
            assert rl.choose_action(seat, level=level, seed=seed) == expected
            assert ai.choose_action(rl, seat, level=level, seed=seed) == expected
        action = rl.choose_action(seat, player="random", seed=rng.randrange(2**32))
        table.apply(seat, rl.action_id_to_move(seat, action))
        rl.apply_action_id(seat, action)
    other = (rl.to_act()[0] + 1) % rl.players if not rl.is_over() else 0
    if not rl.is_over() and other not in rl.to_act():
        with pytest.raises(cardnet.IllegalMove):
            rl.choose_action(other, level="easy")
    with pytest.raises(cardnet.BadOptions):
        new_state(game, PLAYERS[game], seed=1).choose_action(0, level="grandmaster")
    with pytest.raises(cardnet.BadOptions):
        ai.choose_action(new_state(game, PLAYERS[game], seed=1), 0, seed=-1)


def test_the_information_state_string_of_a_stepped_state_follows_without_replays() -> None:
    """After the first information-state string, the logged copy is stepped with the game (a replay of the
    whole history on every call would leave the copy a different object behind)."""
    state = _random_states("cherki", False, count=1, seed=9)[0]
    state.information_state_string(0)
    logged = state.logged()
    rng = random.Random(1)
    for _ in range(5):
        if state.is_terminal():
            break
        _random_step(state, rng)
        assert state.logged() is logged and logged.move_count() == state.core.move_count()
