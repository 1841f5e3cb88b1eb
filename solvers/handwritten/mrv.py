"""``mrv``: the masks of ``bitmask``, and one heuristic: branch on the empty cell with the
fewest candidates (the minimum remaining values; the first such cell in row-major order on
ties), values still ascending."""

from __future__ import annotations

from solvers.backend import Backend, Found
from solvers.board import Board
from solvers.compile import CAGES
from solvers.deadline import Deadline
from solvers.handwritten.bitmask import MaskSearch


class MostConstrained(Backend):
    ENCODES = frozenset({CAGES})  # units and killer cages

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        return MaskSearch(board, deadline, limit, fewest_first=True).run()
