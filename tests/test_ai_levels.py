"""Difficulty levels are defined per game: the names ``easy``, ``normal`` and ``hard`` are the same everywhere,
what they play is each game's (``cardnet.ai.levels``), and a level chooses exactly as the player it stands for."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import cardnet
from cardnet.ai import LEVELS, check_player, level_player, levels
from cardnet.bot import BuiltinBot, load_bot
from cardnet.errors import BadOptions, UnknownGame


def test_every_game_has_every_level_and_each_names_a_player() -> None:
    for name in cardnet.GAMES:
        ladder = levels(name)
        assert tuple(ladder) == LEVELS
        for player in ladder.values():
            assert check_player(player) == player


def test_most_games_keep_the_standard_ladder_and_cherki_spreads_its_levels_by_carelessness() -> None:
    assert levels("matchstick") == {"easy": "heuristic", "normal": "ismcts:300", "hard": "ismcts:1500"}
    cherki = levels("cherki")
    assert cherki["hard"] == "ismcts:1500"
    easy_slips = int(cherki["easy"].removeprefix("careless:"))
    normal_slips = int(cherki["normal"].removeprefix("careless:"))
    assert easy_slips > normal_slips > 0


def test_a_level_chooses_as_the_player_it_stands_for() -> None:
    for name in ("cherki", "matchstick"):
        g = cardnet.new_game(name, seed=4)
        seat = g.to_act()[0]
        for level in LEVELS:
            for seed in range(5):
                by_level = cardnet.ai.choose_index(g, seat, level=level, seed=seed)
                by_player = cardnet.ai.choose_index(g, seat, player=level_player(name, level), seed=seed)
                assert by_level == by_player, (name, level, seed)


def test_an_unknown_level_or_game_is_refused() -> None:
    with pytest.raises(BadOptions, match="unknown level"):
        level_player("cherki", "expert")
    with pytest.raises(UnknownGame):
        levels("chess")


@pytest.mark.parametrize("bad", ["careless", "careless:0", "careless:101", "careless:x", "careless:5@100"])
def test_a_careless_player_needs_a_percentage_and_takes_no_think_time(bad: str) -> None:
    with pytest.raises(BadOptions):
        check_player(bad)


def test_a_careless_player_plays_in_the_arena_and_as_a_network_bot() -> None:
    assert check_player("careless:40") == "careless:40"
    bot = load_bot("builtin:careless:40")
    assert isinstance(bot, BuiltinBot)
    arena = ["arena", "cherki", "--seats", "careless:40,easy,hard", "--games", "3", "--json"]
    out = subprocess.run(
        [sys.executable, "-m", "cardnet", *arena],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["seats"] == ["careless:40", *(levels("cherki")[lv] for lv in ("easy", "hard"))]
