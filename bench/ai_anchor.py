"""The built-in levels measured against an outside anchor: OpenSpiel's own ISMCTSBot playing our games through
the OpenSpiel adapter (``cardnet.rl.openspiel``, its ``resample_from_infostate``; Fistful in its sequential
form, as OpenSpiel's ISMCTS takes only sequential games).

For every game at its default player count and every level (``easy``, ``normal``, ``hard``), one seat plays the
level (the hero) and every other seat an ISMCTSBot (UCT constant 2, one random rollout per leaf, the most
visited move). The hero's seat rotates over all seats on the same deals (deal ``k`` is the same in every
rotation). Two budgets for the anchor:

  - ``equal``: equal time per decision, the anchor's simulations set to the level's think time measured
    beforehand on this game (mean over the decisions of calibration games) divided by the anchor's measured
    time per simulation;
  - ``sims``: a fixed number of simulations (``--sims``, 1 000 by default).

Each row: the hero's win share (a win shared by k seats counts 1/k, a draw in which every seat has the same
return counts 0) with a 95 % Wilson interval over games, the even share (1/players), and both sides' think
time per decision (mean/p95 ms). Think time is the deciding thread's CPU time (the built-in players run in
that thread, without the GIL): on an idle core it is the wall time, and on a shared machine it still
gives both sides the same budget. ``--json FILE`` writes every row; the table is printed as rows finish.

    python bench/ai_anchor.py [--rotations 4] [--budget equal --budget sims] [--sims 1000]
                              [--game NAME ...] [--level NAME ...] [--think MS] [--seed 1] [--json FILE]

A benchmark, never a test: the figures depend on the machine's speed (equal time) and on the seed.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from cardnet.ai import with_think
from cardnet.rating import wilson
from cardnet.rl.openspiel import SEQUENTIAL_NAMES, load

GAMES = {"fistful": 2, "cherki": 3, "matchstick": 4, "ten": 3}
LEVELS = ("easy", "normal", "hard")
BUDGETS = ("equal", "sims")
#: Deals the chance nodes choose from; a match plays ``--rotations`` of them.
DEALS = 1024


@dataclass
class Side:
    """Think times (thread CPU) per decision of one side of a match, in seconds."""

    times: list[float] = field(default_factory=list)

    def quantile(self, q: float) -> float:
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def winners_share(returns: list[float], seat: int) -> float:
    """The seat's share of the win: 1/k when it is one of the k seats with the highest return, 0 when every
    seat has the same return (a draw) or it is not among them."""
    best = max(returns)
    if min(returns) == best:
        return 0.0
    top = [s for s, r in enumerate(returns) if r == best]
    return 1.0 / len(top) if seat in top else 0.0


def anchor_bot(game: Any, sims: int, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    return ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=max(2, sims), random_state=np.random.RandomState(seed + 1)
    )


def play(
    game: Any, deal: int, hero_seat: int, level: str, sims: int, seed: int, hero: Side, anchor: Side
) -> list[float]:
    """One game from deal ``deal`` (its chance digits), the hero at ``hero_seat``; returns the returns."""
    state = game.new_initial_state()
    digits = deal
    rng = random.Random(seed)
    bot = anchor_bot(game, sims, seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = len(state.chance_outcomes())
            state.apply_action(digits % outcomes)
            digits //= outcomes
            continue
        start = time.thread_time()
        if state.current_player() == hero_seat:
            action = state.choose_action(player=level, seed=rng.randrange(2**63))
            hero.times.append(time.thread_time() - start)
        else:
            action = int(bot.step(state))
            anchor.times.append(time.thread_time() - start)
        state.apply_action(action)
    return [float(r) for r in state.returns()]


def level_think(game: Any, level: str, decisions: int, seed: int) -> float:
    """The level's mean think time per decision on this game (every seat played by the level)."""
    times: list[float] = []
    rng = random.Random(seed)
    while len(times) < decisions:
        state = game.new_initial_state()
        while not state.is_terminal() and len(times) < decisions:
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            start = time.thread_time()
            action = state.choose_action(player=level, seed=rng.randrange(2**63))
            times.append(time.thread_time() - start)
            state.apply_action(action)
    return statistics.fmean(times)


