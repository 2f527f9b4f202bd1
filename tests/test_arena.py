"""The arena: statistics against values worked out by hand, fair seating, reproducible matches over any
number of jobs (and on Ray), the sequential test, and the command's output."""

from __future__ import annotations

import io
import json
import logging
import math
import os
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

import cardnet
from cardnet import _core
from cardnet.arena import Match, Progress, ThinkTimes, format_match, play_match, seating
from cardnet.rating import (
    bradley_terry,
    bradley_terry_errors,
    elo_from_score,
    mean_interval,
    pentanomial,
    score_from_elo,
    sprt,
    sprt_bounds,
    t95,
    wilson,
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardnet", *args], capture_output=True, text=True, timeout=120)


# --- statistics --------------------------------------------------------------------------------------------


def test_elo_and_score_are_inverse_with_known_values() -> None:
    assert score_from_elo(0) == 0.5
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert score_from_elo(400) == pytest.approx(10 / 11)
    assert elo_from_score(score_from_elo(-123.4)) == pytest.approx(-123.4)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_mean_interval_known_values() -> None:
    # Mean 3, sample variance 2.5, standard error sqrt(0.5), t with 4 degrees of freedom 2.776.
    e = mean_interval([1, 2, 3, 4, 5], low=-math.inf, high=math.inf)
    assert e.value == 3
    assert e.low == pytest.approx(3 - 2.776 * math.sqrt(0.5), abs=1e-6)
    assert e.high == pytest.approx(3 + 2.776 * math.sqrt(0.5), abs=1e-6)
    # Past the table the expansion takes over smoothly, and tends to the normal quantile.
    assert t95(31) == pytest.approx(2.0395, abs=1e-3) and t95(120) == pytest.approx(1.9799, abs=1e-3)
    assert t95(10**9) == pytest.approx(1.959964, abs=1e-6)
    clipped = mean_interval([0.0] + [1.0] * 9)
    assert clipped.high == 1.0 and 0 < clipped.low < clipped.value
    single = mean_interval([0.3])
    assert (single.value, single.low, single.high) == (0.3, 0.0, 1.0)


def test_wilson_known_values() -> None:
    # 24 of 24: the lower bound is n / (n + z^2).
    sweep = wilson(24, 24)
    assert sweep.value == 1.0 and sweep.high == 1.0
    assert sweep.low == pytest.approx(24 / (24 + 1.959964**2), abs=1e-6)
    # 5 of 10: centred on one half, half-width z sqrt(1/40 + z^2/400) / (1 + z^2/10).
    half = wilson(5, 10)
    z = 1.959964
    assert half.low == pytest.approx(0.5 - z * math.sqrt(0.025 + z * z / 400) / (1 + z * z / 10), abs=1e-6)
    assert half.low + half.high == pytest.approx(1.0)


def test_bradley_terry_recovers_known_strengths() -> None:
    # Two players, 3 wins to 1: a 75 % score is 400 log10(3) Elo, split evenly around 0.
    two = bradley_terry([[0, 3], [1, 0]])
    assert two[0] - two[1] == pytest.approx(400 * math.log10(3), abs=1e-4)
    assert sum(two) == pytest.approx(0, abs=1e-9)
    # Strengths 4 : 2 : 1 with exactly the expected wins (4-2, 4-1, 2-1) are the maximum-likelihood fit.
    three = bradley_terry([[0, 4, 4], [2, 0, 2], [1, 1, 0]])
    step = 400 * math.log10(2)
    assert three == pytest.approx([step, 0.0, -step], abs=1e-4)
    # Two players: the information is n p (1 - p) per comparison, split over the pair (Var of each half
    # of the difference is a quarter of the difference's), so each error is (400 / ln 10) / (2 sqrt(n p q)).
    errors = bradley_terry_errors([[0, 3], [1, 0]], 0.0, two)
    assert errors == pytest.approx([400 / math.log(10) / (2 * math.sqrt(4 * 0.75 * 0.25))] * 2, rel=1e-6)
    # A prior of virtual ties keeps a clean sweep finite.
    swept = bradley_terry([[0, 5], [0, 0]], prior=1.0)
    assert swept[0] - swept[1] == pytest.approx(400 * math.log10(5.5 / 0.5), abs=1e-4)


def test_sprt_bounds_and_known_llrs() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19)) and upper == pytest.approx(math.log(19))
    assert pentanomial([0.0, 0.25, 0.5, 0.5, 1.0, 0.74]) == [1, 1, 2, 1, 1]
    # A symmetric sample says nothing between hypotheses symmetric about 0.
    assert sprt([10, 20, 40, 20, 10], -5, 5).llr == pytest.approx(0, abs=1e-9)
    # One pair won twice: the fitted distributions put the mean on the win class and the rest on a loss,
    # so the LLR is close to log(s1 / s0).
    one = sprt([0, 0, 0, 0, 1], 0, 50)
    assert one.llr == pytest.approx(math.log(score_from_elo(50) / 0.5), rel=0.01)
    assert one.decision is None
    # With many pairs the GSPRT agrees with its normal approximation N (s1-s0)(2m-s0-s1) / (2 var).
    counts = [100, 300, 500, 400, 150]
    n = sum(counts)
    xs = (0, 0.25, 0.5, 0.75, 1)
    m = sum(c * x for c, x in zip(counts, xs)) / n
    var = sum(c * (x - m) ** 2 for c, x in zip(counts, xs)) / n
    s0, s1 = score_from_elo(0), score_from_elo(10)
    approx = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)
    exact = sprt(counts, 0, 10)
    assert exact.llr == pytest.approx(approx, rel=0.03)
    assert exact.decision == "H1"
    assert sprt(counts[::-1], 0, 10).decision == "H0"


