"""Sudoku as exact cover: the matrix's rows, the one formulation that ``dlx`` (dancing links in
Python) and ``exactcover`` (Algorithm X in C) both search.

Each candidate placement "cell i holds v" is a row, with a one in the column of its cell and in
the column of value v in each of the cell's units. A solution picks rows covering every column
exactly once. A sum group of the compile step adds two kinds of column: "group k holds v",
covered by the placement of v in one of its cells or by the row of a set without v; and "group k
has chosen its set", covered by one row per set of values the group can hold
(``SumGroup.value_sets``). Each set row covers the values it lacks, so the group's cells must
cover exactly its own: their values are that set, distinct and adding up to the total. A cell
in two groups covers a column of each.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solvers.model.compile import SumGroup
from solvers.model.geometry import Geometry

NO_PLACEMENT = (-1, -1)  # a sum group's set row places no value


@dataclass(frozen=True)
class Cover:
    """The exact-cover matrix: ``columns`` columns numbered from 0, and per row the columns it
    covers and the placement (cell, value) it stands for (``NO_PLACEMENT`` for a set row).
    The placements come first, cell by cell and value by value: row ``cell * N + v - 1``."""

    columns: int
    rows: tuple[tuple[int, ...], ...]
    placements: tuple[tuple[int, int], ...]


@lru_cache(maxsize=16)
def exact_cover(geometry: Geometry, sum_groups: tuple[SumGroup, ...] = ()) -> Cover:
    """The rows of ``geometry``'s rules, and of ``sum_groups`` if any: columns are each cell,
    then each unit and value, then each group and value, then each group's choice of set."""
    n = geometry.size
    first_group = n * n + len(geometry.units) * n
    groups_of: dict[int, list[int]] = {}
    for k, group in enumerate(sum_groups):
        for cell in group.cells:
            groups_of.setdefault(cell, []).append(first_group + k * n - 1)
    rows: list[tuple[int, ...]] = []
    placements: list[tuple[int, int]] = []
    for cell, units in enumerate(geometry.units_of):
        for v in range(1, n + 1):
            hits = (cell, *(n * n + unit * n + v - 1 for unit in units))
            hits += tuple(base + v for base in groups_of.get(cell, ()))
            rows.append(hits)
            placements.append((cell, v))
    for k, group in enumerate(sum_groups):
        base, choice = first_group + k * n - 1, first_group + len(sum_groups) * n + k
        for values in group.value_sets(n):
            rows.append((*(base + v for v in range(1, n + 1) if not values >> v & 1), choice))
            placements.append(NO_PLACEMENT)
    columns = first_group + len(sum_groups) * (n + 1)
    return Cover(columns, tuple(rows), tuple(placements))
