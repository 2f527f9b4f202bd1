"""Writing a data file of the web seat's page from the core, or checking the committed one (the `main` of
`scripts/web_segments.py` and `scripts/web_ten_deck.py`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["PAGE", "main", "render"]

#: The page's directory in the source tree.
PAGE = Path(__file__).resolve().parent.parent / "python" / "cardnet" / "web" / "page"


def render(data: Any) -> str:
    """The file's text: sorted compact JSON on one line, then a newline."""
    return json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"


def main(argv: list[str], target: Path, text: str, usage: str) -> int:
    """No argument: (re)write ``target`` with ``text``. ``check``: exit status 1 when the committed file differs."""
    script = Path(argv[0]).name
    if argv[1:] == ["check"]:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target} is out of date: run python scripts/{script}", file=sys.stderr)
            return 1
        return 0
    if argv[1:]:
        print(usage, file=sys.stderr)
        return 2
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target} ({len(text)} bytes)")
    return 0
