"""Decisions per second of the RL faces, beside OpenSpiel's dou_dizhu and RLCard's doudizhu in the same run.

Prints one JSON document with, per game at its default player count:
  - vec_env[N]        decisions/s of ``cardnet.rl.VectorEnv.step`` at N = 1, 64, 1024 with observations and
                      the legal actions as sparse id rows (``legal="ids"``), the form a policy samples from;
  - vec_env_mask[N]   the same with dense masks (``legal="mask"``): Matchstick's mask is 17 287 bytes a game;
  - native            decisions/s of the fast path ``decision()`` + ``apply_index`` (the issue's reference);
  - native_observe, native_observe_into, native_legal_ids
                      the same work as an adapter, called on the core's ``RlState`` straight from Python:
                      ``observe(seat, True)`` (new observation and mask arrays, PettingZoo's work),
                      ``observe_into`` (arrays rewritten in place, PettingZoo's with ``reuse_arrays``) or
                      ``legal_action_ids`` (OpenSpiel's work), each then ``step(seat, id)``;
  - pettingzoo        decisions/s of the AEC env (``agent_iter``, ``last()`` with its observation and mask,
                      then ``step``), and ``pettingzoo_reuse_arrays`` (observation arrays rewritten in place);
  - openspiel         decisions/s of the pyspiel game (``is_terminal``, ``is_chance_node``,
                      ``current_player``, ``legal_actions``, ``apply_action``; a simultaneous node counts one
                      decision per seat that picks, as the native loops do);
  - <adapter>_ratio   native / adapter (the issue's goal is at most 3), and <adapter>_same_work_ratio the
                      same-work reference / adapter: what the adapter adds to the work it must do anyway;
  - <framework>_floor_ratio
                      native / the framework's floor (below): the ratio an adapter doing no game work at all
                      would have, so the part of each ratio that is the framework's own;
  - ns_per_decision   each adapter's nanoseconds per decision split into ``floor`` (the framework's floor),
                      ``game_work`` (the same-work reference) and ``adapter`` (the rest: our glue code).
The floors run beside every game: ``pettingzoo_floor``, a PettingZoo AEC env with no game (two agents take
turns for 64 steps, a constant one-float observation and one-action mask) stepped by the very loop the
adapter is, and ``openspiel_floor``, a pyspiel Python game registered as ours are (two players take turns
for 64 moves with two legal actions, no chance node) stepped by the very loop the adapters are.
``baselines``: OpenSpiel's C++ ``dou_dizhu`` stepped by that loop too, and RLCard ``doudizhu`` (``reset``,
then ``step`` returning the next state with its legal actions, and ``is_over``), each a string with the
reason when the package is missing. Floors and baselines take turns with each game's loops; the
``*_beside`` figures are the rates of that game's run (the ratios divide by them), ``floors`` and
``baselines`` hold the best over all games.

Every figure counts the environment's own work only, dealing included (``new_game``, ``reset``, OpenSpiel's
chance nodes sampled and applied are inside the clock, as the vectorized env deals inside its step): the
random policy (drawing an action from the mask, the id list or the count) runs outside the clock, in every
loop alike, and the clock's own cost (measured at the start) is taken off each timed interval. Each loop
runs for about ``--seconds`` seconds in 5 rounds, the loops of one game taking turns, and its best round
counts.

    pip install '.[rl,rltest,bench]' && python bench/rl_env.py [--seconds 1.0] [--games fistful,cherki]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import cardnet
from cardnet.rl import VectorEnv, new_state
from cardnet.rl import pettingzoo as pz
from rl_floors import FloorAEC, load_floor_game

clock = time.perf_counter


def clock_cost() -> float:
    """Seconds one ``clock()`` call adds to a timed interval (the median of many back-to-back pairs)."""
    pairs = []
    for _ in range(50_000):
        t = clock()
        pairs.append(clock() - t)
    return sorted(pairs)[len(pairs) // 2]


class Meter:
    """Adds up timed intervals (less the clock's own cost) and the decisions made in them."""

    def __init__(self, overhead: float) -> None:
        self.overhead = overhead
        self.spent = 0.0
        self.intervals = 0
        self.decisions = 0

    def rate(self) -> float:
        return self.decisions / max(self.spent - self.intervals * self.overhead, 1e-9)


#: Each figure is the best of this many rounds (as ``timeit`` takes the best). The rounds of all the loops of
#: one game take turns, so a burst of load from other jobs hits the native path and the adapters alike.
ROUNDS = 5

#: One loop to measure: a callable that runs for the given seconds and returns its decisions/s.
Loop = Callable[[float], float]


def measured(overhead: float, run: Callable[[Meter], None]) -> Loop:
    """A loop calling ``run`` (which times its environment calls on the meter) for the given seconds."""

    def loop(seconds: float) -> float:
        meter = Meter(overhead)
        start = clock()
        while clock() - start < seconds:
            run(meter)
        return meter.rate()

    return loop


def best_of_rounds(loops: dict[str, Loop], seconds: float) -> dict[str, float]:
    """Runs every loop ``ROUNDS`` times for ``seconds / ROUNDS``, taking turns; the best rate of each."""
    best = dict.fromkeys(loops, 0.0)
    for _ in range(ROUNDS):
        for name, loop in loops.items():
            best[name] = max(best[name], loop(seconds / ROUNDS))
    return best


def vec_env(game: str, n: int, legal: str) -> Loop:
    """Decisions/s inside ``VectorEnv.step`` alone (N decisions per call)."""
    env = VectorEnv(game, n, seed=1, legal=legal)
    rng = np.random.default_rng(1)
    env.observe()

    def run(meter: Meter) -> None:
        actions = env.random_actions(rng)
        t = clock()
        env.step(actions)
        meter.spent += clock() - t
        meter.decisions += n

    return measured(0.0, run)


def native(game: str, overhead: float) -> Loop:
    rng = random.Random(1)

    def run(meter: Meter) -> None:
        seed = rng.getrandbits(63)
        t = clock()
        g = cardnet.new_game(game, seed=seed)
        meter.spent += clock() - t
        meter.intervals += 1
        while True:
            t = clock()
            d = g.decision()
            meter.spent += clock() - t
            if d is None:
                break
            pick = rng.randrange(d[1])
            t = clock()
            g.apply_index(d[0], pick)
            meter.spent += clock() - t
            meter.intervals += 2
            meter.decisions += 1

    return measured(overhead, run)


def same_work(game: str, overhead: float, work: str) -> Loop:
    """An adapter's own work on the core's ``RlState`` from Python: ``observe`` (new arrays), ``observe_into``
    (kept arrays) or ``legal_ids`` (the id list), then ``step``; dealing included."""
    rng = random.Random(1)
    probe = new_state(game, log_events=False)
    obs = np.zeros(probe.observation_len(), np.float32)
    mask = np.zeros(probe.action_space_size(), np.int8)

    def run(meter: Meter) -> None:
        seed = rng.getrandbits(63)
        t = clock()
        state = new_state(game, seed=seed, log_events=False)
        seat = state.first_to_act()
        meter.spent += clock() - t
        meter.intervals += 1
        while seat >= 0:
            # One clocked call per branch, so that choosing the branch stays outside the clock.
            if work == "observe":
                t = clock()
                observed = state.observe(seat, True)
                meter.spent += clock() - t
                legal = np.flatnonzero(observed[1])
            elif work == "observe_into":
                t = clock()
                state.observe_into(seat, True, obs, mask)
                meter.spent += clock() - t
                legal = np.flatnonzero(mask)
            else:
                t = clock()
                ids = state.legal_action_ids(seat)
                meter.spent += clock() - t
                legal = np.asarray(ids)
            pick = int(legal[rng.randrange(len(legal))])
            t = clock()
            seat = state.step(seat, pick)
            meter.spent += clock() - t
            meter.intervals += 2
            meter.decisions += 1

    return measured(overhead, run)


def aec_loop(env: Any, overhead: float) -> Loop:
    """Random games of a PettingZoo AEC env: ``agent_iter``, ``last()``, ``step`` (``reset`` timed too)."""
    rng = random.Random(1)

    def run(meter: Meter) -> None:
        t = clock()
        env.reset()
        agents = iter(env.agent_iter())
        meter.spent += clock() - t
        meter.intervals += 1
        while True:
            t = clock()
            agent = next(agents, None)
            if agent is not None:
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    agent = ""
            meter.spent += clock() - t
            meter.intervals += 1
            if agent is None:
                break
            if not agent:
                continue
            legal = np.flatnonzero(obs["action_mask"])
            pick = int(legal[rng.randrange(len(legal))])
            t = clock()
            env.step(pick)
            meter.spent += clock() - t
            meter.intervals += 1
            meter.decisions += 1

    return measured(overhead, run)


def pettingzoo(game: str, overhead: float, reuse_arrays: bool = False) -> Loop:
    return aec_loop(pz.env(game, seed=1, reuse_arrays=reuse_arrays), overhead)


def spiel_random_game(game: Any, rng: random.Random, meter: Meter) -> None:
    """One uniformly random game of a pyspiel game (chance by its probabilities), its calls timed."""
    import pyspiel

    simultaneous = int(pyspiel.PlayerId.SIMULTANEOUS)
    state = game.new_initial_state()
    while True:
        t = clock()
        over = state.is_terminal()
        chance = not over and state.is_chance_node()
        player = state.current_player()
        meter.spent += clock() - t
        if over:
            break
        if chance:
            # Sampling a chance outcome is the environment's work (the vectorized env deals inside its step).
            t = clock()
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            meter.spent += clock() - t
            meter.intervals += 1
            continue
        t = clock()
        if player == simultaneous:
            acts = [state.legal_actions(p) for p in range(game.num_players())]
        else:
            acts = [state.legal_actions()]
        meter.spent += clock() - t
        picks = [rng.choice(a) if a else 0 for a in acts]
        t = clock()
        if player == simultaneous:
            state.apply_actions(picks)
        else:
            state.apply_action(picks[0])
        meter.spent += clock() - t
        meter.intervals += 3
        meter.decisions += sum(1 for a in acts if a)


def openspiel(game: str, overhead: float) -> Loop | str:
    def load() -> Any:
        from cardnet.rl.openspiel import load

        return load(game)

    return spiel_loop(load, overhead)


def spiel_loop(load: Callable[[], Any], overhead: float) -> Loop | str:
    """Random games of the pyspiel game ``load()`` makes, or why pyspiel is missing."""
    try:
        game = load()
    except ImportError as e:
        return f"not installed: {e}"
    rng = random.Random(1)
    return measured(overhead, lambda meter: spiel_random_game(game, rng, meter))


def dou_dizhu(overhead: float) -> Loop | str:
    def load() -> Any:
        import pyspiel

        return pyspiel.load_game("dou_dizhu")

    return spiel_loop(load, overhead)


def rlcard_doudizhu(overhead: float) -> Loop | str:
    """RLCard's loop: ``reset`` and ``step`` hand back the next state (observation and legal actions) and
    the player to act; ``is_over`` ends the game."""
    try:
        import rlcard
    except ImportError as e:
        return f"not installed: {e} (pip install '.[bench]')"
    env = rlcard.make("doudizhu", config={"seed": 1})
    rng = random.Random(1)

    def run(meter: Meter) -> None:
        t = clock()
        state, _ = env.reset()
        over = env.is_over()
        meter.spent += clock() - t
        meter.intervals += 1
        while not over:
            pick = rng.choice(list(state["legal_actions"]))
            t = clock()
            state, _ = env.step(pick)
            over = env.is_over()
            meter.spent += clock() - t
            meter.intervals += 1
            meter.decisions += 1

    return measured(overhead, run)


def floors(overhead: float) -> dict[str, Loop | str]:
    """The frameworks' own floors (``bench/rl_floors.py``), or why one is missing."""
    return {
        "pettingzoo_floor": aec_loop(FloorAEC(), overhead),
        "openspiel_floor": spiel_loop(load_floor_game, overhead),
    }


#: Each adapter with its same-work reference loop and its framework's floor.
ADAPTERS = {
    "pettingzoo": ("native_observe", "pettingzoo_floor"),
    "pettingzoo_reuse_arrays": ("native_observe_into", "pettingzoo_floor"),
    "openspiel": ("native_legal_ids", "openspiel_floor"),
}


def adapter_figures(rates: dict[str, float], beside: dict[str, float]) -> dict[str, Any]:
    """Each adapter's ratios against the issue's reference, its same-work reference and its floor, and its
    time per decision split into the framework's floor, the game's work and the adapter's own code."""
    row: dict[str, Any] = {}
    split: dict[str, dict[str, int]] = {}
    for name, (work, floor) in ADAPTERS.items():
        if name not in rates:
            continue
        row[f"{name}_ratio"] = round(rates["native"] / rates[name], 1)
        row[f"{name}_same_work_ratio"] = round(rates[work] / rates[name], 1)
        if floor in beside:
            row[f"{floor}_ratio"] = round(rates["native"] / beside[floor], 1)
            ns = {"floor": 1e9 / beside[floor], "game_work": 1e9 / rates[work]}
            split[name] = {
                **{k: round(v) for k, v in ns.items()},
                "adapter": round(1e9 / rates[name] - sum(ns.values())),
            }
    row["ns_per_decision"] = {"native": round(1e9 / rates["native"]), **split}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--games", default="matchstick,fistful,cherki,ten")
    parser.add_argument("--no-vec-env", action="store_true", help="only the adapters, references and baselines")
    args = parser.parse_args()
    if cardnet.build_info()["profile"] != "release":
        raise SystemExit("build the extension in release mode first (maturin develop --release)")
    overhead = clock_cost()
    report: dict[str, Any] = {"clock_cost_ns": round(overhead * 1e9), "games": {}}
    baselines = {"openspiel_dou_dizhu": dou_dizhu(overhead), "rlcard_doudizhu": rlcard_doudizhu(overhead)}
    floor_loops = floors(overhead)
    ready = {k: v for k, v in {**baselines, **floor_loops}.items() if not isinstance(v, str)}
    best_beside = dict.fromkeys(ready, 0.0)
    for game in args.games.split(","):
        # The baselines run again beside each game, so that the comparison is made under the same load.
        loops: dict[str, Loop] = {"native": native(game, overhead), **ready}
        loops["native_observe"] = same_work(game, overhead, "observe")
        loops["native_observe_into"] = same_work(game, overhead, "observe_into")
        loops["native_legal_ids"] = same_work(game, overhead, "legal_ids")
        for legal, key in (("ids", "vec_env"), ("mask", "vec_env_mask")):
            for n in (1, 64, 1024):
                loops[f"{key}[{n}]"] = vec_env(game, n, legal)
        loops["pettingzoo"] = pettingzoo(game, overhead)
        loops["pettingzoo_reuse_arrays"] = pettingzoo(game, overhead, reuse_arrays=True)
        spiel = openspiel(game, overhead)
        if not isinstance(spiel, str):
            loops["openspiel"] = spiel
        if args.no_vec_env:
            loops = {name: loop for name, loop in loops.items() if not name.startswith("vec_env")}
        rates = best_of_rounds(loops, args.seconds)
        here = {name: rates.pop(name) for name in ready}
        for name, rate in here.items():
            best_beside[name] = max(best_beside[name], rate)
        row: dict[str, Any] = {name: round(rate) for name, rate in rates.items()}
        dou = here.get("openspiel_dou_dizhu")
        if dou:
            row["openspiel_dou_dizhu_beside"] = round(dou)
            for n in (1, 64, 1024):
                if f"vec_env[{n}]" in rates:
                    row[f"vec_env[{n}]_vs_dou_dizhu"] = round(rates[f"vec_env[{n}]"] / dou, 1)
        row.update({f"{name}_beside": round(here[name]) for name in floor_loops if name in here})
        row.update(adapter_figures(rates, here))
        if isinstance(spiel, str):
            row["openspiel"] = spiel
        report["games"][game] = row
    best = {k: v if isinstance(v, str) else round(best_beside[k]) for k, v in {**baselines, **floor_loops}.items()}
    report["floors"] = {k: best[k] for k in floor_loops}
    report["baselines"] = {k: best[k] for k in baselines}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
