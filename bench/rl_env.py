"""Steps per second of the RL faces, beside OpenSpiel's dou_dizhu and RLCard's doudizhu in the same run.

Prints one JSON document with, per game at its default player count:
  - vec_env[N]    decisions/s of ``cardnet.rl.VectorEnv.step`` at N = 1, 64, 1024 (uniform random legal
                  actions drawn in numpy from the returned masks, outside the clock);
  - native        decisions/s of the fast path ``decision()`` + ``apply_index`` (the reference the
                  adapters are measured against);
  - pettingzoo    decisions/s of the AEC env (``last()`` + ``step``), with its ratio to native;
  - openspiel     decisions/s of the pyspiel game (``legal_actions`` + ``apply_action``), with its ratio;
and ``baselines``: OpenSpiel ``dou_dizhu`` stepped from Python and RLCard ``doudizhu`` (each ``null`` with
the reason when the package is missing). Every loop runs for about ``--seconds`` seconds.

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


def timed(seconds: float, run: Callable[[], int]) -> float:
    """Calls ``run`` (which returns decisions made) until ``seconds`` pass; decisions per second."""
    start = time.perf_counter()
    decisions = 0
    while time.perf_counter() - start < seconds:
        decisions += run()
    return decisions / (time.perf_counter() - start)


def vec_env(game: str, n: int, seconds: float) -> float:
    """Decisions/s inside ``VectorEnv.step`` alone: drawing the random actions from the masks is a policy's
    cost (O(N × actions) in numpy) and is left out of the clock."""
    env = VectorEnv(game, n, seed=1)
    rng = np.random.default_rng(1)
    env.observe()
    stepping = 0.0
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = env.random_actions(rng)
        t = time.perf_counter()
        env.step(actions)
        stepping += time.perf_counter() - t
        decisions += n
    return decisions / stepping


def native(game: str, seconds: float) -> float:
    rng = random.Random(1)

    def run() -> int:
        g = cardnet.new_game(game, seed=rng.getrandbits(63))
        steps = 0
        while (d := g.decision()) is not None:
            g.apply_index(d[0], rng.randrange(d[1]))
            steps += 1
        return steps

    return timed(seconds, run)


def pettingzoo(game: str, seconds: float) -> float:
    env = pz.env(game, seed=1)
    rng = np.random.default_rng(1)

    def run() -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        return steps

    return timed(seconds, run)


def spiel_random_game(game: Any, rng: random.Random) -> int:
    """One uniformly random game of a pyspiel game (chance by its probabilities); decisions made."""
    import pyspiel

    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            acts = [state.legal_actions(p) for p in range(game.num_players())]
            state.apply_actions([rng.choice(a) if a else 0 for a in acts])
            steps += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def openspiel(game: str, seconds: float) -> float | str:
    try:
        from cardnet.rl.openspiel import load
    except ImportError as e:
        return f"not installed: {e}"
    spiel_game = load(game)
    rng = random.Random(1)
    return timed(seconds, lambda: spiel_random_game(spiel_game, rng))


def dou_dizhu(seconds: float) -> float | str:
    try:
        import pyspiel
    except ImportError as e:
        return f"not installed: {e}"
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(1)
    return timed(seconds, lambda: spiel_random_game(game, rng))


def rlcard_doudizhu(seconds: float) -> float | str:
    try:
        import rlcard
    except ImportError as e:
        return f"not installed: {e}"
    env = rlcard.make("doudizhu", config={"seed": 1})
    rng = random.Random(1)

    def run() -> int:
        _, player = env.reset()
        steps = 0
        while not env.is_over():
            state = env.get_state(player)
            _, player = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    return timed(seconds, run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--games", default="matchstick,fistful,cherki,ten")
    args = parser.parse_args()
    if cardnet.build_info()["profile"] != "release":
        raise SystemExit("build the extension in release mode first (maturin develop --release)")
    report: dict[str, Any] = {"games": {}}
    for game in args.games.split(","):
        base = native(game, args.seconds)
        row: dict[str, Any] = {f"vec_env[{n}]": round(vec_env(game, n, args.seconds)) for n in (1, 64, 1024)}
        row["native"] = round(base)
        pz_rate = pettingzoo(game, args.seconds)
        row["pettingzoo"] = round(pz_rate)
        row["pettingzoo_slowdown"] = round(base / pz_rate, 1)
        os_rate = openspiel(game, args.seconds)
        row["openspiel"] = os_rate if isinstance(os_rate, str) else round(os_rate)
        if not isinstance(os_rate, str):
            row["openspiel_slowdown"] = round(base / os_rate, 1)
        report["games"][game] = row
    baselines = {"openspiel_dou_dizhu": dou_dizhu(args.seconds), "rlcard_doudizhu": rlcard_doudizhu(args.seconds)}
    report["baselines"] = {k: v if isinstance(v, str) else round(v) for k, v in baselines.items()}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
