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

from collections.abc import Callable, Sequence

from solvers.cells import cell_name, orthogonal_pairs
from solvers.errors import InputError

from .model import Constraint, Kind, describe, held, int_param, require_pairs, require_steps
from .neighbours import ORTHOGONAL, pairs_apart
from .primitives import Linear, Primitive, Relation, pairs_where

DOT_VALUES = {"difference": 1, "ratio": 2}  # a dot with no value: a plain Kropki dot's


def _difference(constraint: Constraint) -> int:
    return int(constraint.param("difference", DOT_VALUES["difference"]))


def _ratio(constraint: Constraint) -> int:
    return int(constraint.param("ratio", DOT_VALUES["ratio"]))


def _adds_to_5_or_10(x: int, y: int) -> bool:
    return x + y in (5, 10)


def _differ_by(d: int) -> Callable[[int, int], bool]:
    return lambda x, y: abs(x - y) == d


def _in_ratio(r: int) -> Callable[[int, int], bool]:
    return lambda x, y: x == r * y or y == r * x


def check_xv(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    a, b = constraint.cells
    wanted = constraint.param("sum")
    if grid[a] + grid[b] == wanted:
        return []
    return [f"{cell_name(a, n)} and {cell_name(b, n)} add up to {grid[a] + grid[b]}, not {wanted}"]


def check_difference(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    a, b = constraint.cells
    if _differ_by(_difference(constraint))(grid[a], grid[b]):
        return []
    return [f"{held(grid, n, a)} and {held(grid, n, b)} do not differ by {_difference(constraint)}"]


def check_ratio(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    a, b = constraint.cells
    if _in_ratio(_ratio(constraint))(grid[a], grid[b]):
        return []
    return [f"{held(grid, n, a)} and {held(grid, n, b)} are not in ratio 1:{_ratio(constraint)}"]


def decompose_xv(constraint: Constraint, n: int) -> list[Primitive]:
    a, b = constraint.cells
    return [Linear(((1, a), (1, b)), "==", int(constraint.param("sum")))]


def decompose_difference(constraint: Constraint, n: int) -> list[Primitive]:
    (a, b), differ = constraint.cells, _differ_by(_difference(constraint))
    return [Relation(a, b, pairs_where(n, lambda x, y: not differ(x, y)))]


def decompose_ratio(constraint: Constraint, n: int) -> list[Primitive]:
    (a, b), in_ratio = constraint.cells, _in_ratio(_ratio(constraint))
    return [Relation(a, b, pairs_where(n, lambda x, y: not in_ratio(x, y)))]


def _unmarked_clashes(constraint, grid, n, holds, what) -> list[str]:
    exempt = {frozenset(pair) for pair in constraint.param("exempt", ())}
    return [
        f"{held(grid, n, a)} and {held(grid, n, b)} {what} but carry no dot"
        for a, b in pairs_apart(n, ORTHOGONAL)
        if frozenset((a, b)) not in exempt and holds(grid[a], grid[b])
    ]


def check_negative_xv(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _unmarked_clashes(constraint, grid, n, _adds_to_5_or_10, "add up to 5 or 10")


def check_negative_difference(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    d = _difference(constraint)
    return _unmarked_clashes(constraint, grid, n, _differ_by(d), f"differ by {d}")


def check_negative_ratio(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    r = _ratio(constraint)
    return _unmarked_clashes(constraint, grid, n, _in_ratio(r), f"are in ratio 1:{r}")


def _forbid_everywhere(constraint, n, holds) -> list[Primitive]:
    exempt = {tuple(sorted(pair)) for pair in constraint.param("exempt", ())}
    forbidden = pairs_where(n, holds)
    return [Relation(a, b, forbidden) for a, b in orthogonal_pairs(n) if (a, b) not in exempt]


def decompose_negative_xv(constraint: Constraint, n: int) -> list[Primitive]:
    return _forbid_everywhere(constraint, n, _adds_to_5_or_10)


def decompose_negative_difference(constraint: Constraint, n: int) -> list[Primitive]:
    return _forbid_everywhere(constraint, n, _differ_by(_difference(constraint)))


def decompose_negative_ratio(constraint: Constraint, n: int) -> list[Primitive]:
    return _forbid_everywhere(constraint, n, _in_ratio(_ratio(constraint)))


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
