"""The arrays a batch of puzzles lives in around a kernel call, importable without numba:
``run_batch`` drives whichever copy of the kernel runs, the ahead-of-time one (``aot``) or
numba's, and gives back the contract's ``Batch`` with a ``Flag`` per puzzle."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from solvers.backends.batch import Batch, Flag

if TYPE_CHECKING:
    from solvers.backends.handwritten.native.tables import KernelPlan
    from solvers.base.deadline import Deadline

UNLIMITED = 2**62  # a work budget that never runs out
CTRL_SIZE = 10  # the kernel's registers (their names: below)
# Work units per kernel call of a batch (a short call: docs/reliability.md, Signals): a signal
# is acted on within one call.
CALL_WORK = 20_000_000
# With a time allowance per puzzle, the clock is looked at about this many times within it
# (each call's work sized from the rate measured so far), never after less work than
# MIN_CALL_WORK (a call's own cost would show).
LOOKS_PER_ALLOWANCE, MIN_CALL_WORK = 8, 20_000
# ctrl's slots (the kernel's registers), and the phases of a search: a search keeps its
# registers in a small int64 array, ``ctrl``, owned by the caller, so that a kernel call can
# stop after a budget of work and the next call resume exactly there
# (CHOICE: the constrained kernel's cell choice, WDEG, VALUES or HOUSES: ``constrained``)
PHASE, DEPTH, CHOOSE, FOUND, NODES, GUESSES, WORK, LIMIT, VERIFIED, CHOICE = range(CTRL_SIZE)
WDEG, VALUES, HOUSES = 0, 1, 2
START, PAUSED, DONE, INVALID = 0, 1, 2, 3


class Space(NamedTuple):
    """The arrays a batch's searches live in between kernel calls: ``state``, ``branch``,
    ``room`` and ``ctrl`` as ``solver.Workspace`` has them, and ``at``, the row under way."""

    state: np.ndarray
    branch: np.ndarray
    room: np.ndarray
    ctrl: np.ndarray
    at: np.ndarray


def run_batch(
    plan: KernelPlan,
    puzzles: np.ndarray,
    kernel: Callable[..., None],
    deadline: Deadline | None = None,
    each: float | None = None,
) -> Batch:
    """The arrays of one batch around ``kernel(puzzles, space, work, solutions, flags,
    stats)``, a kernel call (either copy of the kernel: numba's, or the one built ahead of
    time) that fills them in from row ``space.at[0]`` on for about ``work`` units and moves
    ``at`` on; ``stats`` rows are (found, guesses, nodes). It is called until every row is
    answered, so that between calls Python runs the handlers of the signals that came in
    (Ctrl-C, SIGTERM), which cannot run while compiled code holds the thread, and looks at
    ``deadline`` (SolveTimeout once it has passed) and at the row under way: one searched for
    more than ``each`` seconds is left UNFINISHED. ValueError for rows of another size."""
    from solvers.backends.handwritten.native.tables import sizes

    puzzles = np.ascontiguousarray(puzzles, dtype=np.uint8)
    if puzzles.ndim != 2 or puzzles.shape[1] != plan.cell_count:
        raise ValueError(f"puzzles must be a (P, {plan.cell_count}) array, not {puzzles.shape}")
    count = len(puzzles)
    solutions = np.zeros((count, plan.cell_count), np.uint8)
    flags = np.zeros(count, np.uint8)
    stats = np.zeros((count, 3), np.int64)
    width, room = sizes(plan)
    cells = plan.cell_count
    space = Space(
        np.zeros((cells + 1, width), np.int64),
        np.zeros((cells + 1, 3), np.int64),
        np.zeros(room, np.int64),
        np.zeros(CTRL_SIZE, np.int64),
        np.zeros(1, np.int64),
    )
    clock = _Allowance(each)
    while space.at[0] < count:
        if deadline is not None:
            deadline.check()
        if clock.past(space):
            row = int(space.at[0])
            flags[row], solutions[row] = Flag.UNFINISHED, 0
            stats[row] = 0, space.ctrl[GUESSES], space.ctrl[NODES]
            space.ctrl[PHASE], space.at[0] = START, row + 1
            continue
        work = clock.work()
        began = time.perf_counter()
        kernel(puzzles, space, work, solutions, flags, stats)
        clock.ran(work, time.perf_counter() - began)
    return Batch(stats[:, 0].copy(), solutions, flags, stats[:, 1].copy(), stats[:, 2].copy())


class _Allowance:
    """Each puzzle's time in a batch: the row under way and when it began (as near as the
    calls tell: the call it began in ended then), and each call's work sized from the rate
    measured so far, so that the clock is looked at ``LOOKS_PER_ALLOWANCE`` times within it."""

    def __init__(self, each: float | None) -> None:
        self.each = each
        self.row, self.began = -1, 0.0
        self.rate: float | None = None  # work units a second

    def past(self, space: Space) -> bool:
        """Whether the row under way has had its time (it is paused between two calls)."""
        if self.each is None:
            return False
        row, now = int(space.at[0]), time.perf_counter()
        if row != self.row:
            self.row, self.began = row, now
            return False
        return space.ctrl[PHASE] == PAUSED and now - self.began > self.each

    def work(self) -> int:
        if self.each is None:
            return CALL_WORK
        if self.rate is None:
            return MIN_CALL_WORK
        return max(MIN_CALL_WORK, min(CALL_WORK, int(self.rate * self.each / LOOKS_PER_ALLOWANCE)))

    def ran(self, work: int, seconds: float) -> None:
        if self.each is not None and seconds > 0:
            self.rate = work / seconds
