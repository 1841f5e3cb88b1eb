"""Kinds about order and sums: thermometers, arrows, killer cages, little killers.

- ``thermometer``: cells from the bulb, strictly increasing; ``slow-thermometer``: never
  decreasing.
- ``arrow``: the first ``circle`` cells (default 1) form the circle, read left to right as a
  decimal number (several cells only up to N = 9); the rest is the shaft, whose values add up
  to that number. Values on the shaft may repeat (outside a shared unit). The shaft leaves
  from any cell of a pill: its first cell touches one of the circle's.
- ``doublearrow``: a line with a circle at each end; the values between them add up to the
  two circles' values together: dclamage/SudokuSolver's ``Constraints/DoubleArrowConstraint.cs``
  (f-puzzles key ``doublearrow``: the line's first and last cells are the circles).
- ``killercage``: the cells hold different values adding up to ``total`` when it is given.
- ``multisumcage``: the cells hold different values adding up to one of ``totals``:
  dclamage/SudokuSolver's ``Constraints/MultiSumKillerCageConstraint.cs``; its
  ``SolverFactory.cs`` reads f-puzzles' drawn ``cage`` whose text is ``DR<n>`` (a digital
  root) as such a cage, its totals n, n + 9, ... that its cell count can reach.
- ``littlekiller``: the cells of a diagonal, from the clue outward, add up to ``total``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, pairwise

from solvers.base.errors import InputError
from solvers.model.cells import cell_name

from .model import Constraint, Kind, describe, int_param, require_line, require_steps
from .primitives import AllDifferent, Linear, Primitive, Table


def _order_problems(constraint: Constraint, grid: Sequence[int], n: int, strict: bool):
    problems = []
    for a, b in pairwise(constraint.cells):
        if grid[b] < grid[a] or (strict and grid[b] == grid[a]):
            problems.append(
                f"{cell_name(b, n)} ({grid[b]}) is not "
                f"{'above' if strict else 'at least'} {cell_name(a, n)} ({grid[a]}) on the line"
            )
    return problems


def check_thermometer(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _order_problems(constraint, grid, n, strict=True)


def check_slow_thermometer(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _order_problems(constraint, grid, n, strict=False)


def decompose_thermometer(constraint: Constraint, n: int) -> list[Primitive]:
    return [Linear(((1, a), (-1, b)), "<=", -1) for a, b in pairwise(constraint.cells)]


def decompose_slow_thermometer(constraint: Constraint, n: int) -> list[Primitive]:
    return [Linear(((1, a), (-1, b)), "<=", 0) for a, b in pairwise(constraint.cells)]


def _circle(constraint: Constraint) -> int:
    return int(constraint.param("circle", 1))


def check_arrow(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    size = _circle(constraint)
    circle, shaft = constraint.cells[:size], constraint.cells[size:]
    number = int("".join(str(grid[cell]) for cell in circle))
    total = sum(grid[cell] for cell in shaft)
    if total == number:
        return []
    return [f"the arrow from {cell_name(circle[0], n)} adds up to {total}, not {number}"]


def decompose_arrow(constraint: Constraint, n: int) -> list[Primitive]:
    size = _circle(constraint)
    circle, shaft = constraint.cells[:size], constraint.cells[size:]
    terms = [(10 ** (size - 1 - place), cell) for place, cell in enumerate(circle)]
    return [Linear(tuple(terms + [(-1, cell) for cell in shaft]), "==", 0)]


def check_doublearrow(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    first, *between, last = constraint.cells
    ends, total = grid[first] + grid[last], sum(grid[cell] for cell in between)
    if ends == total:
        return []
    return [
        f"the double arrow from {cell_name(first, n)} to {cell_name(last, n)} adds up to "
        f"{total} between its circles, not their {ends}"
    ]


def decompose_doublearrow(constraint: Constraint, n: int) -> list[Primitive]:
    first, *between, last = constraint.cells
    return [Linear(((1, first), (1, last), *((-1, cell) for cell in between)), "==", 0)]


def _twice(values: list[int], where: str) -> list[str]:
    return [f"the cage at {where} holds {v} twice" for v in sorted(set(values))
            if values.count(v) > 1]  # fmt: skip


def check_killercage(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values, where = [grid[cell] for cell in constraint.cells], cell_name(constraint.cells[0], n)
    problems, total = _twice(values, where), constraint.param("total")
    if total is not None and sum(values) != total:
        problems.append(f"the cage at {where} adds up to {sum(values)}, not {total}")
    return problems


def decompose_killercage(constraint: Constraint, n: int) -> list[Primitive]:
    found: list[Primitive] = [AllDifferent(constraint.cells)]
    total = constraint.param("total")
    if total is not None:
        found.append(Linear(tuple((1, cell) for cell in constraint.cells), "==", int(total)))
    return found


def check_multisumcage(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values, where = [grid[cell] for cell in constraint.cells], cell_name(constraint.cells[0], n)
    problems, totals = _twice(values, where), constraint.param("totals")
    if sum(values) not in totals:
        problems.append(f"the cage at {where} adds up to {sum(values)}, none of {list(totals)}")
    return problems


def decompose_multisumcage(constraint: Constraint, n: int) -> list[Primitive]:
    cells, totals = constraint.cells, set(constraint.param("totals"))
    sets = [frozenset(s) for s in combinations(range(1, n + 1), len(cells)) if sum(s) in totals]
    return [AllDifferent(cells), Table(cells, tuple((s,) * len(cells) for s in sets))]


def check_littlekiller(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    total = sum(grid[cell] for cell in constraint.cells)
    if total == constraint.param("total"):
        return []
    return [
        f"the diagonal from {cell_name(constraint.cells[0], n)} adds up to {total}, "
        f"not {constraint.param('total')}"
    ]


def decompose_littlekiller(constraint: Constraint, n: int) -> list[Primitive]:
    terms = tuple((1, cell) for cell in constraint.cells)
    return [Linear(terms, "==", int(constraint.param("total")))]


def _validate_arrow(constraint: Constraint, n: int) -> None:
    where = describe(constraint, n)
    int_param(constraint, n, "circle", 1, min(3, len(constraint.cells) - 1))
    size = _circle(constraint)
    if size > 1 and n > 9:
        raise InputError(f"{where}: a circle of several cells reads digits, so N must be <= 9")
    circle, shaft = constraint.cells[:size], constraint.cells[size:]
    require_steps(Constraint(constraint.kind, shaft), n, True, "an arrow's cells")
    # f-puzzles draws a pill's shaft from any of its cells (dclamage/SudokuSolver's
    # SolverFactory.cs reads the shaft as the line past its first cell, whichever that is)
    if not any(_touch(cell, shaft[0], n) for cell in circle):
        raise InputError(
            f"{where}: the shaft's first cell {cell_name(shaft[0], n)} touches no "
            "cell of the circle"
        )


def _touch(a: int, b: int, n: int) -> bool:
    return max(abs(a // n - b // n), abs(a % n - b % n)) == 1


def _validate_killercage(constraint: Constraint, n: int) -> None:
    count = len(constraint.cells)
    if count > n:
        raise InputError(f"{describe(constraint, n)}: {count} cells cannot hold different values")
    low, high = count * (count + 1) // 2, count * (2 * n - count + 1) // 2
    int_param(constraint, n, "total", low, high)


def _validate_multisumcage(constraint: Constraint, n: int) -> None:
    _validate_killercage(constraint, n)
    totals, where = constraint.param("totals"), describe(constraint, n)
    if not isinstance(totals, tuple) or not totals:
        raise InputError(f"{where}: totals must be one or more whole numbers")
    if any(type(total) is not int or not 1 <= total <= n * (n + 1) // 2 for total in totals):
        raise InputError(f"{where}: totals {totals!r} are not all in 1..{n * (n + 1) // 2}")


def _validate_littlekiller(constraint: Constraint, n: int) -> None:
    int_param(constraint, n, "total", 1, n * n)
    cells = constraint.cells
    steps = {(b // n - a // n, b % n - a % n) for a, b in pairwise(cells)}
    if len(steps) > 1 or any(abs(dr) != 1 or abs(dc) != 1 for dr, dc in steps):
        raise InputError(f"{describe(constraint, n)}: the cells are not one diagonal line")


LINE = (2, None)
KINDS = (
    Kind("thermometer", "Values strictly increase along the thermometer, starting from the bulb.",
         check_thermometer, decompose_thermometer, frozenset({Linear}), cells=LINE,
         validate_more=require_line, fpuzzles="thermometer", fpuzzles_shape="lines",
         example="thermometer r1c1 r1c2 r2c3", source="dclamage ThermometerConstraint.cs"),
    Kind("slow-thermometer", "Values never decrease along the thermometer, starting from the bulb.",
         check_slow_thermometer, decompose_slow_thermometer, frozenset({Linear}), cells=LINE,
         validate_more=require_line, fpuzzles="slowthermometer", fpuzzles_shape="lines",
         example="slow-thermometer r9c1 r8c1 r7c1", source="dclamage SlowThermometerConstraint.cs"),
    Kind("arrow", "The values along the arrow add up to the number in its circle.", check_arrow,
         decompose_arrow, frozenset({Linear}), cells=LINE, params=frozenset({"circle"}),
         defaults=lambda n: {"circle": 1}, validate_more=_validate_arrow, fpuzzles="arrow",
         example="arrow r1c5 r2c5 r3c5 r3c6 circle=1", source="dclamage ArrowSumConstraint.cs"),
    Kind("doublearrow",
         "The values between the circles at the line's two ends add up to the circles' values.",
         check_doublearrow, decompose_doublearrow, frozenset({Linear}), cells=(3, None),
         validate_more=require_line, fpuzzles="doublearrow", fpuzzles_shape="lines",
         example="doublearrow r4c7 r5c7 r6c7 r7c7", source="dclamage DoubleArrowConstraint.cs"),
    Kind("killercage",
         "Values do not repeat in the cage and add up to its total, when one is given.",
         check_killercage, decompose_killercage, frozenset({AllDifferent, Linear}),
         params=frozenset({"total"}), validate_more=_validate_killercage, fpuzzles="killercage",
         example="killercage r1c1 r1c2 r2c1 total=12", source="dclamage KillerCageConstraint.cs"),
    Kind("multisumcage", "Values do not repeat in the cage and add up to one of its totals.",
         check_multisumcage, decompose_multisumcage, frozenset({AllDifferent, Table}),
         params=frozenset({"totals"}), required=frozenset({"totals"}),
         validate_more=_validate_multisumcage, example="multisumcage r8c1 r8c2 r9c1 totals=6,15,24",
         source="dclamage MultiSumKillerCageConstraint.cs"),
    Kind("littlekiller", "The values along the marked diagonal add up to the clue.",
         check_littlekiller, decompose_littlekiller, frozenset({Linear}),
         params=frozenset({"total"}), required=frozenset({"total"}),
         validate_more=_validate_littlekiller, fpuzzles="littlekillersum",
         example="littlekiller r1c2 r2c3 r3c4 total=15",
         source="dclamage LittleKillerConstraint.cs"),
)  # fmt: skip
