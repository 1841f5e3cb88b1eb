"""``propagate``: constraint propagation on bit sets, then most-constrained branching.

Norvig's idea, engineered for speed. Each cell keeps a mask of its candidates (bit v for value
v). After every placement two rules run to a fixpoint:

- naked single: a cell left with one candidate takes it, and that value leaves its peers;
- hidden single: a value with one possible cell in a unit goes there.

A cell with no candidates, or a unit where some value has no place, is a dead end. When
nothing more follows, the search branches on a cell with the fewest candidates (a guess), on a
copy of the masks, trying values in ascending order.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from solvers.backend import HandwrittenSearch
from solvers.board import Board, Shape
from solvers.deadline import Deadline

CHECK_CLOCK_EVERY = 256  # search nodes between looks at the clock


def settle(
    candidates: list[int], placed: list[int], todo: list[int], dirty: int, rules: Rules
) -> bool:
    """Apply both rules until nothing changes; False on a contradiction.

    ``todo`` holds the cells that became single and whose value has yet to leave their peers;
    ``placed`` is each unit's mask of values whose cell has done so; ``dirty`` is a bit set of
    the units whose candidates changed, the only ones where a new hidden single (or a value
    with no place) can appear.
    """
    peers, units, unit_bits, every = rules.peers, rules.units, rules.unit_bits, rules.every
    units_of = rules.units_of
    while True:
        while todo:
            cell = todo.pop()
            bit = candidates[cell]
            row, col, box = units_of[cell]
            placed[row] |= bit
            placed[col] |= bit
            placed[box] |= bit
            for peer in peers[cell]:
                mask = candidates[peer]
                if mask & bit:
                    mask ^= bit
                    if not mask:
                        return False
                    candidates[peer] = mask
                    dirty |= unit_bits[peer]
                    if not mask & (mask - 1):
                        todo.append(peer)
        if not dirty:
            return True
        pending, dirty = dirty, 0
        while pending:
            low = pending & -pending
            pending ^= low
            index = low.bit_length() - 1
            unit = units[index]
            once = twice = 0
            for cell in unit:
                mask = candidates[cell]
                twice |= once & mask
                once |= mask
            if once != every:
                return False  # some value has no place left in this unit
            # Values open in exactly one cell and not yet placed there.
            hidden = once & ~twice & ~placed[index]
            if hidden:
                for cell in unit:
                    mask = candidates[cell]
                    only = mask & hidden
                    if only and mask & (mask - 1):
                        if only & (only - 1):
                            return False  # one cell is the only place for two values
                        candidates[cell] = only
                        todo.append(cell)
                        dirty |= unit_bits[cell]
        if not todo and not dirty:
            return True


class Rules:
    """The shape's peers and units, with each cell's units as a bit set (computed once)."""

    def __init__(self, board: Board) -> None:
        geometry = board.geometry
        self.peers, self.units = geometry.peers, geometry.units
        self.every = (1 << (board.size + 1)) - 2
        self.all_units = (1 << len(self.units)) - 1
        bits = [0] * board.shape.cell_count
        for index, unit in enumerate(self.units):
            for cell in unit:
                bits[cell] |= 1 << index
        self.unit_bits = bits
        self.units_of = [
            tuple(i for i in range(len(self.units)) if bits[cell] >> i & 1)
            for cell in range(board.shape.cell_count)
        ]


class _Search:
    def __init__(self, board: Board, deadline: Deadline, limit: int) -> None:
        self.rules = rules_for(board.shape)
        self.every = self.rules.every
        self.deadline, self.limit = deadline, limit
        self.solutions: list[tuple[int, ...]] = []
        self.nodes = self.guesses = 0
        self.start = [self.every if v == 0 else 1 << v for v in board.cells]
        self.givens = [cell for cell, v in enumerate(board.cells) if v]

    def run(self) -> tuple[list, dict]:
        candidates, placed = list(self.start), [0] * len(self.rules.units)
        if settle(candidates, placed, list(self.givens), self.rules.all_units, self.rules):
            self.branch(candidates, placed)
        return self.solutions, {"nodes": self.nodes, "guesses": self.guesses}

    def branch(self, candidates: list[int], placed: list[int]) -> bool:
        """Search below a settled state; True once enough solutions are found to stop."""
        best, fewest = -1, 99
        for cell, mask in enumerate(candidates):
            if mask & (mask - 1):
                count = mask.bit_count()
                if count < fewest:
                    best, fewest = cell, count
                    if count == 2:
                        break
        if best < 0:
            self.solutions.append(tuple(mask.bit_length() - 1 for mask in candidates))
            return len(self.solutions) >= self.limit
        self.guesses += 1
        mask = candidates[best]
        while mask:
            bit = mask & -mask
            mask ^= bit
            self.nodes += 1
            if self.nodes % CHECK_CLOCK_EVERY == 0:
                self.deadline.check({"nodes": self.nodes, "guesses": self.guesses})
            trial, trial_placed = list(candidates), list(placed)
            trial[best] = bit
            dirty = self.rules.unit_bits[best]
            if settle(trial, trial_placed, [best], dirty, self.rules) and self.branch(
                trial, trial_placed
            ):
                return True
        return False


@cache
def rules_for(shape: Shape) -> Rules:
    """The shape's Rules, computed once."""
    return Rules(Board.empty(shape))


class Propagate(HandwrittenSearch):
    name: ClassVar[str] = "propagate"

    def search(self, board: Board, deadline: Deadline, limit: int) -> tuple[list, dict]:
        return _Search(board, deadline, limit).run()
