"""Indexers: the value in an indexing cell says where a value stands in its column, row or box.

The names follow the f-puzzles solver extension's: a row indexer's value is a row number.

- ``rowindexer``: a value v in the indexing cell in row r means that the cell in row v of the
  same column holds r.
- ``columnindexer``: a value v in the indexing cell in column c means that the cell in column v
  of the same row holds c (the "1-5-9" rule makes columns 1, 5 and 9 column indexers).
- ``boxindexer``: a value v in the indexing cell at position p of its box (reading order)
  means that the cell at position v of that box holds p. Its ``box`` parameter,
  ``(rows, cols)``, gives the box shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.model.cells import cell_name

from .model import Constraint, Kind, require_box
from .primitives import Primitive, Relation


def _row(constraint: Constraint, n: int) -> tuple[int, ...]:
    start = constraint.cells[0] // n * n
    return tuple(range(start, start + n))


def _column(constraint: Constraint, n: int) -> tuple[int, ...]:
    return tuple(range(constraint.cells[0] % n, n * n, n))


def _box(constraint: Constraint, n: int) -> tuple[int, ...]:
    rows, cols = constraint.param("box")
    row, col = divmod(constraint.cells[0], n)
    top, left = row - row % rows, col - col % cols
    return tuple((top + r) * n + left + c for r in range(rows) for c in range(cols))


def _check(constraint: Constraint, grid: Sequence[int], n: int, place: int, target: int):
    """``place``: the indexing cell's position (1-based), ``target``: the cell it points at."""
    cell = constraint.cells[0]
    if grid[target] == place:
        return []
    return [
        f"{cell_name(cell, n)} holds {grid[cell]}, so {cell_name(target, n)} should hold "
        f"{place}, not {grid[target]}"
    ]


def check_columnindexer(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    row, col = divmod(constraint.cells[0], n)
    return _check(constraint, grid, n, col + 1, row * n + grid[constraint.cells[0]] - 1)


def check_rowindexer(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    row, col = divmod(constraint.cells[0], n)
    return _check(constraint, grid, n, row + 1, (grid[constraint.cells[0]] - 1) * n + col)


def check_boxindexer(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    rows, cols = constraint.param("box")
    row, col = divmod(constraint.cells[0], n)
    place = row % rows * cols + col % cols + 1
    down, across = divmod(grid[constraint.cells[0]] - 1, cols)
    target = (row - row % rows + down) * n + col - col % cols + across
    return _check(constraint, grid, n, place, target)


def _pointers(constraint: Constraint, n: int, line: tuple[int, ...]) -> list[Primitive]:
    """Holding v in the indexing cell forbids any value but its position at line[v - 1]."""
    cell = constraint.cells[0]
    place = line.index(cell) + 1
    values = range(1, n + 1)
    return [
        Relation(cell, target, frozenset((v, w) for w in values if w != place))
        for v, target in enumerate(line, start=1)
        if target != cell
    ]


def decompose_columnindexer(constraint: Constraint, n: int) -> list[Primitive]:
    return _pointers(constraint, n, _row(constraint, n))


def decompose_rowindexer(constraint: Constraint, n: int) -> list[Primitive]:
    return _pointers(constraint, n, _column(constraint, n))


def decompose_boxindexer(constraint: Constraint, n: int) -> list[Primitive]:
    return _pointers(constraint, n, _box(constraint, n))


ONE = (1, 1)
KINDS = (
    Kind("columnindexer",
         "A value v in an indexing cell in column c puts a c in column v of its row.",
         check_columnindexer, decompose_columnindexer, frozenset({Relation}), cells=ONE, reads=_row,
         fpuzzles="columnindexer", fpuzzles_shape="cells", example="columnindexer r4c1",
         source="dclamage IndexerConstraint.cs"),
    Kind("rowindexer", "A value v in an indexing cell in row r puts an r in row v of its column.",
         check_rowindexer, decompose_rowindexer, frozenset({Relation}), cells=ONE, reads=_column,
         fpuzzles="rowindexer", fpuzzles_shape="cells", example="rowindexer r1c6",
         source="dclamage IndexerConstraint.cs"),
    Kind("boxindexer",
         "A value v in an indexing cell at position p of its box puts a p at position v.",
         check_boxindexer, decompose_boxindexer, frozenset({Relation}), cells=ONE,
         params=frozenset({"box"}), required=frozenset({"box"}), validate_more=require_box,
         reads=_box, fpuzzles="boxindexer", fpuzzles_shape="cells",
         example="boxindexer r2c2 box=3x3", source="dclamage IndexerConstraint.cs"),
)  # fmt: skip
