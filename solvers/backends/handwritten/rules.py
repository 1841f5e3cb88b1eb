"""The propagation rules, on candidate bit masks (bit v set: value v is still possible).

The state of a search is two lists: ``candidates``, a mask per cell, and ``placed``, a mask per
unit of the values whose cell has already taken them out of its peers. Each rule is a function
of its own, named after the rule; ``settle`` applies them to a fixpoint. ``propagate``, the
random completion of ``generate`` and the rating of a puzzle's difficulty all use them.

- naked single: a cell left with one candidate takes it, and that value leaves its peers;
- hidden single: a value with one possible cell in a unit goes there.

A cell with no candidates, or a unit where some value has no place, is a contradiction.

The rules read their tables from the units of the board's compile step (``solvers.model.compile``).
``PropagatingSearch`` applies them and branches on the first cell with the fewest candidates:
``generate`` uses it to fill random complete boards (values shuffled) and to rate a puzzle's
difficulty (its guesses: a measure that stays put whatever ``propagate`` becomes), and
``constrained`` builds ``propagate``'s search for the rest of a board's rules on it.
"""

from __future__ import annotations

from collections.abc import Callable

from solvers.backends.contract import Found
from solvers.backends.handwritten import Counted
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import flatten
from solvers.model.geometry import Geometry


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
        while pending:
            low = pending & -pending
            pending ^= low
            index = low.bit_length() - 1
            changed = hidden_singles(candidates, placed, todo, index, geometry)
            if changed < 0:
                return False
            dirty |= changed
        if not todo and not dirty:
            return True


class PropagatingSearch(Counted):
    """Up to ``limit`` solutions of a board: settle, then branch on the first cell with the
    fewest candidates. ``order`` reorders a branch's values in place (default: ascending);
    ``max_nodes`` stops it (SolveTimeout) after so many nodes, whatever the time.

    ``start``, ``settle`` and ``choose`` are the places a subclass changes (``constrained``
    adds the propagators of the vocabulary's primitives and its own choice of cell)."""

    def __init__(
        self,
        deadline: Deadline | None = None,
        limit: int = 1,
        order: Callable[[list[int]], None] | None = None,
        max_nodes: int | None = None,
    ) -> None:
        self.order, self.max_nodes = order, max_nodes
        super().__init__(deadline or Deadline(), limit)

    settle = staticmethod(settle)

    def run(self, board: Board) -> Found:
        started = self.start(board)
        if started is not None:
            candidates, placed, todo, dirty = started
            if self.settle(candidates, placed, todo, dirty, self.geometry):
                self.branch(candidates, placed)
        return self.solutions.found(board, self.stats())

    def start(self, board: Board) -> tuple[list[int], list[int], list[int], int] | None:
        """Sets ``self.geometry``; the first candidates, placed values, cells to take out of
        their peers and units (and propagators) to look at, or None if the board plainly has
        no solution."""
        self.geometry = geometry = flatten(board).geometry
        every = geometry.full_mask
        candidates = [1 << v if v else every for v in board.cells]
        placed = [0] * len(geometry.units)
        givens = [cell for cell, v in enumerate(board.cells) if v]
        return candidates, placed, givens, (1 << len(geometry.units)) - 1

    def choose(self, candidates: list[int]) -> int:
        """The cell to branch on: the first with the fewest candidates; -1 if all are fixed."""
        best, fewest = -1, 99
        for cell, mask in enumerate(candidates):
            if mask & (mask - 1):
                count = mask.bit_count()
                if count < fewest:
                    best, fewest = cell, count
                    if count == 2:
                        break
        return best

    def branch(self, candidates: list[int], placed: list[int]) -> bool:
        """Search below a settled state; True once enough solutions are found to stop."""
        best = self.choose(candidates)
        if best < 0:
            return self.solutions.add(mask.bit_length() - 1 for mask in candidates)
        self.guesses += 1
        unit_bits = self.geometry.unit_bits[best]
        for bit in self.values(candidates[best]):
            self.nodes += 1
            self.ticker.tick()
            if self.max_nodes is not None and self.nodes > self.max_nodes:
                raise SolveTimeout(stats=self.stats())
            trial, trial_placed = list(candidates), list(placed)
            trial[best] = bit
            if self.settle(trial, trial_placed, [best], unit_bits, self.geometry) and self.branch(
                trial, trial_placed
            ):
                return True
        return False

    def values(self, mask: int) -> list[int]:
        """The bits of ``mask``, one value each, in the order they are tried."""
        bits = []
        while mask:
            bit = mask & -mask
            mask ^= bit
            bits.append(bit)
        if self.order is not None:
            self.order(bits)
        return bits
