"""The reference backend: the depth-first search of the BOJ 2580 / 2239 write-ups.

Gather the empty cells in row-major order; for each, try 1..N in ascending order, checking the
row, the column and the box by scanning the board; go on to the next empty cell; on a dead end,
go back to the previous one and try its next value. No heuristics and no tables of used values:
this is the baseline every other backend is measured against. Since cells and values are tried
in that order, the first solution found is the lexicographically smallest one, which is the
answer BOJ 2239 asks for when a puzzle has several.

The write-ups recurse, one call per empty cell; here the same search keeps its place in a list
(the value each empty cell holds), so a 25x25 board's 625-deep search needs no deeper stack.
"""

from __future__ import annotations

from solvers.backend import Backend, Found, Solutions
from solvers.board import Board
from solvers.deadline import Deadline, Ticker
from solvers.handwritten.cages import CageTable


class DepthFirst(Backend):
    RULES = frozenset({"x", "windoku", "jigsaw", "killer"})  # opt-in: what it encodes

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        return _Search(board, deadline, limit).run()


class _Search:
    def __init__(self, board: Board, deadline: Deadline, limit: int) -> None:
        self.board = board
        self.cell_units = board.geometry.cell_units
        self.cages = CageTable(board)
        self.cells = list(board.cells)
        self.empties = [cell for cell, value in enumerate(self.cells) if value == 0]
        self.solutions = Solutions(limit)
        self.placements = self.backtracks = 0
        self.ticker = Ticker(deadline, self.stats)

    def stats(self) -> dict:
        return {"nodes": self.placements, "backtracks": self.backtracks}

    def fits(self, cell: int, value: int) -> bool:
        """Scan the cell's row, column and box for ``value`` (and, in a killer cage, check
        that some set of the cage's values still holds it with those placed)."""
        cells = self.cells
        for unit in self.cell_units[cell]:
            for other in unit:
                if cells[other] == value:
                    return False
        cage = self.cages.cage_of[cell] if self.cages else -1
        return cage < 0 or bool(self.cages.open(cage, self.cages.placed(cage, cells)) >> value & 1)

    def run(self) -> Found:
        """Fill the empty cells in order; ``k`` is the one being filled."""
        cells, empties, size = self.cells, self.empties, self.board.size
        k = 0
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
