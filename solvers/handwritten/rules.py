"""The propagation rules, on candidate bit masks (bit v set: value v is still possible).

The state of a search is two lists: ``candidates``, a mask per cell, and ``placed``, a mask per
unit of the values whose cell has already taken them out of its peers. Each rule is a function
of its own, named after the rule; ``settle`` applies them to a fixpoint. ``propagate``, the
random completion of ``generate`` and the rating of a puzzle's difficulty all use them.

- naked single: a cell left with one candidate takes it, and that value leaves its peers;
- hidden single: a value with one possible cell in a unit goes there.

A cell with no candidates, or a unit where some value has no place, is a contradiction. In a
killer puzzle a cage's cells are peers (its values never repeat) and one more rule runs:

- cage sums: a cage's cells keep only values of the cage's sets (``handwritten.cages``) that
  hold every value already fixed in it and that its cells can still all take.

The rules read their tables from the board's ``Geometry``, or for a killer puzzle from
``KillerTables``, which add the cages (``tables_for``).
"""

from __future__ import annotations

from solvers.board import Board, Geometry
from solvers.handwritten.cages import CageTable


class KillerTables:
    """A killer puzzle's tables: the geometry's, with each cage's cells peers of one another
    and each cage one more bit (after the units') in the cells' ``unit_bits``."""

    def __init__(self, board: Board) -> None:
        geometry, cages = board.geometry, CageTable(board)
        self.units, self.units_of = geometry.units, geometry.units_of
        self.full_mask, self.cages = geometry.full_mask, cages
        first = len(geometry.units)
        mates = [set(cages.cells[k]) if k >= 0 else set() for k in cages.cage_of]
        self.peers = tuple(
            tuple(sorted((set(peers) | mates[cell]) - {cell}))
            for cell, peers in enumerate(geometry.peers)
        )
        self.unit_bits = tuple(
            bits | (1 << (first + cage) if cage >= 0 else 0)
            for bits, cage in zip(geometry.unit_bits, cages.cage_of, strict=True)
        )
        self.all_dirty = (1 << (first + len(cages.cells))) - 1


def tables_for(board: Board) -> Geometry | KillerTables:
    return KillerTables(board) if board.rules.cages else board.geometry


def all_dirty(tables: Geometry | KillerTables) -> int:
    """Every unit (and cage) as a bit set."""
    return getattr(tables, "all_dirty", (1 << len(tables.units)) - 1)


def naked_singles(
    candidates: list[int], placed: list[int], todo: list[int], geometry: Geometry
) -> int:
    """Take each single of ``todo`` out of its peers (new singles join ``todo``); the units whose
    candidates changed, as a bit set, or -1 on a contradiction (a cell left with none)."""
    peers, units_of, unit_bits = geometry.peers, geometry.units_of, geometry.unit_bits
    dirty = 0
    while todo:
        cell = todo.pop()
        bit = candidates[cell]
        for unit in units_of[cell]:
            placed[unit] |= bit
        for peer in peers[cell]:
            mask = candidates[peer]
            if mask & bit:
                mask ^= bit
                if not mask:
                    return -1
                candidates[peer] = mask
                dirty |= unit_bits[peer]
                if not mask & (mask - 1):
                    todo.append(peer)
    return dirty


def hidden_singles(
    candidates: list[int], placed: list[int], todo: list[int], index: int, geometry: Geometry
) -> int:
    """In unit ``index``, put each value with one possible cell there (those cells join
    ``todo``); the units that changed, as a bit set, or -1 on a contradiction (a value with no
    place, or one cell the only place for two values)."""
    unit = geometry.units[index]
    once = twice = 0
    for cell in unit:
        mask = candidates[cell]
        twice |= once & mask
        once |= mask
    if once != geometry.full_mask:
        return -1
    # Values open in exactly one cell and not yet placed there.
    hidden = once & ~twice & ~placed[index]
    dirty = 0
    if hidden:
        unit_bits = geometry.unit_bits
        for cell in unit:
            mask = candidates[cell]
            only = mask & hidden
            if only and mask & (mask - 1):
                if only & (only - 1):
                    return -1
                candidates[cell] = only
                todo.append(cell)
                dirty |= unit_bits[cell]
    return dirty


def cage_sums(candidates: list[int], todo: list[int], index: int, tables: KillerTables) -> int:
    """In cage ``index``, keep only values of the sets that hold every value fixed in the cage
    and whose every value some cell can still take; the units and cages that changed, or -1 on
    a contradiction (no such set, or a cell left with nothing)."""
    cells = tables.cages.cells[index]
    fixed = union = 0
    for cell in cells:
        mask = candidates[cell]
        union |= mask
        if not mask & (mask - 1):
            fixed |= mask
    allowed = 0
    for values in tables.cages.sets[index]:
        if values & fixed == fixed and values & union == values:
            allowed |= values
    dirty = 0
    for cell in cells:
        mask = candidates[cell]
        if mask & ~allowed:
            mask &= allowed
            if not mask:
                return -1
            candidates[cell] = mask
            dirty |= tables.unit_bits[cell]
            if not mask & (mask - 1):
                todo.append(cell)
    return dirty


def settle(
    candidates: list[int], placed: list[int], todo: list[int], dirty: int, geometry: Geometry
) -> bool:
    """Apply both rules until nothing changes; False on a contradiction.

    ``todo`` holds the cells that became single and whose value has yet to leave their peers;
    ``dirty`` is a bit set of the units whose candidates changed, the only ones where a new
    hidden single (or a value with no place) can appear.
    """
    while True:
        changed = naked_singles(candidates, placed, todo, geometry)
        if changed < 0:
            return False
        dirty |= changed
        if not dirty:
            return True
        pending, dirty = dirty, 0
        units = len(geometry.units)
        while pending:
            low = pending & -pending
            pending ^= low
            index = low.bit_length() - 1
            if index < units:
                changed = hidden_singles(candidates, placed, todo, index, geometry)
            else:
                changed = cage_sums(candidates, todo, index - units, geometry)
            if changed < 0:
                return False
            dirty |= changed
        if not todo and not dirty:
            return True
