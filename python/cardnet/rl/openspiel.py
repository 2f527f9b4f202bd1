"""OpenSpiel games for the four cardnet games, registered as ``python_cardnet_<game>``.

Each game starts with explicit chance nodes that pick the deal: ``k`` of ``deals`` equally likely deals,
the core game then seeded ``derive(seed, k)``. ``k`` is chosen digit by digit in a mixed radix whose digits
have at most 32 values each (``deal_radices``: 1024 deals are two chance nodes of 32 outcomes, so a
sampler never walks a list of 1024); every later random event (Cherki's next deal, TEN's draws) follows
from that seed inside the state, so no other node is a chance node. Matchstick, Cherki and TEN are
sequential; A Fistful of Gold is a simultaneous-move game (both seats pick at once; a step where only one
seat decides is an ordinary player node). Its sequential form ``python_cardnet_fistful_sequential``
(``load("fistful", sequential=True)``) is the same game for algorithms that need turn-based dynamics: where
both seats pick, the lower seat picks first and its pick stays hidden from the other seat until both are in.
Actions are the core's action ids (``docs/RL.md``); observation
tensors are the seat's observation, information-state tensors add its own past actions, and the
information-state string is its view followed by every event batch it received. Returns are the core's
per-seat rewards in ``[0, 1]`` at the end (general sum).

The state answers the questions a stepping loop asks every move from Python attributes, without the
round trips through OpenSpiel's C++ layer: ``current_player``, ``is_terminal``, ``is_chance_node``,
``is_simultaneous_node``, ``is_player_node``, ``legal_actions`` (the ids are computed once per state and
player, whoever asks) and ``chance_outcomes``; ``apply_action`` goes through OpenSpiel (it keeps the
history). The core game keeps no event logs while it is stepped: the information-state string replays the
moves into a logged copy when first asked for, and that copy follows the game from then on.

``resample_from_infostate(player, sampler)`` deals a state from the core's determinization: every card
``player`` cannot know is re-dealt (other hands, face-down discards, a pick not yet revealed, the draw pile
and the state's own randomness), while everything it knows — its own cards and past actions, including its
picks at simultaneous nodes, and every event it saw — stays, so the resampled state gives ``player`` the
same information-state string, tensors and legal actions. OpenSpiel's ISMCTS (``open_spiel.python.
algorithms.ismcts``, sequential games) runs on all four games through it. A resampled state keeps event logs
in its own core, clones, and pickles and serializes (its save holds the state it was drawn from, because a
re-deal follows from no seed); its OpenSpiel ``history()`` starts empty, as the moves behind it are not all
``player``'s to know.

Parameters: ``players`` (0 = the game's default), ``options`` (a JSON object as text), ``seed`` and
``deals`` (how many deals the chance nodes choose from).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from .. import _core
from ..games import GAMES
from . import new_state

__all__ = ["GAME_NAMES", "SEQUENTIAL_NAMES", "deal_radices", "load", "merged_layout"]

#: The OpenSpiel short names registered by importing this module.
GAME_NAMES = {name: f"python_cardnet_{name}" for name in ("matchstick", "fistful", "cherki", "ten")}
#: The sequential forms of the simultaneous-move games (the lower seat acts first, unseen by the other).
SEQUENTIAL_NAMES = {"fistful": "python_cardnet_fistful_sequential"}

_DEFAULT_DEALS = 1024
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)


#: Most outcomes of one deal chance node.
_MAX_RADIX = 32


def deal_radices(deals: int) -> list[int]:
    """The outcome counts of the deal's chance nodes, whose product is ``deals``: the largest divisors of at
    most 32 first (a prime factor above 32 is a node of its own)."""
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    radices: list[int] = []
    left = deals
    while left > 1:
        radix = next((r for r in range(min(left, _MAX_RADIX), 1, -1) if left % r == 0), 1)
        if radix == 1:
            radix = next(r for r in range(2, left + 1) if left % r == 0)
        radices.append(radix)
        left //= radix
    return radices or [1]


@functools.cache
def _equally_likely(outcomes: int) -> tuple[tuple[int, float], ...]:
    """The chance outcomes ``0 .. outcomes - 1``, each of probability ``1 / outcomes``."""
    return tuple((d, 1.0 / outcomes) for d in range(outcomes))


def merged_layout(layout: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Joins consecutive blocks of one name (per-seat repeats) into one named block."""
    merged: list[tuple[str, int, int]] = []
    for name, offset, length in layout:
        if merged and merged[-1][0] == name:
            prev = merged[-1]
            merged[-1] = (name, prev[1], prev[2] + length)
        else:
            merged.append((name, offset, length))
    return merged