def time_per_simulation(game: Any, decisions: int, seed: int) -> float:
    """The anchor's think time per simulation on this game (20 simulations a decision)."""
    sims, spent, done = 20, 0.0, 0
    rng = random.Random(seed)
    bot = anchor_bot(game, sims, seed)
    while done < decisions:
        state = game.new_initial_state()
        while not state.is_terminal() and done < decisions:
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            if len(state.legal_actions()) > 1:
                start = time.thread_time()
                bot.step(state)
                spent += time.thread_time() - start
                done += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return spent / (done * sims)


def interval(shares: list[float]) -> tuple[float, float, float]:
    """The mean share with its 95 % Wilson interval (a shared win is a fractional count; unlike the normal
    interval it keeps a width when every game went the same way)."""
    e = wilson(math.fsum(shares), len(shares))
    return e.value, e.low, e.high


def run_row(name: str, level: str, budget: str, args: argparse.Namespace) -> dict[str, Any]:
    players = GAMES[name]
    # With --think the searching levels get a think time (``hard@MS``) instead of their fixed count.
    level = with_think(level, args.think) if args.think is not None and level != "easy" else level
    game = load(name, sequential=name in SEQUENTIAL_NAMES, players=players, seed=args.seed, deals=DEALS)
    if budget == "equal":
        think = level_think(game, level, args.calibration, args.seed)
        per_sim = time_per_simulation(game, max(4, args.calibration // 4), args.seed)
        sims = max(2, round(think / per_sim))  # its first simulation only expands the root
    else:
        sims = args.sims
    hero, anchor = Side(), Side()
    shares: list[float] = []
    deals = random.Random(args.seed).sample(range(DEALS), args.rotations)
    for k, deal in enumerate(deals):
        for seat in range(players):
            returns = play(game, deal, seat, level, sims, args.seed * 1_000_003 + k * 101 + seat, hero, anchor)
            shares.append(winners_share(returns, seat))
    share = interval(shares)
    return {
        "game": name,
        "players": players,
        "hero": level,
        "anchor": f"ISMCTS {sims} simulations",
        "budget": budget,
        "anchor_simulations": sims,
        "games": len(shares),
        "hero_share": [round(x, 3) for x in share],
        "even_share": round(1 / players, 3),
        "hero_think_ms": [round(side * 1000, 3) for side in (hero.quantile(0.5), hero.quantile(0.95))],
        "anchor_think_ms": [round(side * 1000, 3) for side in (anchor.quantile(0.5), anchor.quantile(0.95))],
        "hero_mean_ms": round(statistics.fmean(hero.times) * 1000, 3) if hero.times else 0.0,
        "anchor_mean_ms": round(statistics.fmean(anchor.times) * 1000, 3) if anchor.times else 0.0,
    }


def markdown(r: dict[str, Any]) -> str:
    low, high = r["hero_share"][1], r["hero_share"][2]
    return (
        f"| {r['game']} | {r['players']} | {r['hero']} | {r['budget']} ({r['anchor_simulations']} sims) | {r['games']} "
        f"| {r['hero_share'][0] * 100:.1f} % [{low * 100:.1f}, {high * 100:.1f}] | {r['even_share'] * 100:.1f} % "
        f"| {r['hero_mean_ms']:.3g} / {r['hero_think_ms'][1]:.3g} | {r['anchor_mean_ms']:.3g} / {r['anchor_think_ms'][1]:.3g} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="games (default: all four)")
    parser.add_argument("--level", action="append", choices=LEVELS, help="levels (default: all three)")
    parser.add_argument("--budget", action="append", choices=BUDGETS, help="anchor budgets (default: both)")
    parser.add_argument("--rotations", type=int, default=4, help="deals, each played once per hero seat")
    parser.add_argument("--sims", type=int, default=1000, help="the anchor's simulations for --budget sims")
    parser.add_argument("--calibration", type=int, default=40, help="decisions measured to equalize time")
    parser.add_argument("--think", type=int, metavar="MS", help="normal and hard think MS ms a decision (wall)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="write the rows as one JSON document")
    args = parser.parse_args()
    if args.rotations < 1 or args.sims < 1 or args.calibration < 4:
        parser.error("--rotations and --sims must be at least 1, --calibration at least 4")
    print(
        "| game | players | hero | anchor budget | games | hero share | even | hero think mean / p95 ms | anchor think mean / p95 ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for name in args.game or list(GAMES):
        for level in args.level or list(LEVELS):
            for budget in args.budget or list(BUDGETS):
                row = run_row(name, level, budget, args)
                rows.append(row)
                print(markdown(row), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"seed": args.seed, "rotations": args.rotations, "rows": rows}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
