"""The command line: fast help, version, rules, arena, and line-mode games driven through stdin."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import pytest

import cardnet
from cardnet.ui.plain import play_plain
from cardnet.ui.render import renderer_for


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardnet", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_help_loads_none_of_the_heavy_libraries() -> None:
    """`cardnet --help` stays fast by importing no network, UI or research library (timings belong in bench/)."""
    heavy = ("trio", "zeroconf", "prompt_toolkit", "numpy", "ray", "ifaddr")
    code = (
        "import sys\n"
        "from cardnet.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    *_, modules = out.stdout.strip().splitlines()
    assert modules == "[]"
    assert "play" in out.stdout and "arena" in out.stdout and "rules" in out.stdout


def test_version() -> None:
    out = run("--version")
    assert out.returncode == 0
    assert out.stdout.startswith(f"cardnet {cardnet.__version__} (")


def test_usage_errors_exit_2() -> None:
    assert run("play", "chess", "--plain").returncode == 2
    assert run("arena").returncode == 2
    assert run("rules").returncode == 2


@pytest.mark.parametrize("game", list(cardnet.GAMES))
def test_rules(game: str) -> None:
    out = run("rules", game, "--summary")
    assert out.returncode == 0
    info = cardnet.GAMES[game]
    assert info.title in out.stdout
    assert f"{info.min_players} to {info.max_players}" in out.stdout or info.min_players == info.max_players
    for spec in info.options:
        assert spec.name in out.stdout
    # The whole rules name every option too, so a player learns them from either form.
    full = run("rules", game).stdout
    assert full.startswith(f"# {info.title}")
    for spec in info.options:
        assert spec.name in full


@pytest.mark.parametrize("game", list(cardnet.GAMES))
def test_arena_json(game: str) -> None:
    players = cardnet.GAMES[game].default_players
    seats = ",".join(["random"] * players)
    args = ("arena", game, "--seats", seats, "--games", "6", "--jobs", "2", "--seed", "3", "--json")
    out = run(*args)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    doc = json.loads(out.stdout)
    # Six games round up to whole deals, each played once per seating.
    assert doc["games"] == -(-6 // players) * players and len(doc["per_player"]) == players
    again = json.loads(run(*args).stdout)
    assert again["decisions"] == doc["decisions"]


def test_play_plain_matchstick_scripted() -> None:
    script = "help\nplay 2 999\nplay F\nnonsense words\n" + "1\n" * 3000
    out = run("play", "--plain", "--seed", "3", "--players", "4", stdin=script)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Matchstick Tycoon: 4 players, you are seat 0, seed 3." in text
    assert "Your hand (14 cards, 1 matchstick; value and position under each):" in text
    # Without a terminal the screen counts as 80x24, where cards are drawn 3 rows tall.
    assert " _ " in text and "|_|" in text
    assert "Refused: " in text
    assert "Refused: 'nonsense words' is not a move here. The moves: play VALUE POSITION" in text
    assert "Game over (ranking)." in text
    # The same seed and the same typed moves replay the same game (each in its own journal).
    journal_line, _, game_text = text.partition("\n")
    assert journal_line.startswith("journal: ")
    again = run("play", "--plain", "--seed", "3", "--players", "4", stdin=script).stdout
    assert again.partition("\n")[2] == game_text


def test_play_plain_typed_move_and_quit() -> None:
    seed = next(s for s in range(100) if cardnet.new_game("matchstick", players=3, seed=s).to_act() == [0])
    g = cardnet.new_game("matchstick", players=3, seed=seed)
    renderer = renderer_for("matchstick", ["You", "Seat 1", "Seat 2"])
    renderer.observe(g.view(0))
    move = g.legal_move(0, g.legal_count(0) - 1)
    typed = renderer.move_text(move)
    assert typed.startswith("play ")
    out = io.StringIO()
    script = f"list\nplay {move['value']} 999\n{typed}\nquit\n"
    rc = play_plain("matchstick", players=3, seed=seed, stdin=io.StringIO(script), stdout=out)
    assert rc == 0
    text = out.getvalue()
    assert "Refused: " in text
    assert f"You: {typed}" in text
    assert f"You play {len(move['cards'])} x {move['value']}" in text
    assert text.rstrip().endswith("Bye.")


@pytest.mark.parametrize("game", list(cardnet.GAMES))
def test_play_plain_every_game(game: str) -> None:
    out = io.StringIO()
    # Numbers 1-4: an out-of-range pick is refused and the next line read, so every game gets varied play.
    picks = random.Random(4)
    script = "".join(f"{picks.randint(1, 4)}\n" for _ in range(20_000))
    rc = play_plain(game, seed=4, stdin=io.StringIO(script), stdout=out)
    assert rc == 0
    assert "Game over" in out.getvalue()


def test_play_plain_end_of_input() -> None:
    game = next(iter(cardnet.GAMES))
    out = io.StringIO()
    assert play_plain(game, seed=1, stdin=io.StringIO(""), stdout=out) == 0
    assert out.getvalue().rstrip().endswith("Bye.") or "Game over" in out.getvalue()
