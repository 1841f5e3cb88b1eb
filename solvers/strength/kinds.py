"""Each kind of the vocabulary reasons on the shared candidate grid: its own logical steps.

As dclamage/SudokuSolver's ``Constraint.StepLogic``: every constraint of a board can offer a
step that removes candidates, in a player's words. A kind with a step of its own
(``kind_sums.STEPS``, ``kind_lines.STEPS``) says it its way ("killer cage r1c1-r2c1 sum 3:
only 1+2"); every other kind gets the generic step, worded as what it is: "the sandwich at
r1c1-...-r1c9 allows no solution with r1c2=1", found by enumerating the constraint's own
assignments over the current candidates where they are few (generalised arc consistency on
that one constraint), else the same on each primitive of its decomposition
(``solvers.model.constraints``), which is always small. No kind is skipped: the kinds that are
units (extra regions, diagonals, disjoint groups) are read by the classic techniques, which
see them as units (``UNITS``).

Every step is sound by construction: a value goes only when no assignment of the rule's cells
that keeps the rule (and keeps cells that see each other different) uses it.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod

from solvers.model.cells import cell_name
from solvers.model.constraints.kinds import KINDS, decompose
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.primitives import (
    OPERATORS,
    AllDifferent,
    Domain,
    Linear,
    Primitive,
    Relation,
    Table,
)
from solvers.strength import kind_lines, kind_segments, kind_sums
from solvers.strength.support import GENERIC_RATING, losses, supports
from solvers.strength.techniques import Contradiction, Grid, Step

KindStep = Callable[[Grid, Constraint], Step | None]

# kinds whose whole meaning is units of N cells: the classic techniques read them
UNITS = frozenset({"extraregion", "disjointgroups", "diagonal+", "diagonal-"})
# the kinds with a step of their own; the rest take ``generic``
SPECIFIC: dict[str, KindStep] = {**kind_sums.STEPS, **kind_lines.STEPS, **kind_segments.STEPS}
# kinds whose own step reads the rule by parts: where it finds nothing, the generic step reads
# the rule whole (a short line's cells across its segments may see each other)
THEN_GENERIC = frozenset(kind_segments.STEPS)
WHOLE = 10  # a constraint of at most this many cells is enumerated whole,
WIDE = 1_000_000  # unless its candidates make more assignments than this (a sandwich's row)


def kind_step(grid: Grid) -> Step | None:
    """The first step some constraint of the board offers on ``grid``, in the board's order;
    None when none removes anything. Contradiction when a constraint allows no assignment."""
    for constraint in grid.constraints:
        if constraint.kind in UNITS:
            continue
        scope = _scope(grid, constraint)
        masks = tuple(grid.candidates[cell] for cell in scope)
        if grid.memo.get(("quiet", constraint)) == masks:
            continue  # nothing found on these very candidates before
        found = own_step(grid, constraint)
        if found is not None:
            return found
        grid.memo[("quiet", constraint)] = masks
    return kind_sums.innies(grid)


def own_step(grid: Grid, constraint: Constraint) -> Step | None:
    """The constraint's own step on ``grid`` (its kind's, else the generic one)."""
    found = SPECIFIC.get(constraint.kind, generic)(grid, constraint)
    if found is None and constraint.kind in THEN_GENERIC:
        return generic(grid, constraint)
    return found


def scope(grid: Grid, constraint: Constraint) -> tuple[int, ...]:
    """The constraint's cells, made once for the grid."""
    return _scope(grid, constraint)


def _scope(grid: Grid, constraint: Constraint) -> tuple[int, ...]:
    key = ("scope", constraint)
    if key not in grid.memo:
        grid.memo[key] = KINDS[constraint.kind].scope(constraint, grid.geometry.size)
    return grid.memo[key]


def name(constraint: Constraint, n: int) -> str:
    """``thermometer r1c1-r1c2``, with its parameters: how a generic step names its rule."""
    cells = "-".join(cell_name(cell, n) for cell in constraint.cells)
    params = " ".join(
        f"{key}={','.join(map(str, value)) if isinstance(value, tuple) else value}"
        for key, value in constraint.params
        if key != "exempt"
    )
    return " ".join(part for part in (constraint.kind, cells, params) if part)


