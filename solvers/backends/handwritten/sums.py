"""The sum rule of the handwritten searches, for the compile step's sum groups
(``solvers.model.compile``): groups of cells holding different values that add up to a total.

A group's cells hold one of its value sets (``SumGroup.value_sets``: the sets of distinct values
adding up to the total, as masks with bit v for value v): that is the whole rule. Two forms:

- ``SumGroups``, for the searches that fill one cell at a time (``bitmask``, ``mrv``,
  ``dfs``): a value may go into a group while some set holds it with the values placed there;
- ``narrow``, a propagator over candidate masks (``constrained``): each cell keeps the values
  of the sets that hold every value fixed in the group and that its cells can still all take,
  and a value that all those sets hold, with one cell left for it, goes there.
"""

from __future__ import annotations

from typing import Any

from solvers.backends.handwritten.propagators import restrict
from solvers.model.compile import SUM_GROUPS, Flat

ENCODES = frozenset({SUM_GROUPS})  # what a search with this rule takes beyond units

Group = tuple[tuple[int, ...], tuple[int, ...]]  # (cells, value sets)


def groups(flat: Flat) -> tuple[Group, ...]:
    """Each group's cells and value sets."""
    return tuple((group.cells, group.value_sets(flat.size)) for group in flat.sum_groups)


class SumGroups:
    """The groups of a board's flattened rules, from 0: ``groups_of[cell]`` lists those
    holding the cell (none for most; two where one constraint's group meets another's), and
    ``held[group]`` is the mask of the values its cells hold, which the search keeps up to
    date as it places and takes back values."""

    def __init__(self, flat: Flat, cells: list[int]) -> None:
        found = groups(flat)
        self.cells = [group_cells for group_cells, _ in found]
        self.sets = [sets for _, sets in found]
        groups_of: list[list[int]] = [[] for _ in cells]
        for index, group_cells in enumerate(self.cells):
            for cell in group_cells:
                groups_of[cell].append(index)
        self.groups_of = tuple(map(tuple, groups_of))
        self.held = [self.placed(index, cells) for index in range(len(found))]

    def __bool__(self) -> bool:
        return bool(self.cells)

    def open(self, group: int, placed: int) -> int:
        """The values that may still go into ``group``, whose cells hold the values ``placed``:
        those of its sets that contain all of ``placed``, less ``placed`` itself."""
        allowed = 0
        for values in self.sets[group]:
            if values & placed == placed:
                allowed |= values
        return allowed & ~placed

    def placed(self, group: int, cells: list[int]) -> int:
        """The mask of the values the group's cells hold in ``cells`` (0: empty)."""
        mask = 0
        for cell in self.cells[group]:
            if cells[cell]:
                mask |= 1 << cells[cell]
        return mask

    def allowed(self, cell: int) -> int:
        """The values every group of ``cell`` can still take, by ``held`` (-1: no group): its
        ``open`` values, the sets' loop written out since the search asks at every step."""
        allowed = -1
        for group in self.groups_of[cell]:
            placed, union = self.held[group], 0
            for values in self.sets[group]:
                if values & placed == placed:
                    union |= values
            allowed &= union & ~placed
        return allowed

    def allows(self, cell: int, value: int, cells: list[int]) -> bool:
        """Whether every group of ``cell`` can take ``value``, by the values in ``cells``."""
        for group in self.groups_of[cell]:
            if not self.open(group, self.placed(group, cells)) >> value & 1:
                return False
        return True


def narrow(candidates: list[int], todo: list[int], data: Group, tables: Any) -> int:
    """The propagator (``propagators``' contract) of one group, ``data`` its cells and sets:
    each cell keeps the values of the sets left, and a value every one of them holds goes
    where one cell alone can take it (as native's sum rule)."""
    cells, sets = data
    fixed = union = 0
    for cell in cells:
        mask = candidates[cell]
        union |= mask
        if not mask & (mask - 1):
            fixed |= mask
    allowed, required = 0, -1
    for values in sets:
        if values & fixed == fixed and values & union == values:
            allowed |= values
            required &= values
    keep = [allowed] * len(cells)
    required &= allowed
    while required:
        bit = required & -required
        required ^= bit
        holders = [i for i, cell in enumerate(cells) if candidates[cell] & bit]
        if len(holders) == 1:
            keep[holders[0]] = bit
    return restrict(candidates, todo, cells, keep, tables)
