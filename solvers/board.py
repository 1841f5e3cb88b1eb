"""The board: a box shape, the units and peers it implies, and an immutable grid of values.

The units (rows, columns, boxes) of a shape are computed once, here, and are the one source of
the rules for every backend, every encoding and the verifier. Cells are numbered row-major from
0; values run from 1 to N and 0 is an empty cell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from solvers.errors import ConflictingGivens, InputError

MIN_SIZE = 4
MAX_SIZE = 25


@dataclass(frozen=True)
class Shape:
    """A board shape: boxes of ``box_rows`` x ``box_cols`` cells on an N x N board, N = r * c."""

    box_rows: int
    box_cols: int

    @property
    def size(self) -> int:
        return self.box_rows * self.box_cols

    @property
    def cell_count(self) -> int:
        return self.size * self.size

    @classmethod
    def for_size(cls, size: int) -> Shape:
        """The most square box shape (r <= c) for side ``size``; raises InputError if none fits."""
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise InputError(f"size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
        best = max((r for r in range(2, math.isqrt(size) + 1) if size % r == 0), default=0)
        if not best:
            raise InputError(f"no box shape fits a {size}x{size} board ({size} is prime)")
        return cls(best, size // best)

    @classmethod
    def parse(cls, text: str) -> Shape:
        """Read ``RxC`` such as ``2x3`` (two rows and three columns per box)."""
        rows, sep, cols = text.lower().partition("x")
        if not sep or not rows.isdigit() or not cols.isdigit():
            raise InputError(f"box shape {text!r} is not of the form RxC, such as 2x3")
        shape = cls(int(rows), int(cols))
        if shape.box_rows < 1 or shape.box_cols < 1 or not MIN_SIZE <= shape.size <= MAX_SIZE:
            raise InputError(
                f"box shape {text} gives a {shape.size}x{shape.size} board, "
                f"outside {MIN_SIZE}..{MAX_SIZE}"
            )
        return shape

    @property
    def geometry(self) -> Geometry:
        return _geometry(self.box_rows, self.box_cols)

    def __str__(self) -> str:
        return f"{self.box_rows}x{self.box_cols}"


@dataclass(frozen=True)
class Geometry:
    """Everything about a shape that never changes, by name: units, their names, peers."""

    size: int
    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    boxes: tuple[tuple[int, ...], ...]
    box_of: tuple[int, ...]
    peers: tuple[tuple[int, ...], ...]

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every unit: rows, then columns, then boxes, each a tuple of cell indices."""
        return self.rows + self.cols + self.boxes

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        return tuple(
            f"{kind} {i + 1}" for kind in ("row", "column", "box") for i in range(self.size)
        )


@cache
def _geometry(box_rows: int, box_cols: int) -> Geometry:
    n = box_rows * box_cols
    rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
    cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    box_of = tuple((r // box_rows) * box_rows + c // box_cols for r in range(n) for c in range(n))
    boxes = tuple(tuple(i for i in range(n * n) if box_of[i] == b) for b in range(n))
    peers = tuple(
        tuple(sorted((set(rows[i // n]) | set(cols[i % n]) | set(boxes[box_of[i]])) - {i}))
        for i in range(n * n)
    )
    return Geometry(n, rows, cols, boxes, box_of, peers)


def cell_name(cell: int, size: int) -> str:
    """``r1c2`` style name of a cell index, 1-based as people count."""
    return f"r{cell // size + 1}c{cell % size + 1}"


@dataclass(frozen=True)
class Board:
    """An immutable N x N grid: ``cells`` row-major, 0 for empty."""

    shape: Shape
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        n = self.shape.size
        if len(self.cells) != n * n:
            raise InputError(f"{len(self.cells)} cells, expected {n * n} for a {n}x{n} board")
        if self.cells and (min(self.cells) < 0 or max(self.cells) > n):
            i, value = next((i, v) for i, v in enumerate(self.cells) if not 0 <= v <= n)
            raise InputError(f"value {value} at {cell_name(i, n)} is outside 1..{n}")

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], shape: Shape | None = None) -> Board:
        """A board from a list of rows of ints, as the BOJ write-ups keep it."""
        size = len(rows)
        if size == 0:
            raise InputError("empty input")
        for r, row in enumerate(rows):
            if len(row) != size:
                raise InputError(f"row {r + 1} has {len(row)} cells, expected {size}")
        shape = shape or Shape.for_size(size)
        if shape.size != size:
            raise InputError(f"box {shape} does not fit a {size}x{size} board")
        return cls(shape, tuple(int(v) for row in rows for v in row))

    @classmethod
    def empty(cls, shape: Shape) -> Board:
        return cls(shape, (0,) * shape.cell_count)

    @classmethod
    def pattern(cls, shape: Shape) -> Board:
        """A complete board: the classic shifted pattern (each row a rotation of the first)."""
        r, c, n = shape.box_rows, shape.box_cols, shape.size
        return cls(
            shape,
            tuple((c * (row % r) + row // r + col) % n + 1 for row in range(n) for col in range(n)),
        )

    @property
    def size(self) -> int:
        return self.shape.size

    @property
    def geometry(self) -> Geometry:
        return self.shape.geometry

    def rows(self) -> list[list[int]]:
        n = self.size
        return [list(self.cells[r * n : (r + 1) * n]) for r in range(n)]

    def givens(self) -> int:
        return sum(1 for v in self.cells if v)

    def is_complete(self) -> bool:
        return all(self.cells)

    def with_cells(self, cells: Iterable[int]) -> Board:
        return Board(self.shape, tuple(cells))

    def conflicts(self) -> list[str]:
        """Each way the givens break a rule, as "row 1 has 6 twice (r1c2, r1c9)"."""
        found = []
        geometry = self.geometry
        for name, unit in zip(geometry.unit_names, geometry.units, strict=True):
            seen: dict[int, list[int]] = {}
            for cell in unit:
                if self.cells[cell]:
                    seen.setdefault(self.cells[cell], []).append(cell)
            for value, cells in seen.items():
                if len(cells) > 1:
                    times = {2: "twice", 3: "three times"}.get(len(cells), f"{len(cells)} times")
                    where = ", ".join(cell_name(c, self.size) for c in cells)
                    found.append(f"{name} has {value} {times} ({where})")
        return found

    def check_givens(self) -> None:
        """Raise ConflictingGivens naming the first broken rule, if any."""
        conflicts = self.conflicts()
        if conflicts:
            more = f" (and {len(conflicts) - 1} more)" if len(conflicts) > 1 else ""
            raise ConflictingGivens(conflicts[0] + more)
