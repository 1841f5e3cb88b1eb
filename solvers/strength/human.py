"""The human levels: a player's techniques, easiest first, one step at a time.

``singles`` (naked and hidden singles, and each constraint's own steps: ``kinds``),
``locked`` (+ pointing, then claiming), ``subsets``
(+ naked and hidden pairs, triples, quads), ``fish`` (+ X-wing, swordfish, jellyfish),
``wings`` (+ XY-wing, XYZ-wing): each level holds the techniques of the ones before it. At
each step the easiest technique that finds something is applied (Sudoku Explainer's order), so
the steps are the ones a player following the ratings takes; the level's fixpoint does not
depend on that order, since every technique only removes candidates and stays valid once its
pattern is there. A board's constraints take their steps after the singles and before the
harder classic techniques: a rule's own step reads one rule's cells, as a single reads one
unit, and the explanation stays in the puzzle's own terms (docs/strength.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from solvers.board import Board
from solvers.deadline import Deadline, Ticker
from solvers.strength import kinds
from solvers.strength.grid import Outcome, outcome, start, units_of
from solvers.strength.techniques import (
    Contradiction,
    Grid,
    Step,
    fish,
    hidden_single,
    hidden_subset,
    locked,
    naked_single,
    naked_subset,
    wing,
)

LEVELS = ("singles", "locked", "subsets", "fish", "wings")

Technique = Callable[[Grid], Step | None]
# (level, technique), easiest first by Sudoku Explainer's rating: the order a step is looked for
ORDERED: tuple[tuple[str, Technique], ...] = (
    ("singles", partial(hidden_single, in_boxes=True)),
    ("singles", partial(hidden_single, in_boxes=False)),
    ("singles", naked_single),
    ("singles", kinds.kind_step),
    ("locked", partial(locked, pointing=True)),
    ("locked", partial(locked, pointing=False)),
    ("subsets", partial(naked_subset, k=2)),
    ("fish", partial(fish, k=2)),
    ("subsets", partial(hidden_subset, k=2)),
    ("subsets", partial(naked_subset, k=3)),
    ("fish", partial(fish, k=3)),
    ("subsets", partial(hidden_subset, k=3)),
    ("wings", partial(wing, pivot_size=2)),
    ("wings", partial(wing, pivot_size=3)),
    ("subsets", partial(naked_subset, k=4)),
    ("fish", partial(fish, k=4)),
    ("subsets", partial(hidden_subset, k=4)),
)


def _place(grid: Grid, cell: int, value: int) -> None:
    bit = 1 << value
    grid.candidates[cell] = bit
    grid.placed.add(cell)
    for peer in grid.geometry.peers[cell]:
        grid.candidates[peer] &= ~bit


def apply(grid: Grid, step: Step) -> None:
    for cell, value in step.placed:
        _place(grid, cell, value)
    for cell, value in step.eliminated:
        grid.candidates[cell] &= ~(1 << value)


def placed_givens(board: Board) -> Grid:
    """The board's candidates with its givens placed (removed from their peers)."""
    grid = Grid(units_of(board), start(board), constraints=board.rules.constraints)
    for cell, value in enumerate(board.cells):
        if value:
            _place(grid, cell, value)
    return grid


def steps(grid: Grid, level: str = LEVELS[-1]) -> Iterator[Step]:
    """Each step the techniques up to ``level`` take on ``grid``, applied to it before it is
    yielded, until they find nothing more or every cell is placed; Contradiction when the
    candidates leave a cell or a value in a unit no place."""
    allowed = LEVELS[: LEVELS.index(level) + 1]
    techniques = [find for name, find in ORDERED if name in allowed]
    while len(grid.placed) < len(grid.candidates):
        step = next((found for find in techniques if (found := find(grid))), None)
        if step is None:
            return
        apply(grid, step)
        yield step


def level(board: Board, deadline: Deadline, name: str) -> Outcome:
    """The fixpoint of the techniques up to level ``name`` on ``board``; SolveTimeout at the
    first step past ``deadline``."""
    grid = placed_givens(board)
    ticker = Ticker(deadline, dict)
    try:
        for _ in steps(grid, name):
            ticker.tick()
    except Contradiction:
        return outcome(board, [0] * len(board.cells))
    return outcome(board, grid.candidates)
