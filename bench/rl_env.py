"""Decisions per second of the RL faces, beside OpenSpiel's dou_dizhu and RLCard's doudizhu in the same run.

Prints one JSON document with, per game at its default player count:
  - vec_env[N]        decisions/s of ``cardnet.rl.VectorEnv.step`` at N = 1, 64, 1024 with observations and
                      the legal actions as sparse id rows (``legal="ids"``), the form a policy samples from;
  - vec_env_mask[N]   the same with dense masks (``legal="mask"``): Matchstick's mask is 17 287 bytes a game;
  - native            decisions/s of the fast path ``decision()`` + ``apply_index`` (the reference);
  - pettingzoo        decisions/s of the AEC env (``last()`` with its observation and mask, then ``step``),
                      with ``pettingzoo_ratio`` = native / pettingzoo (the goal is at most 3), and the
                      same with ``reuse_arrays=True`` (observation arrays rewritten in place);
  - openspiel         decisions/s of the pyspiel game (``is_terminal``, ``is_chance_node``,
                      ``current_player``, ``legal_actions``, ``apply_action``), with ``openspiel_ratio``;
and ``baselines``: OpenSpiel ``dou_dizhu`` stepped from Python the same way, and RLCard ``doudizhu`` (each a
string with the reason when the package is missing). The baselines run beside every game, taking turns with
its loops; ``openspiel_dou_dizhu_beside`` is the rate the ``vec_env[N]_vs_dou_dizhu`` ratios divide by, and
``baselines`` holds the best over all games.

Every figure counts the environment's own work only, dealing included (OpenSpiel's chance nodes are
sampled and applied inside the clock, as the vectorized env deals inside its step): the random policy
(drawing an action from the mask, the id list or the count) runs outside the clock, in every loop alike,
and the clock's own cost (measured at the start) is taken off each timed interval. Each loop runs for
about ``--seconds`` seconds in 5 rounds, the loops of one game taking turns, and its best round counts.

    pip install '.[rl,rltest]' && python bench/rl_env.py [--seconds 1.0] [--games fistful,cherki]
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
from cardnet.rl import VectorEnv
from cardnet.rl import pettingzoo as pz

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
        g = cardnet.new_game(game, seed=rng.getrandbits(63))
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


def pettingzoo(game: str, overhead: float, reuse_arrays: bool = False) -> Loop:
    env = pz.env(game, seed=1, reuse_arrays=reuse_arrays)
    rng = random.Random(1)

    def run(meter: Meter) -> None:
        env.reset()
        for _ in env.agent_iter():
            t = clock()
            obs, _, term, trunc, _ = env.last()
            meter.spent += clock() - t
            if term or trunc:
                env.step(None)
                continue
            assert obs is not None
            legal = np.flatnonzero(obs["action_mask"])
            pick = int(legal[rng.randrange(len(legal))])
            t = clock()
            env.step(pick)
            meter.spent += clock() - t
            meter.intervals += 2
            meter.decisions += 1

    return measured(overhead, run)


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
        meter.decisions += 1


def openspiel(game: str, overhead: float) -> Loop | str:
    try:
        from cardnet.rl.openspiel import load
    except ImportError as e:
        return f"not installed: {e}"
    spiel_game = load(game)
    rng = random.Random(1)
    return measured(overhead, lambda meter: spiel_random_game(spiel_game, rng, meter))


def dou_dizhu(overhead: float) -> Loop | str:
    try:
        import pyspiel
    except ImportError as e:
        return f"not installed: {e}"
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(1)
    return measured(overhead, lambda meter: spiel_random_game(game, rng, meter))


def rlcard_doudizhu(overhead: float) -> Loop | str:
    try:
        import rlcard
    except ImportError as e:
        return f"not installed: {e}"
    env = rlcard.make("doudizhu", config={"seed": 1})
    rng = random.Random(1)

    def run(meter: Meter) -> None:
        _, player = env.reset()
        while not env.is_over():
            t = clock()
            state = env.get_state(player)
            meter.spent += clock() - t
            pick = rng.choice(list(state["legal_actions"]))
            t = clock()
            _, player = env.step(pick)
            meter.spent += clock() - t
            meter.intervals += 2
            meter.decisions += 1

    return measured(overhead, run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--games", default="matchstick,fistful,cherki,ten")
    args = parser.parse_args()
    if cardnet.build_info()["profile"] != "release":
        raise SystemExit("build the extension in release mode first (maturin develop --release)")
    overhead = clock_cost()
    report: dict[str, Any] = {"clock_cost_ns": round(overhead * 1e9), "games": {}}
    baselines = {"openspiel_dou_dizhu": dou_dizhu(overhead), "rlcard_doudizhu": rlcard_doudizhu(overhead)}
    ready = {k: v for k, v in baselines.items() if not isinstance(v, str)}
    best_baselines = dict.fromkeys(ready, 0.0)
    for game in args.games.split(","):
        # The baselines run again beside each game, so that the comparison is made under the same load.
        loops: dict[str, Loop] = {"native": native(game, overhead), **ready}
        for legal, key in (("ids", "vec_env"), ("mask", "vec_env_mask")):
            for n in (1, 64, 1024):
                loops[f"{key}[{n}]"] = vec_env(game, n, legal)
        loops["pettingzoo"] = pettingzoo(game, overhead)
        loops["pettingzoo_reuse_arrays"] = pettingzoo(game, overhead, reuse_arrays=True)
        spiel = openspiel(game, overhead)
        if not isinstance(spiel, str):
            loops["openspiel"] = spiel
        rates = best_of_rounds(loops, args.seconds)
        here = {name: rates.pop(name) for name in ready}
        for name, rate in here.items():
            best_baselines[name] = max(best_baselines[name], rate)
        row: dict[str, Any] = {name: round(rate) for name, rate in rates.items()}
        dou = here.get("openspiel_dou_dizhu")
        if dou:
            row["openspiel_dou_dizhu_beside"] = round(dou)
            for n in (1, 64, 1024):
                row[f"vec_env[{n}]_vs_dou_dizhu"] = round(rates[f"vec_env[{n}]"] / dou, 1)
        for name in ("pettingzoo", "pettingzoo_reuse_arrays", "openspiel"):
            if name in rates:
                row[f"{name}_ratio"] = round(rates["native"] / rates[name], 1)
            else:
                row[name] = spiel
        report["games"][game] = row
    report["baselines"] = {k: v if isinstance(v, str) else round(best_baselines[k]) for k, v in baselines.items()}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
