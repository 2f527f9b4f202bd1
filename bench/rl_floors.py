"""The frameworks' floors for ``bench/rl_env.py``: a PettingZoo AEC env and a pyspiel Python game that do no
game work at all, so that stepping them measures what PettingZoo's and OpenSpiel's own call shapes cost.

Both are two-player games of ``LENGTH`` moves taking turns, with a constant observation, then zero returns.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

#: Moves of one floor game (our games last 40 to 200 decisions; dealing a new one is cheap here anyway).
LENGTH = 64


class FloorAEC(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC env with no game: agents ``a`` and ``b`` take turns, one action, a constant
    one-float observation and one-entry mask (the same dict every time: nothing is built per step), and
    ``last()`` written out as the cardnet adapter writes it."""

    metadata: dict[str, Any] = {"render_modes": [], "name": "floor_v0", "is_parallelizable": False}

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = ["a", "b"]
        self._next = {"a": "b", "b": "a"}
        self._observation = {"observation": np.zeros(1, np.float32), "action_mask": np.ones(1, np.int8)}
        space = spaces.Dict(
            {"observation": spaces.Box(-1.0, 1.0, (1,), np.float32), "action_mask": spaces.Box(0, 1, (1,), np.int8)}
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(1))
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observation

    def last(self, observe: bool = True) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        return (
            self._observation if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = "a"
        self._left = LENGTH

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._left -= 1
        if self._left:
            self.agent_selection = self._next[agent]
            return
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()


def load_floor_game() -> Any:
    """The pyspiel floor game ``python_bench_floor``, registered on first use like cardnet's games."""
    import pyspiel

    name = "python_bench_floor"
    if name in pyspiel.registered_names():
        return pyspiel.load_game(name)
    terminal = int(pyspiel.PlayerId.TERMINAL)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name="bench floor",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )

    class FloorState(pyspiel.State):  # type: ignore[misc]
        """Two players take turns for ``LENGTH`` moves; actions 0 and 1 do nothing. Like the cardnet
        states, it answers ``is_chance_node`` and ``legal_actions`` in Python (no round trip through C++)."""

        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self._moves = 0
            self._player = 0

        def current_player(self) -> int:
            return self._player

        def is_chance_node(self) -> bool:
            return False

        def legal_actions(self, player: int | None = None) -> list[int]:
            return [0, 1] if player in (None, self._player) else []

        def _legal_actions(self, player: int) -> list[int]:
            return [0, 1]

        def _apply_action(self, action: int) -> None:
            self._moves += 1
            self._player = terminal if self._moves == LENGTH else 1 - self._player

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def is_terminal(self) -> bool:
            return self._player == terminal

        def returns(self) -> list[float]:
            return [0.0, 0.0]

        def __str__(self) -> str:
            return str(self._moves)

    class FloorGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            info = pyspiel.GameInfo(
                num_distinct_actions=2,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=LENGTH,
            )
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

    pyspiel.register_game(game_type, FloorGame)
    return pyspiel.load_game(name)
