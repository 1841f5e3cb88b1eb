"""Levels timed on a set of puzzles and summed up per level: what ``sudoku strength`` prints
and what ``sudoku compare --strength`` keeps in its run file and ``sudoku report`` shows."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from solvers.board import Board
from solvers.strength import measure


@dataclass(frozen=True)
class Measured:
    """One level on one puzzle (its line in the file): whether it solved the puzzle with no
    search, the cells it decided (givens included) and the seconds it took."""

    puzzle: int
    level: str
    solved: bool
    fixed: int
    seconds: float


@dataclass(frozen=True)
class Tally:
    """One level over a set of puzzles: how many, how many it solved, the mean cells decided,
    the median and total seconds."""

    level: str
    puzzles: int
    solved: int
    mean_fixed: float
    median_s: float
    total_s: float

    @property
    def solved_pct(self) -> float:
        return 100 * self.solved / self.puzzles


def measured(puzzle: int, board: Board, levels: Iterable[str]) -> Iterator[Measured]:
    """Each of ``levels`` run on ``board`` from its givens to its fixpoint, timed alone."""
    for level in levels:
        began = time.perf_counter()
        outcome = measure(board, level)
        took = time.perf_counter() - began
        yield Measured(puzzle, level, outcome.solved, outcome.fixed, took)


def tallies(found: Iterable[Measured]) -> list[Tally]:
    """Per level, in the order the levels first come in ``found``."""
    by_level: dict[str, list[Measured]] = {}
    for item in found:
        by_level.setdefault(item.level, []).append(item)
    return [
        Tally(
            level,
            len(items),
            sum(item.solved for item in items),
            statistics.fmean(item.fixed for item in items),
            statistics.median(item.seconds for item in items),
            sum(item.seconds for item in items),
        )
        for level, items in by_level.items()
    ]


def solved_by(found: Iterable[Measured]) -> dict[int, list[str]]:
    """Per puzzle (in the order they first come), the levels that solve it."""
    levels: dict[int, list[str]] = {}
    for item in found:
        levels.setdefault(item.puzzle, [])
        if item.solved:
            levels[item.puzzle].append(item.level)
    return levels