def test_think_time_quantiles() -> None:
    think = ThinkTimes()
    for ns in [1_000] * 40 + [2_000_000] * 55 + [50_000_000] * 5:
        think.add(ns)
    # Buckets are an eighth of an octave, so a quantile is within about 7 % of the true value.
    assert think.quantile(0.5) == pytest.approx(2e-3, rel=0.07)
    assert think.quantile(0.1) == pytest.approx(1e-6, rel=0.07)
    assert think.quantile(0.99) == pytest.approx(5e-2, rel=0.07)
    other = ThinkTimes()
    other.add(3)
    think.merge(other)
    assert think.moves == 101 and think.total_ns == 40 * 1_000 + 55 * 2_000_000 + 5 * 50_000_000 + 3


# --- fair seating and reproducibility ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_player_plays_every_seat_equally(players: int) -> None:
    deals = math.factorial(players - 1)
    seats_of: dict[int, Counter[int]] = {p: Counter() for p in range(players)}
    followers: Counter[tuple[int, int]] = Counter()
    for i in range(deals * players):
        s = seating(i, players)
        assert sorted(s) == list(range(players))
        for seat, player in enumerate(s):
            seats_of[player][seat] += 1
            followers[(player, s[(seat + 1) % players])] += 1
    for p in range(players):
        assert seats_of[p] == Counter({seat: deals for seat in range(players)})
    # Over every circular order, each player sits before each other player equally often.
    assert len(set(followers.values())) == 1
    assert seating(0, 2) == (0, 1) and seating(1, 2) == (1, 0)


def _deterministic(match: Match) -> dict[str, Any]:
    doc = match.to_json()
    for key in ("seconds", "jobs", "engine"):
        doc.pop(key)
    for player in doc["per_player"]:
        player.pop("think_ms")
    return doc


