"""Kinds about groups of cells: extra regions, disjoint groups, diagonals, quadruples.

- ``extraregion``: the cells hold different values.
- ``disjointgroups``: board-wide; cells in the same position of their boxes hold different
  values. Its ``box`` parameter, ``(rows, cols)``, gives the box shape (the board's builder
  fills it in; irregular regions have no positions, so no disjoint groups).
- ``diagonal+`` (bottom-left to top-right) and ``diagonal-`` (top-left to bottom-right):
  board-wide; the values on the diagonal do not repeat.
- ``quadruple``: the four cells around a point contain each value in ``values`` (as many
  times as it is listed).
- ``regionsumline``: a line whose ``regions`` gives each cell's region (box); each stretch of
  the line within one region adds up to the same total, a line that comes back to a region
  making a stretch of its own there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import accumulate, combinations, groupby, pairwise
from operator import itemgetter

from solvers.base.errors import InputError
from solvers.model.cells import cell_name

from .model import Constraint, Kind, describe, require_box, require_line
from .primitives import AllDifferent, Linear, Primitive, Table


def _repeats(grid: Sequence[int], cells: Sequence[int], n: int, where: str) -> list[str]:
    values = [grid[cell] for cell in cells]
    return [
        f"{value} repeats in {where}"
        for value, count in sorted(Counter(values).items())
        if count > 1
    ]


def check_extraregion(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    where = f"the extra region at {cell_name(constraint.cells[0], n)}"
    return _repeats(grid, constraint.cells, n, where)


def decompose_extraregion(constraint: Constraint, n: int) -> list[Primitive]:
    return [AllDifferent(constraint.cells)]


def check_disjointgroups(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    rows, cols = constraint.param("box")
    problems = []
    for place in range(n):
        r, c = divmod(place, cols)
        group = [
            (top + r) * n + left + c for top in range(0, n, rows) for left in range(0, n, cols)
        ]
        problems += _repeats(grid, group, n, f"disjoint group {place + 1}")
    return problems


def decompose_disjointgroups(constraint: Constraint, n: int) -> list[Primitive]:
    rows, cols = constraint.param("box")
    corners = [(top, left) for top in range(0, n, rows) for left in range(0, n, cols)]
    return [
        AllDifferent(tuple((top + dr) * n + left + dc for top, left in corners))
        for dr in range(rows)
        for dc in range(cols)
    ]


def check_diagonal_plus(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _repeats(grid, [(n - 1 - i) * n + i for i in range(n)], n, f"the diagonal r{n}c1-r1c{n}")


def check_diagonal_minus(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _repeats(grid, [i * (n + 1) for i in range(n)], n, f"the diagonal r1c1-r{n}c{n}")


def decompose_diagonal_plus(constraint: Constraint, n: int) -> list[Primitive]:
    return [AllDifferent(tuple(range(n - 1, n * n - 1, n - 1)))]


def decompose_diagonal_minus(constraint: Constraint, n: int) -> list[Primitive]:
    return [AllDifferent(tuple(range(0, n * n, n + 1)))]


def check_quadruple(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    present = Counter(grid[cell] for cell in constraint.cells)
    wanted = Counter(constraint.param("values"))
    return [
        f"the quadruple at {cell_name(constraint.cells[0], n)} holds {value} "
        f"{present[value]} time(s), not {count}"
        for value, count in sorted(wanted.items())
        if present[value] < count
    ]


def decompose_quadruple(constraint: Constraint, n: int) -> list[Primitive]:
    cells, anything = constraint.cells, frozenset(range(1, n + 1))
    found: list[Primitive] = []
    for value in sorted(set(constraint.param("values"))):
        count = constraint.param("values").count(value)
        rows = tuple(
            tuple(frozenset({value}) if i in chosen else anything for i in range(4))
            for chosen in combinations(range(4), count)
        )
        found.append(Table(cells, rows))
    return found


def _validate_extraregion(constraint: Constraint, n: int) -> None:
    if len(constraint.cells) > n:
        where = describe(constraint, n)
        raise InputError(f"{where}: {len(constraint.cells)} cells cannot hold different values")


def _validate_quadruple(constraint: Constraint, n: int) -> None:
    where, cells = describe(constraint, n), sorted(constraint.cells)
    top = cells[0]
    if top % n == n - 1 or cells != [top, top + 1, top + n, top + n + 1]:
        raise InputError(f"{where}: the four cells are not a 2x2 square")
    values = constraint.param("values")
    if not isinstance(values, tuple) or not 1 <= len(values) <= 4:
        raise InputError(f"{where}: values must be one to four values")
    if any(type(v) is not int or not 1 <= v <= n for v in values):
        raise InputError(f"{where}: values {values!r} are not all in 1..{n}")
    if max(Counter(values).values()) > 2:
        raise InputError(f"{where}: no value fits three times in a 2x2 square")


BOARD = (0, 0)


def check_regionsumline(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    sums = []
    for cell, region in zip(constraint.cells, constraint.param("regions"), strict=True):
        if not sums or sums[-1][0] != region:
            sums.append([region, 0])
        sums[-1][1] += grid[cell]
    totals = [total for _, total in sums]
    if len(set(totals)) <= 1:
        return []
    return [f"the region sum line at {cell_name(constraint.cells[0], n)} has sums {totals}"]


def decompose_regionsumline(constraint: Constraint, n: int) -> list[Primitive]:
    cells = zip(constraint.cells, constraint.param("regions"), strict=True)
    stretches = [[cell for cell, _ in run] for _, run in groupby(cells, key=itemgetter(1))]
    return [
        Linear(tuple([(1, c) for c in this] + [(-1, c) for c in following]), "==", 0)
        for this, following in pairwise(stretches)
    ]


def _validate_regionsumline(constraint: Constraint, n: int) -> None:
    require_line(constraint, n)
    regions = constraint.param("regions")
    if not isinstance(regions, tuple) or len(regions) != len(constraint.cells):
        raise InputError(f"{describe(constraint, n)}: regions must give one region per cell")
    if not all(type(region) is int for region in regions):
        raise InputError(f"{describe(constraint, n)}: regions must be whole numbers")


def _labels(constraint: Constraint) -> Constraint:
    """A region sum line's region labels numbered by stretch: only where the line crosses into
    another region counts, not what the regions are called nor whether the line was in one
    before (each stretch has its own sum)."""
    labels = constraint.param("regions")
    if not isinstance(labels, tuple):
        return constraint  # validation names it
    crossings = accumulate((a != b for a, b in pairwise(labels)), initial=0)
    renamed = tuple(crossings) if labels else labels
    if renamed == labels:
        return constraint
    params = tuple((k, renamed if k == "regions" else v) for k, v in constraint.params)
    return Constraint(constraint.kind, constraint.cells, params)


KINDS = (
    Kind("quadruple", "The four cells around the circle contain every value written in it.",
         check_quadruple, decompose_quadruple, frozenset({Table}), cells=(4, 4),
         params=frozenset({"values"}), required=frozenset({"values"}),
         validate_more=_validate_quadruple, fpuzzles="quadruple",
         example="quadruple r4c4 r4c5 r5c4 r5c5 values=1,2,7",
         source="dclamage QuadrupleConstraint.cs"),
    Kind("extraregion", "Values do not repeat in the extra region.", check_extraregion,
         decompose_extraregion, frozenset({AllDifferent}), cells=(2, None),
         validate_more=_validate_extraregion, fpuzzles="extraregion",
         example="extraregion r2c2 r2c3 r2c4 r3c2 r3c3 r3c4 r4c2 r4c3 r4c4",
         source="dclamage ExtraRegionConstraint.cs"),
    Kind("disjointgroups", "Cells in the same position of their boxes hold different values.",
         check_disjointgroups, decompose_disjointgroups, frozenset({AllDifferent}), cells=BOARD,
         params=frozenset({"box"}), required=frozenset({"box"}), validate_more=require_box,
         fpuzzles="disjointgroups", fpuzzles_shape="switch", example="disjointgroups box=3x3",
         source="dclamage DisjointGroupsConstraint.cs"),
    Kind("diagonal+", "Values do not repeat on the diagonal from bottom left to top right.",
         check_diagonal_plus, decompose_diagonal_plus, frozenset({AllDifferent}), cells=BOARD,
         fpuzzles="diagonal+", fpuzzles_shape="switch", example="diagonal+",
         source="dclamage DiagonalPositiveGroupConstraint.cs"),
    Kind("diagonal-", "Values do not repeat on the diagonal from top left to bottom right.",
         check_diagonal_minus, decompose_diagonal_minus, frozenset({AllDifferent}), cells=BOARD,
         fpuzzles="diagonal-", fpuzzles_shape="switch", example="diagonal-",
         source="dclamage DiagonalNegativeGroupConstraint.cs"),
    Kind("regionsumline", "Each region's stretch of the line adds up to the same total.",
         check_regionsumline, decompose_regionsumline, frozenset({Linear}), cells=(2, None),
         params=frozenset({"regions"}), required=frozenset({"regions"}),
         validate_more=_validate_regionsumline, fpuzzles="regionsumline", fpuzzles_shape="lines",
         canonical=_labels, example="regionsumline r1c3 r1c4 r2c4 regions=0,1,1",
         source="dclamage RegionSumLinesConstraint.cs"),
)  # fmt: skip
