"""The table of names in docs/API.md holds: every Rust, Python and C name it lists exists there, and the
operations it pairs mean the same in Rust and Python where the meanings once differed: refusals, `decision`,
the seed of a built-in player's choice, and saving a determinized copy."""

from __future__ import annotations

import importlib
import inspect
import pickle
import re
from pathlib import Path

import pytest

import cardnet

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "API.md"
CORE = ROOT / "rust" / "core" / "src"
HEADER = ROOT / "rust" / "ffi" / "include" / "cardnet.h"


def rows() -> list[tuple[str, str, str, str]]:
    """(operation, rust, python, c) for every row of the table."""
    found = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1].startswith("`"):
            operation, rust, python, c = cells
            found.append((operation, rust.strip("`"), python.strip("`"), c.strip("`")))
    return found


def any_game_methods() -> set[str]:
    text = (CORE / "session.rs").read_text(encoding="utf-8")
    block = text[text.index("pub trait AnyGame") :]
    block = block[: block.index("\n}\n")]
    return set(re.findall(r"fn (\w+)\(", block))


def rust_exists(name: str) -> bool:
    if name.startswith("AnyGame::"):
        return name.removeprefix("AnyGame::") in any_game_methods()
    if "::" in name:
        module, item = name.split("::")
        return re.search(rf"pub (const )?fn {item}\b", (CORE / f"{module}.rs").read_text(encoding="utf-8")) is not None
    lib = (CORE / "lib.rs").read_text(encoding="utf-8")
    return re.search(rf"\b{name}\b", lib[lib.index("pub use registry::") :]) is not None


def python_object(name: str) -> object:
    if name.startswith("Game."):
        return getattr(cardnet.Game, name.removeprefix("Game."))
    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def test_the_table_is_not_empty() -> None:
    assert len(rows()) >= 25


@pytest.mark.parametrize(("operation", "rust", "python", "c"), rows())
def test_every_name_exists_in_its_language(operation: str, rust: str, python: str, c: str) -> None:
    assert rust_exists(rust), f"{operation}: no Rust {rust}"
    assert python_object(python) is not None, f"{operation}: no Python {python}"
    assert re.search(rf"\b{c}\(", HEADER.read_text(encoding="utf-8")), f"{operation}: no C {c}"


def test_events_and_its_old_name_agree() -> None:
    g = cardnet.new_game("fistful", players=2, seed=3)
    seat = g.to_act()[0]
    g.apply_index(seat, 0)
    for observer in (None, 0, 1):
        assert g.events(observer) == g.events_for(observer)


def test_legal_moves_of_a_seat_not_to_act_are_refused() -> None:
    g = cardnet.new_game("matchstick", players=4, seed=5)
    waiting = next(s for s in range(4) if s not in g.to_act())
    for listing in (g.legal_moves, g.legal_moves_json):
        with pytest.raises(cardnet.IllegalMove) as refused:
            listing(waiting)
        assert refused.value.code == "not_your_turn"
    assert g.legal_count(waiting) == 0


def test_seats_past_the_table_are_refused() -> None:
    g = cardnet.new_game("cherki", players=4, seed=1)
    for call in (g.view, g.view_json, g.events, g.events_json):
        with pytest.raises(cardnet.IllegalMove) as refused:
            call(99)
        assert refused.value.code == "no_such_seat"


def test_decision_is_the_first_seat_to_act_and_its_move_count() -> None:
    g = cardnet.new_game("fistful", players=2, seed=8)
    while not g.is_over():
        seat = g.to_act()[0]
        assert g.decision() == (seat, g.legal_count(seat))
        g.apply_index(seat, g.legal_count(seat) - 1)
    assert g.decision() is None


CHOOSERS = [
    cardnet.Game.choose,
    cardnet.ai.choose,
    cardnet.ai.choose_index,
    cardnet.ai.choose_action,
    cardnet._core.RlState.choose_action,
]


@pytest.mark.parametrize("chooser", CHOOSERS, ids=lambda f: f.__qualname__)
def test_every_built_in_choice_draws_a_fresh_seed_by_default(chooser: object) -> None:
    assert inspect.signature(chooser).parameters["seed"].default is None  # type: ignore[arg-type]


def test_the_same_seed_gives_the_same_choice_through_every_door() -> None:
    g = cardnet.new_game("matchstick", players=4, seed=2)
    seat = g.to_act()[0]
    picks = {g.choose(seat, "random", seed=s) for s in range(6)}
    assert len(picks) > 1, "the seed should matter to a random player"
    for player in ("random", "ismcts:40"):
        for s in range(6):
            index = g.choose(seat, player, seed=s)
            assert cardnet.ai.choose_index(g, seat, player, seed=s) == index
            assert cardnet.ai.choose(g, seat, player, seed=s) == g.legal_move(seat, index)
    for bad in (-1, 2**64, True, "7"):
        with pytest.raises(cardnet.BadOptions):
            g.choose(seat, seed=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["matchstick", "fistful", "cherki", "ten"])
def test_a_determinized_copy_saves_and_loads_back(name: str) -> None:
    g = cardnet.new_game(name, seed=4)
    for _ in range(6):
        if (d := g.decision()) is None:
            break
        g.apply_index(d[0], d[1] - 1)
    copy = g.determinize(0, 11)
    if (d := copy.decision()) is not None:
        copy.apply_index(d[0], 0)
    loaded = cardnet.load_game(copy.to_json())
    assert loaded.state_hash() == copy.state_hash()
    assert loaded.to_json() == copy.to_json()
    assert [loaded.view(s) for s in range(g.players)] == [copy.view(s) for s in range(g.players)]
    assert pickle.loads(pickle.dumps(copy)).state_hash() == copy.state_hash()


def test_a_game_rebuilt_from_a_view_says_why_it_cannot_be_saved() -> None:
    g = cardnet.new_game("fistful", players=2, seed=4)
    rebuilt = cardnet.game_from_view("fistful", g.view(0), 0, seed=1)
    with pytest.raises(cardnet.IllegalMove) as refused:
        rebuilt.to_json()
    assert refused.value.code == "determinized"
    assert "no deal to replay" in str(refused.value)
