"""What a newcomer tripped over (issue 10), one test per point: the command line's messages and defaults,
card words as the screen shows them, player words instead of protocol names in every renderer and refusal,
long move lists that leave the hand on an 80x24 screen, Matchstick cards named by position with their value
under them, and `legal_moves` for a seat that is not to act."""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardnet
from cardnet.cli import build_parser
from cardnet.journal import default_journal_path
from cardnet.ui.plain import play_plain
from cardnet.ui.render import GenericRenderer, MoveTextError, move_list, renderer_for

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = ROOT / "rust" / "core" / "tests" / "golden"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardnet", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


# -- the command line ----------------------------------------------------------------------------------


def test_unknown_command_or_game_lists_the_commands_and_games() -> None:
    out = run("foo")
    assert out.returncode == 2
    assert "'foo' is neither a command nor a game" in out.stderr
    for name in ("play", "rules", "arena", *cardnet.GAMES):
        assert name in out.stderr
    # A game name alone still means `play GAME`, and an unknown game after `play` names the games.
    assert "unknown game 'chess'" in run("play", "chess").stderr


def test_arena_accepts_levels_and_ismcts_budgets() -> None:
    out = run("arena", "fistful", "--seats", "easy,ismcts:4", "--games", "2", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["seats"] == ["heuristic", "ismcts:4"]
    out = run("arena", "fistful", "--seats", "normal,random", "--games", "1", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["seats"] == [cardnet.ai.level_player("fistful", "normal"), "random"]
    assert cardnet.ai.level_player("fistful", "hard").startswith("ismcts:")
    bad = run("arena", "fistful", "--seats", "hrd,easy", "--games", "1")
    assert bad.returncode == 2
    assert "unknown player 'hrd'" in bad.stderr and "easy, normal, hard" in bad.stderr


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@pytest.mark.parametrize("command", ["play", "rules", "arena"])
def test_help_states_every_default(command: str) -> None:
    sub = subparsers(build_parser())[command]
    for action in sub._actions:
        if not action.option_strings or action.help in (None, argparse.SUPPRESS) or "-h" in action.option_strings:
            continue
        assert action.help is not None
        assert "default" in action.help or "required" in action.help, (command, action.option_strings)


def test_play_with_a_seat_that_does_not_exist_is_a_usage_error() -> None:
    out = run("play", "matchstick", "--plain", "--seat", "7")
    assert out.returncode == 2
    assert "cardnet play: error: argument --seat: a 4-player game has seats 0 to 3, not 7" in out.stderr
    assert "no_such_seat" not in out.stderr
    assert run("play", "fistful", "--plain", "--seat", "-1").returncode == 2


def test_readme_journal_paths_are_where_journals_live() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paths = re.findall(r"~/\.local/state/cardnet/\S+", readme)
    assert paths
    assert default_journal_path("t").parent.name == "journals"
    for path in paths:
        assert path.startswith("~/.local/state/cardnet/journals/"), path


# -- card words ----------------------------------------------------------------------------------------


def test_fistful_card_words_are_what_the_screen_shows() -> None:
    # The whole line-mode refusal is in test_render's typed-moves test; here, the words themselves.
    renderer = renderer_for("fistful", ["You", "Seat 1"])
    view = cardnet.new_game("fistful", seed=11).view(0)
    assert renderer.parse_move("pick d", view) == {"type": "pick", "card": 9}
    assert renderer.parse_move("discard D 2", view) == {"type": "discard", "cards": [2, 9]}
    for words in ("pick 9", "discard 0 3", "retrieve 12"):
        with pytest.raises(MoveTextError):
            renderer.parse_move(words, view)


def matchstick_at_turn(players: int = 3) -> cardnet.Game:
    seed = next(s for s in range(100) if cardnet.new_game("matchstick", players=players, seed=s).to_act() == [0])
    return cardnet.new_game("matchstick", players=players, seed=seed)


def test_matchstick_cards_show_values_and_are_named_by_position() -> None:
    g = matchstick_at_turn()
    view = g.view(0)
    hand = view["private"]["hand"]
    renderer = renderer_for("matchstick", ["You", "Seat 1", "Seat 2"])
    lines = renderer.table(view, 0)
    labels = [c["card"] for c in hand]
    shown = {"3E": "3/E", "69": "6/9"}
    # Under the drawn cards: the values (the turned value after a slash), then positions 1..n.
    values_row = next(i for i, line in enumerate(lines) if line.split() == [shown.get(c, c) for c in labels[:15]])
    assert lines[values_row + 1].split() == [str(p) for p in range(1, min(15, len(hand)) + 1)]
    assert not any(str(c["id"]) in lines[values_row].split() and c["id"] > 15 for c in hand)
    renderer.observe(view)
    move = g.legal_moves(0)[0]
    text = renderer.move_text(move)
    assert renderer.parse_move(text, view) == move
    positions = [hand.index(next(c for c in hand if c["id"] == i)) + 1 for i in move["cards"]]
    assert text == " ".join(["play", move["value"], *map(str, positions)])
    with pytest.raises(MoveTextError, match="no card at position 99"):
        renderer.parse_move(f"play {move['value']} 99", view)
    with pytest.raises(MoveTextError, match="named twice"):
        renderer.parse_move("play 8 1 1", view)


# -- player words --------------------------------------------------------------------------------------

#: Protocol names: snake_case words, JSON quoting, card names like coins-7 or red-flower.
PROTOCOL = re.compile(r"[a-z]+_[a-z_]+|\"[a-z_]+\":|\b(coins|strings|myriads)-\d|(white|red)-flower|old-thousand")
#: "You" with a verb in the third person ("You leads", "You takes", "You has").
YOU_THIRD_PERSON = re.compile(r"\bYou (?!pass\b)[a-z]*[^s\W]s\b")


def player_text_problems(text: str) -> list[str]:
    problems = []
    if PROTOCOL.search(text):
        problems.append(f"protocol name in {text!r}")
    if YOU_THIRD_PERSON.search(text):
        problems.append(f"grammar in {text!r}")
    return problems


def golden_texts(game: str) -> Iterator[str]:
    """Every line a renderer writes for the full golden playthroughs, the moving seat being "You"."""
    for path in sorted(GOLDEN_DIR.glob(f"{game}-full*.jsonl")):
        lines = path.read_text(encoding="ascii").splitlines()
        players = cardnet.json_loads(lines[0])["players"]
        for line in lines[1:]:
            record = cardnet.json_loads(line)
            if "view" not in record:
                continue
            seat = record["seat"]
            renderer = renderer_for(game, ["You" if s == seat else f"Seat {s}" for s in range(players)])
            renderer.observe(record["view"])
            yield from renderer.table(record["view"], seat)
            yield renderer.move_text(record["move"])
            for event in record.get("events", {}).get("seat", []):
                yield renderer.event_text(event) or ""


def rendered_texts(game: str, seed: int, players: int | None = None) -> Iterator[str]:
    """Every line a renderer writes over one random game, seen from each seat in turn as "You"."""
    g = cardnet.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    renderers = [
        renderer_for(game, ["You" if s == me else f"Seat {s}" for s in range(g.players)]) for me in range(g.players)
    ]
    while (d := g.decision()) is not None:
        seat, count = d
        view = g.view(seat)
        renderer = renderers[seat]
        renderer.observe(view)
        yield from renderer.table(view, seat)
        for move in g.legal_moves(seat)[:30]:
            yield renderer.move_text(move)
            yield renderer.move_note(move, view)
        g.apply_index(seat, rng.randrange(count))
        for me, other in enumerate(renderers):
            other.observe(g.view(me))
            for event in g.events(me):
                yield other.event_text(event) or ""
    outcome = g.outcome()
    assert outcome is not None
    for renderer in renderers:
        yield from renderer.outcome_lines(outcome)
        yield from renderer.help()


@pytest.mark.parametrize("game", list(cardnet.GAMES))
def test_renderers_write_player_words(game: str) -> None:
    problems = [p for text in golden_texts(game) for p in player_text_problems(text)]
    counts = {"ten": [1, 3], "matchstick": [3]}.get(game, [None])
    for players in counts:
        for seed in range(3):
            for text in rendered_texts(game, seed, players):
                problems += player_text_problems(text)
    assert not problems, problems[:10]


def refusals(game: str, players: int | None, seed: int) -> Iterator[str]:
    """The core's refusal reasons for moves seen elsewhere in the game, tried at every decision."""
    g = cardnet.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    pool: list[dict[str, Any]] = []
    while (d := g.decision()) is not None:
        seat, count = d
        legal = g.legal_moves(seat)
        pool += rng.sample(legal, min(3, len(legal)))
        for move in rng.sample(pool, min(8, len(pool))):
            try:
                g.index_of(seat, move)
            except cardnet.IllegalMove as refused:
                yield refused.reason
        for other in range(g.players):
            if other != seat and other not in g.to_act():
                try:
                    g.index_of(other, legal[0])
                except cardnet.IllegalMove as refused:
                    yield refused.reason
        g.apply_index(seat, rng.randrange(count))


@pytest.mark.parametrize("game", list(cardnet.GAMES))
def test_refusals_use_player_words(game: str) -> None:
    reasons: set[str] = set()
    for seed in range(4):
        reasons.update(refusals(game, {"ten": 3}.get(game), seed))
    assert reasons
    problems = [p for r in sorted(reasons) for p in player_text_problems(r)]
    assert not problems, problems


def test_cherki_refusals_name_cards_as_the_screen_does() -> None:
    g = cardnet.new_game("cherki", seed=1)
    seat = g.to_act()[0]
    g.apply(seat, {"type": "draw_stock"})
    with pytest.raises(cardnet.IllegalMove) as refused:
        g.apply(seat, {"type": "call"})
    assert '"call"' not in refused.value.reason
    missing = next(c for c in range(120) if c not in g.view(seat)["private"]["hand"])
    with pytest.raises(cardnet.IllegalMove) as refused:
        g.apply(seat, {"type": "discard", "card": missing})
    names = ("Coins", "Strings", "Myriads", "White Flower", "Red Flower", "Old Thousand")
    assert any(name in refused.value.reason for name in names), refused.value.reason


def test_local_header_counts_players_in_words() -> None:
    out = io.StringIO()
    assert play_plain("ten", players=1, seed=2, stdin=io.StringIO("quit\n"), stdout=out) == 0
    assert "TEN: 1 player, you are seat 0, seed 2." in out.getvalue()


# -- long move lists on a small screen -----------------------------------------------------------------


def screen_after_prompt(text: str, rows: int) -> list[str]:
    """The last ``rows`` lines of a terminal showing ``text`` up to its first prompt."""
    shown = text[: text.index("> ") + 2]
    return shown.splitlines()[-rows:]


def test_fistful_setup_keeps_hand_and_prompt_on_an_80x24_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LINES", "24")
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    assert play_plain("fistful", seed=4, stdin=io.StringIO("list\nmore\nmore\nquit\n"), stdout=out) == 0
    text = out.getvalue()
    screen = screen_after_prompt(text, 24)
    assert any(line.startswith("Your hand") for line in screen), screen
    assert any("Your moves (36)" in line for line in screen)
    assert any("more 'discard'" in line for line in screen)
    # `list` and `more` page through all 36 discards, each page fitting the screen.
    pages = text.split("> ")[1:3]
    numbers = [int(m) for page in pages for m in re.findall(r"^\s+(\d+)\. discard", page, re.M)]
    assert numbers == list(range(1, 37))
    assert all(len(page.splitlines()) <= 23 for page in pages)
    assert "No more moves to show" in text.split("> ")[3]


def test_move_list_collapses_many_groups_within_the_room() -> None:
    renderer = GenericRenderer(["You"])
    moves = [{"type": f"kind{k}", "n": i} for k in range(30) for i in range(3)]
    page = move_list(renderer, moves, {}, room=12)
    assert len(page.lines) == 12 and page.next_start is None
    assert page.lines[-1].strip().startswith("... more")
    first = move_list(renderer, moves, {}, room=12, start=0)
    assert len(first.lines) == 12 and first.next_start == 10
    assert move_list(renderer, moves, {}, room=12, filter_text="zzz").lines == ["No legal move matches 'zzz'."]


# -- the API -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(cardnet.GAMES))
def test_legal_moves_of_a_seat_not_to_act_raise_not_your_turn(game: str) -> None:
    g = cardnet.new_game(game, players={"ten": 3}.get(game), seed=5)
    rng = random.Random(5)
    checked = 0
    while (d := g.decision()) is not None:
        seat, count = d
        for other in range(g.players):
            if other in g.to_act():
                continue
            assert g.legal_count(other) == 0
            for call in (g.legal_moves, g.legal_moves_json, lambda s: g.legal_move(s, 0)):
                with pytest.raises(cardnet.IllegalMove) as refused:
                    call(other)
                assert refused.value.code == "not_your_turn"
            checked += 1
        g.apply_index(seat, rng.randrange(count))
    with pytest.raises(cardnet.IllegalMove) as over:
        g.legal_moves(0)
    assert over.value.code == "game_over"
    assert checked > 0
