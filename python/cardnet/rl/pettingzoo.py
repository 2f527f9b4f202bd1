"""PettingZoo environments for the four games: AEC (``env("cherki", players=3)``) and parallel
(``parallel_env("fistful")``, where both Fistful seats pick in the same step).

Agents are ``seat_0``, ``seat_1``, ... Observations are dicts ``{"observation": float32 tensor,
"action_mask": int8 mask}``; the mask is all zeros for an agent that does not act now. The arrays are new
each time, or with ``reuse_arrays=True`` one pair per seat rewritten in place by the next observation of
that seat (no allocation per step; copy an observation to keep it). Rewards are zero
until the game ends, then each seat's return in ``[0, 1]`` (``docs/RL.md``). In the AEC env the agent to
act is the lowest seat the game waits for, so Fistful's simultaneous picks are taken one seat after the
other (a pick stays out of the other seat's observation until both are in).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from .._core import RlState
from . import new_state

__all__ = ["CardnetAECEnv", "CardnetParallelEnv", "env", "parallel_env"]

Observation = dict[str, Any]


class _Table:
    """What both kinds of env share: the setup, the current game, the spaces and the seed stream."""

    def __init__(
        self, game: str, players: int | None, options: Mapping[str, Any] | None, seed: int, reuse_arrays: bool
    ) -> None:
        self.game = game
        self.players = players
        self.options = dict(options) if options is not None else None
        self.seed = seed
        self.episode = 0
        self.state: RlState = self.deal(None)
        self.agents = [f"seat_{s}" for s in range(self.state.players)]
        obs = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.state.observation_len(),), np.float32),
                "action_mask": spaces.Box(0, 1, (self.state.action_space_size(),), np.int8),
            }
        )
        self.observation_spaces: dict[str, spaces.Space[Any]] = dict.fromkeys(self.agents, obs)
        self.action_spaces: dict[str, spaces.Space[Any]] = dict.fromkeys(
            self.agents, spaces.Discrete(self.state.action_space_size())
        )
        self.seat_of = {agent: seat for seat, agent in enumerate(self.agents)}
        # With reuse_arrays, each seat's observation arrays are made once and rewritten in place.
        self.arrays: list[tuple[Any, Any]] | None = None
        if reuse_arrays:
            size, actions = self.state.observation_len(), self.state.action_space_size()
            self.arrays = [(np.zeros(size, np.float32), np.zeros(actions, np.int8)) for _ in self.agents]

    def deal(self, seed: int | None) -> RlState:
        """The next game of the stream (game ``k`` is dealt from ``seed + k``); a given seed restarts it."""
        if seed is not None:
            self.seed, self.episode = seed, 0
        self.state = new_state(
            self.game, self.players, (self.seed + self.episode) % (1 << 64), self.options, log_events=False
        )
        self.episode += 1
        return self.state

    def observation(self, seat: int, masked: bool) -> Observation:
        """``seat``'s tensor, with its legal actions as the mask when ``masked`` (zeros otherwise, and
        always once the game is over): one native call builds both arrays, fresh each time (a kept
        observation is never overwritten)."""
        if self.arrays is None:
            tensor, mask = self.state.observe(seat, masked)
        else:
            tensor, mask = self.arrays[seat]
            self.state.observe_into(seat, masked, tensor, mask)
        return {"observation": tensor, "action_mask": mask}

    def render(self, mode: str | None) -> str | None:
        """The spectator's view as text in render mode ``"ansi"``."""
        return repr(self.state.view(None)) if mode == "ansi" else None


class _TableFaces:
    """The methods both envs answer from their table."""

    _table: _Table
    render_mode: str | None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The dict space of ``agent``'s observations."""
        return self._table.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(action_space_size)``: every action id of this setup."""
        return self._table.action_spaces[agent]

    def render(self) -> str | None:
        """The spectator's view as text (render mode ``"ansi"``)."""
        return self._table.render(self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    @property
    def state_object(self) -> RlState:
        """The underlying RL state (read it, do not step it behind the env's back)."""
        return self._table.state


class CardnetAECEnv(_TableFaces, AECEnv):  # type: ignore[misc]
    """One game of cardnet as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        render_mode: str | None = None,
        reuse_arrays: bool = False,
    ) -> None:
        super().__init__()
        self._table = _Table(game, players, options, seed, reuse_arrays)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"cardnet_{game}_v1"}
        self.possible_agents = self._table.agents[:]
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._selected()

    def _selected(self) -> str:
        seat = self._table.state.first_to_act()
        return self.possible_agents[max(seat, 0)]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation tensor and its action mask (zeros unless it is selected)."""
        return self._table.observation(self._table.seat_of[agent], agent == self.agent_selection)

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, termination, truncation and info
        (``AECEnv.last`` without the extra call layers: it runs once per step)."""
        agent = self.agent_selection
        seat = self._table.seat_of[agent]
        observation = self._table.observation(seat, True) if observe else None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new game: from ``seed`` when given, else the next game of this env's seed stream."""
        self._table.deal(seed)
        self._reset_bookkeeping()

    def step(self, action: int | None) -> None:
        """Applies the selected agent's action id (``None`` once it is terminated).

        Rewards are zero until the game ends, so a move that does not end it leaves ``rewards`` and the
        cumulative rewards as they are (all zeros) and only moves ``agent_selection``: one native call."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: pass an action id, not None")
        state = self._table.state
        following = state.step(self._table.seat_of[agent], int(action))
        if following >= 0:
            self.agent_selection = self.possible_agents[following]
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: float(value) for a, value in zip(self.possible_agents, state.returns())}
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._selected()


class CardnetParallelEnv(_TableFaces, ParallelEnv):  # type: ignore[misc]
    """One game as a PettingZoo parallel environment: every seat in ``to_act`` moves in the same step
    (both Fistful seats at a pick or a discard; one seat in the sequential games). Actions of seats that
    are not to act are ignored; their masks are all zeros."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        render_mode: str | None = None,
        reuse_arrays: bool = False,
    ) -> None:
        self._table = _Table(game, players, options, seed, reuse_arrays)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"cardnet_{game}_parallel_v1"}
        self.possible_agents = self._table.agents[:]
        self.agents = self.possible_agents[:]

    def _observations(self) -> dict[str, Observation]:
        to_act = self._table.state.to_act()
        return {a: self._table.observation(s, s in to_act) for s, a in enumerate(self.possible_agents)}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deals a new game (from ``seed`` when given, else the next of this env's stream)."""
        self._table.deal(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Applies the action of every seat to act, lowest seat first."""
        state = self._table.state
        for seat in state.to_act():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} must act this step")
            state.apply_action_id(seat, int(actions[agent]))
        over = state.is_over()
        returns = state.returns()
        rewards = {a: float(returns[s]) for s, a in enumerate(self.possible_agents) if a in self.agents}
        observations = {a: o for a, o in self._observations().items() if a in self.agents}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def env(
    game: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    render_mode: str | None = None,
    reuse_arrays: bool = False,
) -> CardnetAECEnv:
    """A PettingZoo AEC environment of ``game``; ``reuse_arrays`` rewrites each seat's observation arrays in
    place instead of making new ones (faster; copy an observation to keep it past that seat's next one)."""
    return CardnetAECEnv(game, players, options, seed, render_mode, reuse_arrays)


def parallel_env(
    game: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    render_mode: str | None = None,
    reuse_arrays: bool = False,
) -> CardnetParallelEnv:
    """A PettingZoo parallel environment of ``game`` (``reuse_arrays`` as for :func:`env`)."""
    return CardnetParallelEnv(game, players, options, seed, render_mode, reuse_arrays)
