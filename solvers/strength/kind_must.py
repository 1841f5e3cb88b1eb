"""A value a rule must hold, pointed out of it: the rule's pointing.

Where every assignment a rule allows over the current candidates uses a value (a killer cage
of 3 cells summing to 7 always holds 1, 2 and 4; a renban of 5 always holds 5), that value
lies in one of the rule's cells that can still take it; so a cell outside the rule that sees
all of those cells cannot be it ("killer cage r1c1-r1c2-r1c3 sum 7 must hold 4, which lies
in r1c1-r1c2 (row 1), so r1c5 cannot be 4"). A player's cage pointing: as pointing reads a
box's value locked in a row, this reads a rule's value locked in the cells it can take. Sound
whatever the rule: if the outside cell held the value, none of the cells that see it could,
and the rule would have no assignment.

The values a rule must hold come from the same enumeration as the rule's own step (a cage's
sums cut as they go; any other rule of a few cells checked whole against its kind's
definition), within the same budget; a rule too open for it says nothing here.
"""

from __future__ import annotations

from math import prod

from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.model import Constraint
from solvers.strength.grid import values
from solvers.strength.kind_sums import bounds
from solvers.strength.support import cannot, cells_text, supports
from solvers.strength.techniques import Grid, Step

RATING = 2.7  # pointing (2.6) on a rule's combinations: after pointing, before claiming (2.8)
WHOLE = 10  # a rule of at most this many cells is checked whole (as ``kinds.generic``)
SKIP = frozenset({"extraregion", "disjointgroups", "diagonal+", "diagonal-"})  # units
SUMS = frozenset({"killercage", "multisumcage"})


def rule_pointing(grid: Grid) -> Step | None:
    """The first rule of the board, in its order, whose must-hold value some outside cell
    that sees every place of it in the rule still has; None when none."""
    n = grid.geometry.size
    for constraint in grid.constraints:
        if constraint.kind in SKIP:
            continue
        scope = _scope(grid, constraint)
        must = _must(grid, constraint, scope)
        for value in values(must):
            bit = 1 << value
            places = [cell for cell in scope if grid.candidates[cell] & bit]
            seen = frozenset.intersection(*(grid.peer_sets[cell] for cell in places))
            gone = tuple(
                (cell, value)
                for cell in sorted(seen)
                if cell not in scope and grid.candidates[cell] & bit
            )
            if gone:
                where = f"{_named(constraint, n)} must hold {value}"
                reason = f"it can only go in {cells_text(places, n)}, so {cannot(gone, n)}"
                return Step("rule pointing", RATING, where, eliminated=gone, reason=reason)
    return None


def _scope(grid: Grid, constraint: Constraint) -> tuple[int, ...]:
    key = ("scope", constraint)  # shared with kinds.scope
    if key not in grid.memo:
        grid.memo[key] = KINDS[constraint.kind].scope(constraint, grid.geometry.size)
    return grid.memo[key]


def _named(constraint: Constraint, n: int) -> str:
    cells = cells_text(constraint.cells, n)
    if constraint.kind in SUMS:
        totals = constraint.param("totals") or (constraint.param("total"),)
        if totals[0] is None:
            return f"cage {cells}"
        return f"killer cage {cells} sum {' or '.join(map(str, totals))}"
    return f"{constraint.kind} {cells}"


def _must(grid: Grid, constraint: Constraint, scope: tuple[int, ...]) -> int:
    """The values every assignment of the rule over the current candidates uses (a mask);
    0 when the rule is too open to enumerate. Kept per candidates of its cells."""
    masks = tuple(grid.candidates[cell] for cell in scope)
    key = ("must", constraint)
    known = grid.memo.get(key)
    if known is not None and known[0] == masks:
        return known[1]
    every = 0
    for mask in masks:
        every |= mask
    must = _enumerated(grid, constraint, scope, every) if every else 0
    grid.memo[key] = (masks, must)
    return must


def _enumerated(grid: Grid, constraint: Constraint, scope: tuple[int, ...], every: int) -> int:
    n = grid.geometry.size
    held = [every]

    def track(accepted: bool, xs: tuple[int, ...]) -> bool:
        if accepted:
            mask = 0
            for x in xs:
                mask |= 1 << x
            held[0] &= mask
        return accepted

    if constraint.kind in SUMS:
        totals = constraint.param("totals") or (constraint.param("total"),)
        if totals[0] is None or len(scope) > WHOLE:
            return 0
        totals = {int(t) for t in totals}
        low, high = bounds(grid, scope)

        def prune(prefix: tuple[int, ...]) -> bool:
            done, i = sum(prefix), len(prefix)
            return not any(done + low[i] <= t <= done + high[i] for t in totals)

        found = supports(grid, scope, lambda xs: track(sum(xs) in totals, xs), prune, everyone=True)
    else:
        if len(scope) > WHOLE or prod(grid.candidates[c].bit_count() for c in scope) > 1_000_000:
            return 0
        kind, scratch = KINDS[constraint.kind], [0] * (n * n)

        def keeps(xs: tuple[int, ...]) -> bool:
            for cell, value in zip(scope, xs, strict=True):
                scratch[cell] = value
            return track(not kind.check(constraint, scratch, n), xs)

        found = supports(grid, scope, keeps)
    if found is None or not found.any:
        return 0  # too open, or no assignment at all: the rule's own step says so
    return held[0]
