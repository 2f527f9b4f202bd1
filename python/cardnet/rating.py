"""Statistics for matches between players: confidence intervals, Elo, a Bradley–Terry fit and the
sequential probability ratio test that ``cardnet arena --sprt`` runs.

Pure functions of numbers, no game in sight, so each can be checked against values worked out by hand.
Elo here is the logistic scale: a player with an expected score ``s`` against another is
``-400 log10(1/s - 1)`` Elo stronger.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "Estimate",
    "SprtResult",
    "bootstrap_bradley_terry",
    "bradley_terry",
    "bradley_terry_errors",
    "elo_from_score",
    "mean_interval",
    "pentanomial",
    "score_from_elo",
    "sprt",
    "sprt_bounds",
    "t95",
    "wilson",
]

#: The two-sided 95 % quantile of the normal distribution.
Z95 = 1.959963984540054
#: The two-sided 95 % quantiles of Student's t with 1 to 30 degrees of freedom.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t95(df: int) -> float:
    """The two-sided 95 % quantile of Student's t with ``df`` degrees of freedom (a table to 30, then the
    Cornish–Fisher expansion around the normal quantile, good to 1e-3)."""
    if df < 1:
        raise ValueError("t needs at least one degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a 95 % interval; an unbounded side is ``±inf``."""

    value: float
    low: float
    high: float

    def half_width(self) -> float:
        """Half the interval's width (``inf`` when a side is unbounded)."""
        return (self.high - self.low) / 2


def mean_interval(samples: Sequence[float], low: float = 0.0, high: float = 1.0) -> Estimate:
    """The mean of ``samples`` with its 95 % interval (Student's t: the sample standard deviation over the
    square root of the count), clipped to ``[low, high]``; with fewer than two samples the interval is the
    whole range."""
    n = len(samples)
    if n == 0:
        return Estimate(math.nan, low, high)
    mean = math.fsum(samples) / n
    if n < 2:
        return Estimate(mean, low, high)
    variance = math.fsum((x - mean) ** 2 for x in samples) / (n - 1)
    margin = t95(n - 1) * math.sqrt(variance / n)
    return Estimate(mean, max(low, mean - margin), min(high, mean + margin))


