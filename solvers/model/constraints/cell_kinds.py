"""Kinds on marked cells: odd and even (a cell each), candidates (a cell restricted to some
values), and the minima and maxima of a board.

A cell's ``candidates`` are the values a setter's pencil marks leave it: f-puzzles' grid cell
key ``givenPencilMarks``, which dclamage/SudokuSolver's ``SolverFactory.cs`` reads by keeping
only those values in the cell (``KeepMask``) unless the cell holds a given.

A maximum is compared with its orthogonal neighbours that are not maxima themselves (and a
minimum with those that are not minima), so one constraint holds all of a board's maxima:
dclamage/SudokuSolver's ``Constraints/MaximumConstraint.cs`` and ``MinimumConstraint.cs`` skip
the neighbours in their own set of cells, and its ``SolverFactory.cs`` builds that set from all
the cells of f-puzzles' ``maximum`` key (Fortress sudoku is this rule). A maximum beside a
minimum is compared with it. ``gather_extremes`` merges the maxima (and minima) a board states
one at a time, as readers of text and f-puzzles do.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from solvers.base.errors import InputError
from solvers.model.cells import cell_name, neighbours

from .model import Constraint, Kind, describe
from .primitives import Domain, Linear, Primitive


def check_odd(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    (cell,) = constraint.cells
    if grid[cell] % 2 == 1:
        return []
    return [f"{cell_name(cell, n)} holds {grid[cell]}, not an odd value"]


def check_even(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    (cell,) = constraint.cells
    if grid[cell] % 2 == 0:
        return []
    return [f"{cell_name(cell, n)} holds {grid[cell]}, not an even value"]


def decompose_odd(constraint: Constraint, n: int) -> list[Primitive]:
    return [Domain(constraint.cells[0], frozenset(range(1, n + 1, 2)))]


def decompose_even(constraint: Constraint, n: int) -> list[Primitive]:
    return [Domain(constraint.cells[0], frozenset(range(2, n + 1, 2)))]


def check_candidates(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    (cell,) = constraint.cells
    if grid[cell] in constraint.param("values"):
        return []
    marks = ",".join(str(value) for value in constraint.param("values"))
    return [f"{cell_name(cell, n)} holds {grid[cell]}, not one of its candidates {marks}"]


def decompose_candidates(constraint: Constraint, n: int) -> list[Primitive]:
    return [Domain(constraint.cells[0], frozenset(constraint.param("values")))]


def _validate_candidates(constraint: Constraint, n: int) -> None:
    values, where = constraint.param("values"), describe(constraint, n)
    if not isinstance(values, tuple) or not values:
        raise InputError(f"{where}: values must be one or more values")
    if any(type(v) is not int or not 1 <= v <= n for v in values):
        raise InputError(f"{where}: values {values!r} are not all in 1..{n}")
    if len(set(values)) != len(values):
        raise InputError(f"{where}: names a value twice")


def _extreme_problems(constraint: Constraint, grid: Sequence[int], n: int, below: bool):
    marked = set(constraint.cells)
    problems = []
    for cell in constraint.cells:
        r, c = divmod(cell, n)
        for other_r, other_c in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            other = other_r * n + other_c
            if not (0 <= other_r < n and 0 <= other_c < n) or other in marked:
                continue
            if grid[cell] >= grid[other] if below else grid[cell] <= grid[other]:
                problems.append(
                    f"{cell_name(cell, n)} ({grid[cell]}) is not "
                    f"{'below' if below else 'above'} its neighbour "
                    f"{cell_name(other, n)} ({grid[other]})"
                )
    return problems


def check_minimum(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _extreme_problems(constraint, grid, n, below=True)


def check_maximum(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _extreme_problems(constraint, grid, n, below=False)


def _outside_pairs(constraint: Constraint, n: int) -> list[tuple[int, int]]:
    """Each (marked cell, neighbour) pair whose neighbour is not marked too."""
    marked = set(constraint.cells)
    return [
        (cell, other)
        for cell in constraint.cells
        for other in neighbours(cell, n)
        if other not in marked
    ]


def decompose_minimum(constraint: Constraint, n: int) -> list[Primitive]:
    pairs = _outside_pairs(constraint, n)
    return [Linear(((1, cell), (-1, other)), "<=", -1) for cell, other in pairs]


def decompose_maximum(constraint: Constraint, n: int) -> list[Primitive]:
    pairs = _outside_pairs(constraint, n)
    return [Linear(((1, cell), (-1, other)), ">=", 1) for cell, other in pairs]


def _with_neighbours(constraint: Constraint, n: int) -> tuple[int, ...]:
    found = dict.fromkeys(constraint.cells)
    for cell in constraint.cells:
        found |= dict.fromkeys(neighbours(cell, n))
    return tuple(found)


EXTREMES = ("minimum", "maximum")


def gather_extremes(constraints: Iterable[Constraint]) -> tuple[Constraint, ...]:
    """The constraints with every minimum merged into one and every maximum into one (each
    cell once, in the order first met, in place of the first of its kind): a maximum is
    compared with its neighbours that are not maxima, so a board's maxima are one set, as
    f-puzzles lists them under one key and as boards with a ``maximum`` per cell mean."""
    found: list[Constraint] = []
    merged: dict[str, dict[int, None]] = {}
    for constraint in constraints:
        if constraint.kind not in EXTREMES:
            found.append(constraint)
            continue
        if constraint.kind not in merged:
            merged[constraint.kind] = {}
            found.append(constraint)  # its place, filled in below
        merged[constraint.kind] |= dict.fromkeys(constraint.cells)
    return tuple(
        Constraint(c.kind, tuple(merged[c.kind])) if c.kind in merged else c for c in found
    )


ONE = (1, 1)
KINDS = (
    Kind("odd", "The cell holds an odd value.", check_odd, decompose_odd, frozenset({Domain}),
         cells=ONE, fpuzzles="odd", fpuzzles_shape="cell", example="odd r1c1",
         source="dclamage OddConstraint.cs"),
    Kind("even", "The cell holds an even value.", check_even, decompose_even, frozenset({Domain}),
         cells=ONE, fpuzzles="even", fpuzzles_shape="cell", example="even r9c9",
         source="dclamage EvenConstraint.cs"),
    Kind("candidates", "The cell holds one of the values its pencil marks give.", check_candidates,
         decompose_candidates, frozenset({Domain}), cells=ONE, params=frozenset({"values"}),
         required=frozenset({"values"}), validate_more=_validate_candidates,
         example="candidates r5c5 values=1,2,3", source="dclamage SolverFactory.cs"),
    Kind("minimum",
         "Each cell holds a value lower than each orthogonal neighbour that is not a minimum.",
         check_minimum, decompose_minimum, frozenset({Linear}), fpuzzles="minimum",
         fpuzzles_shape="marked", reads=_with_neighbours, example="minimum r5c5 r5c6",
         source="dclamage MinimumConstraint.cs"),
    Kind("maximum",
         "Each cell holds a value higher than each orthogonal neighbour that is not a maximum.",
         check_maximum, decompose_maximum, frozenset({Linear}), fpuzzles="maximum",
         fpuzzles_shape="marked", reads=_with_neighbours, example="maximum r2c8 r3c8",
         source="dclamage MaximumConstraint.cs"),
)  # fmt: skip
