"""A puzzle's grade by the human levels: the weakest that solves it, and a difficulty on
Sudoku Explainer's scale (the rating of the hardest step taken when the easiest technique
that finds something is always applied first).

A puzzle the techniques here do not solve is graded ``search``; its difficulty is then the
hardest step taken before they stall, a lower bound only (Sudoku Explainer goes on with
uniqueness, chains and nets, rated up to 11 and more). A puzzle in which they meet a
contradiction has no solution (every technique is sound): it is graded ``no solution``, its
hardest step the contradiction.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.board import Board
from solvers.deadline import Deadline
from solvers.strength import human
from solvers.strength.grid import grid as values_of
from solvers.strength.techniques import Contradiction
from solvers.verify import problems

SEARCH = "search"
NO_SOLUTION = "no solution"


@dataclass(frozen=True)
class Rating:
    """``level``: the weakest human level that solves the puzzle, or ``search``;
    ``difficulty``: the hardest step's rating (0 when the givens fill the grid);
    ``hardest``: that step's technique; ``bound``: True when difficulty is a lower bound."""

    level: str
    difficulty: float
    hardest: str
    bound: bool

    def __str__(self) -> str:
        shown = f"{'>=' if self.bound else ''}{self.difficulty:.1f}"
        return f"{self.level} {shown} {self.hardest}".rstrip()


def rate(board: Board) -> Rating:
    """The puzzle's rating; ``no solution`` where the techniques meet a contradiction, or
    fill the grid with one that breaks a rule they do not read (they are sound, so every
    solution would be that grid)."""
    hardest, difficulty = "", 0.0
    grid = human.placed_givens(board)
    try:
        for step in human.steps(grid):
            if step.rating > difficulty:
                hardest, difficulty = step.technique, step.rating
    except Contradiction as contradiction:
        return Rating(NO_SOLUTION, difficulty, f"contradiction: {contradiction}", False)
    filled = values_of(grid.candidates)
    broken = [] if 0 in filled else problems(board, board.with_cells(filled))
    if broken:
        return Rating(NO_SOLUTION, difficulty, f"the filled grid breaks a rule: {broken[0]}", False)
    solves = (name for name in human.LEVELS if human.level(board, Deadline(), name).solved)
    weakest = next(solves, SEARCH)
    return Rating(weakest, difficulty, hardest, weakest == SEARCH)
