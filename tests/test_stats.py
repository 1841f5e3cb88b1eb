"""Each statistic of a comparison against a case worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.analysis import stats


def test_an_unfinished_puzzle_scores_twice_the_timeout_and_par2_is_the_mean():
    seconds, finished = [0.1, 0.7, 0.3], [True, False, True]
    assert stats.scored(seconds, finished, timeout=1.0).tolist() == [0.1, 2.0, 0.3]
    assert stats.par2(seconds, finished, timeout=1.0) == pytest.approx((0.1 + 2.0 + 0.3) / 3)


def test_the_quantile_is_the_nearest_rank_a_measured_value():
    assert stats.quantile(range(1, 21), 0.95) == 19  # rank ceil(0.95 * 20) = 19
    assert stats.quantile([5.0, 1.0, 3.0], 0.5) == 3.0
    assert stats.quantile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.0  # never 2.5: not a measured time


def test_the_median_interval_of_three_values():
    # Resamples of [1, 2, 3] have median 1 when two or more draws are 1: 3 * (1/3)^2 * (2/3)
    # + (1/3)^3 = 7/27 of them, as many have median 3, and 13/27 median 2. The 2.5% and
    # 97.5% quantiles of 2000 such medians are therefore 1 and 3.
    assert stats.median_interval([1, 2, 3]) == (2.0, 1.0, 3.0)
    assert stats.median_interval([5, 5, 5, 5]) == (5.0, 5.0, 5.0)


def test_the_median_interval_is_reproducible_and_narrows_with_more_puzzles():
    rng = np.random.default_rng(1)
    few, many = rng.lognormal(size=20), rng.lognormal(size=2000)
    assert stats.median_interval(few) == stats.median_interval(few)
    narrow, wide = stats.median_interval(many), stats.median_interval(few)
    assert narrow.low <= narrow.value <= narrow.high
    assert narrow.high - narrow.low < wide.high - wide.low


def test_the_median_interval_is_the_percentile_bootstrap_written_out():
    # The bootstrap by hand: 2000 resamples drawn from the seeded generator as scipy draws
    # them, a median each, and the 2.5% and 97.5% quantiles of those medians.
    data = np.random.default_rng(3).lognormal(size=95)
    draws = np.random.default_rng(stats.SEED).integers(0, data.size, (stats.RESAMPLES, data.size))
    low, high = np.quantile(np.median(data[draws], axis=1), [0.025, 0.975])
    found = stats.median_interval(data)
    assert found.value == np.median(data)
    assert (found.low, found.high) == pytest.approx((low, high), rel=1e-9)
    assert stats.median_interval([4.0]) == (4.0, 4.0, 4.0)  # one puzzle: nothing to resample


def test_the_paired_ratio_is_the_median_of_each_puzzles_ratio():
    # ratios 2, 2, 3: a resample's median is 3 when two or more draws are the 3, which 7/27
    # of them are (more than 2.5%), so the interval is [2, 3].
    assert stats.paired_ratio([2.0, 4.0, 6.0], [1.0, 2.0, 2.0]) == (2.0, 2.0, 3.0)


def test_the_signed_rank_test_gives_the_exact_p_value_of_pairs_all_one_way():
    # Every puzzle slower: 2 of the 2**5 sign patterns are that extreme.
    assert stats.signed_rank([2, 4, 6, 8, 10], [1, 2, 3, 4, 5]) == pytest.approx(2 / 32)
    assert stats.signed_rank([1, 2, 3], [1, 2, 3]) == 1.0  # no pair moved
    # pairs in opposite directions by the same factors: no direction at all
    assert stats.signed_rank([2, 1, 4, 1], [1, 2, 1, 4]) == pytest.approx(1.0)


def test_the_virtual_best_and_each_backends_share_of_best_puzzles():
    times = np.array([[1.0, 5.0, 4.0], [2.0, 3.0, 4.0]])
    finished = np.array([[True, True, False], [True, True, False]])
    assert stats.virtual_best(times).tolist() == [1.0, 3.0, 4.0]
    # puzzle 3 is unfinished by both: a tie at the penalty is nobody's best
    assert stats.best_shares(times, finished).tolist() == pytest.approx([1 / 3, 1 / 3])
    tie = np.array([[1.0], [1.0]])
    assert stats.best_shares(tie, np.array([[True], [True]])).tolist() == [1.0, 1.0]
