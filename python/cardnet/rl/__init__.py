"""Reinforcement-learning faces of the games: numpy tensors and masks, a vectorized environment, and
adapters for PettingZoo (:mod:`cardnet.rl.pettingzoo`) and OpenSpiel (:mod:`cardnet.rl.openspiel`).

Everything here needs the ``[rl]`` extra (numpy); ``import cardnet`` does not. The native layer writes
straight into arrays made here (``float32`` tensors, ``uint8`` masks viewed as ``bool``), so a step creates
no Python object per legal action. Action ids and tensor layouts are documented in ``docs/RL.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import RlState, VecEnv, rl_load, rl_new

__all__ = [
    "LAYOUT_VERSION",
    "LEGAL_FORMS",
    "RlState",
    "VectorEnv",
    "VectorStep",
    "infostate_tensor",
    "legal_mask",
    "load_state",
    "new_state",
    "observation_tensor",
]

#: Version of the action-id and tensor layouts (``docs/RL.md``).
LAYOUT_VERSION = 2

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


def new_state(
    game: str,
    players: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    log_events: bool = True,
) -> RlState:
    """Starts a game as an RL state (``log_events=False`` drops the information-state string, for speed)."""
    return rl_new(game, players, seed, dict(options) if options is not None else None, log_events)


def load_state(text: str) -> RlState:
    """Replays an RL save made by ``RlState.to_json()``; raises ``CorruptState`` if it does not replay."""
    return rl_load(text)


def observation_tensor(state: RlState, seat: int, out: FloatArray | None = None) -> FloatArray:
    """``seat``'s observation tensor (float32), written into ``out`` when given."""
    array = np.empty(state.observation_len(), np.float32) if out is None else out
    state.observation_into(seat, array)
    return array


def infostate_tensor(state: RlState, seat: int, out: FloatArray | None = None) -> FloatArray:
    """``seat``'s information-state tensor: the observation, then its own past actions counted per id."""
    array = np.empty(state.infostate_len(), np.float32) if out is None else out
    state.infostate_into(seat, array)
    return array


def legal_mask(state: RlState, seat: int) -> BoolArray:
    """``seat``'s legal-action mask as a bool array of ``action_space_size``."""
    mask = np.empty(state.action_space_size(), np.bool_)
    state.legal_action_mask_into(seat, mask)
    return mask


#: How a :class:`VectorEnv` reports legal actions: a dense bool mask per game, sparse rows of legal ids,
#: or both.
LEGAL_FORMS = ("mask", "ids", "both")


@dataclass(frozen=True)
class VectorStep:
    """What one call of :meth:`VectorEnv.step` returns. ``observations``, ``masks``, ``rewards``, ``dones``
    and ``seats`` are the env's own arrays, overwritten by the next step; the sparse rows are new arrays."""

    #: ``[N, observation_len]`` float32: each game's observation for its seat to act.
    observations: FloatArray
    #: ``[N, action_space_size]`` bool: that seat's legal actions (``None`` when ``legal="ids"``).
    masks: BoolArray | None
    #: ``[N, players]`` float32: each seat's return where a game just ended, else 0.
    rewards: FloatArray
    #: ``[N]`` bool: the game ended on this step (it has already restarted).
    dones: BoolArray
    #: ``[N]`` int64: the seat each game waits for now.
    seats: IntArray
    #: ``[N + 1]`` int64 (``None`` when ``legal="mask"``): game ``i``'s legal ids are
    #: ``legal_ids[legal_offsets[i]:legal_offsets[i + 1]]``, ascending.
    legal_offsets: IntArray | None = None
    #: int32 legal action ids of every game, row after row.
    legal_ids: npt.NDArray[np.int32] | None = None


class VectorEnv:
    """``n`` games of one setup stepped in Rust by one call per step.

    Game ``k`` of the stream is dealt from ``derive(seed, k)``; a finished game restarts at once. Each
    game waits for the lowest seat to act (Fistful's simultaneous picks stay hidden from the other seat's
    observation until both are in). ``legal`` picks how legal actions come back: ``"mask"`` (dense,
    ``[N, action_space_size]``), ``"ids"`` (sparse rows, as many entries as legal actions: for Matchstick's
    17 287 ids about six per game instead of 17 KB) or ``"both"``; ``observations=False`` skips the
    tensors. What is not asked for is not computed.
    """

    def __init__(
        self,
        game: str,
        n: int,
        players: int | None = None,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        legal: str = "mask",
        observations: bool = True,
    ) -> None:
        if legal not in LEGAL_FORMS:
            raise ValueError(f"legal must be one of {LEGAL_FORMS}, not {legal!r}")
        self._env = VecEnv(game, n, players, seed, dict(options) if options is not None else None)
        n, obs, actions, seats = (
            self._env.num_envs,
            self._env.observation_len,
            self._env.action_space_size,
            self._env.players,
        )
        self._obs = np.zeros((n, obs if observations else 0), np.float32)
        self._mask = np.zeros((n, actions), np.uint8) if legal != "ids" else None
        self._ids = legal != "mask"
        self._observations = observations
        self._rewards = np.zeros((n, seats), np.float32)
        self._dones = np.zeros(n, np.uint8)
        self._seats = np.zeros(n, np.int64)
        self._actions = np.zeros(n, np.int64)
        self._sparse: tuple[IntArray, npt.NDArray[np.int32]] | None = None

    @property
    def num_envs(self) -> int:
        """Number of games."""
        return self._env.num_envs

    @property
    def players(self) -> int:
        """Seats per game."""
        return self._env.players

    @property
    def action_space_size(self) -> int:
        """Action ids per game."""
        return self._env.action_space_size

    @property
    def observation_len(self) -> int:
        """Floats per observation."""
        return self._env.observation_len

    @property
    def episodes_finished(self) -> int:
        """Games finished since the start."""
        return self._env.episodes_finished

    def _result(self) -> VectorStep:
        mask = None if self._mask is None else self._mask.view(np.bool_)
        offsets, ids = self._sparse if self._sparse is not None else (None, None)
        return VectorStep(self._obs, mask, self._rewards, self._dones.view(np.bool_), self._seats, offsets, ids)

    def observe(self) -> VectorStep:
        """The current observations and legal actions (rewards and dones of the last step are left as they
        were)."""
        obs = self._obs if self._observations else None
        self._sparse = self._env.observe(obs, self._mask, self._seats, self._ids)
        return self._result()

    def step(self, actions: npt.ArrayLike) -> VectorStep:
        """Applies one action id per game; an illegal one raises ``IllegalMove`` and nothing is applied."""
        self._actions[:] = actions
        obs = self._obs if self._observations else None
        self._sparse = self._env.step(
            self._actions, obs, self._mask, self._rewards, self._dones, self._seats, self._ids
        )
        return self._result()

    def random_actions(self, rng: np.random.Generator) -> IntArray:
        """One uniformly random legal action per game (for baselines and tests)."""
        if self._sparse is not None:
            offsets, ids = self._sparse
            counts = np.diff(offsets)
            picks = offsets[:-1] + (rng.random(counts.shape[0]) * counts).astype(np.int64)
            return np.asarray(ids[picks], np.int64)
        assert self._mask is not None
        scores = rng.random(self._mask.shape) * self._mask
        return np.asarray(scores.argmax(axis=1), np.int64)