def generic(grid: Grid, constraint: Constraint) -> Step | None:
    """The constraint's assignments over the current candidates, enumerated whole when it has
    few cells, else primitive by primitive: the values none of them uses go."""
    n = grid.geometry.size
    kind, scope = KINDS[constraint.kind], _scope(grid, constraint)
    where = name(constraint, n)
    if len(scope) <= WHOLE and prod(grid.candidates[c].bit_count() for c in scope) <= WIDE:
        scratch = [0] * (n * n)

        def keeps(assignment: tuple[int, ...]) -> bool:
            for cell, value in zip(scope, assignment, strict=True):
                scratch[cell] = value
            return not kind.check(constraint, scratch, n)

        found = supports(grid, scope, keeps)
        if found is not None:
            return _generic_step(grid, constraint, where, scope, found)
    for primitive in _primitives(grid, constraint):
        step = _primitive_step(grid, constraint, where, primitive)
        if step is not None:
            return step
    return None


def _generic_step(grid, constraint, where, cells, found) -> Step | None:
    if not found.any:
        raise Contradiction(f"the {where} allows no values in its cells")
    gone = losses(grid, cells, found.support)
    if not gone:
        return None
    n = grid.geometry.size
    with_ = ", ".join(f"{cell_name(cell, n)}={value}" for cell, value in gone)
    reason = f"allows no solution with {with_}"
    return Step(constraint.kind, GENERIC_RATING, where, eliminated=gone, reason=reason)


def _primitives(grid: Grid, constraint: Constraint) -> list[Primitive]:
    key = ("primitives", constraint)
    if key not in grid.memo:
        n = grid.geometry.size
        grid.memo[key] = [
            p
            for p in decompose(constraint, n)
            if not (isinstance(p, AllDifferent) and len(p.cells) >= n)  # a unit already
        ]
    return grid.memo[key]


def _primitive_step(grid, constraint, where, primitive) -> Step | None:
    cells, masks = _cells_of(primitive), None
    key = ("quiet", constraint, primitive)
    masks = tuple(grid.candidates[cell] for cell in cells)
    if grid.memo.get(key) == masks:
        return None
    if isinstance(primitive, Table):
        found = _table(grid, primitive)
    else:
        found = supports(
            grid, cells, _accept(primitive), everyone=isinstance(primitive, AllDifferent)
        )
    if found is None:
        return None  # too many assignments to enumerate: this reading says nothing
    step = _generic_step(grid, constraint, where, cells, found)
    if step is None:
        grid.memo[key] = masks
    return step


def _cells_of(primitive: Primitive) -> tuple[int, ...]:
    if isinstance(primitive, Relation):
        return (primitive.first, primitive.second)
    if isinstance(primitive, Linear):
        return tuple(cell for _, cell in primitive.terms)
    if isinstance(primitive, Domain):
        return (primitive.cell,)
    return primitive.cells


def _accept(primitive: Primitive) -> Callable[[tuple[int, ...]], bool]:
    if isinstance(primitive, Relation):
        return lambda pair: pair not in primitive.forbidden
    if isinstance(primitive, Linear):
        compare, constant = OPERATORS[primitive.op], primitive.constant
        weights = [coefficient for coefficient, _ in primitive.terms]
        return lambda xs: compare(sum(w * x for w, x in zip(weights, xs, strict=True)), constant)
    if isinstance(primitive, Domain):
        return lambda xs: xs[0] in primitive.values
    return lambda xs: True  # an all-different: the enumeration keeps its cells apart


class _Rows:
    """A table's support, row by row: a row counts where every cell has a candidate in it."""

    def __init__(self, count: int) -> None:
        self.support = [0] * count
        self.any = False


def _table(grid: Grid, table: Table) -> _Rows:
    key = ("rows", table)
    if key not in grid.memo:
        grid.memo[key] = [
            tuple(sum(1 << v for v in allowed) for allowed in row) for row in table.rows
        ]
    masks = [grid.candidates[cell] for cell in table.cells]
    found = _Rows(len(masks))
    for row in grid.memo[key]:
        kept = [mask & allowed for mask, allowed in zip(masks, row, strict=True)]
        if all(kept):
            found.any = True
            found.support = [s | k for s, k in zip(found.support, kept, strict=True)]
    return found
