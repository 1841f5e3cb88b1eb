"""A rule that fills a house but a few cells: those cells hold the values the rule leaves.

A zipper of seven cells in box 7, centre 9, holds the 9 and three of the four pairs adding
up to 9 (1+8, 2+7, 3+6, 4+5); box 7's two other cells hold what it leaves, the fourth pair.
Where those two can only be 1-5, the fourth pair is 4+5, so they are 4 and 5 and the zipper's
cells are not. Each reading alone misses it: the rule's own step reads its cells, a single or
a subset reads the box's candidates, neither the values the rule's assignment leaves over.

For each rule (other than the units themselves) of at most ``WHOLE`` cells and each house
(a unit of N cells: row, column, box or region) that it meets in all but ``LEFT`` of its
cells or fewer, the rule's cells and the house's others are enumerated at once over the
current candidates (the rule checked when its cells are filled, cells that see each other
kept different, so the house's cells take N different values), and the values no such
assignment uses go. Sound: a solution keeps the rule and fills the house with different
values, so its values on those cells are an assignment the enumeration keeps.
"""

from __future__ import annotations

from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.model import Constraint
from solvers.strength.kind_pairs import rule_named
from solvers.strength.kind_sums import bounds, cage_totals
from solvers.strength.kinds import UNITS, scope
from solvers.strength.support import cannot, cells_text, losses, read_before, supports
from solvers.strength.techniques import Contradiction, Grid, Step

RATING = 2.8  # claiming's rating: a house's values read with one rule's combinations
WHOLE = 10  # a rule of at most this many cells (as a rule's pointing)
LEFT = 3  # the house's cells off the rule, at most
SUMS = frozenset({"killercage", "multisumcage"})


def rule_fills_house(grid: Grid) -> Step | None:
    """The first rule of the board, in its order, and house it nearly fills, whose
    assignments together drop a candidate; None when none does. Contradiction when the house
    cannot take what the rule leaves."""
    readings = grid.memo.get("rule houses")
    if readings is None:
        readings = grid.memo["rule houses"] = _readings(grid)
    n = grid.geometry.size
    for constraint, unit, cells, split in readings:
        if read_before(grid, ("quiet house", constraint, unit), cells):
            continue
        if all(m & (m - 1) == 0 for m in (grid.candidates[cell] for cell in cells[split:])):
            continue  # the house's other cells are placed: the rule's own step reads them
        found = _joint(grid, constraint, cells, split)
        if found is None:
            continue  # too many assignments to enumerate: this reading says nothing
        house, rest = grid.geometry.unit_names[unit], cells_text(cells[split:], n)
        where = f"{rule_named(constraint, n)} fills {house} but {rest}"
        if not found.any:
            raise Contradiction(f"the {where}, which cannot hold the values it leaves")
        gone = losses(grid, cells, found.support)
        if gone:
            held = "it holds the value" if len(cells) - split == 1 else "they hold the values"
            reason = f"{held} the rule leaves, so {cannot(gone, n)}"
            return Step("rule and house", RATING, where, eliminated=gone, reason=reason)
    return None


def _readings(grid: Grid) -> list[tuple[Constraint, int, tuple[int, ...], int]]:
    """(rule, house, cells, split): the rule's cells then the house's others, and where the
    rule's end."""
    n, found = grid.geometry.size, []
    for constraint in grid.constraints:
        if constraint.kind in UNITS:
            continue
        cells = scope(grid, constraint)
        if len(cells) > WHOLE:
            continue
        inside = frozenset(cells)
        for index, unit in enumerate(grid.geometry.units):
            if len(unit) != n:
                continue  # a house holds every value once; a smaller group leaves no set
            rest = tuple(cell for cell in unit if cell not in inside)
            if 1 <= len(rest) <= LEFT and len(rest) < len(unit) - 1:
                found.append((constraint, index, cells + rest, len(cells)))
    return found


def _joint(grid: Grid, constraint: Constraint, cells: tuple[int, ...], split: int):
    n, scratch = grid.geometry.size, [0] * (grid.geometry.size**2)
    kind = KINDS[constraint.kind]
    totals = cage_totals(constraint) if constraint.kind in SUMS else None
    low, high = bounds(grid, cells[:split])

    def keeps(prefix: tuple[int, ...]) -> bool:
        for cell, value in zip(cells, prefix, strict=False):
            scratch[cell] = value
        return not kind.check(constraint, scratch, n)

    def prune(prefix: tuple[int, ...]) -> bool:
        i = len(prefix)
        if totals is not None and i <= split:
            done = sum(prefix)  # a cage's sum cut as it goes
            if not any(done + low[i] <= t <= done + high[i] for t in totals):
                return True
        return i == split and not keeps(prefix)

    return supports(grid, cells, lambda xs: True, prune)
