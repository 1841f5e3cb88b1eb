"""The reference backend: the depth-first search of the BOJ 2580 / 2239 write-ups.

Gather the empty cells in row-major order; for each, try 1..N in ascending order, checking the
row, the column and the box by scanning the board; go on to the next empty cell; on a dead end,
go back to the previous one and try its next value. No heuristics and no tables of used values:
this is the baseline every other backend is measured against. Since cells and values are tried
in that order, the first solution found is the lexicographically smallest one, which is the
answer BOJ 2239 asks for when a puzzle has several.

The write-ups recurse, one call per empty cell; here the same search keeps its place in a list
(the value each empty cell holds), so a 25x25 board's 625-deep search needs no deeper stack.

Every unit (``board.geometry``: the diagonals, windows and other all-different groups of N
cells among them) is scanned so. A group with a sum is held to its value sets as it fills
(``sums.SumGroups``): a killer puzzle, which may have no givens, is out of reach without. Every
constraint of the vocabulary is checked as a reference should: by its kind's own check
(``solvers.model.constraints``), never its decomposition into primitives, once every cell the check
reads is filled (a board-wide kind: once the board is full), so the engines that compile
decompositions are cross-checked against the kinds' stated meaning; but one the compile step
made units alone (a diagonal) is left to the unit scan, which holds it.
"""

from __future__ import annotations

from solvers.backends.contract import Backend, Found, Solutions
from solvers.backends.handwritten.sums import SumGroups
from solvers.base.deadline import Deadline, Ticker
from solvers.model.board import Board
from solvers.model.compile import EVERY_KIND, flat, flatten
from solvers.model.constraints.kinds import kind_of
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.primitives import AllDifferent
from solvers.model.variants import Rules


class DepthFirst(Backend):
    ENCODES = EVERY_KIND  # sums by their value sets, and every kind by its own check

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        return _Search(board, deadline, limit).run()


class _Search:
    def __init__(self, board: Board, deadline: Deadline, limit: int) -> None:
        self.board = board
        self.cell_units = board.geometry.cell_units
        self.cells = list(board.cells)
        groups = SumGroups(flatten(board), self.cells)
        self.sums = groups if groups else None
        self.empties = [cell for cell, value in enumerate(self.cells) if value == 0]
        self.checks, self.broken = _checks_by_last_cell(board, self.empties)
        self.solutions = Solutions(limit)
        self.placements = self.backtracks = 0
        self.ticker = Ticker(deadline, self.stats)

    def stats(self) -> dict:
        return {"nodes": self.placements, "backtracks": self.backtracks}

    def fits(self, cell: int, value: int) -> bool:
        """Scan the cell's units for ``value`` (and check that its sums can still take it)."""
        cells = self.cells
        for unit in self.cell_units[cell]:
            for other in unit:
                if cells[other] == value:
                    return False
        if self.sums is not None and not self.sums.allows(cell, value, cells):
            return False
        return cell not in self.checks or self.constraints_hold(cell, value)

    def constraints_hold(self, cell: int, value: int) -> bool:
        """Whether the constraints whose last empty cell is ``cell`` hold with ``value`` there
        (every other cell they read is filled by then: cells are filled in order)."""
        cells, n = self.cells, self.board.size
        cells[cell] = value
        held = not any(kind_of(c).check(c, cells, n) for c in self.checks[cell])
        cells[cell] = 0
        return held

    def run(self) -> Found:
        """Fill the empty cells in order; ``k`` is the one being filled."""
        cells, empties, size = self.cells, self.empties, self.board.size
        k = -1 if self.broken else 0  # a constraint the givens alone already break
        while k >= 0:
            if k == len(empties):
                if self.solutions.add(cells):
                    break
                k = self.back(k)
                continue
            cell = empties[k]
            value, cells[cell] = cells[cell] + 1, 0  # resume after the value it held
            while value <= size and not self.fits(cell, value):
                value += 1
            if value > size:
                k = self.back(k)
                continue
            cells[cell] = value
            self.placements += 1
            self.ticker.tick()
            k += 1
        return self.solutions.found(self.board, self.stats())

    def back(self, k: int) -> int:
        """Go back to the previous empty cell, whose value will be undone."""
        if k > 0:
            self.backtracks += 1
        return k - 1


def _checks_by_last_cell(board: Board, empties: list[int]) -> tuple[dict, bool]:
    """({cell: the constraints checked when it is filled}, whether a constraint whose cells
    are all givens is already broken). A constraint is checked at the last empty cell, in
    filling order, of those its check reads."""
    order = {cell: k for k, cell in enumerate(empties)}
    checks: dict[int, list] = {}
    n = board.size
    for constraint in board.rules.constraints:
        if _units_alone(constraint, board):
            continue
        scope = [cell for cell in kind_of(constraint).scope(constraint, n) if cell in order]
        if scope:
            checks.setdefault(max(scope, key=order.__getitem__), []).append(constraint)
        elif kind_of(constraint).check(constraint, board.cells, n):
            return checks, True
    return checks, False


def _units_alone(constraint: Constraint, board: Board) -> bool:
    """Whether the compile step makes ``constraint`` units and nothing else (a diagonal, an
    extra region of N cells): ``board.geometry`` holds it, and the unit scan checks it."""
    if AllDifferent not in kind_of(constraint).primitives:
        return False
    alone = flat(board.shape, Rules(regions=board.rules.regions, constraints=(constraint,)), False)
    return not alone.beyond(frozenset())