class _LegalIds(dict[int, list[int]]):
    """Legal ids of one state by player, never handed out (a caller gets a copy of its own). OpenSpiel
    clones a state by deep-copying its attributes: a clone starts with an empty cache instead."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _LegalIds:
        return _LegalIds()


class CardnetObserver:
    """OpenSpiel observer: the observation tensor, or with perfect recall the information-state tensor."""

    def __init__(self, game: CardnetGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("cardnet observers show one seat's own view: public info and single-player private info")
        self._recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.infostate_len if self._recall else game.observation_len, np.float32)
        self.dict: dict[str, Any] = {}
        for name, offset, size in game.layout:
            self.dict[name] = self.tensor[offset : offset + size]
        if self._recall:
            self.dict["own_actions"] = self.tensor[game.observation_len :]

    def set_from(self, state: CardnetState, player: int) -> None:
        """Fills ``tensor`` from ``player``'s point of view (all zeros before the deal)."""
        if state.core is None:
            self.tensor.fill(0.0)
        elif self._recall:
            state.core.infostate_into(player, self.tensor)
        else:
            state.core.observation_into(player, self.tensor)

    def string_from(self, state: CardnetState, player: int) -> str:
        """The information-state string (perfect recall) or the seat's view as canonical JSON."""
        if state.core is None:
            return "deal pending"
        if self._recall:
            return state.logged().information_state_string(player)
        return _core.json_dumps(state.core.view(player))


