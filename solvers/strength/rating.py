"""A puzzle's grade by the human techniques: the weakest level that solves it, and a
difficulty on Sudoku Explainer's scale: the rating of the hardest step taken when the first
technique that finds something, in SE's order, is always applied (SE's own rule:
diuf/sudoku/solver/Solver.java, ``getDifficulty``).

The techniques go past the levels ``strength`` measures: uniqueness (on a puzzle with one
solution), the WXYZ-wing, aligned pair exclusion and chains up to SE's dynamic forcing chains
(``human.EXTRA``). A puzzle they do not solve needs more than they hold: its difficulty is then
at least the rating of SE's next technique (9.0, dynamic forcing chains (+); 6.2 on a board
larger than 9x9, where aligned pair exclusion and chains are not searched), marked as a bound,
never the lower rating of the steps taken before the stall.
A puzzle in which they meet a contradiction has no solution (every technique is sound): it is
graded ``no solution``, its hardest step the contradiction.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.base.deadline import Deadline
from solvers.model.board import Board
from solvers.model.verify import problems
from solvers.strength import bigwings, chains, cycles, human, rulechains, stronglinks, uniqueness
from solvers.strength.grid import grid as values_of
from solvers.strength.techniques import Contradiction, Grid

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


def prepared(board: Board) -> Grid:
    """The givens placed, and ``unique`` set where the uniqueness techniques may be used: a
    board of units alone (rows, columns, boxes), 9x9 or smaller, whose puzzle has one
    solution."""
    grid = human.placed_givens(board)
    geometry = grid.geometry
    classic = not grid.constraints and len(geometry.units) == 3 * geometry.size
    # up to 9x9, as the chains: a larger board's search for a second solution may be long
    grid.unique = classic and geometry.size <= chains.LARGEST and uniqueness.one_solution(grid)
    return grid


def rate(board: Board) -> Rating:
    """The puzzle's rating; ``no solution`` where the techniques meet a contradiction, or
    fill the grid with one that breaks a rule they do not read (they are sound, so every
    solution would be that grid)."""
    grid = prepared(board)
    taken: list = []
    try:
        for step in human.steps(grid):
            taken.append(step)
    except Contradiction as contradiction:
        return graded(board, grid, taken, str(contradiction))
    return graded(board, grid, taken)


def graded(board: Board, grid: Grid, taken: list, contradiction: str | None = None) -> Rating:
    """The rating of the steps ``taken`` on ``grid`` (``prepared(board)``, the steps applied),
    ended by ``contradiction`` if one was met: what ``rate`` gives, for a caller that has run
    the steps itself (``sudoku explain`` shows them)."""
    hardest, difficulty = "", 0.0
    for step in taken:
        if step.rating > difficulty:
            hardest, difficulty = step.technique, step.rating
    if contradiction is not None:
        return Rating(NO_SOLUTION, difficulty, f"contradiction: {contradiction}", False)
    filled = values_of(grid.candidates)
    broken = [] if 0 in filled else problems(board, board.with_cells(filled))
    if broken:
        return Rating(NO_SOLUTION, difficulty, f"the filled grid breaks a rule: {broken[0]}", False)
    if 0 in filled:
        beyond = human.BEYOND if board.geometry.size <= chains.LARGEST else APE
        return Rating(SEARCH, max(difficulty, beyond), hardest, True)
    used = {step.technique for step in taken}
    solves = (name for name in human.LEVELS if human.level(board, Deadline(), name).solved)
    extra = [name for name in human.EXTRA if any(t in used for t in _NAMES[name])]
    weakest = next(solves, extra[-1] if extra else SEARCH)
    return Rating(weakest, difficulty, hardest, weakest == SEARCH)


APE = 6.2  # SE's aligned pair exclusion, the technique after the uniqueness ones
_NAMES = {
    "strong-links": tuple(
        dict.fromkeys(stronglinks.name(c, k) for c in stronglinks.BASE for k in range(1, 16))
    ),
    "uniqueness": ("unique rectangle type 1", "unique rectangle type 2",
                   "unique rectangle type 3", "unique rectangle type 4", "BUG type 1",
                   "BUG type 2", "BUG type 4"),
    "wxyz-wing": tuple(bigwings.NAMES.values()),
    "exclusion": ("aligned pair exclusion",),
    "chains": (*cycles.NAMES, "forcing X-chain", "forcing chain", "Nishio forcing chain",
               "multiple forcing chains", "dynamic forcing chains", *rulechains.RULE_NAMES),
}  # fmt: skip
