"""A board's shape and geometry: the box shape (``Shape``), and the units and peers it implies
(``Geometry``), computed once per shape and jigsaw regions.

A prime side N (5, 7, 11, 13) has no box shape: its ``Shape`` is 1 x N, a board without boxes
(``has_boxes`` is False) that exists only with jigsaw regions, which give it its N-cell groups.

The units (rows, columns, boxes) of a shape, and every table derived from them (each cell's
units, its peers, the full candidate mask), are computed once, here, in a ``Geometry``: the one
source of the rules for every backend, every encoding and the verifier. Cells are numbered
row-major from 0; values run from 1 to N and 0 is an empty cell. A board's constraints add
units of their own (``solvers.model.compile``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

from solvers.base.errors import InputError
from solvers.model.cells import region_units

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


@lru_cache(maxsize=1024)
def _jigsaw(shape: Shape, regions: tuple[int, ...]) -> Geometry:
    n, classic = shape.size, _classic(shape)
    units = [*classic.units[: 2 * n], *region_units(regions, n)]
    names = [*classic.unit_names[: 2 * n], *(f"region {chr(ord('A') + i)}" for i in range(n))]
    return Geometry(shape, tuple(units), tuple(names))
