"""How strong the built-in players are, per game, measured with rotated ``cardnet arena`` matches.

For every game at its default player count: ``heuristic`` against ``random`` players, then each search
level (``normal``, ``hard``) against ``heuristic`` players (``easy``). One player is the hero, every other
seat the opponent; the seats rotate, so the hero plays every seat equally. Each row gives the hero's win
share and mean reward with 95 % intervals, the hero's Elo over the others (two players: head to head; more: a
Bradley–Terry fit) and the hero's think time per move (p50/p95, one job = one core).

Goals checked on every row they apply to:
  - think time: p95 <= 200 ms/move for ``normal``, <= 1 s for ``hard``;
  - ``hard`` beats ``easy``: the 95 % lower bound of its win share is above an even share (1/players).

Prints a Markdown table (rows as they finish) and, with ``--json``, one JSON document instead. Think time
is the deciding thread's CPU time, so a busy machine slows the run but barely moves the figures; the win
figures depend only on the seed.

    python bench/ai_strength.py [--games 200] [--search-games 12] [--seed 1] [--game NAME ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

import cardnet
from cardnet.arena import Match, play_match
from cardnet.rating import Estimate

#: The p95 think-time goal per level, in seconds.
THINK_GOALS = {"normal": 0.2, "hard": 1.0}


def row(match: Match, hero: str, opponent: str) -> dict[str, Any]:
    """The hero's figures in one match (the hero is player 0)."""
    players = len(match.players)
    share, reward = match.win_share(0), match.mean_reward(0)
    if players == 2:
        elo = match.elo()
    else:
        # Ratings have mean 0, so the hero's lead over the mean of the others is r0 * n / (n - 1).
        r0, scale = match.ratings()[0], players / (players - 1)
        elo = Estimate(r0.value * scale, r0.low * scale, r0.high * scale)
    think = match.think[0]
    p95 = think.quantile(0.95)
    goals: dict[str, bool] = {}
    if hero in THINK_GOALS:
        goals["think"] = p95 <= THINK_GOALS[hero]
    if hero == "hard":
        goals["beats_easy"] = share.low > 1 / players
    return {
        "game": match.game,
        "players": players,
        "hero": hero,
        "opponent": opponent,
        "games": len(match.records),
        "win_share": [round(share.value, 3), round(share.low, 3), round(share.high, 3)],
        "mean_reward": [round(reward.value, 3), round(reward.low, 3), round(reward.high, 3)],
        # JSON has no infinity: an unbounded Elo (a clean sweep) is written as the string "+inf" or "-inf".
        "elo": [
            round(x) if math.isfinite(x) else ("+inf" if x > 0 else "-inf") for x in (elo.value, elo.low, elo.high)
        ],
        "think_ms_p50": float(f"{think.quantile(0.5) * 1000:.3g}"),
        "think_ms_p95": float(f"{p95 * 1000:.3g}"),
        "goals": goals,
        "seconds": round(match.seconds, 1),
    }


def markdown(r: dict[str, Any]) -> str:
    """One table row for people."""

    def interval(v: list[float]) -> str:
        return f"{100 * v[0]:.0f} % [{100 * v[1]:.0f}, {100 * v[2]:.0f}]"

    elo = r["elo"]
    elo_text = f"{_e(elo[0])} [{_e(elo[1])}, {_e(elo[2])}]"
    goals = ", ".join(f"{k} {'met' if ok else 'NOT met'}" for k, ok in r["goals"].items()) or "-"
    return (
        f"| {r['game']} | {r['players']} | {r['hero']} vs {r['opponent']} | {r['games']} "
        f"| {interval(r['win_share'])} | {interval(r['mean_reward'])} | {elo_text} "
        f"| {r['think_ms_p50']:.3g} / {r['think_ms_p95']:.3g} | {goals} |"
    )


def _e(x: float | str) -> str:
    return x if isinstance(x, str) else f"{x:+.0f}"


HEADER = (
    "| game | players | hero vs others | games | hero wins (95 %) | hero reward (95 %) | Elo (95 %) "
    "| think p50 / p95 ms | goals |\n|---|---|---|---|---|---|---|---|---|"
)


def main() -> int:
    """Runs the matches and prints the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games of heuristic vs random (default 200)")
    parser.add_argument("--search-games", type=int, default=12, help="games per search-level match (default 12)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--game", action="append", help="only this game (repeatable; default every game)")
    parser.add_argument("--level", action="append", help="only these search levels (default normal and hard)")
    parser.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    args = parser.parse_args()
    games = args.game or list(cardnet.GAMES)
    levels = args.level or ["normal", "hard"]
    rows = []
    if not args.json:
        print(HEADER, flush=True)
    for game in games:
        players = cardnet.GAMES[game].default_players
        plan = [("heuristic", "random", args.games)] + [(level, "heuristic", args.search_games) for level in levels]
        for hero, opponent, count in plan:
            # One job: think times are per core, as the goals are stated.
            match = play_match(game, [hero] + [opponent] * (players - 1), count, seed=args.seed, jobs=1)
            r = row(match, hero, opponent)
            rows.append(r)
            if not args.json:
                print(markdown(r), flush=True)
    if args.json:
        json.dump({"benchmark": "ai_strength", "seed": args.seed, "rows": rows}, sys.stdout, sort_keys=True)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
