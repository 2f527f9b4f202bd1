"""A cardnet bot written with the SDK: one class, one method.

    cardnet bot examples/sdk_bot.py TABLE-NAME --games 3     # or HOST:PORT instead of the table's name

It prefers moves that keep its options open: among the legal moves it picks one at random, but never the
same move object twice in a row when there is a choice (a tiny example of keeping state between decisions).
"""

from __future__ import annotations

import random

from cardnet.bot import Bot
from cardnet.protocol import JSONValue, canonical


class VarietyBot(Bot):
    """Random legal moves, avoiding an immediate repeat of its previous move."""

    def __init__(self) -> None:
        self.rng = random.Random()
        self.previous: str | None = None

    def choose(self, view: dict[str, JSONValue], legal: list[JSONValue]) -> JSONValue:
        """An index into ``legal``."""
        fresh = [i for i, move in enumerate(legal) if canonical(move) != self.previous] or list(range(len(legal)))
        index = self.rng.choice(fresh)
        self.previous = canonical(legal[index])
        return index
