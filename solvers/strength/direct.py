"""Sudoku Explainer's "direct" techniques: the full house, and a locked candidate or a hidden
pair or triplet taken only where it leaves a hidden single at once, the single placed with it.
SE rates them below the naked single (1.7 to 2.5), because a player sees them as a way to a
single, before reading a cell's candidates (diuf/sudoku/solver/rules/Locking.java and
HiddenSet.java with ``isDirect``; ratings in DirectLockingHint.java, DirectHiddenSetHint.java).
"""

from __future__ import annotations

from itertools import combinations

from solvers.strength.grid import values
from solvers.strength.techniques import Grid, Step, _kind


def full_house(grid: Grid) -> Step | None:
    """The last empty cell of a unit takes the unit's last value (SE 1.0: ``isAlone``)."""
    geometry = grid.geometry
    for index, unit in enumerate(geometry.units):
        open_cells = grid.open_cells(unit)
        if len(open_cells) == 1 and (mask := grid.candidates[open_cells[0]]).bit_count() == 1:
            placed = ((open_cells[0], mask.bit_length() - 1),)
            return Step("full house", 1.0, geometry.unit_names[index], placed)
    return None


def _single_after(grid: Grid, unit: tuple[int, ...], value: int, gone: set[int]) -> int | None:
    """The one cell of ``unit`` left for ``value`` once ``gone`` lose it, if the unit had more
    than one before: the hidden single the removal makes."""
    cells = grid.cells_with(unit, value)
    left = [cell for cell in cells if cell not in gone]
    return left[0] if len(cells) > 1 and len(left) == 1 and left[0] not in grid.placed else None


def direct_locked(grid: Grid) -> Step | None:
    """Pointing (a box's value confined to a line) or claiming (a line's value confined to a
    box) whose removals leave a hidden single in another unit of the first one's kind: SE
    1.7 (pointing) and 1.9 (claiming); pointing is looked for first, as in SE."""
    geometry, names = grid.geometry, grid.geometry.unit_names
    for pointing in (True, False):
        for a, b, shared in grid.meeting:
            kinds = (_kind(geometry, a), _kind(geometry, b))
            if kinds != (("box", "line") if pointing else ("line", "box")):
                continue
            for value in grid.open_values(geometry.units[a]):
                cells = grid.cells_with(geometry.units[a], value)
                if not cells or not shared.issuperset(cells):
                    continue
                gone = {c for c in grid.cells_with(geometry.units[b], value) if c not in shared}
                if not gone:
                    continue
                for other, unit in enumerate(geometry.units):
                    # a unit of the first one's own type (a box, or a row for a row), as SE
                    n = geometry.size
                    same = _kind(geometry, other) == kinds[0] and other != a
                    same = same and (kinds[0] == "box" or (other < n) == (a < n))
                    if not same or not gone.intersection(unit):
                        continue
                    if (single := _single_after(grid, unit, value, gone)) is not None:
                        technique, rating = (
                            ("direct pointing", 1.7) if pointing else ("direct claiming", 1.9)
                        )
                        where = f"{names[a]} and {names[b]}, single in {names[other]}"
                        eliminated = tuple((c, value) for c in sorted(gone))
                        return Step(technique, rating, where, ((single, value),), eliminated)
    return None


def direct_hidden(grid: Grid, k: int) -> Step | None:
    """A hidden pair (k=2, SE 2.0) or triplet (k=3, SE 2.5) in a box, column or row whose
    removals leave a hidden single of another value in the same unit."""
    geometry = grid.geometry
    order = [u for kind in ("box", "line") for u in range(len(geometry.units))
             if _kind(geometry, u) == kind]  # fmt: skip
    for index in order:
        unit = geometry.units[index]
        if len(grid.open_cells(unit)) <= k:
            continue
        places = {v: grid.cells_with(unit, v) for v in grid.open_values(unit)}
        usable = [v for v, cells in places.items() if len(cells) <= k]
        for chosen in combinations(usable, k):
            cells = {c for v in chosen for c in places[v]}
            if len(cells) != k:
                continue
            for value, where in places.items():
                if value in chosen:
                    continue
                left = [c for c in where if c not in cells]
                if len(where) > 1 and len(left) == 1:
                    keep = sum(1 << v for v in chosen)
                    gone = tuple(
                        (c, v) for c in sorted(cells) for v in values(grid.candidates[c] & ~keep)
                    )
                    name = f"direct hidden {'pair' if k == 2 else 'triple'}"
                    rating = 2.0 if k == 2 else 2.5
                    return Step(name, rating, geometry.unit_names[index], ((left[0], value),), gone)
    return None
