"""The README's Python snippet runs and is mypy --strict clean (the examples are in scripts/test-all's
mypy run; tests/test_rl.py runs the RL example)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]


def readme_snippet() -> str:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    snippet: str = next(b for b in blocks if "g.decision()" in b)
    return snippet


def test_the_readme_snippet_runs(tmp_path: Path) -> None:
    script = tmp_path / "snippet.py"
    script.write_text(readme_snippet(), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=True)
    assert "'type': 'play'" in done.stdout
    assert "Ranking(" in done.stdout


def test_the_readme_snippet_is_mypy_strict_clean(tmp_path: Path) -> None:
    # mypy comes with the test extra: a missing one is a broken install, not a reason to skip.
    from mypy import api

    script = tmp_path / "snippet.py"
    script.write_text(readme_snippet(), encoding="utf-8")
    out, err, status = api.run(["--strict", "--cache-dir", str(ROOT / ".mypy_cache"), str(script)])
    assert status == 0, out + err
