"""Killer cages as the handwritten searches use them: each cell's cage, and each cage's
possible value sets as bit masks (bit v for value v; ``solvers.variants.cage_sets``).

A cage's cells must hold one of its sets, each value once: that is the whole rule, since the
sets are exactly those of distinct values adding up to the total. A search keeps, per cage, the
mask of values placed so far, and may place v only if some set holds them all and v
(``CageTable.open``); once the cage is full its values are one of the sets.
"""

from __future__ import annotations

from solvers.board import Board
from solvers.variants import cage_sets


class CageTable:
    """The cages of one puzzle, indexed from 0; ``cage_of[cell]`` is -1 for a cell in none."""

    def __init__(self, board: Board) -> None:
        n = board.size
        self.cage_of = [-1] * board.shape.cell_count
        self.cells: list[tuple[int, ...]] = []
        self.sets: list[tuple[int, ...]] = []
        for index, cage in enumerate(board.rules.cages):
            self.cells.append(cage.cells)
            self.sets.append(cage_sets(len(cage.cells), cage.total, n))
            for cell in cage.cells:
                self.cage_of[cell] = index

    def __bool__(self) -> bool:
        return bool(self.cells)

    def open(self, cage: int, placed: int) -> int:
        """The values that may still go into ``cage``, whose cells hold the values ``placed``:
        those of its sets that contain all of ``placed``, less ``placed`` itself."""
        allowed = 0
        for values in self.sets[cage]:
            if values & placed == placed:
                allowed |= values
        return allowed & ~placed

    def placed(self, cage: int, cells: list[int]) -> int:
        """The mask of values the cage's cells hold in ``cells`` (0 for empty)."""
        mask = 0
        for cell in self.cells[cage]:
            if cells[cell]:
                mask |= 1 << cells[cell]
        return mask
