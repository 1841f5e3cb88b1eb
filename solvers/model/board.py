"""The board: a box shape, the units and peers it implies, and an immutable grid of values.

A prime side N (5, 7, 11, 13) has no box shape: its ``Shape`` is 1 x N, a board without boxes
(``has_boxes`` is False) that exists only with jigsaw regions, which give it its N-cell groups.

The units (rows, columns, boxes) of a shape, and every table derived from them (each cell's
units, its peers, the full candidate mask), are computed once, here, in a ``Geometry``: the one
source of the rules for every backend, every encoding and the verifier. Cells are numbered
row-major from 0; values run from 1 to N and 0 is an empty cell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from numbers import Integral

from solvers.base.errors import InputError
from solvers.model.cells import cell_name, first_seen, no_boxes, region_units, row_regions
from solvers.model.variants import CLASSIC, Rules, check_boxless

MIN_SIZE = 4
MAX_SIZE = 25
MAX_BOXLESS = 16  # prime sides with irregular regions: variant puzzles run up to 16x16


@dataclass(frozen=True)
class Shape:
    """A board shape: boxes of ``box_rows`` x ``box_cols`` cells on an N x N board, N = r * c;
    or 1 x N for a prime N up to ``MAX_BOXLESS``, a board with no boxes (see ``has_boxes``)."""

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        sides = (self.box_rows, self.box_cols)
        if not all(type(side) is int for side in sides):
            raise InputError(f"box sides must be whole numbers, not {sides!r}")
        if self.box_rows == 1 and _boxless(self.box_cols):
            return
        if min(sides) < 2 or not MIN_SIZE <= self.size <= MAX_SIZE:
            raise InputError(
                f"box {self.box_rows}x{self.box_cols} is not a Sudoku box: each side must be at "
                f"least 2 and the board ({self.size}x{self.size}) within {MIN_SIZE}..{MAX_SIZE}"
            )

    @property
    def has_boxes(self) -> bool:
        """False for a prime side: its 1 x N "boxes" would be the rows again, so a board of
        this shape takes its N-cell groups from jigsaw regions, and nothing reads boxes."""
        return self.box_rows > 1

    @property
    def size(self) -> int:
        return self.box_rows * self.box_cols

    @property
    def cell_count(self) -> int:
        return self.size * self.size

    @classmethod
    def for_size(cls, size: int) -> Shape:
        """The most square box shape (r <= c) for side ``size``, or 1 x N, no boxes, for a prime
        side up to ``MAX_BOXLESS``; raises InputError if neither fits."""
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise InputError(f"size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
        best = max((r for r in range(2, math.isqrt(size) + 1) if size % r == 0), default=0)
        if best:
            return cls(best, size // best)
        if _boxless(size):
            return cls(1, size)
        raise InputError(
            f"no box shape fits a {size}x{size} board ({size} is prime; boards without boxes, "
            f"with irregular regions, go up to {MAX_BOXLESS}x{MAX_BOXLESS})"
        )

    @classmethod
    def parse(cls, text: str) -> Shape:
        """Read ``RxC`` such as ``2x3`` (two rows and three columns per box)."""
        rows, sep, cols = text.lower().partition("x")
        sides = (rows, cols)  # ASCII digits only: str.isdigit takes any script's
        if not sep or not all(s.isascii() and s.isdigit() and len(s) <= 2 for s in sides):
            raise InputError(f"box shape {text!r} is not of the form RxC, such as 2x3")
        if int(rows) == 1:  # 1 x N is no box: a prime side's board takes jigsaw regions instead
            raise InputError(f"box {text} is not a Sudoku box: each side must be at least 2")
        return cls(int(rows), int(cols))

    @property
    def geometry(self) -> Geometry:
        return _classic(self)

    def __str__(self) -> str:
        return f"{self.box_rows}x{self.box_cols}"


def _boxless(size: int) -> bool:
    """Whether a ``size`` x ``size`` board is one without boxes: a prime side within range."""
    prime = size >= 2 and all(size % d for d in range(2, math.isqrt(size) + 1))
    return prime and MIN_SIZE <= size <= MAX_BOXLESS


@dataclass(frozen=True, eq=False)
class Geometry:
    """The units of a board, and every table derived from them, each computed once.

    ``units`` lists rows, then columns, then boxes (each a tuple of cell indices); every
    backend, encoding and the verifier reads the rules from here and nowhere else.
    """

    shape: Shape
    units: tuple[tuple[int, ...], ...]
    unit_names: tuple[str, ...]

    @property
    def size(self) -> int:
        return self.shape.size

    @property
    def cell_count(self) -> int:
        return self.shape.cell_count

    @cached_property
    def full_mask(self) -> int:
        """Bits 1..N set: every value, as a candidate mask (bit v for value v)."""
        return (1 << (self.size + 1)) - 2

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        return self.units[: self.size]

    @property
    def cols(self) -> tuple[tuple[int, ...], ...]:
        return self.units[self.size : 2 * self.size]

    @property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        return self.units[2 * self.size : 3 * self.size]

    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's units, as indices into ``units``, in unit order."""
        found: list[list[int]] = [[] for _ in range(self.cell_count)]
        for index, unit in enumerate(self.units):
            for cell in unit:
                found[cell].append(index)
        return tuple(map(tuple, found))

    @cached_property
    def cell_units(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Each cell's units, as tuples of cells."""
        return tuple(tuple(self.units[u] for u in mine) for mine in self.units_of)

    @cached_property
    def unit_bits(self) -> tuple[int, ...]:
        """Each cell's units as a bit set (bit u for unit u)."""
        return tuple(sum(1 << u for u in mine) for mine in self.units_of)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's peers: the other cells of its units, ascending."""
        return tuple(
            tuple(sorted({peer for unit in units for peer in unit} - {cell}))
            for cell, units in enumerate(self.cell_units)
        )

    @cached_property
    def box_of(self) -> tuple[int, ...]:
        """Each cell's box, numbered from 0."""
        owner = {cell: index for index, box in enumerate(self.boxes) for cell in box}
        return tuple(owner.get(cell, 0) for cell in range(self.cell_count))


@cache
def _classic(shape: Shape) -> Geometry:
    n, r, c = shape.size, shape.box_rows, shape.box_cols
    rows = [tuple(row * n + col for col in range(n)) for row in range(n)]
    cols = [tuple(row * n + col for row in range(n)) for col in range(n)]
    boxes = [
        tuple(
            (top + i) * n + left + j
            for i in range(r)
            for j in range(c)  # the box's cells, row-major
        )
        for top in range(0, n, r)
        for left in range(0, n, c)
    ]
    names = [f"{kind} {i + 1}" for kind in ("row", "column", "box") for i in range(n)]
    return Geometry(shape, tuple(rows + cols + boxes), tuple(names))


def base_geometry(shape: Shape, regions: tuple[int, ...] | None = None) -> Geometry:
    """The units of the board itself: rows, columns, and boxes or, with ``regions``, jigsaw
    regions in their place. A board's constraints add their own units to these
    (``solvers.model.compile``)."""
    return _classic(shape) if regions is None else _jigsaw(shape, regions)


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


@lru_cache(maxsize=1024)
def _jigsaw(shape: Shape, regions: tuple[int, ...]) -> Geometry:
    n, classic = shape.size, _classic(shape)
    units = [*classic.units[: 2 * n], *region_units(regions, n)]
    names = [*classic.unit_names[: 2 * n], *(f"region {chr(ord('A') + i)}" for i in range(n))]
    return Geometry(shape, tuple(units), tuple(names))


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
            return _classic(self.shape)
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
        from solvers.model.constraints import plain

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
    return first_seen(_classic(shape).box_of)


@lru_cache(maxsize=4096)
def _check_rules(rules: Rules, shape: Shape) -> None:
    """InputError unless ``rules`` make sense on ``shape`` (checked once per pair)."""
    if not shape.has_boxes:
        check_boxless(rules, shape.size)
    base_geometry(shape, rules.regions)  # regions: N connected cells each
    if rules.constraints:
        from solvers.model.constraints import validate

        for constraint in rules.constraints:
            validate(constraint, shape.size)
