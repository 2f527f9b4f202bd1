"""A search player's budget per decision: a fixed count by default (the same seed, the same move), or a think
time (``think_ms``, ``name@MS``, ``--think MS``) that trades that for strength; refused where nothing searches."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import cardnet
from cardnet.ai import MAX_THINK_MS, check_player, with_think
from cardnet.bot import BuiltinBot, load_bot
from cardnet.rl import new_state


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardnet", *args], capture_output=True, text=True, timeout=120)


def duel(seed: int) -> cardnet.Game:
    """A Fistful match at its first duel pick (both setup discards made by the heuristic)."""
    g = cardnet.new_game("fistful", seed=seed)
    for seat in (0, 1):
        g.apply(seat, cardnet.ai.choose(g, seat, level="easy", seed=seed))
    return g


def test_a_think_time_is_written_after_a_search_player() -> None:
    assert with_think("hard", 500) == "hard@500"
    assert with_think("ismcts:40", 1) == "ismcts:40@1"
    assert with_think("easy", None) == "easy"
    assert check_player("normal@20") == "normal@20"
    assert check_player("ismcts:7") == "ismcts:7"


@pytest.mark.parametrize(
    ("player", "think_ms"),
    [("easy", 100), ("random", 100), ("heuristic", 5), ("hard", 0), ("hard", MAX_THINK_MS + 1), ("ismcts:0", 5)],
)
def test_a_think_time_that_does_not_fit_is_refused(player: str, think_ms: int) -> None:
    with pytest.raises(cardnet.BadOptions):
        with_think(player, think_ms)


@pytest.mark.parametrize("name", ["hard@", "hard@x", "easy@50", "@50", "hard@5@5", "wizard"])
def test_a_bad_player_name_is_refused(name: str) -> None:
    with pytest.raises(cardnet.BadOptions):
        check_player(name)


def test_a_fixed_count_gives_the_same_move_and_a_think_time_a_legal_one() -> None:
    g = duel(3)
    index = cardnet.ai.choose_index(g, 0, level="hard", seed=9)
    assert index == cardnet.ai.choose_index(g, 0, level="hard", seed=9)
    assert index == cardnet.ai.choose_index(g, 0, player=cardnet.ai.level_player("fistful", "hard"), seed=9)
    timed = cardnet.ai.choose_index(g, 0, level="hard", seed=9, think_ms=5)
    assert 0 <= timed < g.legal_count(0)
    assert cardnet.ai.choose(g, 0, player="hard@5", seed=9) in g.legal_moves(0)
    with pytest.raises(cardnet.BadOptions):
        cardnet.ai.choose_index(g, 0, level="easy", think_ms=5)


def test_a_think_time_on_an_rl_state() -> None:
    state = new_state("fistful", seed=3)
    seat = state.to_act()[0]
    action = cardnet.ai.choose_action(state, seat, level="hard", seed=1, think_ms=5)
    assert action in state.legal_action_ids(seat)
    with pytest.raises(cardnet.BadOptions):
        cardnet.ai.choose_action(state, seat, level="easy", think_ms=5)


def test_a_network_bot_takes_a_think_time_only_when_it_searches() -> None:
    bot = load_bot("builtin:hard", think_ms=50)
    assert isinstance(bot, BuiltinBot) and bot.think_ms == 50
    with pytest.raises(ValueError, match="think"):
        load_bot("builtin:easy", think_ms=50)
    with pytest.raises(ValueError, match="built-in"):
        load_bot("mybot.py", think_ms=50)


def test_the_arena_gives_hard_seats_the_think_time() -> None:
    out = run("arena", "fistful", "--seats", "hard,easy", "--games", "2", "--think", "5", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["players"] == ["hard@5", "easy"]
    bad = run("arena", "fistful", "--seats", "hard,easy", "--games", "2", "--think", "0")
    assert bad.returncode == 2 and "at least 1" in bad.stderr


def test_play_refuses_a_think_time_for_players_that_do_not_search() -> None:
    out = run("play", "fistful", "--plain", "--level", "easy", "--think", "100")
    assert out.returncode == 2 and "--think" in out.stderr