def test_match_is_rotated_and_reproducible_over_jobs() -> None:
    players = ["heuristic", "random", "easy"]
    one = play_match("cherki", players, 30, seed=11, jobs=1)
    two = play_match("cherki", players, 30, seed=11, jobs=2)
    assert one.records == two.records
    assert _deterministic(one) == _deterministic(two)
    assert len(one.records) == 30 and one.deals == 10
    for r in one.records:
        assert r.seats == seating(r.index, 3)
    # Each game replays alone: deal i // n, its seating, players drawing from the deal's seed.
    r = one.records[7]
    game = cardnet.new_game("cherki", 3, seed=cardnet.derive(11, 7 // 3))
    assert game.seed == cardnet.derive(11, 2)
    raw = _core.play_games("cherki", players, [(game.seed, list(r.seats))])[0]
    assert [raw["rewards"][seat] for seat in range(3)] == [r.rewards[p] for p in r.seats]
    other = play_match("cherki", players, 30, seed=12, jobs=1)
    assert other.records != one.records


def test_levels_are_players_everywhere() -> None:
    m = play_match("fistful", ["hard", "easy"], 2, seed=3)
    assert m.players == ("hard", "easy") and len(m.records) == 2
    assert m.think[0].moves > 0 and m.think[0].quantile(0.5) > m.think[1].quantile(0.5)
    assert cardnet.simulate("matchstick", ["normal", "random"], 1, seed=1).games == 1
    with pytest.raises(cardnet.BadOptions, match="unknown player"):
        play_match("fistful", ["hard", "expert"], 2)
    with pytest.raises(cardnet.BadOptions):
        play_match("fistful", ["hard", "easy", "random"], 3)
    with pytest.raises(cardnet.BadOptions, match="seating"):
        _core.play_games("fistful", ["random", "random"], [(1, [0, 0])])


def test_sprt_stops_a_lopsided_match_at_the_deciding_deal() -> None:
    m = play_match("matchstick", ["heuristic", "random"], 4000, seed=5, jobs=2, sprt_elo=(0.0, 50.0))
    test = m.sprt()
    assert test is not None and test.decision == "H1" and test.llr >= test.upper
    assert len(m.records) < 4000 and len(m.records) % 2 == 0
    # It stopped on the first deal that decided, the same with any number of jobs.
    before = sprt(pentanomial(m.pair_scores()[:-1]), 0.0, 50.0)
    assert before.decision is None
    again = play_match("matchstick", ["heuristic", "random"], 4000, seed=5, jobs=1, sprt_elo=(0.0, 50.0))
    assert again.records == m.records
    with pytest.raises(cardnet.BadOptions):
        play_match("cherki", ["heuristic", "random", "random"], 3, sprt_elo=(0.0, 50.0))


def test_head_to_head_elo_and_ratings() -> None:
    m = play_match("matchstick", ["heuristic", "random"], 200, seed=2, jobs=2)
    elo = m.elo()
    assert elo.low < elo.value < elo.high and elo.low > 0
    reward = m.mean_reward(0)
    assert elo.value == pytest.approx(elo_from_score(reward.value))
    assert elo.low == pytest.approx(elo_from_score(reward.low))
    sweep = play_match("fistful", ["ismcts:300", "heuristic"], 4, seed=2)
    # Seed 2 is a clean sweep, every deal the same: the interval keeps Wilson's width over the four games.
    assert sweep.win_share(0).value == 1.0
    assert sweep.win_share(0).low == pytest.approx(4 / (4 + 1.959964**2), abs=1e-6)
    many = play_match("matchstick", ["heuristic", "random", "random"], 60, seed=2)
    ratings = many.ratings()
    assert sum(r.value for r in ratings) == pytest.approx(0, abs=1e-6)
    assert ratings[0].low > max(ratings[1].high, ratings[2].high)
    assert [r.value for r in many.ratings()] == [r.value for r in ratings]
    text = format_match(many)
    assert "random#2" in text and "Bradley-Terry" in text


# --- the command -------------------------------------------------------------------------------------------


def test_json_is_one_document_and_nothing_else() -> None:
    out = run("arena", "matchstick", "--seats", "heuristic,random", "--games", "20", "--sprt", "0,50", "--json")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    doc = json.loads(out.stdout)
    assert out.stdout.count("\n") == 1
    assert doc["elo"]["method"] == "head-to-head"
    assert doc["sprt"]["model"].startswith("pentanomial GSPRT") and doc["sprt"]["result"] in (
        "H0",
        "H1",
        "inconclusive",
    )
    assert set(doc["per_player"][0]) == {"player", "wins", "win_share", "mean_reward", "think_ms"}


def test_help_states_defaults_and_usage_errors() -> None:
    out = run("arena", "--help")
    assert "(default 1)" in out.stdout and "default 1 thread" in out.stdout
    for flag in ("--sprt", "--ray", "--json", "--option"):
        assert flag in out.stdout
    assert run("arena", "fistful", "--seats", "hard,easy", "--games", "2", "--sprt", "50,0").returncode == 2
    bad = run("arena", "fistful", "--seats", "hard,wizard", "--games", "2")
    assert bad.returncode == 2 and "unknown player" in bad.stderr


def test_progress_line() -> None:
    stream = io.StringIO()
    progress = Progress(stream)
    m = play_match("matchstick", ["heuristic", "random"], 40, seed=1, progress=progress)
    progress.clear()
    text = stream.getvalue()
    assert "/40 games" in text and "games/s" in text and "ETA" in text and "Elo" in text
    assert text.endswith("\r") and len(m.records) == 40


# --- Ray ---------------------------------------------------------------------------------------------------


def test_ray_equals_local(monkeypatch: pytest.MonkeyPatch) -> None:
    # Loopback only, and no usage reports: both are read when ray is imported and by its processes.
    monkeypatch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("Ray is not installed: CI installs cardnet[cluster]")
        pytest.skip("Ray is not installed (pip install 'cardnet[cluster]')")
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    try:
        # Ray leaves this function unannotated; it returns the address the node's processes talk on.
        node_ip: str = ray.util.get_node_ip_address()  # type: ignore[no-untyped-call]
        assert node_ip == "127.0.0.1"
        players = ["heuristic", "random", "random"]
        remote = play_match("matchstick", players, 60, seed=9, jobs=2, ray=True)
        local = play_match("matchstick", players, 60, seed=9, jobs=1)
        assert remote.engine == "ray" and local.engine == "threads"
        assert remote.records == local.records
        assert _deterministic(remote) == _deterministic(local)
        assert remote.think[0].moves == local.think[0].moves
    finally:
        ray.shutdown()
