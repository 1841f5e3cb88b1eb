"""The reference backend: the depth-first search of the BOJ 2580 / 2239 write-ups.

Gather the empty cells in row-major order; for each, try 1..N in ascending order, checking the
row, the column and the box by scanning the board; recurse; undo on failure. No heuristics and
no tables of used values: this is the baseline every other backend is measured against. Since
cells and values are tried in that order, the first solution found is the lexicographically
smallest one, which is the answer BOJ 2239 asks for when a puzzle has several.
"""

from __future__ import annotations

import sys
from typing import ClassVar

from solvers.backend import HandwrittenSearch
from solvers.board import Board
from solvers.deadline import Deadline

CHECK_CLOCK_EVERY = 4096  # placements between looks at the clock


class DepthFirst(HandwrittenSearch):
    name: ClassVar[str] = "dfs"

    def search(self, board: Board, deadline: Deadline, limit: int) -> tuple[list, dict]:
        search = _Search(board, deadline, stop_after=limit)
        search.run()
        return search.solutions, search.stats()


class _Search:
    def __init__(self, board: Board, deadline: Deadline, stop_after: int) -> None:
        self.size = board.size
        self.geometry = board.geometry
        self.cells = list(board.cells)
        self.empties = [cell for cell, value in enumerate(self.cells) if value == 0]
        self.deadline = deadline
        self.stop_after = stop_after
        self.solutions: list[tuple[int, ...]] = []
        self.placements = 0
        self.backtracks = 0

    def stats(self) -> dict:
        return {"nodes": self.placements, "backtracks": self.backtracks}

    def run(self) -> None:
        # One frame per empty cell: a 25x25 board can go 625 deep.
        sys.setrecursionlimit(max(sys.getrecursionlimit(), len(self.empties) + 1000))
        self.fill(0)

    def fits(self, cell: int, value: int) -> bool:
        """Scan the cell's row, column and box for ``value``."""
        g, cells = self.geometry, self.cells
        row, col, box = g.rows[cell // self.size], g.cols[cell % self.size], g.boxes[g.box_of[cell]]
        for unit in (row, col, box):
            for other in unit:
                if cells[other] == value:
                    return False
        return True

    def fill(self, k: int) -> bool:
        """Fill empties[k:]; True once enough solutions are found to stop."""
        if k == len(self.empties):
            self.solutions.append(tuple(self.cells))
            return len(self.solutions) >= self.stop_after
        cell = self.empties[k]
        for value in range(1, self.size + 1):
            if self.fits(cell, value):
                self.cells[cell] = value
                self.placements += 1
                if self.placements % CHECK_CLOCK_EVERY == 0:
                    self.deadline.check(self.stats())
                if self.fill(k + 1):
                    return True
                self.cells[cell] = 0
                self.backtracks += 1
        return False
