"""The RL face from Python: action ids, masks and tensors through numpy, information states under
determinization, saves, the vectorized env, and ``import cardnet`` without numpy."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from cardnet import IllegalMove, new_game
from cardnet.errors import BadOptions, CorruptState
from cardnet.rl import (
    LAYOUT_VERSION,
    VectorEnv,
    infostate_tensor,
    legal_mask,
    load_state,
    new_state,
    observation_tensor,
)

GAMES = ["matchstick", "fistful", "cherki", "ten"]


def _play(game: str, seed: int, steps: int) -> None:
    state = new_state(game, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        to_act = state.to_act()
        if not to_act:
            break
        seat = to_act[0]
        ids = state.legal_action_ids(seat)
        mask = legal_mask(state, seat)
        assert mask.dtype == np.bool_ and mask.shape == (state.action_space_size(),)
        assert list(np.flatnonzero(mask)) == ids
        for other in range(state.players):
            obs = observation_tensor(state, other)
            assert obs.dtype == np.float32 and obs.shape == (state.observation_len(),)
            twin = state.determinize(other, int(rng.integers(1 << 62)))
            assert np.array_equal(observation_tensor(twin, other), obs)
            assert np.array_equal(infostate_tensor(twin, other), infostate_tensor(state, other))
            assert twin.information_state_string(other) == state.information_state_string(other)
            tensor, own_mask = state.observe(other, other == seat)
            twin_tensor, twin_mask = twin.observe(other, other == seat)
            assert np.array_equal(tensor, obs) and np.array_equal(twin_tensor, obs)
            assert own_mask.dtype == np.int8 and np.array_equal(twin_mask, own_mask)
            assert np.array_equal(own_mask.astype(np.bool_), mask if other == seat else np.zeros_like(mask))
        action = int(rng.choice(ids))
        move = state.action_id_to_move(seat, action)
        assert move is not None and state.move_to_action_id(seat, move) == action
        state.apply_action_id(seat, action)
    assert state.move_count() == len(state.action_history())
    save = state.to_json()
    assert json.loads(save)["format"] == LAYOUT_VERSION
    again = load_state(save)
    assert again.state_json() == state.state_json()
    # Layout 2 changed only TEN's tensors: a layout-1 save holds the same action ids and still replays.
    older = load_state(json.dumps({**json.loads(save), "format": 1}))
    assert older.state_json() == state.state_json()


@pytest.mark.parametrize("game", GAMES)
def test_ids_masks_and_tensors_agree_and_do_not_leak(game: str) -> None:
    _play(game, seed=11, steps=40)


def test_errors_are_typed_and_change_nothing() -> None:
    state = new_state("fistful", seed=3)
    before = state.state_json()
    with pytest.raises(IllegalMove):
        state.apply_action_id(0, 10_000)
    with pytest.raises(IllegalMove):
        state.apply_action_id(7, 0)
    with pytest.raises(BadOptions):
        state.observation_into(0, np.zeros(3, np.float32))
    with pytest.raises(BadOptions):
        state.observation_into(0, np.zeros(state.observation_len(), np.float64))
    assert state.state_json() == before
    with pytest.raises(CorruptState):
        load_state('{"format": 1, "game": "fistful"}')


def test_arrays_written_in_place_are_checked_first() -> None:
    """The core writes into caller's arrays only when they are writeable, contiguous, of the right type and
    length; a refused array is left as it was."""
    state = new_state("fistful", seed=3)
    seat = state.first_to_act()
    length, actions = state.observation_len(), state.action_space_size()
    frozen = np.full(length, 7.0, np.float32)
    frozen.flags.writeable = False
    strided = np.full(2 * length, 7.0, np.float32)[::2]
    for bad in (frozen, strided):
        with pytest.raises(BadOptions):
            state.observation_into(seat, bad)
        assert (bad == 7.0).all()
    obs, mask = np.full(length, 7.0, np.float32), np.full(actions, 3, np.int8)
    with pytest.raises(BadOptions):
        state.observe_into(seat, True, obs, np.zeros(actions, np.float32))
    with pytest.raises(BadOptions):
        state.observe_into(seat, True, frozen, mask)
    with pytest.raises(BadOptions):
        state.legal_action_mask_into(seat, np.zeros(actions + 1, np.int8))
    assert (obs == 7.0).all() and (mask == 3).all()
    for dtype in (np.int8, np.uint8, np.bool_):
        obs, into = np.zeros(length, np.float32), np.zeros(actions, dtype)
        state.observe_into(seat, True, obs, into)
        fresh_obs, fresh_mask = state.observe(seat, True)
        assert (obs == fresh_obs).all() and (into.astype(np.int8) == fresh_mask).all()


def test_metadata() -> None:
    state = new_state("cherki", players=3)
    assert state.reward_bounds() == (0.0, 1.0)
    table = state.card_table()
    assert len(table) == 120 and table[5]["face"] == 1
    assert state.max_game_length() > 0
    names = [name for name, _, _ in state.observation_layout()]
    assert "hand" in names
    game = new_game("cherki", seed=1)
    seat, _ = game.decision() or (0, 0)
    game.apply_index(seat, 0)
    assert game.move_count() == 1


def test_vector_env_steps_and_restarts() -> None:
    env = VectorEnv("matchstick", 8, players=3, seed=5)
    rng = np.random.default_rng(0)
    step = env.observe()
    assert step.observations.shape == (8, env.observation_len)
    finished = 0
    for _ in range(600):
        step = env.step(env.random_actions(rng))
        assert step.masks is not None and step.masks.any(axis=1).all()
        finished += int(step.dones.sum())
        ended = step.rewards[step.dones]
        assert ((ended >= 0) & (ended <= 1)).all()
    assert finished == env.episodes_finished > 0
    before = step.observations.copy()
    with pytest.raises(IllegalMove):
        env.step(np.full(8, -1))
    assert np.array_equal(env.observe().observations, before)


@pytest.mark.parametrize("game", GAMES)
def test_vector_env_sparse_ids_match_the_masks(game: str) -> None:
    both = VectorEnv(game, 5, seed=3, legal="both")
    ids_only = VectorEnv(game, 5, seed=3, legal="ids", observations=False)
    rng = np.random.default_rng(2)
    a, b = both.observe(), ids_only.observe()
    for _ in range(120):
        assert a.masks is not None and a.legal_offsets is not None and a.legal_ids is not None
        assert b.masks is None and b.legal_offsets is not None and b.legal_ids is not None
        assert b.observations.shape == (5, 0)
        assert np.array_equal(a.legal_offsets, b.legal_offsets) and np.array_equal(a.legal_ids, b.legal_ids)
        for i in range(5):
            row = a.legal_ids[a.legal_offsets[i] : a.legal_offsets[i + 1]]
            assert list(row) == list(np.flatnonzero(a.masks[i]))
        actions = both.random_actions(rng)
        a, b = both.step(actions), ids_only.step(actions)
        assert np.array_equal(a.rewards, b.rewards) and np.array_equal(a.dones, b.dones)
        assert np.array_equal(a.seats, b.seats)


def test_vector_env_rejects_an_unknown_legal_form() -> None:
    with pytest.raises(ValueError):
        VectorEnv("cherki", 2, legal="dense")


def test_import_cardnet_needs_no_numpy() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import cardnet\n"
        "state = cardnet._core.rl_new('ten', seed=1)\n"
        "assert state.legal_action_ids(state.to_act()[0])\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


def test_selfplay_example_trains_a_few_steps() -> None:
    from pathlib import Path

    example = Path(__file__).resolve().parents[1] / "examples" / "rl_selfplay.py"
    args = [sys.executable, str(example), "--steps", "150", "--envs", "8", "--eval-games", "20"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, check=True)
    assert "games, mean return vs random" in done.stdout
    assert "trained policy vs random over 20 games: mean return" in done.stdout