def wilson(successes: float, n: int) -> Estimate:
    """The share ``successes / n`` with its 95 % Wilson score interval (which, unlike the normal one, keeps
    a width at 0 % and 100 %); a fractional count (half a win for a tie) is allowed."""
    if n <= 0:
        return Estimate(math.nan, 0.0, 1.0)
    p, z2 = successes / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    margin = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - margin), min(1.0, centre + margin))


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger than its opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_from_score(score: float) -> float:
    """The Elo difference that gives an expected ``score`` (``±inf`` at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bradley_terry(wins: Sequence[Sequence[float]], prior: float = 0.0, tolerance: float = 1e-10) -> list[float]:
    """Elo ratings (mean 0) of the Bradley–Terry model fitted by maximum likelihood to ``wins[a][b]``, the
    number of times ``a`` beat ``b`` (a tie counts half to each).

    ``prior`` adds that many virtual ties to every pair, which keeps the fit finite when a player won or
    lost every comparison. Solved with Hunter's minorization–maximization iteration (2004). A player who
    never met anyone gets rating 0.
    """
    k = len(wins)
    w = [[float(wins[a][b]) + (prior / 2 if a != b else 0.0) for b in range(k)] for a in range(k)]
    games = [[w[a][b] + w[b][a] for b in range(k)] for a in range(k)]
    total = [math.fsum(w[a][b] for b in range(k) if b != a) for a in range(k)]
    gamma = [1.0] * k
    for _ in range(100_000):
        new = []
        for a in range(k):
            denominator = math.fsum(games[a][b] / (gamma[a] + gamma[b]) for b in range(k) if b != a and games[a][b])
            new.append(total[a] / denominator if denominator > 0 else gamma[a])
        # Zero wins sends a strength to 0; keep it tiny rather than zero so logs stay finite.
        new = [max(g, 1e-300) for g in new]
        scale = math.exp(math.fsum(math.log(g) for g in new) / k)
        new = [g / scale for g in new]
        change = max(abs(math.log(n / g)) for n, g in zip(new, gamma))
        gamma = new
        if change < tolerance:
            break
    return [400.0 * math.log10(g) for g in gamma]


def bootstrap_bradley_terry(
    groups: Sequence[Sequence[Sequence[float]]], prior: float, resamples: int, seed: int
) -> list[Estimate]:
    """Bradley–Terry Elo ratings with 95 % percentile-bootstrap intervals.

    ``groups`` holds one win matrix per independent unit (a deal and all its rotations); resampling whole
    units keeps the games of one deal together, since they share cards and are not independent.
    ``seed`` makes the intervals reproducible. When the units barely differ (every deal came out the same)
    the bootstrap has no spread, so each interval is widened to at least the likelihood's own
    (``bradley_terry_errors``).
    """
    k = len(groups[0]) if groups else 0

    def total(chosen: Sequence[Sequence[Sequence[float]]]) -> list[list[float]]:
        return [[math.fsum(g[a][b] for g in chosen) for b in range(k)] for a in range(k)]

    summed = total(groups)
    point = bradley_terry(summed, prior, tolerance=1e-7)
    errors = bradley_terry_errors(summed, prior, point)
    rng = random.Random(seed)
    draws = [
        bradley_terry(total([groups[rng.randrange(len(groups))] for _ in groups]), prior, tolerance=1e-7)
        for _ in range(resamples)
    ]
    estimates = []
    for a in range(k):
        values = sorted(d[a] for d in draws)
        low = values[int(0.025 * (len(values) - 1))] if values else -math.inf
        high = values[math.ceil(0.975 * (len(values) - 1))] if values else math.inf
        margin = Z95 * errors[a]
        estimates.append(Estimate(point[a], min(low, point[a] - margin), max(high, point[a] + margin)))
    return estimates


def bradley_terry_errors(wins: Sequence[Sequence[float]], prior: float, ratings: Sequence[float]) -> list[float]:
    """Standard errors (Elo) of Bradley–Terry ``ratings`` (mean 0) fitted to ``wins`` with ``prior``, from the
    Fisher information with every comparison counted as independent.

    The information in log-strengths is a graph Laplacian ``L`` (row sums 0); under the mean-zero
    constraint the covariance is its pseudo-inverse ``(L + J/k)^-1 - J/k``, ``J`` all ones.
    """
    k = len(wins)
    strength = [10.0 ** (r / 400.0) for r in ratings]
    info = [[0.0] * k for _ in range(k)]
    for a in range(k):
        for b in range(k):
            if a != b:
                n = wins[a][b] + wins[b][a] + prior
                p = strength[a] / (strength[a] + strength[b])
                info[a][b] = -n * p * (1 - p)
        info[a][a] = -math.fsum(info[a])
    shifted = [[info[a][b] + 1.0 / k for b in range(k)] for a in range(k)]
    inverse = _invert(shifted)
    scale = 400.0 / math.log(10.0)
    return [scale * math.sqrt(max(0.0, inverse[a][a] - 1.0 / k)) for a in range(k)]


def _invert(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The inverse of a small non-singular matrix, by Gauss–Jordan elimination with partial pivoting."""
    k = len(matrix)
    rows = [list(matrix[i]) + [1.0 if j == i else 0.0 for j in range(k)] for i in range(k)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(k):
            if r != col and rows[r][col] != 0.0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [row[k:] for row in rows]


def pentanomial(pair_scores: Sequence[float]) -> list[int]:
    """Counts of game pairs scoring 0, 1/4, 1/2, 3/4 and 1 (two games on one deal, seats swapped)."""
    counts = [0] * 5
    for score in pair_scores:
        counts[min(4, max(0, round(score * 4)))] += 1
    return counts


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's log-likelihood-ratio bounds: accept H0 at or below the first, H1 at or above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class SprtResult:
    """Where a sequential test stands."""

    llr: float
    lower: float
    upper: float
    #: ``"H0"`` (the first player is at most ``elo0`` stronger), ``"H1"`` (at least ``elo1``) or ``None``.
    decision: str | None


def sprt(counts: Sequence[int], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> SprtResult:
    """The generalized SPRT (GSPRT) on pentanomial counts (``pentanomial``), logistic Elo.

    This is Fishtest's formulation: for each hypothesis the pentanomial distribution closest to the
    observed frequencies (maximum likelihood) among those whose mean pair score is ``s0`` resp. ``s1``, the
    expected scores at ``elo0`` and ``elo1``; the LLR is the pair count times the mean log ratio of the two
    fitted distributions at the observed frequencies. As in Fishtest, an outcome class never seen counts
    1e-3, so that a match with no spread yet (every pair won, say) gets a finite LLR.
    """
    lower, upper = sprt_bounds(alpha, beta)
    n = sum(counts)
    if n == 0:
        return SprtResult(0.0, lower, upper, None)
    regular = [c if c > 0 else 1e-3 for c in counts]
    total = math.fsum(regular)
    freq = [c / total for c in regular]
    fitted0 = _closest_with_mean(freq, score_from_elo(elo0))
    fitted1 = _closest_with_mean(freq, score_from_elo(elo1))
    llr = n * math.fsum(f * math.log(p1 / p0) for f, p0, p1 in zip(freq, fitted0, fitted1))
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SprtResult(llr, lower, upper, decision)


_PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def _closest_with_mean(freq: Sequence[float], mean: float) -> list[float]:
    """The distribution over pair scores of the given ``mean`` that maximizes the likelihood of ``freq``.

    By Lagrange it is ``p_i = f_i / (1 + t (x_i - mean))`` for the ``t`` at which the mean comes out right;
    that mean condition is monotone in ``t`` on the range keeping every ``p_i`` positive, so bisection finds
    it.
    """

    def excess(t: float) -> float:
        return math.fsum(f * (x - mean) / (1 + t * (x - mean)) for f, x in zip(freq, _PAIR_SCORES))

    low, high = -1 / (1 - mean) + 1e-12, 1 / mean - 1e-12
    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    t = (low + high) / 2
    return [f / (1 + t * (x - mean)) for f, x in zip(freq, _PAIR_SCORES)]
