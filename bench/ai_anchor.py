"""The built-in levels measured against an outside anchor: OpenSpiel's own ISMCTSBot playing our games through
the OpenSpiel adapter (``cardnet.rl.openspiel``, its ``resample_from_infostate``; Fistful in its sequential
form, as OpenSpiel's ISMCTS takes only sequential games).

For every game at its default player count and every level (``easy``, ``normal``, ``hard``), one seat plays the
level (the hero) and every other seat an ISMCTSBot (UCT constant 2, one random rollout per leaf, the most
visited move). The hero's seat rotates over all seats on the same deals (deal ``k`` is the same in every
rotation). Two budgets for the anchor:

  - ``equal``: equal time per decision, paced during the match (``Pacer``): before each of its decisions
    the anchor gets as many simulations as keep its think time so far level with the hero's (the hero's
    mean think time per decision so far, times the anchor's decisions including this one, less what the
    anchor has spent, over the anchor's measured time per simulation), at least 2 and at most three times
    the even share. Only decisions with a choice count on either side (with one legal move neither side
    thinks). Before the hero's first decision the pace comes from calibration games (``--calibration``
    decisions of whole games, every seat the level). An earlier version fixed the simulations from a few
    opening decisions before the match, which gave the anchor a third of ``hard``'s time in Matchstick,
    whose opening moves are its quickest;
  - ``sims``: a fixed number of simulations (``--sims``, 1 000 by default).

Each row: the hero's win share (a win shared by k seats counts 1/k, a draw in which every seat has the same
return counts 0) with a 95 % Wilson interval over games, the even share (1/players), both sides' think
time per decision with a choice (mean/p95 ms), and the anchor's mean simulations per decision. Think time is the deciding thread's CPU time (the built-in players run in
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
    """Think times (thread CPU) per decision with a choice of one side of a match, in seconds."""

    times: list[float] = field(default_factory=list)

    def mean(self) -> float:
        return statistics.fmean(self.times) if self.times else 0.0

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


@dataclass
class Pacer:
    """Sets the anchor's simulations decision by decision so that its think time keeps level with the hero's
    over the match (``equal`` budget), or holds them at ``fixed`` (``sims`` budget)."""

    hero: Side
    anchor: Side
    #: The hero's think time per decision expected before its first one (calibration), seconds.
    prior_think: float
    #: The anchor's time per simulation expected before its first decision, seconds.
    prior_per_sim: float
    fixed: int | None = None
    sims_used: list[int] = field(default_factory=list)

    def per_sim(self) -> float:
        spent, sims = math.fsum(self.anchor.times), sum(self.sims_used)
        return spent / sims if sims else self.prior_per_sim

    def next_sims(self) -> int:
        if self.fixed is not None:
            return self.fixed
        think = self.hero.mean() if self.hero.times else self.prior_think
        per_sim = max(self.per_sim(), 1e-6)
        due = think * (len(self.anchor.times) + 1) - math.fsum(self.anchor.times)
        even = think / per_sim
        # At least 2: the first simulation only expands the root.
        return max(2, min(round(3 * even), round(due / per_sim)))

    def record(self, seconds: float, sims: int) -> None:
        self.anchor.times.append(seconds)
        self.sims_used.append(sims)


def anchor_bot(game: Any, sims: int, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    return ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=max(2, sims), random_state=np.random.RandomState(seed + 1)
    )


def play(game: Any, deal: int, hero_seat: int, level: str, seed: int, pacer: Pacer) -> list[float]:
    """One game from deal ``deal`` (its chance digits), the hero at ``hero_seat``; returns the returns."""
    state = game.new_initial_state()
    digits = deal
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = len(state.chance_outcomes())
            state.apply_action(digits % outcomes)
            digits //= outcomes
            continue
        choice = len(state.legal_actions()) > 1
        hero_seed = rng.randrange(2**63)
        if state.current_player() == hero_seat:
            start = time.thread_time()
            action = state.choose_action(player=level, seed=hero_seed)
            if choice:
                pacer.hero.times.append(time.thread_time() - start)
        else:
            sims = pacer.next_sims()
            # A bot per decision, built with its budget through the public constructor (ISMCTSBot keeps
            # nothing between searches but its random stream, seeded here from the game's).
            bot = anchor_bot(game, sims, rng.randrange(2**31))
            start = time.thread_time()
            action = int(bot.step(state))
            if choice:
                pacer.record(time.thread_time() - start, sims)
        state.apply_action(action)
    return [float(r) for r in state.returns()]


def level_think(game: Any, level: str, decisions: int, seed: int) -> float:
    """The level's mean think time per decision with a choice on this game, over whole games with every seat
    played by the level (at least ``decisions`` decisions, so every phase of a game is in the mean)."""
    times: list[float] = []
    rng = random.Random(seed)
    while len(times) < decisions:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            start = time.thread_time()
            action = state.choose_action(player=level, seed=rng.randrange(2**63))
            if len(state.legal_actions()) > 1:
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
    hero, anchor = Side(), Side()
    if budget == "equal":
        think = level_think(game, level, args.calibration, args.seed)
        per_sim = time_per_simulation(game, max(4, args.calibration // 4), args.seed)
        pacer = Pacer(hero, anchor, think, per_sim)
    else:
        pacer = Pacer(hero, anchor, 0.0, 0.0, fixed=args.sims)
    shares: list[float] = []
    deals = random.Random(args.seed).sample(range(DEALS), args.rotations)
    for k, deal in enumerate(deals):
        for seat in range(players):
            returns = play(game, deal, seat, level, args.seed * 1_000_003 + k * 101 + seat, pacer)
            shares.append(winners_share(returns, seat))
            # A long row reports as it goes, so a run cut short still says where it stood.
            print(
                f"{name} {level}: game {len(shares)}, share {math.fsum(shares) / len(shares):.3f}, think ms "
                f"hero {hero.mean() * 1000:.1f} anchor {anchor.mean() * 1000:.1f}",
                file=sys.stderr,
                flush=True,
            )
    share = interval(shares)
    sims = round(statistics.fmean(pacer.sims_used)) if pacer.sims_used else 0
    return {
        "game": name,
        "players": players,
        "hero": level,
        "anchor": f"ISMCTS {sims} simulations" + (" a decision on average" if budget == "equal" else ""),
        "budget": budget,
        "anchor_simulations": sims,
        "anchor_simulations_range": [min(pacer.sims_used, default=0), max(pacer.sims_used, default=0)],
        "games": len(shares),
        "hero_share": [round(x, 3) for x in share],
        "even_share": round(1 / players, 3),
        "hero_think_ms": [round(side * 1000, 3) for side in (hero.quantile(0.5), hero.quantile(0.95))],
        "anchor_think_ms": [round(side * 1000, 3) for side in (anchor.quantile(0.5), anchor.quantile(0.95))],
        "hero_mean_ms": round(hero.mean() * 1000, 3),
        "anchor_mean_ms": round(anchor.mean() * 1000, 3),
        "hero_decisions": len(hero.times),
        "anchor_decisions": len(anchor.times),
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
    parser.add_argument(
        "--calibration", type=int, default=40, help="decisions of whole games measured for the opening pace"
    )
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
