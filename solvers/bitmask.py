"""``bitmask`` and ``mrv``: the reference search with used-value tables instead of scans.

``bitmask`` keeps the documents' order (empty cells row-major, values ascending) and so finds
the same lexicographically first solution as ``dfs``; what changes is the check: each row,
column and box keeps a bit mask of the values it holds (bit v for value v), so "may v go here"
is one lookup instead of three scans. This is the plan of the BOJ 2239 write-up.

``mrv`` adds one heuristic: branch on the empty cell with the fewest candidates (the first such
cell in row-major order on ties), values still ascending.
"""

from __future__ import annotations

import sys
from typing import ClassVar

from solvers.backend import HandwrittenSearch
from solvers.board import Board
from solvers.deadline import Deadline

CHECK_CLOCK_EVERY = 4096  # placements between looks at the clock


class _MaskSearch:
    """The board as row, column and box masks, and a depth-first fill of the empty cells."""

    def __init__(self, board: Board, deadline: Deadline, limit: int, choose_fewest: bool):
        n, geometry = board.size, board.geometry
        self.size, self.deadline, self.limit, self.choose_fewest = n, deadline, limit, choose_fewest
        self.cells = list(board.cells)
        # The three units of each cell, as indices into one list of masks: rows, cols, boxes.
        self.units_of = [(i // n, n + i % n, 2 * n + geometry.box_of[i]) for i in range(n * n)]
        self.used = [0] * (3 * n)
        for cell, value in enumerate(self.cells):
            if value:
                for unit in self.units_of[cell]:
                    self.used[unit] |= 1 << value
        self.every = (1 << (n + 1)) - 2
        self.empties = [cell for cell, value in enumerate(self.cells) if not value]
        self.solutions: list[tuple[int, ...]] = []
        self.nodes = self.guesses = 0

    def free(self, cell: int) -> int:
        """The mask of values no unit of ``cell`` holds."""
        a, b, c = self.units_of[cell]
        used = self.used
        return self.every & ~(used[a] | used[b] | used[c])

    def run(self) -> tuple[list, dict]:
        sys.setrecursionlimit(max(sys.getrecursionlimit(), len(self.empties) + 1000))
        self.fill(0)
        return self.solutions, {"nodes": self.nodes, "guesses": self.guesses}

    def fill(self, k: int) -> bool:
        """Fill empties[k:]; True once enough solutions are found to stop."""
        empties = self.empties
        if k == len(empties):
            self.solutions.append(tuple(self.cells))
            return len(self.solutions) >= self.limit
        if self.choose_fewest:
            best = min(range(k, len(empties)), key=lambda j: self.free(empties[j]).bit_count())
            empties[k], empties[best] = empties[best], empties[k]
        cell = empties[k]
        free = self.free(cell)
        if free & (free - 1):
            self.guesses += 1
        units, used = self.units_of[cell], self.used
        while free:
            bit = free & -free
            free ^= bit
            for unit in units:
                used[unit] |= bit
            self.cells[cell] = bit.bit_length() - 1
            self.nodes += 1
            if self.nodes % CHECK_CLOCK_EVERY == 0:
                self.deadline.check({"nodes": self.nodes, "guesses": self.guesses})
            if self.fill(k + 1):
                return True
            for unit in units:
                used[unit] ^= bit
        self.cells[cell] = 0
        return False


class Bitmask(HandwrittenSearch):
    name: ClassVar[str] = "bitmask"

    def search(self, board: Board, deadline: Deadline, limit: int) -> tuple[list, dict]:
        return _MaskSearch(board, deadline, limit, choose_fewest=False).run()


class MostConstrained(HandwrittenSearch):
    name: ClassVar[str] = "mrv"

    def search(self, board: Board, deadline: Deadline, limit: int) -> tuple[list, dict]:
        return _MaskSearch(board, deadline, limit, choose_fewest=True).run()
