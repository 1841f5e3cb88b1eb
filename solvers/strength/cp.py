"""The constraint-programming levels (Simonis, "Sudoku as a Constraint Problem", 2005):

- ``fc``: forward checking on the binary not-equal decomposition: a cell left with one value
  removes it from its peers, to the fixpoint;
- ``gac``: generalised arc consistency on each unit's all-different (``alldifferent``),
  every unit again whenever one of its cells loses a value, to the fixpoint;
- ``sac``: singleton arc consistency over gac (Simonis's "shaving"): a value whose trial
  assignment gac refutes is removed, until no trial fails.

Each works on a list of candidate masks in place and returns False on a contradiction.
"""

from __future__ import annotations

from solvers.board import Board, Geometry
from solvers.strength.alldifferent import filtered
from solvers.strength.grid import Outcome, outcome, start, units_of


def forward_checking(geometry: Geometry, candidates: list[int]) -> bool:
    peers = geometry.peers
    queue = [cell for cell, mask in enumerate(candidates) if mask & (mask - 1) == 0]
    while queue:
        cell = queue.pop()
        value = candidates[cell]
        if not value:
            return False
        for peer in peers[cell]:
            mask = candidates[peer]
            if mask & value:
                mask &= ~value
                candidates[peer] = mask
                if mask & (mask - 1) == 0:
                    queue.append(peer)
    return True


def arc_consistency(
    geometry: Geometry, candidates: list[int], units: set[int] | None = None
) -> bool:
    """gac from ``units`` (indices into ``geometry.units``; None: every unit) to the
    fixpoint."""
    every, units_of_cell = geometry.units, geometry.units_of
    queue = set(range(len(every))) if units is None else set(units)
    while queue:
        unit = every[queue.pop()]
        before = [candidates[cell] for cell in unit]
        after = filtered(before)
        if after is None:
            return False
        for cell, old, new in zip(unit, before, after, strict=True):
            if new != old:
                candidates[cell] = new
                queue.update(units_of_cell[cell])
    return True


def singleton_arc_consistency(geometry: Geometry, candidates: list[int]) -> bool:
    if not arc_consistency(geometry, candidates):
        return False
    units_of_cell = geometry.units_of
    changed = True
    while changed:
        changed = False
        for cell, mask in enumerate(candidates):
            for value in _bits(mask if mask & (mask - 1) else 0):
                if not candidates[cell] & value:
                    continue
                trial = candidates[:]
                trial[cell] = value
                if arc_consistency(geometry, trial, set(units_of_cell[cell])):
                    continue
                changed = True
                candidates[cell] &= ~value
                if not arc_consistency(geometry, candidates, set(units_of_cell[cell])):
                    return False
    return True


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low)
        mask ^= low
    return found


def level(board: Board, name: str) -> Outcome:
    """``fc``, ``gac`` or ``sac`` on ``board``'s units from its givens."""
    geometry, candidates = units_of(board), start(board)
    consistent = {
        "fc": forward_checking,
        "gac": arc_consistency,
        "sac": singleton_arc_consistency,
    }[name](geometry, candidates)
    return outcome(board, candidates if consistent else [0] * len(candidates))
