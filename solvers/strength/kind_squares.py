"""Two neighbouring 2x2 squares of a global entropy or global mod 3, read together.

Global entropy puts a low (1-3), a middle (4-6) and a high (7-9) value in every 2x2 square of
the grid; global mod 3 a value of each remainder (1-4-7, 2-5-8, 3-6-9). The rule's own step
reads each square alone (its table of groups). Two squares that share a cell or two are read
at once here, their cells' values enumerated together, cells that see each other different:
what one square forces on the shared cells limits what the other can still hold, and a cell
two squares need for two different groups can only be one of them ("global entropy: the 2x2
squares at r7c8 and r8c7 read together: each holds a value of every group, so r7c8 cannot be
5, 6; ...").

For each pair of squares that share a cell or two (side by side, one above the other, or
corner to corner), the assignments of their six or seven cells over the current candidates
are enumerated, each square checked for its three groups when its last cell has a value,
and the values no such assignment uses go; a pair whose candidates make more than ``WIDE``
assignments is left (on an open grid every pair is: this reading waits for the grid to
narrow). Sound: a solution keeps every square's groups and every unit's values different, so
its values on those cells are an assignment the enumeration keeps.
"""

from __future__ import annotations

from math import prod

from solvers.model.cells import cell_name
from solvers.model.constraints.squares import entropy_groups, mod_groups
from solvers.strength.grid import values
from solvers.strength.support import Found, cannot, losses, read_before, supports
from solvers.strength.techniques import Contradiction, Grid, Step

RATING = 2.8  # claiming's rating: two of the rule's squares read at once (as two rules together)
GROUPS = {"globalentropy": entropy_groups, "globalmod": mod_groups}
NAMES = {"globalentropy": "global entropy", "globalmod": "global mod 3"}
ALL = 0b111  # a square holds all three groups
WIDE = 20_000  # two squares whose cells' candidates make more assignments are left

Pair = tuple[tuple[int, ...], tuple[int, int, int, int], tuple[int, int, int, int]]


def squares_together(grid: Grid) -> Step | None:
    """The first pair of neighbouring 2x2 squares of a global entropy or mod 3 rule whose
    groups, read together, drop a candidate; None when none does. Contradiction when the two
    squares cannot both hold every group."""
    n = grid.geometry.size
    for constraint in grid.constraints:
        if constraint.kind not in GROUPS:
            continue
        masks = [sum(1 << v for v in group) for group in GROUPS[constraint.kind](n)]
        for cells, first, second in pairs(n):
            if read_before(grid, ("quiet squares", constraint, cells), cells):
                continue
            found = _kept(grid, cells, first, second, masks)
            if found is None:
                continue  # too open to enumerate: this reading says nothing
            where = (
                f"{NAMES[constraint.kind]}: the 2x2 squares at {cell_name(cells[first[0]], n)} "
                f"and {cell_name(cells[second[0]], n)} read together"
            )
            if not found.any:
                raise Contradiction(f"{where} cannot both hold every group")
            gone = losses(grid, cells, found.support)
            if gone:
                reason = f"each holds a value of every group, so {cannot(gone, n)}"
                return Step("squares together", RATING, where, eliminated=gone, reason=reason)
    return None


def pairs(n: int) -> list[Pair]:
    """Each pair of 2x2 squares of an n x n grid that share a cell or two: their cells (read
    row by row) and each square's positions among them."""
    found = []
    for row in range(n - 1):
        for col in range(n - 1):
            top = _square(n, row, col)
            neighbours = [(row, col + 1), (row + 1, col), (row + 1, col + 1), (row + 1, col - 1)]
            for r, c in neighbours:
                if 0 <= c < n - 1 and r < n - 1:
                    other = _square(n, r, c)
                    cells = tuple(sorted(set(top) | set(other)))
                    found.append(
                        (cells, tuple(map(cells.index, top)), tuple(map(cells.index, other)))
                    )
    return found


def _square(n: int, row: int, col: int) -> tuple[int, int, int, int]:
    top = row * n + col
    return (top, top + 1, top + n, top + n + 1)


def _kept(grid: Grid, cells, first, second, masks: list[int]) -> Found | None:
    """The cells' assignments (cells that see each other differ) that give both squares
    a value of every group; None where they are too many to enumerate."""
    if prod(grid.candidates[cell].bit_count() for cell in cells) > WIDE:
        return None
    group_of = {value: 1 << g for g, mask in enumerate(masks) for value in values(mask)}
    last = {max(first): first, max(second): second}  # a square is checked at its last cell

    def prune(prefix: tuple[int, ...]) -> bool:
        square = last.get(len(prefix) - 1)
        if square is None:
            return False
        held = 0
        for position in square:
            held |= group_of[prefix[position]]
        return held != ALL

    return supports(grid, cells, lambda xs: True, prune)
