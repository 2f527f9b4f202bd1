"""PettingZoo AEC environments for the four games (``cardnet.rl.pettingzoo.env("cherki", players=3)``).

Agents are ``seat_0``, ``seat_1``, ...; the agent to act is the lowest seat the game waits for, so Fistful's
simultaneous picks are taken one seat after the other (a pick stays out of the other seat's observation
until both are in). Observations are dicts ``{"observation": float32 tensor, "action_mask": int8 mask}``
(the mask is all zeros for an agent that is not selected). Rewards are zero until the game ends, then
each seat's return in ``[0, 1]`` (``docs/RL.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .._core import RlState
from . import FloatArray, new_state

__all__ = ["CardnetAECEnv", "env"]


class CardnetAECEnv(AECEnv):  # type: ignore[misc]
    """One game of cardnet as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._game = game
        self._players = players
        self._options = dict(options) if options is not None else None
        self._seed = seed
        self._episode = 0
        self.render_mode = render_mode
        self._state: RlState = new_state(game, players, seed, self._options, log_events=False)
        count = self._state.players
        self.metadata = {**self.metadata, "name": f"cardnet_{game}_v1"}
        self.possible_agents = [f"seat_{s}" for s in range(count)]
        self.agents = self.possible_agents[:]
        obs = self._state.observation_len()
        actions = self._state.action_space_size()
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (obs,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._mask = np.zeros(actions, np.uint8)
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
        to_act = self._state.to_act()
        return self.possible_agents[to_act[0] if to_act else 0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The dict space of ``agent``'s observations."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(action_space_size)``: every action id of this setup."""
        return self._action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation tensor and its action mask (zeros unless it is selected)."""
        seat = self.possible_agents.index(agent)
        tensor: FloatArray = np.empty(self._state.observation_len(), np.float32)
        self._state.observation_into(seat, tensor)
        mask = np.zeros(self._state.action_space_size(), np.int8)
        if agent == self.agent_selection and not self._state.is_over():
            self._state.legal_action_mask_into(seat, self._mask)
            mask[:] = self._mask
        return {"observation": tensor, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new game: from ``seed`` when given, else the next game of this env's seed stream."""
        if seed is not None:
            self._seed, self._episode = seed, 0
        game_seed = self._seed if self._episode == 0 else (self._seed + self._episode) % (1 << 64)
        self._episode += 1
        self._state = new_state(self._game, self._players, game_seed, self._options, log_events=False)
        self._reset_bookkeeping()

    def step(self, action: int | None) -> None:
        """Applies the selected agent's action id (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: pass an action id, not None")
        self._cumulative_rewards[agent] = 0.0
        self._state.apply_action_id(self.possible_agents.index(agent), int(action))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._state.is_over():
            for a, value in zip(self.possible_agents, self._state.returns()):
                self.rewards[a] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._selected()

    def render(self) -> str | None:
        """The spectator's view as text (render mode ``"ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return repr(self._state.view(None))

    def close(self) -> None:
        """Nothing to release."""

    @property
    def state_object(self) -> RlState:
        """The underlying RL state (read it, do not step it behind the env's back)."""
        return self._state


def env(
    game: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    render_mode: str | None = None,
) -> CardnetAECEnv:
    """A PettingZoo AEC environment of ``game``."""
    return CardnetAECEnv(game, players, options, seed, render_mode)
