"""The Python embedding example runs to the end and shows what it promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "embed_python.py"


def test_embedding_example_runs() -> None:
    done = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=120, check=True)
    out = done.stdout
    assert "refused: no_discard" in out
    assert "spectator private part: None" in out
    assert "outcome:" in out
    assert "heuristic vs random over 2000 matches: SimResult(games=2000" in out
