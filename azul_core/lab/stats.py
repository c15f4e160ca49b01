"""Statistics for comparing variants: descriptions of samples, intervals and tests.

Pure functions over numbers, on the standard library only (``statistics`` and
``math``), so that summaries need no scientific stack. Every test is two-sided
and returns a p-value; "clear" means the p-value is below ``1 - confidence``.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Iterable, Sequence

#: The confidence level of every interval and test unless told otherwise.
CONFIDENCE = 0.95


def mean(values: Iterable[float]) -> float:
    """The arithmetic mean; 0.0 for no values (an empty run has nothing to average)."""
    values = list(values)
    return math.fsum(values) / len(values) if values else 0.0


def median(values: Iterable[float]) -> float:
    values = list(values)
    return float(statistics.median(values)) if values else 0.0


def stdev(values: Iterable[float]) -> float:
    """The sample standard deviation (divides by n - 1); 0.0 below two values."""
    values = list(values)
    return statistics.stdev(values) if len(values) > 1 else 0.0


def quartiles(values: Iterable[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile), by linear interpolation between the
    sorted values (``statistics.quantiles`` "inclusive", the method of most spreadsheets)."""
    values = list(values)
    if not values:
        return (0.0, 0.0, 0.0)
    if len(values) == 1:
        only = float(values[0])
        return (only, only, only)
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return (q1, q2, q3)


def describe(values: Iterable[float]) -> dict[str, float]:
    """Mean, median, standard deviation, quartiles, minimum and maximum of a sample."""
    values = list(values)
    q1, q2, q3 = quartiles(values)
    return {
        "mean": mean(values),
        "median": q2,
        "stdev": stdev(values),
        "q1": q1,
        "q3": q3,
        "min": float(min(values)) if values else 0.0,
        "max": float(max(values)) if values else 0.0,
    }


def normal_quantile(confidence: float = CONFIDENCE) -> float:
    """The z of a two-sided interval: 1.959964 for 95%."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes: float, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a proportion.

    ``successes`` may be fractional (a victory of several seats, a tie or a team, counts
    as a share of a win).
    Unlike the textbook p +- z*sqrt(p(1-p)/n), it stays inside [0, 1] and does
    not shrink to a point when nothing (or everything) succeeded.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, not {successes}")
    z = normal_quantile(confidence)
    share = successes / trials
    z2n = z * z / trials
    centre = (share + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(share * (1 - share) / trials + z2n / (4 * trials)) / (1 + z2n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class TestResult:
    """A two-sided test: the statistic, its degrees of freedom (``None`` for a z-test)
    and the p-value; ``difference`` is the second sample's estimate minus the first's."""

    __test__ = False  # not a pytest class

    name: str
    statistic: float
    p_value: float
    difference: float
    df: float | None = None

    def clear(self, confidence: float = CONFIDENCE) -> bool:
        """Whether the difference is statistically clear at ``confidence``."""
        return self.p_value < 1 - confidence


def welch_test(first: Sequence[float], second: Sequence[float]) -> TestResult:
    """Welch's t-test for a difference between two means (unequal variances allowed).

    Samples of fewer than two values, or two samples without any spread, have
    no estimate of their error: equal means give p = 1, different ones p = 0.
    """
    n1, n2 = len(first), len(second)
    if n1 == 0 or n2 == 0:
        raise ValueError("Welch's test needs at least one value in each sample")
    m1, m2 = mean(first), mean(second)
    v1 = statistics.variance(first, m1) if n1 > 1 else 0.0
    v2 = statistics.variance(second, m2) if n2 > 1 else 0.0
    e1, e2 = v1 / n1, v2 / n2
    error = e1 + e2
    difference = m2 - m1
    if error == 0:
        same = difference == 0
        return TestResult("welch", 0.0 if same else math.copysign(math.inf, difference),
                          1.0 if same else 0.0, difference, None)
    t = difference / math.sqrt(error)
    parts = (e1 * e1 / (n1 - 1) if n1 > 1 else 0.0) + (e2 * e2 / (n2 - 1) if n2 > 1 else 0.0)
    df = error * error / parts
    return TestResult("welch", t, t_two_sided_p(t, df), difference, df)


def two_proportion_test(successes_first: float, trials_first: int,
                        successes_second: float, trials_second: int) -> TestResult:
    """The two-proportion z-test (pooled standard error) for a difference in shares."""
    if trials_first <= 0 or trials_second <= 0:
        raise ValueError("the two-proportion test needs at least one trial in each sample")
    p1 = successes_first / trials_first
    p2 = successes_second / trials_second
    pooled = (successes_first + successes_second) / (trials_first + trials_second)
    error = math.sqrt(pooled * (1 - pooled) * (1 / trials_first + 1 / trials_second))
    difference = p2 - p1
    if error == 0:
        same = difference == 0
        return TestResult("two-proportion z", 0.0 if same else math.copysign(math.inf, difference),
                          1.0 if same else 0.0, difference)
    z = difference / error
    return TestResult("two-proportion z", z, normal_two_sided_p(z), difference)


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` (> 0, not necessarily whole) degrees of freedom.

    That tail is the regularised incomplete beta I_x(df/2, 1/2) at x = df / (df + t^2).
    """
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if math.isinf(t):
        return 0.0
    return regularized_beta(df / (df + t * t), df / 2, 0.5)


def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function I_x(a, b), for 0 <= x <= 1 and a, b > 0.

    Evaluated by its continued fraction (modified Lentz), which converges fast
    for x < (a + 1) / (a + b + 2); above that the symmetry
    I_x(a, b) = 1 - I_{1-x}(b, a) brings x back into that range.
    """
    if not 0 <= x <= 1:
        raise ValueError(f"x must be between 0 and 1, not {x}")
    if x == 0 or x == 1:
        return x
    if x > (a + 1) / (a + b + 2):
        return 1 - regularized_beta(1 - x, b, a)
    log_front = (a * math.log(x) + b * math.log1p(-x)
                 + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b))
    return math.exp(log_front) * _beta_fraction(x, a, b) / a


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction 1 / (1 + d1 / (1 + d2 / (1 + ...))) of I_x(a, b)."""
    tiny = 1e-300
    c = 1.0
    d = 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    value = d
    for m in range(1, 500):
        # Each m contributes an even term d_{2m} then an odd term d_{2m+1}.
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            step = c * d
            value *= step
        if abs(step - 1) < 1e-15:
            break
    return value


__all__ = ["CONFIDENCE", "mean", "median", "stdev", "quartiles", "describe", "normal_quantile",
           "wilson_interval", "TestResult", "welch_test", "two_proportion_test",
           "normal_two_sided_p", "t_two_sided_p", "regularized_beta"]
