"""The board: an immutable grid of values under its rules, on a ``Shape`` whose units and peers
are its ``Geometry`` (``solvers.model.geometry``). Cells are numbered row-major from 0; values
run from 1 to N and 0 is an empty cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from numbers import Integral

from solvers.base.errors import InputError
from solvers.model.cells import cell_name, first_seen, no_boxes, row_regions
from solvers.model.geometry import (
    Geometry,
    Shape,
    base_geometry,
)
from solvers.model.variants import CLASSIC, Rules, check_boxless


def _whole(value: object) -> bool:
    """An int of any kind (a NumPy integer too), but not a bool."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def with_plain_cells(board: Board) -> Board:
    """``board`` with its cells Python ints, as every backend reads them: a NumPy integer is
    taken as its value; a float, a bool or anything else is an InputError naming its cell. The
    constructor leaves this to the library's entry (it is on every search's path)."""
    if set(map(type, board.cells)) <= {int}:
        return board
    if error := _not_whole(board.cells, board.shape.size):
        raise error
    return Board(board.shape, tuple(int(value) for value in board.cells), board.rules)


def _not_whole(cells: Sequence[object], n: int) -> InputError | None:
    """The error naming the first cell whose value is no whole number, or None."""
    for i, value in enumerate(cells):
        if not _whole(value):
            return InputError(f"value {value!r} at {cell_name(i, n)} is not a whole number")
    return None


def _listed(rows):
    """A NumPy array (or its row) as the lists it holds, its values Python ints; anything
    else as it is. Duck-typed, so that the board model never imports NumPy."""
    return rows.tolist() if hasattr(rows, "tolist") and hasattr(rows, "ndim") else rows


