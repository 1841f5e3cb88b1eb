"""A run against an older one: the puzzles each backend lost, and the backends that got slower.

Only like runs are compared (``unlike``): the same mode, timeout, shuffle and seed, and for
each dataset in both the same puzzles, told by a hash of each. For each dataset and backend
spec in both runs (matched by name and label), the puzzles are then paired by line and copy. A
puzzle finished before and not now (a timeout, an error, a wrong answer) is lost; one
unfinished before and finished now, gained.

Times are CPU times, each puzzle against itself: the effect is the median over the puzzles of
the ratio of a puzzle's CPU time now to then (an unfinished puzzle at twice its run's
timeout), and it counts when the Wilcoxon signed-rank test over the puzzles' log ratios gives
p < 0.01 and the effect is beyond ``SLOWER`` either way. A loaded machine inflates CPU times
too (``solvers.analysis.calibration`` says why and by how much), so the newer run's CPU times are
first divided by the machine factor, the median of its calibration times over the older run's
(``machine``): what is left is the code's own change. Where a run has no such times (one
written before runs carried them, or timed on a Dask cluster's machines) or timed another
workload, the factor is 1 and ``machine`` says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median

import numpy as np

from solvers.analysis import stats
from solvers.analysis.results import CompareRun, DatasetRun, Settings

ALPHA = 0.01  # the p-value below which a change in time counts
SLOWER = 1.75  # and the median ratio of CPU times above which it counts as slower


@dataclass(frozen=True)
class StatusChange:
    puzzle: int
    copy: int
    old: str
    new: str

    def __str__(self) -> str:
        where = f"puzzle {self.puzzle}" + (f" copy {self.copy}" if self.copy else "")
        return f"{where}: {self.old} -> {self.new}"


@dataclass(frozen=True)
class Change:
    """One backend spec on one dataset, the older run against the newer."""

    dataset: str
    spec: str
    puzzles: int
    old_median_s: float
    new_median_s: float
    p_value: float
    ratio: float  # the median over the puzzles of each one's CPU time now to then
    lost: tuple[StatusChange, ...] = ()
    gained: tuple[StatusChange, ...] = ()

    @property
    def slower(self) -> bool:
        return self.p_value < ALPHA and self.ratio > SLOWER

    @property
    def faster(self) -> bool:
        return self.p_value < ALPHA and self.ratio < 1 / SLOWER

    @property
    def regressed(self) -> bool:
        """Slower, or lost puzzles: what ``sudoku compare --against`` exits 6 for."""
        return self.slower or bool(self.lost)

    @property
    def verdict(self) -> str:
        """What the test says, in its own terms: a change in time is significant when
        p < ALPHA, and counts (slower, faster) when it is beyond SLOWER too; a significant
        change within SLOWER is said as such, never "no significant change" beside its p."""
        said = [
            word
            for word, true in (
                ("slower", self.slower),
                ("faster", self.faster),
                (f"a small change (under {SLOWER:g}x)", self.small),
                (f"lost {len(self.lost)}", self.lost),
                (f"gained {len(self.gained)}", self.gained),
            )
            if true
        ]
        return ", ".join(said) or "no significant change"

    @property
    def small(self) -> bool:
        """A change in time the test finds (p < ALPHA) too small to count either way."""
        return self.p_value < ALPHA and not (self.slower or self.faster)


LIKE = ("mode", "timeout", "shuffle", "seed")  # settings two runs must share to be compared


def unlike_settings(new: Settings, old: Settings) -> str | None:
    """What makes runs with these settings unlike (their times are not comparable), or None."""
    for name in LIKE:
        if getattr(new, name) != getattr(old, name):
            return f"{name} {getattr(new, name)} now, {getattr(old, name)} then"
    return None


def nothing_shared(
    datasets: list[str], old: CompareRun, labels: list[str] | None = None
) -> str | None:
    """What leaves a run of ``datasets`` (and backend specs ``labels``, once known) nothing to
    compare with ``old``: no dataset of both, or no spec that both ran on one; else None. Both
    are known before any puzzle is timed."""
    theirs = [dataset.name for dataset in old.datasets]
    shared = [name for name in datasets if name in theirs]
    if not shared:
        return f"no dataset in both ({_listed(datasets)} now, {_listed(theirs)} then)"
    if labels is None:
        return None
    ran = [b.spec for dataset in old.datasets if dataset.name in shared for b in dataset.backends]
    if set(ran).isdisjoint(labels):
        both = f"{_listed(labels)} now, {_listed(list(dict.fromkeys(ran)))} then"
        return f"no backend in both on {_listed(shared)} ({both})"
    return None


def _listed(names: list[str]) -> str:
    return ", ".join(names) or "none"


def unlike(new: CompareRun, old: CompareRun) -> str | None:
    """What makes the runs unlike, or None: their settings, or a dataset of both whose
    puzzles differ (by their hashes, line by line); a run without hashes cannot be matched."""
    if said := unlike_settings(new.settings, old.settings):
        return said
    for dataset, before in _in_both(new, old):
        if not dataset.hashes or not before.hashes:
            return f"{dataset.name}: a run records no puzzle hashes (written before they were)"
        if dataset.hashes != before.hashes:
            line = min(
                line
                for line in dataset.hashes.keys() | before.hashes.keys()
                if dataset.hashes.get(line) != before.hashes.get(line)
            )
            return f"{dataset.name}: other puzzles (the first at line {line})"
    return None


@dataclass(frozen=True)
class Machine:
    """How fast the newer run's machine went against the older's: ``factor``, the median CPU
    time of the calibration workload now over then (1.0 where it cannot be told), and ``said``,
    the line that says so."""

    factor: float
    said: str


def machine(new: CompareRun, old: CompareRun) -> Machine:
    """The machine factor by which the newer run's CPU times are divided (``changes``): at
    least 1, since it is there to excuse a slower machine, never to make a backend look slower
    than it measured. A quiet machine can run the calibration slower than a loaded one (its
    small working set gains more from a busy CPU's clock than it loses to shared caches, 0.81
    and 0.82 in 2 of 16 runs of the loaded-machine test from a quiet start), while the
    backends' own times rose: divided by 0.8, they raised false alarms."""
    as_measured = "CPU times compared as measured"
    now, then = new.calibration, old.calibration
    if now is None or then is None:
        whose = "neither run carries" if now is then else "this run carries no"
        whose = "the older run carries no" if now is not None else whose
        return Machine(1.0, f"no machine factor: {whose} calibration times: {as_measured}")
    if now.workload != then.workload:
        said = f"the runs timed other calibration workloads ({now.workload}, {then.workload})"
        return Machine(1.0, f"no machine factor: {said}: {as_measured}")
    pace = median(now.cpu_seconds) / median(then.cpu_seconds)
    if pace < 1:  # it excuses slowness only: see the docstring
        said = f"the calibration ran {1 / pace:.2f}x faster than in the older run"
        return Machine(1.0, f"machine factor 1.00 ({said}): {as_measured}")
    said = f"the calibration ran {pace:.2f}x slower than in the older run"
    return Machine(pace, f"machine factor {pace:.2f} ({said}): CPU times divided by it")


