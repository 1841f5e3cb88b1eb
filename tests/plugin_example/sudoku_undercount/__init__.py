"""An outside backend: one module, one class, declared in its package's pyproject.toml under
``[project.entry-points."sudoku_solvers.backends"]``. It declares no rule variant, so it is
asked classic puzzles only; and it has a bug on purpose: it stops at the first solution whatever
the limit, so it never counts two, which ``sudoku check`` and ``sudoku compare`` must catch."""

from solvers.backends.contract import Backend, Found, Solutions
from solvers.base.deadline import Deadline, Ticker
from solvers.model.board import Board


class Undercount(Backend):
    """Tries each value no peer holds in the first empty cell, and recurses."""

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        solutions = Solutions(1)  # the bug: ``limit`` is ignored
        ticker = Ticker(deadline, dict)
        peers = board.geometry.peers

        def fill(cells: list[int]) -> bool:
            if 0 not in cells:
                return solutions.add(cells)
            cell = cells.index(0)
            taken = {cells[peer] for peer in peers[cell]}
            for value in range(1, board.size + 1):
                if value not in taken:
                    ticker.tick()
                    cells[cell] = value
                    if fill(cells):
                        return True
            cells[cell] = 0
            return False

        fill(list(board.cells))
        return solutions.found(board, {})
