"""A run against an older one: the puzzles each backend lost, and the backends that got slower.

Only like runs are compared (``unlike``): the same mode, timeout, shuffle and seed, and for
each dataset in both the same puzzles, told by a hash of each. For each dataset and backend
spec in both runs (matched by name and label), the puzzles are then paired by line and copy. A
puzzle finished before and not now (a timeout, an error, a wrong answer) is lost; one
unfinished before and finished now, gained. Times are compared as asv and Google Benchmark's
compare do, with the Mann-Whitney U test over the scored wall times (an unfinished puzzle at
twice its run's timeout): a backend is significantly slower when p < 0.01 and its median grew
by more than 10%, faster when p < 0.01 and it shrank as much.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from solvers.tools import stats
from solvers.tools.results import CompareRun, DatasetRun, Settings

ALPHA = 0.01  # the p-value below which a change in time counts
SLOWER = 1.10  # and the ratio of medians above which it counts as slower


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
    lost: tuple[StatusChange, ...] = ()
    gained: tuple[StatusChange, ...] = ()

    @property
    def ratio(self) -> float:
        return self.new_median_s / self.old_median_s if self.old_median_s > 0 else math.inf

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
        said = [
            word
            for word, true in (
                ("slower", self.slower),
                ("faster", self.faster),
                (f"lost {len(self.lost)}", self.lost),
                (f"gained {len(self.gained)}", self.gained),
            )
            if true
        ]
        return ", ".join(said) or "no significant change"


LIKE = ("mode", "timeout", "shuffle", "seed")  # settings two runs must share to be compared


def unlike_settings(new: Settings, old: Settings) -> str | None:
    """What makes runs with these settings unlike (their times are not comparable), or None."""
    for name in LIKE:
        if getattr(new, name) != getattr(old, name):
            return f"{name} {getattr(new, name)} now, {getattr(old, name)} then"
    return None


def unlike(new: CompareRun, old: CompareRun) -> str | None:
    """What makes the runs unlike, or None: their settings, or a dataset of both whose
    puzzles differ (by their hashes, line by line); a run without hashes cannot be matched."""
    if said := unlike_settings(new.settings, old.settings):
        return said
    older = {dataset.name: dataset for dataset in old.datasets}
    for dataset in new.datasets:
        before = older.get(dataset.name)
        if before is None:
            continue
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


def changes(new: CompareRun, old: CompareRun) -> list[Change]:
    """Every backend spec of every dataset that both runs hold, in the newer run's order."""
    found = []
    older = {dataset.name: dataset for dataset in old.datasets}
    for dataset in new.datasets:
        before = older.get(dataset.name)
        if before is None:
            continue
        known = {backend.spec for backend in before.backends}
        for backend in dataset.backends:
            if backend.spec in known:
                found.append(_change(dataset, before, backend.spec, new, old))
    return found


def _change(
    dataset: DatasetRun, before: DatasetRun, spec: str, new: CompareRun, old: CompareRun
) -> Change:
    now = {r.key: r for r in dataset.records_of(spec)}
    then = {r.key: r for r in before.records_of(spec)}
    keys = [key for key in now if key in then]
    new_times = stats.scored_records([now[k] for k in keys], new.settings.timeout)
    old_times = stats.scored_records([then[k] for k in keys], old.settings.timeout)
    p = stats.mann_whitney(new_times, old_times) if len(keys) > 1 else 1.0
    lost = [k for k in keys if then[k].finished and not now[k].finished]
    gained = [k for k in keys if now[k].finished and not then[k].finished]
    return Change(
        dataset.name,
        spec,
        len(keys),
        float(np.median(old_times)) if keys else 0.0,
        float(np.median(new_times)) if keys else 0.0,
        1.0 if math.isnan(p) else p,
        tuple(StatusChange(*k, then[k].status, now[k].status) for k in lost),
        tuple(StatusChange(*k, then[k].status, now[k].status) for k in gained),
    )


def table(found: list[Change], ms) -> list[list[str]]:
    """The terminal's regression table: a header, then a line per backend and dataset."""
    rows = [["dataset", "backend", "puzzles", "median wall ms", "change", "p", "verdict"]]
    for change in found:
        rows.append(
            [
                change.dataset,
                change.spec,
                str(change.puzzles),
                f"{ms(change.old_median_s)} -> {ms(change.new_median_s)}",
                f"{100 * (change.ratio - 1):+.0f}%",
                f"{change.p_value:.2g}",
                change.verdict,
            ]
        )
    return rows
