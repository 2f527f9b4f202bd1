"""``cardnet arena``: fair matches between built-in players, with confidence intervals and ratings.

**Fair seating.** With ``n`` players, deal ``d`` (dealt from ``cardnet.derive(seed, d)``) is played ``n``
times, once per rotation of the seats, so every player plays every seat equally often and meets the same
cards from each seat; with two players each deal is played twice with the seats swapped. With three or more
the deals also cycle through every circular order of the players (see :func:`seating`). Game ``i`` of a
match is rotation ``i % n`` of deal ``i // n``, and everything about it follows from the seed and ``i``
alone, so a match gives the same games whatever the number of threads or Ray tasks it was spread over.

**Statistics.** The games of one deal share cards, so a deal (all its rotations) is the unit of every
interval: a player's win share and mean reward are means over deals with a 95 % Student's t interval,
widened where needed to the Wilson interval over games (which keeps a width when every deal came out the
same). Two players get a head-to-head Elo difference from the first player's mean score (pairs of games,
i.e. the pentanomial model); more players get a Bradley–Terry fit over every pair of seats in every game
(ties count half), with a percentile bootstrap over deals for the intervals. ``sprt`` (two players) stops
the match as soon as the sequential test decides; see :func:`cardnet.rating.sprt`.

**Think time.** The core measures the CPU time of every decision (the deciding thread's clock, so a busy
machine does not inflate it); each player's times are kept in a histogram with eight buckets per octave
(about 9 % wide), whose middles give the p50 and p95 reported.
"""

from __future__ import annotations

import json
import logging
import math
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, TextIO

from . import _core
from .ai import LEVELS, level_player
from .errors import BadOptions
from .rating import (
    Estimate,
    SprtResult,
    bootstrap_bradley_terry,
    elo_from_score,
    mean_interval,
    pentanomial,
    sprt,
    wilson,
)

__all__ = ["GameRecord", "Match", "ThinkTimes", "play_batch", "play_match", "run_arena", "seating"]

#: Buckets per octave of the think-time histograms.
_BUCKETS_PER_OCTAVE = 8
#: Bootstrap resamples behind the Bradley–Terry intervals.
_RESAMPLES = 200
#: Virtual ties per pair of players in the Bradley–Terry fit, so a player who won everything stays finite.
_PRIOR_TIES = 1.0


def seating(index: int, players: int) -> tuple[int, ...]:
    """Which player sits at each seat in game ``index``: rotation ``index % players`` of the deal's
    circular order.

    The deals cycle through every circular order of the players (player 0 first, the others in each of
    their ``(players - 1)!`` orders), so with three or more players nobody always sits after the same
    opponent; with two there is just the one order, swapped.
    """
    deal, shift = divmod(index, players)
    rest = list(range(1, players))
    order = [0]
    # The deal number, read in the factorial number system, picks one order of the other players.
    code = deal % math.factorial(players - 1)
    while rest:
        code, pick = divmod(code, len(rest))
        order.append(rest.pop(pick))
    return tuple(order[(seat + shift) % players] for seat in range(players))


@dataclass
class ThinkTimes:
    """How long one player took per decision: a log-scale histogram that merges across batches."""

    moves: int = 0
    total_ns: int = 0
    buckets: dict[int, int] = field(default_factory=dict)

    def add(self, ns: int) -> None:
        """Records one decision that took ``ns`` nanoseconds."""
        self.moves += 1
        self.total_ns += ns
        bucket = _bucket(ns)
        self.buckets[bucket] = self.buckets.get(bucket, 0) + 1

    def merge(self, other: ThinkTimes) -> None:
        """Adds another histogram's decisions to this one."""
        self.moves += other.moves
        self.total_ns += other.total_ns
        for bucket, count in other.buckets.items():
            self.buckets[bucket] = self.buckets.get(bucket, 0) + count

    def quantile(self, q: float) -> float:
        """The ``q`` quantile in seconds (the middle of its bucket); NaN with no decisions."""
        if self.moves == 0:
            return math.nan
        rank = q * (self.moves - 1)
        seen = 0
        for bucket in sorted(self.buckets):
            seen += self.buckets[bucket]
            if seen > rank:
                return _bucket_middle(bucket) / 1e9
        return _bucket_middle(max(self.buckets)) / 1e9

    def mean(self) -> float:
        """Mean seconds per decision; NaN with no decisions."""
        return self.total_ns / self.moves / 1e9 if self.moves else math.nan


