"""``propagate``: constraint propagation on bit sets, then most-constrained branching.

Norvig's idea, engineered for speed. Each cell keeps a mask of its candidates (bit v for value
v). After every placement the rules of ``solvers.handwritten.rules`` run to a fixpoint; the
hidden-single scan runs only on the units whose candidates changed, and each unit keeps a mask
of its placed values so that scan is branch-free. When nothing more follows, the search
branches on a cell with the fewest candidates (a guess), on a copy of the masks, trying values
in ascending order.

``PropagatingSearch`` is also what ``generate`` builds random complete boards with (values in
a shuffled order) and rates a puzzle's difficulty by (its guesses).
"""

from __future__ import annotations

from collections.abc import Callable

from solvers.backend import Found, HandwrittenSearch, Solutions
from solvers.board import Board
from solvers.deadline import Deadline, Ticker
from solvers.errors import SolveTimeout
from solvers.handwritten.rules import all_dirty, settle, tables_for
from solvers.variants import RULE_NAMES


class PropagatingSearch:
    """Up to ``limit`` solutions of a board: settle, then branch on the first cell with the
    fewest candidates. ``order`` reorders a branch's values in place (default: ascending);
    ``max_nodes`` stops it (SolveTimeout) after so many nodes, whatever the time."""

    def __init__(
        self,
        deadline: Deadline | None = None,
        limit: int = 1,
        order: Callable[[list[int]], None] | None = None,
        max_nodes: int | None = None,
    ) -> None:
        self.order, self.max_nodes = order, max_nodes
        self.solutions = Solutions(limit)
        self.nodes = self.guesses = 0
        self.ticker = Ticker(deadline or Deadline(), self.stats)

    def stats(self) -> dict:
        return {"nodes": self.nodes, "guesses": self.guesses}

    def run(self, board: Board) -> Found:
        self.geometry = tables = tables_for(board)
        every = tables.full_mask
        candidates = [1 << v if v else every for v in board.cells]
        placed = [0] * len(tables.units)
        givens = [cell for cell, v in enumerate(board.cells) if v]
        if settle(candidates, placed, givens, all_dirty(tables), tables):
            self.branch(candidates, placed)
        return self.solutions.found(board, self.stats())

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
            if settle(trial, trial_placed, [best], unit_bits, self.geometry) and self.branch(
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


class Propagate(HandwrittenSearch):
    RULES = frozenset(RULE_NAMES)

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        return PropagatingSearch(deadline, limit).run(board)
