"""``norvig``: Peter Norvig's "Solving Every Sudoku Puzzle" (2006), kept as the yardstick.

The classic pure-Python solver, as the essay writes it: each cell's candidates are a string of
symbols, ``assign`` and ``eliminate`` propagate (a cell with one value leaves it to its peers;
a unit with one place for a value puts it there), and ``search`` copies the grid and tries the
values of a cell with the fewest. Cells are indices and the geometry comes from the board, so
it runs on every shape. The ``propagate`` backend is measured against it.
"""

from __future__ import annotations

from solvers.backends.contract import Backend, Found
from solvers.backends.handwritten import Counted
from solvers.base.deadline import Deadline
from solvers.formats.symbols import SYMBOLS
from solvers.model.board import Board


class Norvig(Backend):
    # units only: the essay's peers come from the board's units (the diagonals, windows and
    # other all-different groups of N cells among them)

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        return _Essay(board, deadline, limit).run()


class _Essay(Counted):
    def __init__(self, board: Board, deadline: Deadline, limit: int) -> None:
        geometry = board.geometry
        self.digits = SYMBOLS[: board.size]
        self.peers, self.units = geometry.peers, geometry.cell_units
        self.board = board
        super().__init__(deadline, limit)

    def run(self) -> Found:
        values = dict.fromkeys(range(self.board.shape.cell_count), self.digits)
        for cell, v in enumerate(self.board.cells):
            if v and not self.assign(values, cell, self.digits[v - 1]):
                break
        else:
            self.search(values)
        return self.solutions.found(self.board, self.stats())

    def assign(self, values: dict, cell: int, d: str):
        """Eliminate every other value from ``cell``; False on a contradiction."""
        other_values = values[cell].replace(d, "")
        if all(self.eliminate(values, cell, d2) for d2 in other_values):
            return values
        return False

    def eliminate(self, values: dict, cell: int, d: str):
        if d not in values[cell]:
            return values
        values[cell] = values[cell].replace(d, "")
        if len(values[cell]) == 0:
            return False
        if len(values[cell]) == 1:
            d2 = values[cell]
            if not all(self.eliminate(values, peer, d2) for peer in self.peers[cell]):
                return False
        for unit in self.units[cell]:
            places = [c for c in unit if d in values[c]]
            if len(places) == 0:
                return False
            if len(places) == 1 and not self.assign(values, places[0], d):
                return False
        return values

    def search(self, values) -> bool:
        """True once enough solutions are found to stop."""
        if values is False:
            return False
        if all(len(values[c]) == 1 for c in values):
            return self.solutions.add(self.digits.index(values[c]) + 1 for c in sorted(values))
        _n, cell = min((len(values[c]), c) for c in values if len(values[c]) > 1)
        self.guesses += 1
        for d in values[cell]:
            self.nodes += 1
            self.ticker.tick()
            if self.search(self.assign(values.copy(), cell, d)):
                return True
        return False