def _bucket(ns: int) -> int:
    if ns <= 0:
        return 0
    octave = ns.bit_length() - 1
    # The three bits after the leading one pick the eighth of the octave.
    eighth = ((ns << 3) >> octave) - 8
    return 1 + octave * _BUCKETS_PER_OCTAVE + eighth


def _bucket_middle(bucket: int) -> float:
    if bucket == 0:
        return 0.0
    octave, eighth = divmod(bucket - 1, _BUCKETS_PER_OCTAVE)
    return (2.0**octave) * (1.0 + (eighth + 0.5) / _BUCKETS_PER_OCTAVE)


@dataclass(frozen=True)
class GameRecord:
    """One game of a match, seen by player (not by seat)."""

    index: int
    #: ``seats[s]`` is the player who sat at seat ``s``.
    seats: tuple[int, ...]
    #: Per player, the reward in 0..1 (see ``cardnet.simulate``).
    rewards: tuple[float, ...]
    #: Per player, whether it won (outright or shared).
    won: tuple[bool, ...]
    decisions: int


def play_batch(
    game: str, players: Sequence[str], options: Mapping[str, Any], seed: int, first: int, count: int
) -> tuple[list[GameRecord], list[ThinkTimes]]:
    """Plays games ``first`` to ``first + count - 1`` of a match (what a thread or a Ray task runs)."""
    n = len(players)
    games = [(_core.derive(seed, i // n), list(seating(i, n))) for i in range(first, first + count)]
    raw = _core.play_games(game, list(players), games, dict(options))
    records = []
    think = [ThinkTimes() for _ in players]
    for offset, ((_, seats), r) in enumerate(zip(games, raw)):
        rewards, won = [0.0] * n, [False] * n
        for seat, player in enumerate(seats):
            rewards[player] = float(r["rewards"][seat])
            for ns in r["think_ns"][seat]:
                think[player].add(ns)
        for seat in r["winners"]:
            won[seats[seat]] = True
        records.append(GameRecord(first + offset, tuple(seats), tuple(rewards), tuple(won), int(r["decisions"])))
    return records, think


@dataclass
class Match:
    """A finished (or stopped) match: every game in order, and what was measured."""

    game: str
    players: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    records: list[GameRecord]
    think: list[ThinkTimes]
    seconds: float
    jobs: int
    engine: str
    sprt_hypotheses: tuple[float, float] | None = None

    @property
    def deals(self) -> int:
        """Deals played in every rotation."""
        return len(self.records) // len(self.players)

    def _per_deal(self, value: Callable[[GameRecord], float]) -> list[float]:
        n = len(self.players)
        return [math.fsum(value(r) for r in self.records[d * n : (d + 1) * n]) / n for d in range(self.deals)]

    def _share(self, value: Callable[[GameRecord], float]) -> Estimate:
        # Deals are the independent units (Student's t over them), but when every deal came out the same
        # that interval has no width; Wilson's over games keeps one, so the wider of the two is reported.
        by_deal = mean_interval(self._per_deal(value))
        by_game = wilson(math.fsum(value(r) for r in self.records), len(self.records))
        return Estimate(by_deal.value, min(by_deal.low, by_game.low), max(by_deal.high, by_game.high))

    def win_share(self, player: int) -> Estimate:
        """The share of games ``player`` won, with its 95 % interval."""
        return self._share(lambda r: float(r.won[player]))

    def mean_reward(self, player: int) -> Estimate:
        """``player``'s mean reward (0..1), with its 95 % interval."""
        return self._share(lambda r: r.rewards[player])

    def pair_scores(self) -> list[float]:
        """Two players: the first player's mean reward over each deal's two games."""
        return self._per_deal(lambda r: r.rewards[0])

    def elo(self) -> Estimate:
        """Two players: how many Elo the first is stronger than the second, with its 95 % interval."""
        score = self.mean_reward(0)
        return Estimate(elo_from_score(score.value), elo_from_score(score.low), elo_from_score(score.high))

    def ratings(self) -> list[Estimate]:
        """Bradley–Terry Elo per player (mean 0) over every pair of seats in every game, with bootstrap
        intervals over deals (reproducible: the bootstrap draws from the match seed)."""
        n = len(self.players)
        groups = []
        for d in range(self.deals):
            wins = [[0.0] * n for _ in range(n)]
            for r in self.records[d * n : (d + 1) * n]:
                for a in range(n):
                    for b in range(n):
                        if a != b:
                            wins[a][b] += (
                                1.0 if r.rewards[a] > r.rewards[b] else 0.5 if r.rewards[a] == r.rewards[b] else 0.0
                            )
            groups.append(wins)
        return bootstrap_bradley_terry(groups, _PRIOR_TIES, _RESAMPLES, self.seed)

    def sprt(self) -> SprtResult | None:
        """The sequential test's standing, when the match ran one."""
        if self.sprt_hypotheses is None:
            return None
        return sprt(pentanomial(self.pair_scores()), *self.sprt_hypotheses)

    def to_json(self) -> dict[str, Any]:
        """Everything as one JSON-ready document (infinite or undefined numbers as ``null``)."""
        n = len(self.players)
        games = len(self.records)
        per_player = []
        for p, name in enumerate(self.players):
            think = self.think[p]
            per_player.append(
                {
                    "player": name,
                    "wins": sum(r.won[p] for r in self.records),
                    "win_share": _estimate_json(self.win_share(p)),
                    "mean_reward": _estimate_json(self.mean_reward(p)),
                    "think_ms": {
                        "moves": think.moves,
                        "p50": _number(think.quantile(0.5) * 1000, 4),
                        "p95": _number(think.quantile(0.95) * 1000, 4),
                        "mean": _number(think.mean() * 1000, 4),
                    },
                }
            )
        doc: dict[str, Any] = {
            "game": self.game,
            "players": list(self.players),
            # The built-in player behind each name (a level resolved to ``heuristic`` or ``ismcts:N``).
            "seats": [level_player(self.game, p) if p in LEVELS else p for p in self.players],
            "seed": self.seed,
            "options": self.options,
            "games": games,
            "deals": self.deals,
            "decisions": sum(r.decisions for r in self.records),
            "no_winner": sum(1 for r in self.records if not any(r.won)),
            "per_player": per_player,
            "jobs": self.jobs,
            "engine": self.engine,
            "seconds": round(self.seconds, 3),
        }
        if n == 2:
            doc["elo"] = {"method": "head-to-head", **_estimate_json(self.elo(), 1)}
        else:
            doc["elo"] = {
                "method": "bradley-terry",
                "ratings": [_estimate_json(e, 1) for e in self.ratings()],
            }
        test = self.sprt()
        if test is not None and self.sprt_hypotheses is not None:
            doc["sprt"] = {
                "model": "pentanomial GSPRT, logistic Elo",
                "elo0": self.sprt_hypotheses[0],
                "elo1": self.sprt_hypotheses[1],
                "alpha": 0.05,
                "beta": 0.05,
                "llr": round(test.llr, 4),
                "lower": round(test.lower, 4),
                "upper": round(test.upper, 4),
                "result": test.decision or "inconclusive",
            }
        return doc


def _number(x: float, digits: int) -> float | None:
    return None if math.isnan(x) or math.isinf(x) else round(x, digits)


def _estimate_json(e: Estimate, digits: int = 4) -> dict[str, float | None]:
    return {"estimate": _number(e.value, digits), "low": _number(e.low, digits), "high": _number(e.high, digits)}


def play_match(
    game: str,
    players: Sequence[str],
    games: int,
    *,
    seed: int = 1,
    jobs: int = 1,
    options: Mapping[str, Any] | None = None,
    sprt_elo: tuple[float, float] | None = None,
    ray: bool = False,
    ray_address: str | None = None,
    progress: Callable[[Match, int], None] | None = None,
) -> Match:
    """Plays a rotated match of ``players`` (names as ``cardnet.simulate`` takes, levels included).

    ``games`` is rounded up to whole deals (a multiple of the player count). ``jobs`` games run at once:
    threads, or with ``ray`` Ray tasks on the cluster at ``ray_address`` (``None``: the one ``ray.init``
    already connected to, else ``RAY_ADDRESS``, else a new local one). The games, and so every statistic,
    are the same for the same seed whatever ``jobs`` and wherever they run; only the timings differ.
    ``sprt_elo = (elo0, elo1)`` (two players only) stops at the first deal after which the sequential test
    decides; games already started beyond it are dropped, so the stopping point is reproducible too.
    ``progress(match_so_far, target_games)`` is called now and then from the calling thread.
    Raises BadOptions for a bad game, player, option or count before any game is played.
    """
    players = tuple(players)
    n = len(players)
    if n < 2:
        raise BadOptions("a match needs at least two players")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise BadOptions(f"games must be a positive integer, not {games!r}")
    if sprt_elo is not None and n != 2:
        raise BadOptions("the sequential test compares two players")
    if sprt_elo is not None and not sprt_elo[0] < sprt_elo[1]:
        raise BadOptions("--sprt ELO0,ELO1 needs ELO0 < ELO1")
    opts = dict(options or {})
    # Zero games: the core checks the game, the players and the options without playing.
    _core.play_games(game, list(players), [], opts)
    target = math.ceil(games / n) * n
    jobs = max(1, jobs)
    # Batches of whole deals, small enough that every job gets several (for progress and early stopping),
    # large enough that fast games do not drown in per-batch overhead.
    deals_per_batch = max(1, min(256, target // n // (jobs * 8)))
    batch = deals_per_batch * n
    match = Match(game, players, seed, opts, [], [ThinkTimes() for _ in players], 0.0, jobs, "threads", sprt_elo)
    counts = [0] * 5
    start = time.perf_counter()
    with _runner(ray, ray_address, jobs, game, players, opts, seed) as (submit, engine):
        match.engine = engine
        pending: dict[Future[Batch], int] = {}
        done: dict[int, Batch] = {}
        next_first = 0
        stopped = False
        last_report = 0.0
        while not stopped and (pending or next_first < target):
            while len(pending) < 2 * jobs and next_first < target:
                count = min(batch, target - next_first)
                pending[submit(next_first, count)] = next_first
                next_first += count
            finished, _ = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            for future in finished:
                done[pending.pop(future)] = future.result()
            stopped = _take_in_order(match, done, counts)
            match.seconds = time.perf_counter() - start
            if progress is not None and (stopped or time.perf_counter() - last_report >= 0.25):
                progress(match, target)
                last_report = time.perf_counter()
        for future in pending:
            future.cancel()
    match.seconds = time.perf_counter() - start
    return match


def _take_in_order(match: Match, done: dict[int, Batch], counts: list[int]) -> bool:
    """Moves finished batches into the match in game order, keeping the pentanomial ``counts`` of a
    sequential test up to date; True when that test has decided (the match then ends on that deal, and
    only the think times of the batch that decided count games past it)."""
    n = len(match.players)
    while len(match.records) in done:
        records, think = done.pop(len(match.records))
        for mine, theirs in zip(match.think, think):
            mine.merge(theirs)
        for record in records:
            match.records.append(record)
            if match.sprt_hypotheses is None or len(match.records) % n:
                continue
            pair = match.records[-1].rewards[0] + match.records[-2].rewards[0]
            counts[min(4, max(0, round(pair * 2)))] += 1
            if sprt(counts, *match.sprt_hypotheses).decision is not None:
                done.clear()
                return True
    return False


#: What ``play_batch`` returns.
Batch = tuple[list[GameRecord], list[ThinkTimes]]


@contextmanager
def _runner(
    use_ray: bool,
    address: str | None,
    jobs: int,
    game: str,
    players: tuple[str, ...],
    options: dict[str, Any],
    seed: int,
) -> Iterator[tuple[Callable[[int, int], Future[Batch]], str]]:
    """Where batches run: ``(submit, engine)``, ``submit(first, count)`` returning the batch's future."""
    if use_ray:
        remote = _connect_ray(address).remote(num_cpus=1)(play_batch)

        def submit_ray(first: int, count: int) -> Future[Batch]:
            future: Future[Batch] = remote.remote(game, players, options, seed, first, count).future()
            return future

        yield submit_ray, "ray"
        return
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        yield (lambda first, count: pool.submit(play_batch, game, players, options, seed, first, count)), "threads"


def _describe(e: Estimate, scale: float = 100.0, digits: int = 1) -> str:
    """``value ± half-width`` (or ``[low, high]`` when a side is unbounded) for people."""
    if math.isnan(e.value):
        return "-"
    if math.isinf(e.low) or math.isinf(e.high) or math.isinf(e.value):
        return f"{_plain(e.value * scale, digits)} [{_plain(e.low * scale, digits)}, {_plain(e.high * scale, digits)}]"
    return f"{e.value * scale:.{digits}f} ± {e.half_width() * scale:.{digits}f}"


def _plain(x: float, digits: int) -> str:
    return ("+inf" if x > 0 else "-inf") if math.isinf(x) else f"{x:.{digits}f}"


def _headline(match: Match) -> str:
    """The running estimate a progress line shows."""
    if not match.records:
        return ""
    if len(match.players) == 2:
        text = f"Elo {_describe(match.elo(), 1.0, 0)}"
        test = match.sprt()
        return text + (f", LLR {test.llr:.2f} ({test.lower:.2f}, {test.upper:.2f})" if test else "")
    return f"{match.players[0]} wins {_describe(match.win_share(0))} %"


class Progress:
    """A single self-rewriting status line on a terminal: games, games/s, ETA and the running estimate."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.width = 0

    def __call__(self, match: Match, target: int) -> None:
        """Redraws the line for ``match`` so far, out of ``target`` games."""
        done = len(match.records)
        rate = done / match.seconds if match.seconds > 0 else 0.0
        eta = f"{(target - done) / rate:.0f} s" if rate > 0 else "?"
        line = f"{done}/{target} games, {rate:.1f} games/s, ETA {eta}  {_headline(match)}"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def clear(self) -> None:
        """Erases the line."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def run_arena(
    game: str,
    players: Sequence[str],
    games: int,
    *,
    jobs: int | None,
    seed: int,
    options: Mapping[str, Any],
    as_json: bool,
    sprt_elo: tuple[float, float] | None = None,
    ray: bool = False,
    ray_address: str | None = None,
) -> int:
    """``cardnet arena``: plays the match and prints a table, or one JSON document with ``as_json``. A
    progress line goes to stderr while it runs, when stderr is a terminal. ``jobs=None`` means one
    thread, or with Ray one task per CPU of the cluster."""
    progress = Progress(sys.stderr) if sys.stderr.isatty() else None
    if jobs is None:
        jobs = _ray_cpus(ray_address) if ray else 1
    try:
        match = play_match(
            game,
            players,
            games,
            seed=seed,
            jobs=jobs,
            options=options,
            sprt_elo=sprt_elo,
            ray=ray,
            ray_address=ray_address,
            progress=progress,
        )
    finally:
        if progress is not None:
            progress.clear()
    if as_json:
        sys.stdout.write(json.dumps(match.to_json(), sort_keys=True) + "\n")
    else:
        sys.stdout.write(format_match(match))
    return 0


def _connect_ray(address: str | None) -> ModuleType:
    """The ``ray`` module, connected: to the cluster ``ray.init`` already joined, else to ``address``
    (``None``: ``$RAY_ADDRESS``, else a new local cluster)."""
    try:
        import ray
    except ImportError:
        raise BadOptions("--ray needs Ray: pip install 'cardnet[cluster]'") from None
    if not ray.is_initialized():
        ray.init(address=address or None, logging_level=logging.ERROR, log_to_driver=False)
    return ray


def _ray_cpus(address: str | None) -> int:
    ray = _connect_ray(address)
    # Ray leaves this function unannotated; it returns resource name -> amount.
    resources: dict[str, float] = ray.cluster_resources()
    return max(1, int(resources.get("CPU", 1)))


def format_match(match: Match) -> str:
    """The match as a table for people."""
    lines = []
    games = len(match.records)
    rate = games / match.seconds if match.seconds > 0 else math.inf
    lines.append(
        f"{match.game}: {games} games ({match.deals} deals x {len(match.players)} seatings), "
        f"{sum(r.decisions for r in match.records)} decisions in {match.seconds:.2f} s "
        f"({rate:,.1f} games/s, {match.jobs} {'job' if match.jobs == 1 else 'jobs'} on {match.engine}, "
        f"seed {match.seed})"
    )
    names = labels(match.players)
    width = max(6, *(len(p) for p in names))
    lines.append(
        f"  {'player':<{width}}  {'wins':>6}  {'win % (95 %)':>14}  {'reward % (95 %)':>15}"
        f"  {'think p50':>9}  {'p95':>9}"
    )
    for p, name in enumerate(names):
        think = match.think[p]
        lines.append(
            f"  {name:<{width}}  {sum(r.won[p] for r in match.records):>6}  {_describe(match.win_share(p)):>14}"
            f"  {_describe(match.mean_reward(p)):>15}  {_ms(think.quantile(0.5)):>9}  {_ms(think.quantile(0.95)):>9}"
        )
    no_winner = sum(1 for r in match.records if not any(r.won))
    if no_winner:
        lines.append(f"  no winner: {no_winner}")
    if len(match.players) == 2:
        lines.append(f"Elo of {names[0]} over {names[1]}: {_describe(match.elo(), 1.0, 0)} (95 %)")
    else:
        lines.append("Bradley-Terry Elo (mean 0, 95 % bootstrap over deals):")
        for name, e in zip(names, match.ratings()):
            lines.append(f"  {name:<{width}}  {_describe(e, 1.0, 0)}")
    test = match.sprt()
    if test is not None and match.sprt_hypotheses is not None:
        elo0, elo1 = match.sprt_hypotheses
        verdict = {"H0": f"H0 accepted (Elo <= {elo0:g})", "H1": f"H1 accepted (Elo >= {elo1:g})"}
        lines.append(
            f"SPRT [{elo0:g}, {elo1:g}] alpha=beta=0.05: LLR {test.llr:.2f} in ({test.lower:.2f}, {test.upper:.2f}): "
            + verdict.get(test.decision or "", "inconclusive")
        )
    return "\n".join(lines) + "\n"


def _ms(seconds: float) -> str:
    if math.isnan(seconds):
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} us"
    return f"{seconds * 1e3:.3g} ms"


def labels(players: Sequence[str]) -> list[str]:
    """Player names for display, a repeated name numbered (``random``, ``random#2``)."""
    seen: dict[str, int] = {}
    out = []
    for name in players:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out