@dataclass(frozen=True)
class Board:
    """An immutable N x N grid: ``cells`` row-major, 0 for empty, under ``rules`` (classic
    Sudoku unless a variant says otherwise)."""

    shape: Shape
    cells: tuple[int, ...]
    rules: Rules = CLASSIC

    def __post_init__(self) -> None:
        if not isinstance(self.shape, Shape):
            raise InputError(f"a board's shape is a Shape such as Shape(3, 3), not {self.shape!r}")
        n = self.shape.size
        if not isinstance(self.cells, tuple):  # immutable, as a frozen board's cells must be
            if isinstance(self.cells, str | bytes) or not isinstance(self.cells, Sequence):
                raise InputError(f"a board's cells are a tuple of ints, not {self.cells!r:.40}")
            object.__setattr__(self, "cells", tuple(self.cells))
        if len(self.cells) != n * n:
            raise InputError(f"{len(self.cells)} cells, expected {n * n} for a {n}x{n} board")
        try:
            outside = self.cells and (min(self.cells) < 0 or max(self.cells) > n)
        except TypeError:  # a value that is no number ('1' read from text, None)
            raise _not_whole(self.cells, n) from None
        if outside:
            i, value = next((i, v) for i, v in enumerate(self.cells) if not 0 <= v <= n)
            raise InputError(f"value {value} at {cell_name(i, n)} is outside 1..{n}")
        if self.rules is not CLASSIC:
            _check_rules(self.rules, self.shape)
            object.__setattr__(self, "rules", _one_form(self.rules, self.shape))
        elif not self.shape.has_boxes:
            raise InputError(no_boxes(n))

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], shape: Shape | None = None) -> Board:
        """A board from a list of rows of ints, as the BOJ write-ups keep it."""
        rows = [_listed(row) for row in _listed(rows)]
        size = len(rows)
        if size == 0:
            raise InputError("empty input")
        for r, row in enumerate(rows):
            if isinstance(row, str | bytes) or not isinstance(row, Sequence):
                raise InputError(f"row {r + 1} is {type(row).__name__}, not a list of ints")
            if len(row) != size:
                raise InputError(f"row {r + 1} has {len(row)} cells, expected {size}")
        shape = shape or Shape.for_size(size)
        if shape.size != size:
            raise InputError(f"box {shape} does not fit a {size}x{size} board")
        for r, row in enumerate(rows):
            for c, v in enumerate(row):
                if not _whole(v):
                    raise InputError(f"row {r + 1}, column {c + 1}: {v!r} is not a whole number")
        return cls(shape, tuple(int(v) for row in rows for v in row))

    @classmethod
    def unchecked(cls, shape: Shape, cells: tuple[int, ...], rules: Rules = CLASSIC) -> Board:
        """A board built without the checks of the constructor, for values already known to
        fit (a solution a search has just checked; the runner verifies it again): they cost
        a fifth of a fast 9x9 solve."""
        board = object.__new__(cls)
        object.__setattr__(board, "shape", shape)
        object.__setattr__(board, "cells", cells)
        object.__setattr__(board, "rules", rules)
        return board

    @classmethod
    def empty(cls, shape: Shape, rules: Rules = CLASSIC) -> Board:
        return cls(shape, (0,) * shape.cell_count, rules)

    @classmethod
    def pattern(cls, shape: Shape) -> Board:
        """A complete board: the classic shifted pattern (each row a rotation of the first);
        on a board without boxes, under jigsaw regions that are its rows."""
        r, c, n = shape.box_rows, shape.box_cols, shape.size
        rules = CLASSIC if shape.has_boxes else Rules(regions=row_regions(n))
        return cls(
            shape,
            tuple((c * (row % r) + row // r + col) % n + 1 for row in range(n) for col in range(n)),
            rules,
        )

    @property
    def size(self) -> int:
        return self.shape.size

    @property
    def geometry(self) -> Geometry:
        """Every unit of the board: its rows, columns and regions, and each all-different
        group of N cells its constraints add (``solvers.model.compile``)."""
        if self.rules is CLASSIC:
            return base_geometry(self.shape)
        from solvers.model.compile import flat

        return flat(self.shape, self.rules).geometry

    def rows(self) -> list[list[int]]:
        n = self.size
        return [list(self.cells[r * n : (r + 1) * n]) for r in range(n)]

    def __str__(self) -> str:
        """The grid as BOJ 2580 writes it (rows of space-separated values, 0 empty), so that
        ``print(answer.solution)`` shows a board; ``repr`` keeps the dataclass's fields."""
        return "\n".join(" ".join(map(str, row)) for row in self.rows())

    def givens(self) -> int:
        return sum(1 for v in self.cells if v)

    def is_complete(self) -> bool:
        return all(self.cells)

    def with_cells(self, cells: Iterable[int]) -> Board:
        """The same shape and rules, other values."""
        return Board(self.shape, tuple(cells), self.rules)

    def conflicts(self) -> list[str]:
        """Each way the givens break a rule, as "row 1 has 6 twice (r1c2, r1c9)"."""
        from solvers.model.compile import flat

        return flat(self.shape, self.rules).conflicts(self.cells)


@lru_cache(maxsize=4096)
def _one_form(rules: Rules, shape: Shape) -> Rules:
    """The same rules in one form however they were written: regions that are the boxes are
    the boxes, and a parameter given at its default value is left out."""
    regions = None if rules.regions == _box_regions(shape) else rules.regions
    constraints = rules.constraints
    if constraints:
        from solvers.model.constraints.kinds import plain

        constraints = tuple(plain(c, shape.size) for c in constraints)
    if regions == rules.regions and constraints == rules.constraints:
        return rules
    found = Rules(regions, constraints)
    return CLASSIC if found.is_classic else found


@cache
def _box_regions(shape: Shape) -> tuple[int, ...] | None:
    """Each cell's box, numbered by first cell (as ``Rules`` numbers regions); None without
    boxes."""
    if not shape.has_boxes:
        return None
    return first_seen(base_geometry(shape).box_of)


@lru_cache(maxsize=4096)
def _check_rules(rules: Rules, shape: Shape) -> None:
    """InputError unless ``rules`` make sense on ``shape`` (checked once per pair)."""
    if not shape.has_boxes:
        check_boxless(rules, shape.size)
    base_geometry(shape, rules.regions)  # regions: N connected cells each
    if rules.constraints:
        from solvers.model.constraints.kinds import validate

        for constraint in rules.constraints:
            validate(constraint, shape.size)