class CardnetState(pyspiel.State):  # type: ignore[misc]
    """A cardnet game in OpenSpiel: the deal's chance nodes, then the core's moves as action ids."""

    def __init__(self, game: CardnetGame) -> None:
        super().__init__(game)
        self._name: str = game.cardnet_name
        self._seed: int = game.seed
        self._deals: int = game.deals
        self._players: int = game.num_players()
        self._options: dict[str, Any] = game.options
        self._simultaneous: bool = game.simultaneous
        self.core: _core.RlState | None = None
        # The same game with event logs, made when the information-state string is first asked for and
        # stepped with the core from then on; unused when the core keeps logs itself (a resampled state).
        self._logged: _core.RlState | None = None
        self._core_logs = False
        self._radices: list[int] = game.radices
        self._legal = _LegalIds()
        # The deal's digits chosen so far (least significant first) and their value.
        self._digits = 0
        self._deal = 0
        self._place = 1
        # OpenSpiel asks for the player to move several times per step; it changes only when a move is
        # applied, so it is worked out then and kept.
        self._player: int = _CHANCE

    def _refresh(self, following: int) -> None:
        """Keeps the player to move, from the lowest seat to act after a move (-1 once over)."""
        assert self.core is not None
        if following < 0:
            self._player = _TERMINAL
        elif self._simultaneous and len(self.core.to_act()) > 1:
            self._player = _SIMULTANEOUS
        else:
            self._player = following

    def current_player(self) -> int:
        """The chance player before the deal, then the seat to act (simultaneous when two must act)."""
        return self._player

    def is_chance_node(self) -> bool:
        """Whether the deal is being chosen."""
        return self._player == _CHANCE

    def is_simultaneous_node(self) -> bool:
        """Whether both Fistful seats pick now."""
        return self._player == _SIMULTANEOUS

    def is_player_node(self) -> bool:
        """Whether one seat is to act."""
        return self._player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """What ``pyspiel.State.legal_actions`` answers, without its calls back into Python: the chance
        outcomes at a chance node, else ``player``'s legal ids (the player to act's when omitted)."""
        if self._player == _CHANCE:
            return list(range(self._radices[self._digits]))
        return self._legal_actions(self._player if player is None else player)[:]

    def _legal_actions(self, player: int) -> list[int]:
        """OpenSpiel's hook (its C++ layer copies the list)."""
        ids = self._legal.get(player)
        if ids is None:
            ids = self._legal[player] = self._compute_legal(player)
        return ids

    def _compute_legal(self, player: int) -> list[int]:
        if self.core is None or player < 0:
            return []
        if player != self._player and not (self._player == _SIMULTANEOUS and player in self.core.to_act()):
            return []
        return self.core.legal_action_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The equally likely values of the deal's next digit."""
        return list(_equally_likely(self._radices[self._digits]))

    def _apply_action(self, action: int) -> None:
        self._legal.clear()
        if self.core is not None:
            seat = self._player
            following = self.core.step(seat, action)
            if self._logged is not None:
                self._logged.apply_action_id(seat, action)
            if following >= 0 and not self._simultaneous:
                self._player = following  # what _refresh works out, without the call: this runs every move
            else:
                self._refresh(following)
            return
        self._deal += action * self._place
        self._place *= self._radices[self._digits]
        self._digits += 1
        if self._digits == len(self._radices):
            seed = _core.derive(self._seed, self._deal)
            self.core = new_state(self._name, self._players, seed, self._options, log_events=False)
            self._refresh(self.core.first_to_act())

    def logged(self) -> _core.RlState:
        """The core game with its per-seat event logs: the core itself when it keeps them (a resampled
        state), else a copy made by replaying the moves the first time it is asked for, which every later
        move then steps too (so no call copies the history)."""
        assert self.core is not None
        if self._core_logs:
            return self.core
        if self._logged is None:
            logged = new_state(self._name, self._players, self.core.seed, self._options)
            for seat, action in self.core.action_history():
                logged.apply_action_id(seat, action)
            self._logged = logged
        return self._logged

    def _apply_actions(self, actions: list[int]) -> None:
        assert self.core is not None
        self._legal.clear()
        following = -1
        for seat in self.core.to_act():
            following = self.core.step(seat, actions[seat])
            if self._logged is not None:
                self._logged.apply_action_id(seat, actions[seat])
        self._refresh(following)

    def resample_from_infostate(self, player: int, probability_sampler: Callable[[], float]) -> CardnetState:
        """A state ``player`` cannot tell from this one: the core's determinization for ``player``, seeded
        from two draws of ``probability_sampler`` (a callable returning floats in ``[0, 1)``, as OpenSpiel's
        ``UniformProbabilitySampler``). Before the deal nothing is hidden yet and the answer is a clone."""
        if not 0 <= player < self._players:
            raise ValueError(f"player must be a seat of 0..{self._players - 1}, not {player}")
        if self.core is None:
            return self.clone()  # type: ignore[no-any-return]
        high, low = (min(int(probability_sampler() * 2**32), 2**32 - 1) for _ in range(2))
        twin: CardnetState = self.get_game().new_initial_state()
        twin._digits, twin._deal, twin._place = self._digits, self._deal, self._place
        twin.core = self.logged().determinize(player, high << 32 | low)
        twin._core_logs = True
        twin._player = self._player
        return twin

    def choose_action(self, player: str = "random", level: str | None = None, seed: int | None = None) -> int:
        """The action id a built-in player picks for the player to move (``RlState.choose_action``: ``level``
        ``easy``/``normal``/``hard``, or a ``player`` name as ``cardnet.ai`` lists them). It sees only what
        that seat may see. Raises ``ValueError`` at a chance, simultaneous or terminal node."""
        if self.core is None or self._player < 0:
            raise ValueError("a built-in player chooses for the one seat to move, not at this node")
        return self.core.choose_action(self._player, player, level, seed)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal digit {self._digits} = {action}"
        move = None if self.core is None or player < 0 else self.core.action_id_to_move(player, action)
        return f"action {action}" if move is None else _core.json_dumps(move)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        """Each seat's return (non-zero only at the end)."""
        if self.core is None:
            return [0.0] * self._players
        return self.core.returns()

    def __str__(self) -> str:
        if self.core is None:
            return f"deal pending: {self._digits} of {len(self._radices)} digits chosen, value {self._deal}"
        return self.core.state_json()


