"""azul_core.lab.stats against values worked out by hand or published with the methods."""

from __future__ import annotations

import math

import pytest

from azul_core.lab.stats import (
    describe,
    mean,
    median,
    normal_quantile,
    quartiles,
    regularized_beta,
    stdev,
    t_two_sided_p,
    two_proportion_test,
    welch_test,
    wilson_interval,
)

# Welch's classic example samples (equal sizes, then unequal sizes and variances); the expected
# t, degrees of freedom and p-values agree with SciPy's ttest_ind(equal_var=False).
A1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
A2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]
B1 = [17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7, 21.8]
B2 = [21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4, 21.8,
      20.7, 21.7, 21.5, 22.5, 23.6, 21.5, 22.5, 23.5, 21.5, 21.8]


def test_descriptions_of_a_small_sample():
    values = [1, 2, 3, 4, 5, 6, 7, 8]
    assert mean(values) == 4.5 and median(values) == 4.5
    assert stdev(values) == pytest.approx(math.sqrt(6))  # sample variance 42 / 7
    assert quartiles(values) == pytest.approx((2.75, 4.5, 6.25))
    assert describe(values) == pytest.approx(
        {"mean": 4.5, "median": 4.5, "stdev": math.sqrt(6), "q1": 2.75, "q3": 6.25, "min": 1, "max": 8})


def test_descriptions_of_tiny_samples_do_not_fail():
    assert describe([]) == {"mean": 0.0, "median": 0.0, "stdev": 0.0, "q1": 0.0, "q3": 0.0,
                            "min": 0.0, "max": 0.0}
    assert describe([7]) == {"mean": 7.0, "median": 7.0, "stdev": 0.0, "q1": 7.0, "q3": 7.0,
                             "min": 7.0, "max": 7.0}
    assert quartiles([0, 10]) == (2.5, 5.0, 7.5)


def test_normal_quantile_of_95_percent():
    assert normal_quantile(0.95) == pytest.approx(1.959964, abs=1e-6)
    with pytest.raises(ValueError):
        normal_quantile(1.5)


def test_wilson_interval_of_50_out_of_100():
    low, high = wilson_interval(50, 100)
    assert (low, high) == pytest.approx((0.403832, 0.596168), abs=1e-6)


# Each pair solves (share - p)^2 = z^2 p (1 - p) / n for p, the definition of the Wilson interval.
@pytest.mark.parametrize("successes, trials, expected", [
    (0, 10, (0.0, 0.277533)),   # z^2 / (n + z^2): no longer a point at 0
    (10, 10, (0.722467, 1.0)),
    (1, 4, (0.045587, 0.699358)),
    (2.5, 5, (0.170424, 0.829576)),  # a shared victory counts as half a win
])
def test_wilson_interval_known_values(successes, trials, expected):
    assert wilson_interval(successes, trials) == pytest.approx(expected, abs=1e-6)


def test_wilson_interval_narrows_with_confidence_and_trials():
    wide = wilson_interval(50, 100, 0.99)
    narrow = wilson_interval(500, 1000)
    base = wilson_interval(50, 100)
    assert wide[0] < base[0] < narrow[0] < 0.5 < narrow[1] < base[1] < wide[1]
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_welch_test_on_equal_sized_samples():
    result = welch_test(A1, A2)
    assert result.name == "welch"
    assert result.statistic == pytest.approx(2.455356, abs=1e-6)  # second minus first
    assert result.df == pytest.approx(24.988529, abs=1e-6)
    assert result.p_value == pytest.approx(0.021378, abs=1e-6)
    assert result.difference == pytest.approx(mean(A2) - mean(A1))
    assert result.clear()


def test_welch_test_on_unequal_samples():
    result = welch_test(B1, B2)
    assert result.statistic == pytest.approx(1.565434, abs=1e-6)
    assert result.df == pytest.approx(9.904741, abs=1e-6)
    assert result.p_value == pytest.approx(0.148842, abs=1e-6)
    assert not result.clear()
    reverse = welch_test(B2, B1)
    assert reverse.statistic == pytest.approx(-result.statistic) and reverse.p_value == pytest.approx(result.p_value)


def test_welch_test_without_any_spread():
    assert welch_test([5, 5, 5], [5, 5]).p_value == 1.0
    different = welch_test([5, 5, 5], [6, 6])
    assert different.p_value == 0.0 and different.clear() and different.statistic == math.inf
    one_sided_spread = welch_test([5, 5, 5, 5], [4, 6, 5, 7])
    assert one_sided_spread.df == pytest.approx(3) and 0 < one_sided_spread.p_value < 1
    with pytest.raises(ValueError):
        welch_test([], [1, 2])


def test_two_proportion_test_known_values():
    result = two_proportion_test(60, 100, 40, 100)
    # pooled share 0.5: standard error sqrt(0.25 * 2 / 100); z = -0.2 / 0.0707107
    assert result.statistic == pytest.approx(-2.828427, abs=1e-6)
    assert result.p_value == pytest.approx(0.004678, abs=1e-6)
    assert result.df is None and result.difference == pytest.approx(-0.2)
    assert result.clear() and not two_proportion_test(52, 100, 48, 100).clear()
    assert two_proportion_test(0, 10, 0, 20).p_value == 1.0


@pytest.mark.parametrize("t", [0.0, 0.3, 1.0, 2.5, 12.706, 100.0])
def test_t_distribution_tails_match_closed_forms(t):
    assert t_two_sided_p(t, 1) == pytest.approx(1 - 2 * math.atan(t) / math.pi, abs=1e-12)  # Cauchy
    assert t_two_sided_p(t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t), abs=1e-12)
    assert t_two_sided_p(-t, 2) == pytest.approx(t_two_sided_p(t, 2))


def test_t_distribution_table_values_and_normal_limit():
    assert t_two_sided_p(2.228139, 10) == pytest.approx(0.05, abs=1e-6)
    assert t_two_sided_p(12.706205, 1) == pytest.approx(0.05, abs=1e-6)
    assert t_two_sided_p(1.959964, 1e7) == pytest.approx(0.05, abs=1e-6)


@pytest.mark.parametrize("x", [0.0, 0.01, 0.3, 0.5, 0.77, 0.999, 1.0])
def test_regularized_beta_closed_forms(x):
    assert regularized_beta(x, 1, 1) == pytest.approx(x, abs=1e-12)
    assert regularized_beta(x, 3, 1) == pytest.approx(x ** 3, abs=1e-12)
    assert regularized_beta(x, 1, 4) == pytest.approx(1 - (1 - x) ** 4, abs=1e-12)
    assert regularized_beta(x, 2.5, 7) == pytest.approx(1 - regularized_beta(1 - x, 7, 2.5), abs=1e-12)
