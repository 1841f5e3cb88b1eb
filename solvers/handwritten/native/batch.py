"""Many puzzles of one shape and rules in one kernel call, each answer verified in the kernel.

``solve_batch(plan, puzzles, limit, budget)`` runs the search on every row of a (P, N*N)
uint8 array of values (0 empty) and returns, per puzzle, the solutions counted up to ``limit``,
the first solution, a flag, and the search's counters. The first solution of each puzzle is
checked inside the same call against every rule and the givens (``search.verify``).
A puzzle over ``budget`` units of work is left UNFINISHED, for a caller with a deadline to
take further one at a time. Boards whose rules have primitives are searched one puzzle at
a time by their own kernel entry (``constrained``), with the same flags.
"""

from __future__ import annotations

import numpy as np

from solvers.handwritten.native import bits, cache
from solvers.handwritten.native.cache import numba
from solvers.handwritten.native.outcome import Batch, Flag, run_batch
from solvers.handwritten.native.search import run, sizes, verify
from solvers.handwritten.native.tables import Plan

# Flag's values, as plain integers for the compiled code
SOLVED, NO_SOLUTION, UNFINISHED, WRONG, BAD_VALUE = map(int, Flag)


@numba.njit(cache=True)
def _flag(phase, found, verified):
    if phase == bits.INVALID:
        return BAD_VALUE
    if phase == bits.PAUSED:
        return UNFINISHED
    if found == 0:
        return NO_SOLUTION
    return SOLVED if verified else WRONG


@numba.njit(cache=True)
def _batch(puzzles, limit, budget, t, band, pairs, width, room_size, solutions, flags, stats):
    """The search on each row of ``puzzles``; stats[p] = (found, guesses, nodes)."""
    cells = puzzles.shape[1]
    state = np.zeros((cells + 1, width), np.int64)
    branch = np.zeros((cells + 1, 3), np.int64)
    room = np.zeros(room_size, np.int64)
    ctrl = np.zeros(bits.CTRL_SIZE, np.int64)
    for p in range(puzzles.shape[0]):
        ctrl[bits.PHASE] = bits.START
        ctrl[bits.LIMIT] = limit
        ctrl[bits.WORK] = 0
        phase = run(puzzles[p], state, branch, room, ctrl, solutions[p], t, budget, band, pairs)
        found = ctrl[bits.FOUND] if phase != bits.INVALID else 0
        verified = found > 0 and phase != bits.PAUSED and verify(puzzles[p], solutions[p], t)
        flags[p] = _flag(phase, found, verified)
        stats[p, 0] = found
        stats[p, 1] = ctrl[bits.GUESSES]
        stats[p, 2] = ctrl[bits.NODES]


def solve_batch(
    plan: Plan, puzzles: np.ndarray, limit: int = 1, budget: int = bits.UNLIMITED
) -> Batch:
    """Every row of ``puzzles`` (values of boards that ``plan`` describes) in one call of
    numba's kernel (``aot.solve_batch`` takes the copy built ahead of time when there is one)."""
    width, room = sizes(plan)

    def kernel(puzzles, solutions, flags, stats):
        if plan.primitives is not None:
            _one_by_one(plan, puzzles, limit, budget, solutions, flags, stats)
            return
        cache.load_numpy_support()
        _batch(puzzles, limit, budget, plan.tables, plan.band, plan.pairs, width, room,
               solutions, flags, stats)  # fmt: skip

    return run_batch(plan, puzzles, kernel)


def _one_by_one(plan: Plan, puzzles, limit, budget, solutions, flags, stats) -> None:
    """A board with constraints: each puzzle by the constrained kernel's entry in turn (the
    batch kernel knows no constraints; a kernel of its own for them would add to the first
    compile for a loop that costs a microsecond a puzzle here), with the same flags."""
    from solvers.handwritten.native.solver import Workspace

    space = Workspace(plan)
    ctrl = space.ctrl
    for p, puzzle in enumerate(puzzles):
        ctrl[bits.PHASE], ctrl[bits.LIMIT], ctrl[bits.WORK] = bits.START, limit, 0
        phase = space.run(plan, puzzle, budget)
        found = int(ctrl[bits.FOUND]) if phase != bits.INVALID else 0
        if found:
            solutions[p] = space.first
        verified = found > 0 and phase != bits.PAUSED and bool(ctrl[bits.VERIFIED])
        flags[p] = _flag.py_func(phase, found, verified)
        stats[p] = found, ctrl[bits.GUESSES], ctrl[bits.NODES]
