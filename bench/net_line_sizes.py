"""Largest host-to-peer line per game: prints one JSON document (the figures behind PROTOCOL.md § 13).

    python bench/net_line_sizes.py [--games N] [--seed S]

For every game: random games at the largest player count, measuring every seat's `update` line (view +
events + decision with all legal moves) at every step. For Matchstick Tycoon also the adversarial case:
two players, every card dealt, the largest expansion, and players who pass whenever they may, hoarding the
matchsticks that multiply the legal plays of a lead.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import cardnet
from cardnet.protocol.host import HostSession
from cardnet.table import Table, TableConfig, core_engine


def measure(game: str, players: int, options: dict[str, Any], games: int, seed: int, hoard: float) -> dict[str, Any]:
    """Play ``games`` games; ``hoard`` is the chance of passing whenever a pass is legal."""
    rng = random.Random(seed)
    worst: dict[str, Any] = {"bytes": 0, "legal_count": 0, "game_seed": None, "step": None}
    started = time.perf_counter()
    for _ in range(games):
        game_seed = rng.getrandbits(63)
        config = TableConfig(game, players, game_seed, options=options, bots={s: "random" for s in range(players)})
        table = Table(config, core_engine(), clock=lambda: 0.0)
        session = HostSession(table)
        step = 0
        while not table.game.is_over():
            for seat, decision in table.decisions.items():
                size = len(session.state_line(seat, "update"))
                if size > worst["bytes"]:
                    worst = {"bytes": size, "legal_count": decision.count, "game_seed": game_seed, "step": step}
            seat = rng.choice(sorted(table.decisions))
            decision = table.decisions[seat]
            index = rng.randrange(decision.count)
            if hoard:
                passes = [i for i, m in enumerate(json.loads(decision.legal_json)) if m.get("type") == "pass"]
                if passes and rng.random() < hoard:
                    index = passes[0]
            table.apply_move(seat, decision, index=index)
            step += 1
    return {
        "players": players,
        "options": options,
        "games": games,
        "hoard": hoard,
        "max_line": worst,
        "seconds": round(time.perf_counter() - started, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures: dict[str, Any] = {}
    for name in sorted(cardnet.GAMES):
        info = cardnet.GAMES[name]
        options: dict[str, Any] = {"expansion": 4} if name == "matchstick" else {}
        figures[name] = measure(name, info.max_players, options, args.games, args.seed, 0.0)
    if "matchstick" in cardnet.GAMES:
        figures["matchstick_hoarding"] = measure(
            "matchstick", 2, {"expansion": 4, "deal_all": True}, args.games, args.seed, 0.995
        )
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
