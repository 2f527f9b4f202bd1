"""docs/GAMES.md's examples are real: every fenced ```json block in a game's section (one JSON document,
or one per line) must either occur in that game's golden playthroughs (as a move, view, event or any
part of one) or, for a move, be well-formed for the game (accepted by its parser)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardnet

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "GAMES.md"
GOLDEN_DIR = ROOT / "rust" / "core" / "tests" / "golden"

_SECTION = re.compile(r"^## .*\(`([a-z_]+)`\)\s*$", re.MULTILINE)
_BLOCK = re.compile(r"^```json[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def sections() -> dict[str, str]:
    """Each game's section of GAMES.md by machine name."""
    text = DOC.read_text(encoding="utf-8")
    marks = list(_SECTION.finditer(text))
    return {
        m.group(1): text[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        for i, m in enumerate(marks)
    }


def examples(section: str) -> list[str]:
    """The JSON texts of a section's fenced json blocks."""
    found = []
    for block in _BLOCK.findall(section):
        try:
            cardnet.json_loads(block)
            found.append(block)
        except ValueError:
            found += [line for line in block.splitlines() if line.strip()]
    return found


def subvalues(value: Any) -> Iterator[str]:
    """Canonical text of a value and of every value nested in it."""
    yield cardnet.json_dumps(value)
    if isinstance(value, dict):
        for item in value.values():
            yield from subvalues(item)
    elif isinstance(value, list):
        for item in value:
            yield from subvalues(item)


def golden_values(game: str) -> set[str]:
    known: set[str] = set()
    for path in sorted(GOLDEN_DIR.glob(f"{game}*.jsonl")):
        for line in path.read_text(encoding="ascii").splitlines():
            known.update(subvalues(cardnet.json_loads(line)))
    return known


def is_well_formed_move(game: str, value: Any) -> bool:
    if not isinstance(value, dict) or "type" not in value:
        return False
    g = cardnet.new_game(game, seed=1)
    try:
        g.index_of(g.to_act()[0], value)
    except cardnet.InvalidMove:
        return False
    except cardnet.IllegalMove:
        return True
    return True


def test_doc_names_every_game() -> None:
    assert set(cardnet.GAMES) <= set(sections())


@pytest.mark.parametrize("game", list(cardnet.GAMES))
def test_examples_are_real(game: str) -> None:
    texts = examples(sections().get(game, ""))
    assert texts, f"the {game} section of docs/GAMES.md has no JSON examples"
    known = golden_values(game)
    for text in texts:
        try:
            value = cardnet.json_loads(text)
        except ValueError as e:
            pytest.fail(f"{game} example is not JSON: {text!r} ({e})")
        assert cardnet.json_dumps(value) in known or is_well_formed_move(game, value), (
            f"{game} example occurs in no golden playthrough and is not a well-formed move: {text}"
        )
