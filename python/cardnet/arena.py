"""``cardnet arena``: batch self-play of built-in players, summarised per seat."""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from . import _core
from .games import SimResult, simulate

__all__ = ["run_arena", "arena"]


def arena(
    game: str,
    seats: Sequence[str],
    games: int,
    jobs: int = 1,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
) -> tuple[list[SimResult], float]:
    """Plays ``games`` games over ``jobs`` threads (the core releases the GIL); returns each thread's
    totals and the wall-clock seconds.

    With one job the games are exactly ``cardnet.simulate(game, seats, games, seed)``; with J jobs, job j
    plays its share seeded ``cardnet.derive(seed, j)``, so a (seed, jobs) pair always replays the same games.
    """
    jobs = max(1, min(jobs, games)) if games > 0 else 1
    shares = [games // jobs + (1 if j < games % jobs else 0) for j in range(jobs)]
    seeds = [seed] if jobs == 1 else [_core.derive(seed, j) for j in range(jobs)]
    start = time.perf_counter()
    if jobs == 1:
        results = [simulate(game, seats, shares[0], seeds[0], options)]
    else:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(simulate, game, seats, n, s, options) for n, s in zip(shares, seeds)]
            results = [f.result() for f in futures]
    return results, time.perf_counter() - start


def run_arena(
    game: str,
    seats: Sequence[str],
    games: int,
    jobs: int,
    seed: int,
    options: Mapping[str, Any],
    as_json: bool,
) -> int:
    """Runs the arena and prints a table (or one JSON document with ``as_json``)."""
    results, seconds = arena(game, seats, games, jobs, seed, options)
    total_games = sum(r.games for r in results)
    decisions = sum(r.decisions for r in results)
    wins = [sum(r.wins[i] for r in results) for i in range(len(seats))]
    rewards = [sum(r.rewards[i] for r in results) for i in range(len(seats))]
    no_winner = sum(r.no_winner for r in results)
    if as_json:
        doc = {
            "game": game,
            "seats": list(seats),
            "games": total_games,
            "decisions": decisions,
            "wins": wins,
            "no_winner": no_winner,
            "reward_milli": [round(r * 1000) for r in rewards],
            "jobs": len(results),
            "seed": seed,
            "options": dict(options),
            "milliseconds": round(seconds * 1000),
        }
        sys.stdout.write(_core.json_dumps(doc) + "\n")
        return 0
    out = sys.stdout
    out.write(f"{game}: {total_games} games, {decisions} decisions in {seconds:.2f} s ")
    rate = total_games / seconds if seconds > 0 else float("inf")
    out.write(f"({rate:,.0f} games/s, {len(results)} job(s), seed {seed})\n")
    width = max(len(s) for s in seats) if seats else 6
    out.write(f"  {'seat':<4}  {'player':<{width}}  {'wins':>7}  {'win %':>6}  {'mean reward':>11}\n")
    for i, name in enumerate(seats):
        share = 100.0 * wins[i] / total_games if total_games else 0.0
        mean = rewards[i] / total_games if total_games else 0.0
        out.write(f"  {i:<4}  {name:<{width}}  {wins[i]:>7}  {share:>6.1f}  {mean:>11.3f}\n")
    if no_winner:
        out.write(f"  no winner: {no_winner}\n")
    return 0
