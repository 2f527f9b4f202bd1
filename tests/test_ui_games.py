"""The full-screen client knows no game by name: each game's drawing, keys, help and form words live in its
screen (``cardnet/ui/render/screen/<game>.py``), so adding a game touches no file of ``cardnet/ui/app``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import cardnet
from cardnet.ui.app.commands import COMMANDS
from cardnet.ui.app.draw import table_screen, text_of
from cardnet.ui.app.state import TableState
from cardnet.ui.render.screen import GameScreen, screen_for

APP = Path(cardnet.__file__).resolve().parent / "ui" / "app"


def _strings(path: Path) -> list[str]:
    return [
        n.value
        for n in ast.walk(ast.parse(path.read_text()))
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def test_ui_app_names_no_game() -> None:
    names = {name.lower() for name in cardnet.GAMES} | {info.title.lower() for info in cardnet.GAMES.values()}
    found = []
    for path in sorted(APP.glob("*.py")):
        for text in _strings(path):
            words = " " + " ".join(re.findall(r"[a-z]+", text.lower())) + " "
            if any(f" {name} " in words for name in names):
                found.append((path.name, text[:60]))
    assert not found, found


@pytest.mark.parametrize("game", sorted(cardnet.GAMES))
def test_every_game_has_its_own_screen(game: str) -> None:
    screen = screen_for(game)
    assert type(screen) is not GameScreen and screen.help_note
    # Every option the new-table form shows has a label of the game's own words.
    assert {spec.name for spec in cardnet.GAMES[game].options} <= set(screen.option_labels)


def test_a_game_without_a_screen_is_drawn_generically() -> None:
    ts = TableState.open("no-such-game", 2, 0, "t")
    ts.view = {"public": {"pile": 3}}
    assert type(ts.screen) is GameScreen and ts.screen.cursor_cards(ts) == []
    assert "pile" in text_of(table_screen(ts, 80, 24))


def test_game_keys_are_commands_of_the_table() -> None:
    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names))
    for game in cardnet.GAMES:
        for key in screen_for(game).keys:
            assert key.name in names and (key.move is not None or key.action in ("settle", "bid")), key
