"""Largest host-to-peer line per game: prints one JSON document (the figures behind PROTOCOL.md § 13).

    python bench/net_line_sizes.py [--games N] [--seed S]

Plays random games at the largest player count with the options that make the most legal moves, and
measures every seat's `update` line (view + events + decision with all legal moves) at every step.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import cardnet
from cardnet.table import Table, TableConfig, core_engine

#: Options that maximise the size of decisions (more cards, more matchsticks).
WIDEST: dict[str, dict[str, object]] = {"matchstick": {"expansion": 4}}


def measure(game: str, games: int, seed: int) -> dict[str, object]:
    info = cardnet.GAMES[game]
    players = info.max_players
    rng = random.Random(seed)
    worst = {"bytes": 0, "legal_count": 0, "game_seed": None, "step": None}
    started = time.perf_counter()
    for n in range(games):
        game_seed = rng.getrandbits(63)
        config = TableConfig(game, players, game_seed, options=dict(WIDEST.get(game, {})), bots={s: "random" for s in range(players)})
        table = Table(config, core_engine(), clock=lambda: 0.0)
        step = 0
        while not table.game.is_over():
            for seat, decision in table.decisions.items():
                size = len(table.state_message(seat, "update"))
                if size > int(worst["bytes"]):  # type: ignore[call-overload]
                    worst = {"bytes": size, "legal_count": decision.count, "game_seed": game_seed, "step": step}
            seat = rng.choice(sorted(table.decisions))
            decision = table.decisions[seat]
            table.apply_move(seat, decision, index=rng.randrange(decision.count))
            step += 1
    return {"players": players, "options": WIDEST.get(game, {}), "games": games, "max_line": worst,
            "seconds": round(time.perf_counter() - started, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps({game: measure(game, args.games, args.seed) for game in sorted(cardnet.GAMES)}, sort_keys=True))


if __name__ == "__main__":
    main()
