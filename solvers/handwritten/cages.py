"""Killer cages as the handwritten searches use them: each cell's cage, and each cage's
possible value sets as bit masks (bit v for value v; ``solvers.compile.Cage.value_sets``).

A cage's cells must hold one of its sets, each value once: that is the whole rule, since the
sets are exactly those of distinct values adding up to the total. A search keeps, per cage, the
mask of values placed so far, and may place v only if some set holds them all and v
(``CageTable.open``); once the cage is full its values are one of the sets.
"""

from __future__ import annotations

from solvers.compile import Flat


class CageTable:
    """The cages of a board's flattened rules, indexed from 0; ``cages_of[cell]`` lists the
    cages holding the cell (none for most; two where a constraint's cage meets another)."""

    def __init__(self, flat: Flat) -> None:
        n = flat.size
        self.cells = [cage.cells for cage in flat.cages]
        self.sets = [cage.value_sets(n) for cage in flat.cages]
        cages_of: list[list[int]] = [[] for _ in range(n * n)]
        for index, cells in enumerate(self.cells):
            for cell in cells:
                cages_of[cell].append(index)
        self.cages_of = tuple(map(tuple, cages_of))

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
