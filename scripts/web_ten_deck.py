#!/usr/bin/env python3
"""Writes the web seat's TEN deck data, `python/cardnet/web/page/ten-deck.json`, from the core.

    python scripts/web_ten_deck.py          # (re)write the file
    python scripts/web_ten_deck.py check    # exit 1 when the committed file differs from what the core gives

The page counts how many of the cards still in the draw pile would bust the tableau (as the terminal client's
`bust_risk` does): for that it needs the deck of each player count, which is the core's card data
(`_core.ten_deck`). `tests/test_web_page.py` fails when the committed file and the core disagree.
"""

from __future__ import annotations

import sys
from typing import Any

from cardnet.games import ten_deck
from page_data import PAGE, main, render

TARGET = PAGE / "ten-deck.json"
#: TEN seats 1 to 5 players.
PLAYER_COUNTS = range(1, 6)


def page_deck() -> dict[str, Any]:
    """Every card of the largest deck by id, and the ids each player count plays with."""
    cards: dict[str, Any] = {}
    decks: dict[str, list[int]] = {}
    for players in PLAYER_COUNTS:
        deck = ten_deck(players)
        for card in deck:
            cards[str(card["id"])] = dict(card)
        decks[str(players)] = sorted(int(card["id"]) for card in deck)
    return {"cards": cards, "decks": decks}


if __name__ == "__main__":
    sys.exit(main(sys.argv, TARGET, render(page_deck()), __doc__ or ""))
