"""The statistics of a comparison, as pure functions over per-puzzle times (numpy, scipy).

The SAT competition's convention runs through them all: a puzzle not finished within the
timeout scores twice the timeout, so that a backend is never flattered by leaving its hardest
puzzles out. PAR-2 is the mean of those scores; every other statistic is taken over them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from solvers.analysis.results import Record

RESAMPLES = 2000  # bootstrap resamples of each interval
LEVEL = 0.95  # the intervals' confidence level
SEED = 2006  # fixed: the same times always give the same intervals
PENALTY = 2.0  # an unfinished puzzle scores PENALTY * timeout (PAR-2)
_CELLS_PER_BATCH = 1_000_000  # resampled values held at once, to keep memory flat


class Interval(NamedTuple):
    """A statistic and its bootstrap confidence interval."""

    value: float
    low: float
    high: float


def scored(seconds: Sequence[float], finished: Sequence[bool], timeout: float) -> np.ndarray:
    """Each puzzle's time where it was finished, else ``PENALTY * timeout``."""
    times = np.asarray(seconds, dtype=float)
    return np.where(np.asarray(finished, dtype=bool), times, PENALTY * timeout)


def scored_records(records: Sequence[Record], timeout: float) -> np.ndarray:
    return scored([r.answer.seconds for r in records], [r.finished for r in records], timeout)


def par2(seconds: Sequence[float], finished: Sequence[bool], timeout: float) -> float:
    """PAR-2: the mean over the puzzles of the time, or twice the timeout if unfinished."""
    return float(np.mean(scored(seconds, finished, timeout)))


def quantile(values: Sequence[float], q: float) -> float:
    """The nearest-rank quantile (numpy's ``inverted_cdf``): always a value that was measured;
    the 95th percentile of 20 values is the 19th smallest."""
    return float(np.quantile(np.asarray(values, dtype=float), q, method="inverted_cdf"))


def median_interval(
    values: Sequence[float], resamples: int = RESAMPLES, level: float = LEVEL, seed: int = SEED
) -> Interval:
    """The median, and its bootstrap interval by the percentile method (``scipy.stats.bootstrap``,
    ``resamples`` resamples from a generator seeded with ``seed``)."""
    data = np.asarray(values, dtype=float)
    median = float(np.median(data))
    if data.size < 2:  # scipy wants two; every resample of one value is that value
        return Interval(median, median, median)
    # imported only here: SciPy's import is 1-11 s of a one-puzzle compare's wall at load 1-13
    from scipy.stats import bootstrap

    found = bootstrap(
        (data,),
        np.median,
        n_resamples=resamples,
        batch=max(1, _CELLS_PER_BATCH // data.size),
        vectorized=True,
        confidence_level=level,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    low, high = found.confidence_interval
    return Interval(median, float(low), float(high))


def paired_ratio(times: Sequence[float], baseline: Sequence[float]) -> Interval:
    """The median over puzzles of ``times / baseline`` (each puzzle against itself), with its
    bootstrap interval (the puzzles resampled, each keeping its pair)."""
    ratios = np.asarray(times, dtype=float) / np.maximum(np.asarray(baseline, dtype=float), 1e-12)
    return median_interval(ratios)


def signed_rank(new: Sequence[float], old: Sequence[float]) -> float:
    """The two-sided p-value of the Wilcoxon signed-rank test that each puzzle's log time
    ratio ``new / old`` is centred on 0 (scipy); 1.0 when every pair is equal."""
    from scipy.stats import wilcoxon

    floor = 1e-9  # a CPU clock's tick: no log of 0
    logs = np.log(np.maximum(new, floor)) - np.log(np.maximum(old, floor))
    if not np.any(logs):
        return 1.0
    return float(wilcoxon(logs, alternative="two-sided").pvalue)


def virtual_best(times: np.ndarray) -> np.ndarray:
    """Per puzzle (a column), the best of the backends' scored times (the rows)."""
    return np.min(times, axis=0)


def best_shares(times: np.ndarray, finished: np.ndarray) -> np.ndarray:
    """Per backend (a row), the share of the puzzles (columns) on which it finished with the
    best time of all; a tie counts for each backend in it."""
    best = times == np.min(times, axis=0)
    return np.mean(best & finished, axis=1)
