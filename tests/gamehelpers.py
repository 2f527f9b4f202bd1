"""Helpers the game API tests share: driving a game with random legal moves."""

from __future__ import annotations

import random

from cardnet import Game


def play_random(g: Game, rng: random.Random, limit: int = 100_000) -> int:
    """Plays uniformly random legal moves through the fast path until the game ends or `limit` moves are made;
    returns the decision count."""
    steps = 0
    while (d := g.decision()) is not None and steps < limit:
        seat, count = d
        g.apply_index(seat, rng.randrange(count))
        steps += 1
    return steps
