"""Many puzzles of one shape and rules in one batch, each answer verified in the kernel.

``solve_batch(plan, puzzles, limit, budget)`` runs the search on every row of a (P, N*N)
uint8 array of values (0 empty) and returns, per puzzle, the solutions counted up to ``limit``,
the first solution, a flag, and the search's counters. The first solution of each puzzle is
checked inside the kernel against every rule and the givens (``search.verify``). The kernel is
called for about ``outcome.CALL_WORK`` units of work at a time, a search cut between two calls
taken up exactly where it stopped, so that a signal is acted on within a call, however long a
puzzle takes. A puzzle over ``budget`` units of work is left UNFINISHED, for a caller with a
deadline to take further one at a time. Boards whose rules have primitives are searched one
puzzle at a time by their own kernel entry (``constrained``), with the same flags.
"""

from __future__ import annotations

import numpy as np

from solvers.backends.handwritten.native import outcome
from solvers.backends.handwritten.native.cache import numba
from solvers.backends.handwritten.native.outcome import Batch, Flag, run_batch
from solvers.backends.handwritten.native.search import run, verify
from solvers.backends.handwritten.native.tables import KernelPlan
from solvers.base.deadline import Deadline

# Flag's values, as plain integers for the compiled code
SOLVED, NO_SOLUTION, UNFINISHED, WRONG, BAD_VALUE = map(int, Flag)


@numba.njit(cache=True)
def _flag(phase, found, verified):
    if phase == outcome.INVALID:
        return BAD_VALUE
    if phase == outcome.PAUSED:
        return UNFINISHED
    if found == 0:
        return NO_SOLUTION
    return SOLVED if verified else WRONG


@numba.njit(cache=True)
def _batch(puzzles, limit, budget, t, band, pairs, state, branch, room, ctrl, at, work,
           solutions, flags, stats):  # fmt: skip
    """The search on each row of ``puzzles`` from row at[0] on, for about ``work`` units of
    work in all; stats[p] = (found, guesses, nodes). Returns with at[0] the next row: a row
    whose search the call's work ran out in is left in the arrays, and the next call takes it
    up exactly there (a puzzle's own ``budget`` is counted over all its calls)."""
    left = work
    for p in range(at[0], puzzles.shape[0]):
        if ctrl[outcome.PHASE] != outcome.PAUSED:
            ctrl[outcome.PHASE] = outcome.START
            ctrl[outcome.LIMIT] = limit
            ctrl[outcome.WORK] = 0
        before = ctrl[outcome.WORK]
        allowed = min(budget - before, left)
        phase = run(puzzles[p], state, branch, room, ctrl, solutions[p], t, allowed, band, pairs)
        left -= ctrl[outcome.WORK] - before
        if phase == outcome.PAUSED and ctrl[outcome.WORK] < budget:
            at[0] = p  # this call's work is done, not the puzzle's
            return
        found = ctrl[outcome.FOUND] if phase != outcome.INVALID else 0
        verified = found > 0 and phase != outcome.PAUSED and verify(puzzles[p], solutions[p], t)
        flags[p] = _flag(phase, found, verified)
        stats[p, 0] = found
        stats[p, 1] = ctrl[outcome.GUESSES]
        stats[p, 2] = ctrl[outcome.NODES]
        ctrl[outcome.PHASE] = outcome.START
        if left <= 0:
            at[0] = p + 1
            return
    at[0] = puzzles.shape[0]


def solve_batch(
    plan: KernelPlan,
    puzzles: np.ndarray,
    limit: int = 1,
    budget: int = outcome.UNLIMITED,
    deadline: Deadline | None = None,
    each: float | None = None,
) -> Batch:
    """Every row of ``puzzles`` (values of boards that ``plan`` describes) by numba's kernel,
    in calls of bounded work (``outcome.run_batch``, which looks at ``deadline`` and at each
    puzzle's ``each`` seconds between them); ``aot.solve_batch`` takes the copy built ahead of
    time when there is one."""

    def kernel(puzzles, space, work, solutions, flags, stats):
        if plan.primitives is not None:
            _one_by_one(plan, puzzles, (limit, budget, each), space, work, solutions, flags, stats)
            return
        _batch(puzzles, limit, budget, plan.tables, plan.band, plan.pairs, *space, work,
               solutions, flags, stats)  # fmt: skip

    return run_batch(plan, puzzles, kernel, deadline, each)


def _one_by_one(plan: KernelPlan, puzzles, bounds, space, work, solutions, flags, stats) -> None:
    """A board with constraints: each puzzle by the constrained kernel's entry in turn (the
    batch kernel knows no constraints; a kernel of its own for them would add to the first
    compile for a loop that costs a microsecond a puzzle here), with the same flags, each
    search in calls of ``work`` units as the batch kernel's. ``bounds``: the limit, each
    puzzle's work budget and its seconds (past either: UNFINISHED)."""
    import time

    from solvers.backends.handwritten.native.solver import Workspace

    limit, budget, each = bounds
    searching = Workspace(plan)
    ctrl = searching.ctrl
    for p in range(int(space.at[0]), len(puzzles)):
        ctrl[outcome.PHASE], ctrl[outcome.LIMIT], ctrl[outcome.WORK] = outcome.START, limit, 0
        phase = outcome.PAUSED
        ends = None if each is None else time.perf_counter() + each
        while phase == outcome.PAUSED and ctrl[outcome.WORK] < budget:
            if ends is not None and time.perf_counter() > ends:
                break  # its time is up: UNFINISHED, as over its budget
            phase = searching.run(plan, puzzles[p], min(budget - ctrl[outcome.WORK], work))
        found = int(ctrl[outcome.FOUND]) if phase != outcome.INVALID else 0
        if found:
            solutions[p] = searching.first
        verified = found > 0 and phase != outcome.PAUSED and bool(ctrl[outcome.VERIFIED])
        flags[p] = _flag.py_func(phase, found, verified)
        stats[p] = found, ctrl[outcome.GUESSES], ctrl[outcome.NODES]
    space.at[0] = len(puzzles)
