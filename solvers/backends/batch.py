"""Many boards in one call: what a batch gives back (``Flag``, ``Batch``), and the loop every
backend answers one with unless it has a batch search of its own (``Backend.search_many``).

A batch is boards of one shape and rules, given as a (P, N*N) uint8 array of values (0 empty),
so that a file of a million puzzles never becomes a million ``Board`` objects on the way to a
backend that searches arrays (``native``'s kernel). Each puzzle may take ``each`` seconds; one
that takes longer is left ``UNFINISHED`` for the caller to take further alone (a line file's
run gives it the rest of its timeout, one puzzle at a time, as any other backend's puzzle).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from solvers.base.deadline import Deadline
from solvers.base.errors import InputError, SolveTimeout

if TYPE_CHECKING:
    import numpy as np

    from solvers.model.board import Board


class Flag(IntEnum):
    """What became of one puzzle of a batch."""

    SOLVED = 0  # solutions found (counted up to the limit), the first verified by the search
    UNSOLVABLE = 1  # none: the search proved it (givens that break a rule included)
    UNFINISHED = 2  # past its time (or a native kernel's work budget): not answered
    WRONG = 3  # the search's solution failed verification: a bug
    BAD_VALUE = 4  # a value outside 0..N


class Batch(NamedTuple):
    """Per puzzle: ``counts`` (P,) int64, ``solutions`` (P, N*N) uint8 (the first one; zeros
    when none), ``flags`` (P,) uint8 (``Flag``), ``guesses`` and ``nodes`` (P,) int64 (0
    where the backend does not count them)."""

    counts: np.ndarray
    solutions: np.ndarray
    flags: np.ndarray
    guesses: np.ndarray
    nodes: np.ndarray


def one_at_a_time(
    backend: Any,
    values: np.ndarray,
    board: Board,
    limit: int,
    deadline: Deadline,
    each: float | None = None,
) -> Batch:
    """``backend.search`` on each row of ``values`` in turn, as boards of ``board``'s shape and
    rules: the batch of a backend with no batch search of its own. A row past ``each`` seconds
    is UNFINISHED; SolveTimeout once ``deadline`` has passed. The backend's solution is kept as
    it answered it: its caller verifies every row before it calls one solved. (``backend``: a
    ``contract.Backend``, which this module's caller is.)"""
    import numpy as np

    from solvers.model.board import Board

    count, cells = values.shape
    solutions = np.zeros((count, cells), np.uint8)
    flags = np.zeros(count, np.uint8)
    counts, guesses, nodes = (np.zeros(count, np.int64) for _ in range(3))
    for p, row in enumerate(values.tolist()):
        deadline.check()
        try:
            puzzle = Board(board.shape, tuple(row), board.rules)
        except InputError:  # a value outside 0..N (a row the board refuses)
            flags[p] = Flag.BAD_VALUE
            continue
        left = deadline.timeout()
        allowed = each if left is None else left if each is None else min(each, left)
        try:
            found = backend.search(puzzle, Deadline(allowed), limit)
        except SolveTimeout:
            deadline.check()  # the whole call's deadline, past: said as such
            flags[p] = Flag.UNFINISHED
            continue
        counts[p] = found.count
        guesses[p] = found.stats.get("guesses", 0)
        nodes[p] = found.stats.get("nodes", 0)
        if found.count and found.solution is not None:
            solutions[p] = found.solution.cells
        flags[p] = Flag.SOLVED if found.count else Flag.UNSOLVABLE
    return Batch(counts, solutions, flags, guesses, nodes)
