#!/usr/bin/env python3
"""Writes the web seat's TEN deck data, `python/cardnet/web/page/ten-deck.json`, from the core.

    python scripts/web_ten_deck.py          # (re)write the file
    python scripts/web_ten_deck.py check    # exit 1 when the committed file differs from what the core gives

The page counts how many of the cards still in the draw pile would bust the tableau (as the terminal client's
`bust_risk` does): for that it needs the deck of each player count, which is the core's card data
(`_core.ten_deck`). `tests/test_web_page.py` fails when the committed file and the core disagree.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cardnet.games import ten_deck

TARGET = Path(__file__).resolve().parent.parent / "python" / "cardnet" / "web" / "page" / "ten-deck.json"
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


def render() -> str:
    """The file's text: sorted compact JSON on one line, then a newline."""
    return json.dumps(page_deck(), sort_keys=True, separators=(",", ":")) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if argv[1:] == ["check"]:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is out of date: run python scripts/web_ten_deck.py", file=sys.stderr)
            return 1
        return 0
    if argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
