#!/usr/bin/env python3
"""Writes the web seat's seven-segment data, `python/cardnet/web/page/segments.json`, from the core.

    python scripts/web_segments.py          # (re)write the file
    python scripts/web_segments.py check    # exit 1 when the committed file differs from what the core gives

The page draws Matchstick Tycoon's cards (and the digits of A Fistful of Gold's) from this file, so the
browser shows exactly the segments, turned shapes and matchstick costs the rules core uses; it holds no
segment table of its own. `tests/test_web_page.py` fails when the committed file and the core disagree.
"""

from __future__ import annotations

import sys
from typing import Any

from cardnet import segments
from page_data import PAGE, main, render

TARGET = PAGE / "segments.json"


def _label(card: str) -> str:
    """What a printed card reads, as the terminal client labels it (``6/9``: 6 upright, 9 turned)."""
    upright = segments.value_of_shape(segments.shape(card), expansion=True) or card
    turned = segments.value_of_shape(segments.shape(card, rotated=True), expansion=True)
    return upright if turned in (None, upright) else f"{upright}/{turned}"


def page_segments() -> dict[str, Any]:
    """The data the page reads: every value's glyph, and per printed card type its shapes, label and the
    ways it can show each value (with the expansion, a superset of every table's)."""
    values = segments.values(expansion=True)
    cards = {
        card: {
            "shape": segments.shape(card),
            "turned": segments.shape(card, rotated=True),
            "label": _label(card),
            "ways": [[t.value, t.rotated, t.matchsticks, t.added] for t in segments.transforms(card, expansion=True)],
        }
        for card in segments.card_types(expansion=True)
    }
    return {"values": values, "glyphs": {v: segments.glyph(v) for v in values}, "cards": cards}


if __name__ == "__main__":
    sys.exit(main(sys.argv, TARGET, render(page_segments()), __doc__ or ""))
