"""Two rules that share a cell, read together: what neither allows alone.

Each rule's own step keeps the values some assignment of that rule uses; two rules that meet
in a cell can each allow a value that no assignment of both together does. Two white dots in
a row, r9c7-r9c8 and r9c8-r9c9: each alone lets r9c8 be 1 (its other cell 2), but together
both neighbours would be 2 in one row, so r9c8 cannot be 1 or 9 (the dots make a run of three
consecutive values). The same holds for a thermometer meeting a dot, an arrow's circle on a
whisper, and so on: a player reads the shared cell with both rules at once.

The pairs are the board's rules (other than those that are units) that share a cell and
cover at most ``TOGETHER`` cells between them; their assignments are enumerated over the
current candidates, the first rule checked as soon as its cells are filled, and the values
no assignment keeping both uses go. Sound: a solution keeps both rules, so its values are an
assignment of the pair that the enumeration keeps.
"""

from __future__ import annotations

from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.model import Constraint
from solvers.strength.kinds import UNITS, scope
from solvers.strength.support import cannot, cells_text, losses, read_before, supports
from solvers.strength.techniques import Contradiction, Grid, Step

RATING = 2.8  # claiming's rating: two rules' combinations read at once, after a rule's pointing
TOGETHER = 6  # cells two rules may cover between them to be read together
NAMES = {"difference": "white dot", "ratio": "black dot", "killercage": "killer cage"}


def rules_together(grid: Grid) -> Step | None:
    """The first pair of rules, in the board's order, whose assignments together drop a
    candidate; None when none does. Contradiction when together they allow nothing."""
    pairs = grid.memo.get("rule pairs")
    if pairs is None:
        pairs = grid.memo["rule pairs"] = _pairs(grid)
    n = grid.geometry.size
    for first, second, cells, split in pairs:
        if read_before(grid, ("quiet pair", first, second), cells):
            continue
        found = _joint(grid, first, second, cells, split)
        if found is None:
            continue  # too many assignments to enumerate: this reading says nothing
        where = f"{rule_named(first, n)} with {rule_named(second, n)}"
        if not found.any:
            raise Contradiction(f"the {where} allow no values together")
        gone = losses(grid, cells, found.support)
        if gone:
            reason = f"read together, {cannot(gone, n)}"
            return Step("rules together", RATING, where, eliminated=gone, reason=reason)
    return None


def _pairs(grid: Grid) -> list[tuple[Constraint, Constraint, tuple[int, ...], int]]:
    """(first, second, cells, split): the two rules, the first's cells then the second's
    others, and where the first's end."""
    rules = [c for c in grid.constraints if c.kind not in UNITS]
    scopes = [scope(grid, c) for c in rules]
    found = []
    for i, first in enumerate(rules):
        for j in range(i + 1, len(rules)):
            a, b = scopes[i], scopes[j]
            if not set(a) & set(b):
                continue
            cells = a + tuple(cell for cell in b if cell not in a)
            if len(cells) <= TOGETHER and len(cells) > max(len(a), len(b)):
                found.append((first, rules[j], cells, len(a)))
    return found


def _joint(grid: Grid, first: Constraint, second: Constraint, cells, split: int):
    n, scratch = grid.geometry.size, [0] * (grid.geometry.size**2)

    def keeps(constraint: Constraint, xs: tuple[int, ...]) -> bool:
        for cell, value in zip(cells, xs, strict=False):
            scratch[cell] = value
        return not KINDS[constraint.kind].check(constraint, scratch, n)

    def prune(prefix: tuple[int, ...]) -> bool:
        return len(prefix) == split and not keeps(first, prefix)

    return supports(grid, cells, lambda xs: keeps(second, xs), prune)


def rule_named(constraint: Constraint, n: int) -> str:
    """``white dot r9c7-r9c8``; a sum rule with its total."""
    words = [NAMES.get(constraint.kind, constraint.kind), cells_text(constraint.cells, n)]
    for key in ("total", "sum"):
        if constraint.param(key) is not None:
            words.append(f"{'sum' if key == 'total' else key} {constraint.param(key)}")
    return " ".join(words)
