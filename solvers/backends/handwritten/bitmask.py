"""``bitmask``: the reference search with used-value masks instead of scans.

It keeps the documents' order (empty cells row-major, values ascending) and so finds the same
lexicographically first solution as ``dfs``; what changes is the check: each unit keeps a bit
mask of the values it holds (bit v for value v), so "may v go here" is a few lookups instead of
scans. This is the plan of the BOJ 2239 write-up. ``mrv`` is the same search, changing only
which empty cell comes next. Groups with a sum keep such a mask too (``sums.SumGroups``).
"""

from __future__ import annotations

from solvers.backends.contract import Backend, Found
from solvers.backends.handwritten import Counted, sums
from solvers.base.deadline import Deadline
from solvers.model.board import Board
from solvers.model.compile import flatten


class MaskSearch(Counted):
    """The board as a used-value mask per unit, and a depth-first fill of the empty cells,
    kept in a list of the values still to try at each depth (no recursion)."""

    def __init__(self, board: Board, deadline: Deadline, limit: int, fewest_first: bool) -> None:
        geometry = board.geometry
        self.board, self.fewest_first = board, fewest_first
        self.units_of, self.every = geometry.units_of, geometry.full_mask
        self.cells = list(board.cells)
        self.used = [0] * len(geometry.units)
        for cell, value in enumerate(self.cells):
            for unit in self.units_of[cell] if value else ():
                self.used[unit] |= 1 << value
        self.empties = [cell for cell, value in enumerate(self.cells) if not value]
        groups = sums.SumGroups(flatten(board), self.cells)
        self.sums = groups if groups else None
        # taken out once: free and set ask for them at every step
        self.held, self.groups_of, self.allowed = groups.held, groups.groups_of, groups.allowed
        super().__init__(deadline, limit)

    def free(self, cell: int) -> int:
        """The mask of values no unit of ``cell`` holds (that its sums can still take)."""
        used = self.used
        taken = 0
        for unit in self.units_of[cell]:
            taken |= used[unit]
        free = self.every & ~taken
        if self.sums is not None:
            free &= self.allowed(cell)
        return free

    def enter(self, k: int, options: list[int]) -> None:
        """Make empties[k] the next cell (the one with fewest candidates, for mrv) and list
        its candidates."""
        empties = self.empties
        if self.fewest_first:
            best = min(range(k, len(empties)), key=lambda j: self.free(empties[j]).bit_count())
            empties[k], empties[best] = empties[best], empties[k]
        free = self.free(empties[k])
        if free & (free - 1):
            self.guesses += 1
        options[k] = free

    def set(self, cell: int, bit: int) -> None:
        """Place (or, placed already, take back) the value ``bit`` in ``cell``'s units and
        sums."""
        used = self.used
        for unit in self.units_of[cell]:
            used[unit] ^= bit
        if self.sums is not None:
            held = self.held
            for group in self.groups_of[cell]:
                held[group] ^= bit

    def run(self) -> Found:
        cells, empties = self.cells, self.empties
        options = [0] * len(empties)
        k = 0
        if not empties:
            self.solutions.add(cells)
        else:
            self.enter(0, options)
        while 0 <= k < len(empties):
            cell = empties[k]
            if cells[cell]:  # back here: take the value tried last out again
                self.set(cell, 1 << cells[cell])
                cells[cell] = 0
            mask = options[k]
            if not mask:
                k -= 1
                continue
            bit = mask & -mask
            options[k] = mask ^ bit
            self.set(cell, bit)
            cells[cell] = bit.bit_length() - 1
            self.nodes += 1
            self.ticker.tick()
            k += 1
            if k < len(empties):
                self.enter(k, options)
            elif self.solutions.add(cells):
                break
            else:
                k -= 1
        return self.solutions.found(self.board, self.stats())


class Bitmask(Backend):
    ENCODES = sums.ENCODES
    FEWEST_FIRST = False  # the next empty cell: row-major (mrv: the one of fewest candidates)

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        return MaskSearch(board, deadline, limit, self.FEWEST_FIRST).run()
