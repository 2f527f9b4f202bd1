"""The command line at its edges (issue 29): a closed standard input, a reader that goes away, and what
`cardnet --help` promises."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from nethelpers import child_env


def shell(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path / "state")}
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=120)


CARDNET = f"{shlex.quote(sys.executable)} -m cardnet"


def test_help_says_a_bare_cardnet_opens_the_lobby(tmp_path: Path) -> None:
    out = shell(f"{CARDNET} --help", tmp_path)
    assert "Without a command, opens the lobby" in " ".join(out.stdout.split())
    assert "plays a local game" not in out.stdout


def test_line_mode_with_stdin_closed_leaves_as_at_the_end_of_input(tmp_path: Path) -> None:
    out = shell(f"{CARDNET} play --plain --seed 1 <&-", tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and "continue it with: cardnet play --resume" in out.stdout


def test_printing_into_a_closed_pipe_ends_quietly_with_the_sigpipe_code(tmp_path: Path) -> None:
    played = shell(f"printf '1\\n1\\n1\\nquit\\n' | {CARDNET} play fistful --plain --seed 3", tmp_path)
    assert played.returncode == 0, played.stderr
    journal = next((tmp_path / "state").rglob("*.journal"))
    # `true` exits at once: every write of the command meets a pipe nobody reads.
    for command in (f"replay {journal}", "rules ten", f"replay {journal} --json"):
        out = shell(f"{CARDNET} {command} | true; echo $'\\n'exit=${{PIPESTATUS[0]}}", tmp_path)
        assert out.stdout.rstrip().endswith("exit=141"), (command, out.stdout, out.stderr)
        assert out.stderr == "", (command, out.stderr)


def test_readme_quick_start_says_how_long_the_silent_compile_takes() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    words = " ".join(quick.split())
    assert "`pip install .` first compiles the Rust core: that takes about two minutes" in words
    assert "Building wheel for cardnet" in words
