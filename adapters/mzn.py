"""A puzzle as a self-contained MiniZinc model: the ``minizinc`` backend's model and what
``sudoku encode --to minizinc`` writes.

One integer variable per cell, ``cell[row, column]`` (from 1), declared with the givens fixed
in place (``_`` for an empty cell), so the model shows the puzzle as a grid. Every rule is
written as primitives, one ``constraint`` item each (``ModelWriter``: an all-different over
cells, a linear sum): each unit of the board's geometry (rows, columns, boxes, and the x,
windoku and jigsaw units that replace or join them) is an all-different; a killer cage is an
all-different and a sum. The output item prints the solved grid as one line in the project's
line format, what ``sudoku solve --format line`` prints.

All-different is written ``all_different_int(...) :: domain``, not ``alldifferent``: with
Debian's MiniZinc 2.6 and Gecode 6.2, ``alldifferent`` reaches Gecode as pairwise ``!=``
(Gecode 6.2's library predates the ``fzn_`` names MiniZinc 2.6 asks for), while
``all_different_int`` reaches it as its own propagator, and ``domain`` asks for its strongest
(matching) propagation; the spelling is deprecated since MiniZinc 2.6 but still standard, and
a solver without the annotation ignores it (docs/minizinc.md has the measurements).
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.board import Board
from solvers.formats.symbols import SYMBOLS


class ModelWriter:
    """The items of one board's model: the cells, then one constraint per primitive."""

    def __init__(self, board: Board) -> None:
        self.board, self.size = board, board.size
        self.includes: list[str] = []
        self.constraints: list[str] = []

    def all_different(self, cells: Sequence[int], name: str) -> None:
        """The cells hold distinct values."""
        self._include("all_different_int.mzn")
        self._add(f"all_different_int({self._array(cells)}) :: domain", name)

    def linear(self, cells: Sequence[int], total: int, name: str) -> None:
        """The cells' values add up to ``total``."""
        self._add(f"sum({self._array(cells)}) = {total}", name)

    def text(self, comments: Sequence[str] = ()) -> str:
        """The model: comments, includes, the cells, the constraints, the solve and output
        items."""
        n = self.size
        lines = [f"% {comment}" for comment in comments]
        lines += [f'include "{name}";' for name in self.includes]
        # an array literal of ``_`` alone is a type error: a board with no given has none
        grid = f" = {self._grid()}" if any(self.board.cells) else ""
        lines += ["", f"int: n = {n};", f"array[1..n, 1..n] of var 1..n: cell{grid};"]
        symbols = ", ".join(f'"{s}"' for s in SYMBOLS[:n])
        lines += [f"array[1..n] of string: symbol = [{symbols}];", ""]
        lines += self.constraints
        lines += [
            "",
            "solve satisfy;",
            "",
            "% the solved grid as one line of the line format (values 10 and up as A, B, ...)",
            'output [concat([symbol[fix(cell[r, c])] | r, c in 1..n]), "\\n"];',
        ]
        return "\n".join(lines) + "\n"

    def _grid(self) -> str:
        n, cells = self.size, self.board.cells
        rows = (
            ", ".join(str(v) if v else "_" for v in cells[r * n : (r + 1) * n]) for r in range(n)
        )
        return "[|\n  " + "|\n  ".join(rows) + "|]"

    def _include(self, name: str) -> None:
        if name not in self.includes:
            self.includes.append(name)

    def _add(self, constraint: str, name: str) -> None:
        self.constraints.append(f"constraint {constraint};  % {name}")

    def _cell(self, cell: int) -> str:
        row, col = divmod(cell, self.size)
        return f"cell[{row + 1}, {col + 1}]"

    def _array(self, cells: Sequence[int]) -> str:
        return "[" + ", ".join(map(self._cell, cells)) + "]"


def model(board: Board, comments: Sequence[str] = ()) -> str:
    """The MiniZinc model of ``board`` under its rules, headed by ``comments``."""
    writer = ModelWriter(board)
    geometry = board.geometry
    for name, unit in zip(geometry.unit_names, geometry.units, strict=True):
        writer.all_different(unit, name)
    for cage in board.rules.cages:
        row, col = divmod(cage.cells[0], board.size)
        name = f"the cage of r{row + 1}c{col + 1}"
        writer.all_different(cage.cells, name)
        writer.linear(cage.cells, cage.total, f"{name} adds up to {cage.total}")
    return writer.text(comments)
