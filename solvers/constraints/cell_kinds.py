"""Kinds on one cell: odd, even, minimum and maximum (compared with orthogonal neighbours)."""

from __future__ import annotations

from collections.abc import Sequence

from solvers.variants import cell_name, neighbours

from .model import Constraint, Kind
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


def _extreme_problems(constraint: Constraint, grid: Sequence[int], n: int, below: bool):
    (cell,) = constraint.cells
    r, c = divmod(cell, n)
    problems = []
    for other_r, other_c in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= other_r < n and 0 <= other_c < n:
            other = other_r * n + other_c
            wrong = grid[cell] >= grid[other] if below else grid[cell] <= grid[other]
            if wrong:
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


def decompose_minimum(constraint: Constraint, n: int) -> list[Primitive]:
    cell = constraint.cells[0]
    return [Linear(((1, cell), (-1, other)), "<=", -1) for other in neighbours(cell, n)]


def decompose_maximum(constraint: Constraint, n: int) -> list[Primitive]:
    cell = constraint.cells[0]
    return [Linear(((1, cell), (-1, other)), ">=", 1) for other in neighbours(cell, n)]


def _with_neighbours(constraint: Constraint, n: int) -> tuple[int, ...]:
    return (constraint.cells[0], *neighbours(constraint.cells[0], n))


ONE = (1, 1)
KINDS = (
    Kind(
        "odd",
        "The cell holds an odd value.",
        check_odd,
        decompose_odd,
        frozenset({Domain}),
        cells=ONE,
        fpuzzles="odd",
        example="odd r1c1",
    ),
    Kind(
        "even",
        "The cell holds an even value.",
        check_even,
        decompose_even,
        frozenset({Domain}),
        cells=ONE,
        fpuzzles="even",
        example="even r9c9",
    ),
    Kind(
        "minimum",
        "The cell holds a value lower than each of its orthogonal neighbours.",
        check_minimum,
        decompose_minimum,
        frozenset({Linear}),
        cells=ONE,
        fpuzzles="minimum",
        reads=_with_neighbours,
        example="minimum r5c5",
    ),
    Kind(
        "maximum",
        "The cell holds a value higher than each of its orthogonal neighbours.",
        check_maximum,
        decompose_maximum,
        frozenset({Linear}),
        cells=ONE,
        fpuzzles="maximum",
        reads=_with_neighbours,
        example="maximum r2c8",
    ),
)
