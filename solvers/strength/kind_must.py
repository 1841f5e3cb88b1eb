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

The rule's claiming reads the other way, as claiming reads a row's value locked in a box:
where a unit's value can only go in the unit's cells on the rule, the rule holds it there,
and only the rule's assignments that put it there count ("renban r1c1-r1c2-r1c3 claims the 9
of box 1, which can only go in r1c1-r1c2-r1c3: with it there, r1c1 cannot be 1, ...").
Sound: every solution places the value in the unit, so in one of those cells, and the
solution's values on the rule are one of the assignments that remain.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod

from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.model import Constraint
from solvers.strength.grid import values
from solvers.strength.kind_sums import bounds, cage_totals, sum_must
from solvers.strength.support import Found, cannot, cells_text, losses, supports
from solvers.strength.techniques import Contradiction, Grid, Step

RATING = 2.7  # pointing (2.6) on a rule's combinations: after pointing, before claiming (2.8)
# claiming (2.8) on a rule: a unit's value locked in the rule's cells, read with the rule
CLAIMING = 2.8
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


def rule_claiming(grid: Grid) -> Step | None:
    """The first rule of the board, in its order, that some unit's value must lie in (every
    place of the value in the unit is a cell of the rule), where the rule's assignments that
    put it there lose a candidate some other assignment had; None when none."""
    n, geometry = grid.geometry.size, grid.geometry
    for constraint in grid.constraints:
        if constraint.kind in SKIP:
            continue
        scope = _scope(grid, constraint)
        if len(scope) > WHOLE:
            continue  # too wide to enumerate (a board-wide rule meets every unit)
        claims = _claims(grid, scope)
        if not claims:
            continue
        masks = tuple(grid.candidates[cell] for cell in scope)
        key = ("claimed", constraint)
        if grid.memo.get(key) == (masks, claims):
            continue
        grid.memo[key] = (masks, claims)
        wanted = [(value, [scope.index(cell) for cell in places]) for _, value, places in claims]

        def need(xs: tuple[int, ...], wanted=wanted) -> bool:
            return all(any(xs[i] == value for i in at) for value, at in wanted)

        found = _assignments(grid, constraint, scope, need)
        if found is None:
            continue  # too open to enumerate: this reading says nothing
        if not found.any:
            raise Contradiction(f"the {_named(constraint, n)} cannot hold what its units claim")
        gone = losses(grid, scope, found.support)
        if gone:
            units: dict[tuple, list[str]] = {}  # one claim a value and its places, however
            for unit, value, places in claims:  # many units say it
                units.setdefault((value, places), []).append(geometry.unit_names[unit])
            said = "; ".join(
                f"the {value} of {' and '.join(names)}, which can only go in "
                f"{cells_text(places, n)}"
                for (value, places), names in units.items()
            )
            where = f"{_named(constraint, n)} claims {said}"
            reason = f"with {'them' if len(units) > 1 else 'it'} there, {cannot(gone, n)}"
            return Step("rule claiming", CLAIMING, where, eliminated=gone, reason=reason)
    return None


def _claims(grid: Grid, scope: tuple[int, ...]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """(unit, value, places): each unit meeting the rule in two cells or more whose value can
    only go in those of its cells on the rule, two or more of them (one place is a single)."""
    inside = frozenset(scope)
    found = []
    for index, unit in _meeting(grid, scope):
        for value in range(1, grid.geometry.size + 1):
            bit = 1 << value
            places = tuple(cell for cell in unit if grid.candidates[cell] & bit)
            if len(places) >= 2 and inside.issuperset(places):
                found.append((index, value, places))
    return tuple(found)


def _meeting(grid: Grid, scope: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    key = ("meeting", scope)
    if key not in grid.memo:
        inside = frozenset(scope)
        grid.memo[key] = [
            (index, unit)
            for index, unit in enumerate(grid.geometry.units)
            if len(inside.intersection(unit)) >= 2
        ]
    return grid.memo[key]


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
    must = None
    if every and constraint.kind == "littlekiller":  # read by its parts, far cheaper
        must = sum_must(grid, scope, {int(constraint.param("total"))})
    if must is None:
        must = _enumerated(grid, constraint, scope, every) if every else 0
    grid.memo[key] = (masks, must)
    return must


def _enumerated(grid: Grid, constraint: Constraint, scope: tuple[int, ...], every: int) -> int:
    held = [every]

    def track(xs: tuple[int, ...]) -> bool:
        mask = 0
        for x in xs:
            mask |= 1 << x
        held[0] &= mask
        return True

    found = _assignments(grid, constraint, scope, track)
    if found is None or not found.any:
        return 0  # too open, or no assignment at all: the rule's own step says so
    return held[0]


def _assignments(
    grid: Grid, constraint: Constraint, scope: tuple[int, ...], need: Callable[[tuple], bool]
) -> Found | None:
    """The rule's assignments over the current candidates that ``need`` also takes (``need``
    sees only assignments the rule allows): a cage's sums cut as they go, any other rule of a
    few cells checked whole against its kind's definition; None where too open."""
    n = grid.geometry.size
    if constraint.kind in SUMS or constraint.kind == "littlekiller":
        totals = (
            cage_totals(constraint) if constraint.kind in SUMS else {int(constraint.param("total"))}
        )
        if totals is None or len(scope) > WHOLE:
            return None
        everyone = constraint.kind in SUMS  # a little killer's cells may repeat
        low, high = bounds(grid, scope)

        def prune(prefix: tuple[int, ...]) -> bool:
            done, i = sum(prefix), len(prefix)
            return not any(done + low[i] <= t <= done + high[i] for t in totals)

        return supports(grid, scope, lambda xs: sum(xs) in totals and need(xs), prune, everyone)
    if len(scope) > WHOLE or prod(grid.candidates[c].bit_count() for c in scope) > 1_000_000:
        return None
    kind, scratch = KINDS[constraint.kind], [0] * (n * n)

    def keeps(xs: tuple[int, ...]) -> bool:
        for cell, value in zip(scope, xs, strict=True):
            scratch[cell] = value
        return not kind.check(constraint, scratch, n) and need(xs)

    return supports(grid, scope, keeps)
