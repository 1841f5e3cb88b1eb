"""Kinds that count values: ``countingcircles``, from sigh's Interactive Sudoku Solver (ISS:
github.com/sigh/Interactive-Sudoku-Solver), as its ``js/sudoku_constraint.js`` states it ("The
value in a circles counts the number of circles with the same value") and its
``js/solver/handlers.js`` ``CountingCircles`` enforces it: each value v held by a circle is held
by exactly v circles.

The decomposition has no counter to use (the primitives read values, not counts): for each
value v, one table over the circles whose rows are "no circle holds v" and, for each v of the
circles, "these hold v and the others do not"; a value above the number of circles is refused
to every circle. So a set of circles whose tables would pass ``MAX_ROWS`` rows in all is
refused (more than 14 circles on 9x9).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from math import comb

from solvers.base.errors import InputError
from solvers.model.cells import cell_name

from .model import Constraint, Kind, describe
from .primitives import Domain, Primitive, Table

MAX_ROWS = 20_000


def check_countingcircles(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    held = Counter(grid[cell] for cell in constraint.cells)
    where = cell_name(constraint.cells[0], n)
    return [
        f"{count} of the counting circles from {where} hold {value}, not {value}"
        for value, count in sorted(held.items())
        if count != value
    ]


def decompose_countingcircles(constraint: Constraint, n: int) -> list[Primitive]:
    cells, found = constraint.cells, []
    count = len(cells)
    below = frozenset(range(1, min(n, count) + 1))
    found += [Domain(cell, below) for cell in cells] if count < n else []
    for value in sorted(below):
        other = frozenset(range(1, n + 1)) - {value}
        rows = [(other,) * count]
        for chosen in combinations(range(count), value):
            row = [other] * count
            for place in chosen:
                row[place] = frozenset({value})
            rows.append(tuple(row))
        found.append(Table(cells, tuple(rows)))
    return found


def _validate_countingcircles(constraint: Constraint, n: int) -> None:
    count = len(constraint.cells)
    rows = sum(comb(count, value) for value in range(1, min(n, count) + 1))
    if rows > MAX_ROWS:
        raise InputError(
            f"{describe(constraint, n)}: {count} counting circles need tables of {rows} rows, "
            f"over the {MAX_ROWS} their decomposition takes"
        )


KINDS = (
    Kind("countingcircles", "Each value in a circle is held by exactly that many circles.",
         check_countingcircles, decompose_countingcircles, frozenset({Domain, Table}),
         validate_more=_validate_countingcircles,
         example="countingcircles r1c1 r2c5 r3c9 r5c2 r7c7", source="sigh handlers.js"),
)  # fmt: skip