def changes(new: CompareRun, old: CompareRun) -> list[Change]:
    """Every backend spec of every dataset that both runs hold, in the newer run's order, its
    CPU times divided by the machine factor (``machine``)."""
    factor = machine(new, old).factor
    found = []
    for dataset, before in _in_both(new, old):
        known = {backend.spec for backend in before.backends}
        for backend in dataset.backends:
            if backend.spec in known:
                found.append(_change(dataset, before, backend.spec, new, old, factor))
    return found


def _in_both(new: CompareRun, old: CompareRun) -> list[tuple[DatasetRun, DatasetRun]]:
    """Each dataset of the newer run that the older one holds too, with the older's."""
    older = {dataset.name: dataset for dataset in old.datasets}
    return [(dataset, older[dataset.name]) for dataset in new.datasets if dataset.name in older]


def _change(
    dataset: DatasetRun,
    before: DatasetRun,
    spec: str,
    new: CompareRun,
    old: CompareRun,
    factor: float,
) -> Change:
    now = {r.key: r for r in dataset.records_of(spec)}
    then = {r.key: r for r in before.records_of(spec)}
    keys = [key for key in now if key in then]
    new_times = _cpu([now[k] for k in keys], new.settings.timeout, factor)
    old_times = _cpu([then[k] for k in keys], old.settings.timeout)
    p = stats.signed_rank(new_times, old_times) if len(keys) > 1 else 1.0
    ratio = stats.paired_ratio(new_times, old_times).value if keys else 1.0
    lost = [k for k in keys if then[k].finished and not now[k].finished]
    gained = [k for k in keys if now[k].finished and not then[k].finished]
    return Change(
        dataset.name,
        spec,
        len(keys),
        float(np.median(old_times)) if keys else 0.0,
        float(np.median(new_times)) if keys else 0.0,
        1.0 if math.isnan(p) else p,
        ratio,
        tuple(StatusChange(*k, _said(then[k]), _said(now[k])) for k in lost),
        tuple(StatusChange(*k, _said(then[k]), _said(now[k])) for k in gained),
    )


def _said(record) -> str:
    """A record's status, or ``disputed`` where the judge disputed its answer."""
    return "disputed" if record.disputed else str(record.answer.status)


def _cpu(records: list, timeout: float, factor: float = 1.0) -> np.ndarray:
    """Each record's CPU time divided by ``factor`` where it finished, else twice the timeout
    (as PAR-2 scores: an unfinished puzzle's score is the timeout's, whatever the machine)."""
    times = [r.answer.cpu_seconds / factor for r in records]
    return stats.scored(times, [r.finished for r in records], timeout)


def table(found: list[Change], ms) -> list[list[str]]:
    """The terminal's regression table: a header, then a line per backend and dataset."""
    header = ["dataset", "backend", "puzzles", "median cpu ms", "change", "p", "verdict"]
    return [header] + [
        [c.dataset, c.spec, str(c.puzzles), f"{ms(c.old_median_s)} -> {ms(c.new_median_s)}",
         f"{100 * (c.ratio - 1):+.0f}%", f"{c.p_value:.2g}", c.verdict]
        for c in found
    ]  # fmt: skip
