"""Levels timed on a set of puzzles and summed up per level: what ``sudoku strength`` prints
and what ``sudoku compare --strength`` keeps in its run file and ``sudoku report`` shows."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.model.board import Board
from solvers.strength.levels import measure


@dataclass(frozen=True)
class Measured:
    """One level on one puzzle (its line in the file): whether it solved the puzzle with no
    search, the cells it decided (givens included) and the seconds it took; ``refuted`` when
    it proved the puzzle has no solution (then nothing is counted as decided: ``fixed`` 0),
    ``timed_out`` when it ran out of time before its fixpoint (then it decided nothing)."""

    puzzle: int
    level: str
    solved: bool
    fixed: int
    seconds: float
    refuted: bool = False
    timed_out: bool = False

    @property
    def open(self) -> bool:
        """Reached its fixpoint with the puzzle neither solved nor refuted."""
        return not (self.solved or self.refuted or self.timed_out)


@dataclass(frozen=True)
class Tally:
    """One level over a set of puzzles: how many, how many it solved, refuted and ran out of
    time on, the mean cells decided over the others (None when there are none), the median
    and total seconds."""

    level: str
    puzzles: int
    solved: int
    mean_fixed: float | None
    median_s: float
    total_s: float
    refuted: int = 0
    timed_out: int = 0

    @property
    def solved_pct(self) -> float:
        return 100 * self.solved / self.puzzles


def measured(
    puzzle: int, board: Board, levels: Iterable[str], timeout: float | None = None
) -> Iterator[Measured]:
    """Each of ``levels`` run on ``board`` from its givens to its fixpoint, timed alone, each
    within ``timeout`` seconds (None: no limit)."""
    for level in levels:
        began = time.perf_counter()
        try:
            outcome = measure(board, level, Deadline(timeout))
        except SolveTimeout:
            yield Measured(puzzle, level, False, 0, time.perf_counter() - began, timed_out=True)
            continue
        took = time.perf_counter() - began
        fixed = 0 if outcome.refuted else outcome.fixed
        yield Measured(puzzle, level, outcome.solved, fixed, took, refuted=outcome.refuted)


def tallies(found: Iterable[Measured]) -> list[Tally]:
    """Per level, in the order the levels first come in ``found``. The mean cells decided is
    over the puzzles the level solved or left open: a refuted puzzle is decided whole, and a
    timed-out one not measured."""
    by_level: dict[str, list[Measured]] = {}
    for item in found:
        by_level.setdefault(item.level, []).append(item)
    return [
        Tally(
            level,
            len(items),
            sum(item.solved for item in items),
            _mean(item.fixed for item in items if item.solved or item.open),
            statistics.median(item.seconds for item in items),
            sum(item.seconds for item in items),
            sum(item.refuted for item in items),
            sum(item.timed_out for item in items),
        )
        for level, items in by_level.items()
    ]


def _mean(values: Iterable[int]) -> float | None:
    kept = list(values)
    return statistics.fmean(kept) if kept else None


def solved_by(found: Iterable[Measured]) -> dict[int, list[str]]:
    """Per puzzle (in the order they first come), the levels that solve it."""
    levels: dict[int, list[str]] = {}
    for item in found:
        levels.setdefault(item.puzzle, [])
        if item.solved:
            levels[item.puzzle].append(item.level)
    return levels
