"""Validity-preserving transforms of a classic board: each puzzle run again in disguise, as
tdoku's benchmarks do: digits relabelled, rows permuted within bands and bands among
themselves, likewise columns and stacks, and where the boxes are square the board transposed.
A ``Transform`` maps a board forward and a solution back, so each copy's answer is checked
against the original's. Only classic rules are shuffled: constraints would have to move too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from solvers.base.errors import InputError
from solvers.formats.symbols import SYMBOLS
from solvers.model.board import Board
from solvers.model.geometry import Shape


@dataclass(frozen=True)
class Transform:
    """New row i is old row ``rows[i]``, new column j old column ``cols[j]`` (then, if
    ``transpose``, rows and columns swap), and value v becomes ``digits[v]``."""

    shape: Shape
    digits: tuple[int, ...]  # digits[0] == 0: an empty cell stays empty
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    transpose: bool = False

    @cached_property
    def source(self) -> tuple[int, ...]:
        """For each cell of the transformed board, the original cell it comes from."""
        n = self.shape.size
        if self.transpose:
            return tuple(self.rows[c] * n + self.cols[r] for r in range(n) for c in range(n))
        return tuple(self.rows[r] * n + self.cols[c] for r in range(n) for c in range(n))

    @cached_property
    def _undo(self) -> tuple[int, ...]:
        return tuple(sorted(range(len(self.digits)), key=self.digits.__getitem__))

    def forward(self, board: Board) -> Board:
        """The transformed board: it has as many solutions as ``board``."""
        if not board.rules.is_classic:
            raise InputError(f"only classic boards are shuffled, not {board.rules.label}")
        digits = self.digits
        return Board(self.shape, tuple(digits[board.cells[cell]] for cell in self.source))

    def back(self, solution: Board) -> Board:
        """A board of the transformed puzzle (a solution, say) mapped back to the original."""
        cells = [0] * self.shape.cell_count
        undo = self._undo
        for new, old in enumerate(self.source):
            cells[old] = undo[solution.cells[new]]
        return Board(self.shape, tuple(cells))

    def __str__(self) -> str:
        flip = ", transposed" if self.transpose else ""
        digits = "".join(SYMBOLS[v - 1] for v in self.digits[1:])
        return f"digits -> {digits}, rows {_order(self.rows)}, columns {_order(self.cols)}{flip}"


def random_transform(shape: Shape, rng: random.Random, transpose: bool = True) -> Transform:
    """A transform drawn from ``rng`` (a transpose, for square boxes, with probability 1/2)."""
    r, c, n = shape.box_rows, shape.box_cols, shape.size
    rows = _grouped(rng, c, r)  # c bands of r rows
    cols = _grouped(rng, r, c)  # r stacks of c columns
    digits = (0, *rng.sample(range(1, n + 1), n))
    flip = transpose and r == c and rng.random() < 0.5
    return Transform(shape, digits, rows, cols, flip)


def copies(board: Board, count: int, seed: int, line: int) -> list[Transform]:
    """``count`` transforms for the puzzle on ``line``, the same for a seed whatever else is
    run (none for a variant)."""
    if not board.rules.is_classic:
        return []
    rng = random.Random(f"{seed}:{line}")
    return [random_transform(board.shape, rng) for _ in range(count)]


def _grouped(rng: random.Random, groups: int, per: int) -> tuple[int, ...]:
    order = rng.sample(range(groups), groups)
    return tuple(g * per + i for g in order for i in rng.sample(range(per), per))


def _order(order: tuple[int, ...]) -> str:
    """Rows or columns numbered from 1, as the line format writes values: 1-9 then A-Z."""
    return "".join(SYMBOLS[i] for i in order)
