"""Random self-play from Python: 4-player Matchstick Tycoon against OpenSpiel's dou_dizhu, and every game.

Prints one JSON document: games/s and decisions/s for
  (a) the dict API      - legal_moves() + apply(seat, move), one dict per legal move;
  (b) the fast path     - decision() + apply_index(seat, i), two native calls per decision;
  (c) cardnet.simulate  - whole batches in Rust;
and, in the same run, OpenSpiel's dou_dizhu stepped from Python (uniform legal actions, chance nodes
sampled by their probabilities), with the ratios against it; then (b) and (c) for every other game at its
default player count. Every player is uniform among the legal moves and every run is seeded. Refuses to run on a debug build of the extension.

    pip install '.[bench]' && python bench/python_selfplay.py [--scale 1.0] [--seed 1]
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import random
import sys
import time
from typing import Any

import cardnet

GAME = "matchstick"
PLAYERS = 4


def fail(message: str) -> int:
    print(f"python_selfplay: {message}", file=sys.stderr)
    return 1


def dict_api(games: int, seed: int, game: str = GAME, players: int = PLAYERS) -> tuple[int, float]:
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        g = cardnet.new_game(game, players=players, seed=cardnet.derive(seed, i))
        while not g.is_over():
            seat = g.to_act()[0]
            g.apply(seat, rng.choice(g.legal_moves(seat)))
            decisions += 1
    return decisions, time.perf_counter() - start


def fast_path(games: int, seed: int, game: str = GAME, players: int = PLAYERS) -> tuple[int, float]:
    rng = random.Random(seed)
    randrange = rng.randrange
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        g = cardnet.new_game(game, players=players, seed=cardnet.derive(seed, i))
        decision = g.decision
        apply_index = g.apply_index
        while (d := decision()) is not None:
            apply_index(d[0], randrange(d[1]))
            decisions += 1
    return decisions, time.perf_counter() - start


def simulate(games: int, seed: int, game: str = GAME, players: int = PLAYERS) -> tuple[int, float]:
    start = time.perf_counter()
    result = cardnet.simulate(game, ["random"] * players, games=games, seed=seed)
    return result.decisions, time.perf_counter() - start


def openspiel(games: int, seed: int) -> tuple[int, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                cumulative = list(itertools.accumulate(p for _, p in outcomes))
                pick = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
                state.apply_action(outcomes[min(pick, len(outcomes) - 1)][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
    return decisions, time.perf_counter() - start


def figures(games: int, decisions: int, seconds: float) -> dict[str, Any]:
    return {
        "games": games,
        "decisions": decisions,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1),
        "decisions_per_s": round(decisions / seconds),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    build = cardnet.build_info()
    if build["profile"] != "release" or build["debug_assertions"]:
        return fail(f"refusing to benchmark a {build['profile']} build; install with `pip install .`")
    if GAME not in cardnet.GAMES:
        return fail(f"game {GAME!r} is not in this build")
    counts = {
        name: max(1, int(n * args.scale))
        for name, n in {"dict_api": 300, "fast_path": 3000, "simulate": 30000, "openspiel": 3000}.items()
    }
    report: dict[str, Any] = {
        "build": build,
        "python": sys.version.split()[0],
        "seed": args.seed,
        "cardnet_matchstick_4p": {
            "dict_api": figures(counts["dict_api"], *dict_api(counts["dict_api"], args.seed)),
            "fast_path": figures(counts["fast_path"], *fast_path(counts["fast_path"], args.seed)),
            "simulate": figures(counts["simulate"], *simulate(counts["simulate"], args.seed)),
        },
    }
    spiel = openspiel(counts["openspiel"], args.seed)
    if spiel is None:
        report["openspiel_dou_dizhu"] = None
        report["note"] = "open-spiel is not installed (pip install '.[bench]'); no ratios"
    else:
        base = figures(counts["openspiel"], *spiel)
        report["openspiel_dou_dizhu"] = base
        ours = report["cardnet_matchstick_4p"]
        ratios = {
            f"{name}_vs_openspiel": round(ours[name]["games_per_s"] / base["games_per_s"], 2)
            for name in ("dict_api", "fast_path", "simulate")
        }
        report["ratios_games_per_s"] = ratios
        report["targets"] = {
            "fast_path_at_least_1x": ratios["fast_path_vs_openspiel"] >= 1.0,
            "simulate_at_least_10x": ratios["simulate_vs_openspiel"] >= 10.0,
        }
    others: dict[str, Any] = {}
    for name, info in cardnet.GAMES.items():
        if name == GAME:
            continue
        players = info.default_players
        others[f"{name}_{players}p"] = {
            "fast_path": figures(counts["fast_path"], *fast_path(counts["fast_path"], args.seed, name, players)),
            "simulate": figures(counts["simulate"], *simulate(counts["simulate"], args.seed, name, players)),
        }
    report["other_games"] = others
    print(json.dumps(report, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
