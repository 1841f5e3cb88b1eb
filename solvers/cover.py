"""Sudoku as exact cover: the matrix's rows, the one formulation that ``dlx`` (dancing links in
Python) and ``exactcover`` (Algorithm X in C) both search.

Each candidate placement "cell i holds v" is a row, with a one in the column of its cell and in
the column of value v in each of the cell's units. A solution picks rows covering every column
exactly once. A killer cage adds two kinds of column: "cage k holds v", covered by the placement
of v in one of its cells or by the row of a set without v; and "cage k has chosen its set",
covered by one row per set of values the cage can hold (``Cage.value_sets``). Each set row
covers the values it lacks, so the cage's cells must cover exactly its own: their values are
that set, distinct and adding up to the total. A cell in two cages covers a column of each.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solvers.board import Geometry
from solvers.compile import Cage

NO_PLACEMENT = (-1, -1)  # a cage's set row places no value


@dataclass(frozen=True)
class Cover:
    """The exact-cover matrix: ``columns`` columns numbered from 0, and per row the columns it
    covers and the placement (cell, value) it stands for (``NO_PLACEMENT`` for a set row).
    The placements come first, cell by cell and value by value: row ``cell * N + v - 1``."""

    columns: int
    rows: tuple[tuple[int, ...], ...]
    placements: tuple[tuple[int, int], ...]


@lru_cache(maxsize=16)
def exact_cover(geometry: Geometry, cages: tuple[Cage, ...] = ()) -> Cover:
    """The rows of ``geometry``'s rules, and of ``cages`` if any: columns are each cell, then
    each unit and value, then each cage and value, then each cage's choice of set."""
    n = geometry.size
    first_cage = n * n + len(geometry.units) * n
    cages_of: dict[int, list[int]] = {}
    for k, cage in enumerate(cages):
        for cell in cage.cells:
            cages_of.setdefault(cell, []).append(first_cage + k * n - 1)
    rows: list[tuple[int, ...]] = []
    placements: list[tuple[int, int]] = []
    for cell, units in enumerate(geometry.units_of):
        for v in range(1, n + 1):
            hits = (cell, *(n * n + unit * n + v - 1 for unit in units))
            hits += tuple(base + v for base in cages_of.get(cell, ()))
            rows.append(hits)
            placements.append((cell, v))
    for k, cage in enumerate(cages):
        base, choice = first_cage + k * n - 1, first_cage + len(cages) * n + k
        for values in cage.value_sets(n):
            rows.append((*(base + v for v in range(1, n + 1) if not values >> v & 1), choice))
            placements.append(NO_PLACEMENT)
    columns = first_cage + len(cages) * (n + 1)
    return Cover(columns, tuple(rows), tuple(placements))