class CardnetGame(pyspiel.Game):  # type: ignore[misc]
    """A cardnet game for OpenSpiel (see the module docstring for the parameters); one subclass per game."""

    cardnet_name: str = ""
    #: Whether seats that must act together act at one simultaneous node (else one after the other).
    simultaneous: bool = False
    #: The OpenSpiel game type this class was registered with.
    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cardnet_name = self.cardnet_name
        game_type = self.game_type
        params = {**_PARAMETERS, **(params or {})}
        self.seed = int(params["seed"])
        self.deals = int(params["deals"])
        self.radices = deal_radices(self.deals)
        players = int(params["players"]) or None
        self.options: dict[str, Any] = json.loads(str(params["options"]))
        probe = new_state(cardnet_name, players, 0, self.options, log_events=False)
        self.observation_len = probe.observation_len()
        self.infostate_len = probe.infostate_len()
        self.layout = merged_layout(probe.observation_layout())
        low, high = probe.reward_bounds()
        super().__init__(
            game_type,
            pyspiel.GameInfo(
                num_distinct_actions=probe.action_space_size(),
                max_chance_outcomes=max(self.radices),
                num_players=probe.players,
                min_utility=low,
                max_utility=high,
                utility_sum=None,
                max_game_length=probe.max_game_length(),
            ),
            params,
        )

    def new_initial_state(self) -> CardnetState:
        """The root chance node."""
        return CardnetState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardnetObserver:
        """An observer of the tensors and strings described in the module docstring."""
        return CardnetObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


_PARAMETERS: dict[str, Any] = {"players": 0, "options": "{}", "seed": 0, "deals": _DEFAULT_DEALS}


def _register(name: str, short_name: str, simultaneous: bool) -> None:
    info = GAMES[name]
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"cardnet {info.title}" + ("" if simultaneous or name not in SEQUENTIAL_NAMES else " (sequential)"),
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS,
    )
    # OpenSpiel's registry keeps the class; a class (not a closure) is what it can release at exit. Each form
    # is a class of its own, so the forms of one game never share or swap a table entry.
    attributes = {"cardnet_name": name, "simultaneous": simultaneous, "game_type": game_type}
    pyspiel.register_game(game_type, type(f"CardnetGame_{short_name}", (CardnetGame,), attributes))


def load(name: str, sequential: bool = False, **params: Any) -> Any:
    """``pyspiel.load_game`` of cardnet game ``name`` with ``params`` (``players``, ``options``, ...);
    ``sequential=True`` loads the sequential form of a simultaneous-move game (``SEQUENTIAL_NAMES``; the
    other games are sequential already)."""
    if "options" in params and not isinstance(params["options"], str):
        params["options"] = _core.json_dumps(params["options"])
    short_name = SEQUENTIAL_NAMES.get(name, GAME_NAMES[name]) if sequential else GAME_NAMES[name]
    return pyspiel.load_game(short_name, params)


for _name, _short_name in GAME_NAMES.items():
    _register(_name, _short_name, simultaneous=_name in SEQUENTIAL_NAMES)
for _name, _short_name in SEQUENTIAL_NAMES.items():
    _register(_name, _short_name, simultaneous=False)
