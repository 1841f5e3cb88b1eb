"""Dots between two orthogonal neighbours, and their negative constraints.

- ``xv``: X (sum 10) or V (sum 5) between two cells (parameter ``sum``).
- ``difference``: a white Kropki dot, the two values differ by ``difference`` (default 1).
- ``ratio``: a black Kropki dot, one value is ``ratio`` (default 2) times the other.
- ``negative-xv``, ``negative-difference``, ``negative-ratio``: board-wide; no orthogonal pair
  outside ``exempt`` has the property. ``exempt`` lists the pairs that carry a dot of the
  family (for Kropki: any dot, white or black, as a 1-2 pair may carry either): the board's
  builder fills it in from the dots it read.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.base.errors import InputError
from solvers.model.cells import cell_name, orthogonal_pairs

from .model import Constraint, Kind, describe, int_param, require_pairs, require_steps
from .primitives import Linear, Primitive, Relation

DOT_VALUES = {"difference": 1, "ratio": 2}  # a dot with no value: a plain Kropki dot's


def _difference(constraint: Constraint) -> int:
    return int(constraint.param("difference", DOT_VALUES["difference"]))


def _ratio(constraint: Constraint) -> int:
    return int(constraint.param("ratio", DOT_VALUES["ratio"]))


def check_xv(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    a, b = constraint.cells
    wanted = constraint.param("sum")
    if grid[a] + grid[b] == wanted:
        return []
    return [f"{cell_name(a, n)} and {cell_name(b, n)} add up to {grid[a] + grid[b]}, not {wanted}"]


def check_difference(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    a, b = constraint.cells
    if abs(grid[a] - grid[b]) == _difference(constraint):
        return []
    return [
        f"{cell_name(a, n)} ({grid[a]}) and {cell_name(b, n)} ({grid[b]}) "
        f"do not differ by {_difference(constraint)}"
    ]


def check_ratio(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    a, b = constraint.cells
    low, high = sorted((grid[a], grid[b]))
    if low * _ratio(constraint) == high:
        return []
    return [
        f"{cell_name(a, n)} ({grid[a]}) and {cell_name(b, n)} ({grid[b]}) "
        f"are not in ratio 1:{_ratio(constraint)}"
    ]


def decompose_xv(constraint: Constraint, n: int) -> list[Primitive]:
    a, b = constraint.cells
    return [Linear(((1, a), (1, b)), "==", int(constraint.param("sum")))]


def _values(n: int):
    return [(x, y) for x in range(1, n + 1) for y in range(1, n + 1)]


def decompose_difference(constraint: Constraint, n: int) -> list[Primitive]:
    a, b = constraint.cells
    d = _difference(constraint)
    return [Relation(a, b, frozenset((x, y) for x, y in _values(n) if x - y not in (d, -d)))]


def decompose_ratio(constraint: Constraint, n: int) -> list[Primitive]:
    a, b = constraint.cells
    r = _ratio(constraint)
    return [Relation(a, b, frozenset((x, y) for x, y in _values(n) if x != r * y and y != r * x))]


def _unmarked_clashes(constraint, grid, n, has_property, what) -> list[str]:
    exempt = {frozenset(pair) for pair in constraint.param("exempt", ())}
    problems = []
    for cell in range(n * n):
        for other in (cell + 1 if (cell + 1) % n else -1, cell + n):
            if (
                0 <= other < n * n
                and frozenset((cell, other)) not in exempt
                and has_property(grid[cell], grid[other])
            ):
                problems.append(
                    f"{cell_name(cell, n)} ({grid[cell]}) and {cell_name(other, n)} "
                    f"({grid[other]}) {what} but carry no dot"
                )
    return problems


def check_negative_xv(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _unmarked_clashes(
        constraint, grid, n, lambda x, y: x + y in (5, 10), "add up to 5 or 10"
    )


def check_negative_difference(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    d = _difference(constraint)
    return _unmarked_clashes(constraint, grid, n, lambda x, y: abs(x - y) == d, f"differ by {d}")


def check_negative_ratio(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    r = _ratio(constraint)
    return _unmarked_clashes(
        constraint, grid, n, lambda x, y: x == r * y or y == r * x, f"are in ratio 1:{r}"
    )


def _forbid_everywhere(constraint, n, forbidden) -> list[Primitive]:
    exempt = {tuple(sorted(pair)) for pair in constraint.param("exempt", ())}
    return [Relation(a, b, forbidden) for a, b in orthogonal_pairs(n) if (a, b) not in exempt]


def decompose_negative_xv(constraint: Constraint, n: int) -> list[Primitive]:
    forbidden = frozenset((x, y) for x, y in _values(n) if x + y in (5, 10))
    return _forbid_everywhere(constraint, n, forbidden)


def decompose_negative_difference(constraint: Constraint, n: int) -> list[Primitive]:
    d = _difference(constraint)
    return _forbid_everywhere(
        constraint, n, frozenset(p for p in _values(n) if p[0] - p[1] in (d, -d))
    )


def decompose_negative_ratio(constraint: Constraint, n: int) -> list[Primitive]:
    r = _ratio(constraint)
    forbidden = frozenset((x, y) for x, y in _values(n) if x == r * y or y == r * x)
    return _forbid_everywhere(constraint, n, forbidden)


def _validate_xv(constraint: Constraint, n: int) -> None:
    require_steps(constraint, n, diagonal=False, what="a dot's cells")
    if constraint.param("sum") not in (5, 10):
        raise InputError(
            f"{describe(constraint, n)}: sum {constraint.param('sum')!r} is not 5 or 10"
        )


def _validate_dot(constraint: Constraint, n: int) -> None:
    require_steps(constraint, n, diagonal=False, what="a dot's cells")
    int_param(constraint, n, "difference", 1, n - 1)
    int_param(constraint, n, "ratio", 2, n)


def _validate_negative(constraint: Constraint, n: int) -> None:
    require_pairs(constraint, n, "exempt")
    int_param(constraint, n, "difference", 1, n - 1)
    int_param(constraint, n, "ratio", 2, n)


PAIR, BOARD, EXEMPT = (2, 2), (0, 0), frozenset({"exempt"})
KINDS = (
    Kind("xv", "The two cells add up to 10 (an X) or 5 (a V).", check_xv, decompose_xv,
         frozenset({Linear}), cells=PAIR, params=frozenset({"sum"}), required=frozenset({"sum"}),
         validate_more=_validate_xv, fpuzzles="xv", fpuzzles_shape="dot",
         example="xv r4c5 r4c6 sum=10", source="dclamage SumConstraint.cs"),
    Kind("difference", "The two cells' values differ by the dot's value (1 unless given).",
         check_difference, decompose_difference, frozenset({Relation}), cells=PAIR,
         params=frozenset({"difference"}), validate_more=_validate_dot,
         defaults=lambda n: {"difference": DOT_VALUES["difference"]}, fpuzzles="difference",
         fpuzzles_shape="dot", example="difference r1c1 r1c2",
         source="dclamage DifferenceConstraint.cs"),
    Kind("ratio", "One cell's value is the dot's value (2 unless given) times the other's.",
         check_ratio, decompose_ratio, frozenset({Relation}), cells=PAIR,
         params=frozenset({"ratio"}), defaults=lambda n: {"ratio": DOT_VALUES["ratio"]},
         validate_more=_validate_dot, fpuzzles="ratio", fpuzzles_shape="dot",
         example="ratio r2c2 r3c2 ratio=2", source="dclamage RatioConstraint.cs"),
    Kind("negative-xv", "No two orthogonal neighbours without an X or a V add up to 10 or 5.",
         check_negative_xv, decompose_negative_xv, frozenset({Relation}), cells=BOARD,
         params=EXEMPT, validate_more=_validate_negative, example="negative-xv exempt=r4c5-r4c6",
         source="dclamage SumConstraint.cs"),
    Kind("negative-difference", "No two orthogonal neighbours without a Kropki dot differ by 1.",
         check_negative_difference, decompose_negative_difference, frozenset({Relation}),
         cells=BOARD, params=EXEMPT | {"difference"}, validate_more=_validate_negative,
         example="negative-difference exempt=r1c1-r1c2", source="dclamage DifferenceConstraint.cs"),
    Kind("negative-ratio", "No two orthogonal neighbours without a Kropki dot are in ratio 1:2.",
         check_negative_ratio, decompose_negative_ratio, frozenset({Relation}), cells=BOARD,
         params=EXEMPT | {"ratio"}, validate_more=_validate_negative,
         example="negative-ratio exempt=r2c2-r3c2", source="dclamage RatioConstraint.cs"),
)  # fmt: skip
