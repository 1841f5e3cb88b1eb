"""What a batch of puzzles gives back (``Flag``, ``Batch``), importable without numba: the bulk
path reads it whichever copy of the kernel ran, the ahead-of-time one (``aot``) or numba's."""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from solvers.backends.handwritten.native.tables import Plan
    from solvers.base.deadline import Deadline

UNLIMITED = 2**62  # a work budget that never runs out
CTRL_SIZE = 9  # the kernel's registers (their names: bits)
# Work units per kernel call of a batch (a short call: docs/reliability.md, Signals): a signal
# is acted on within one call.
CALL_WORK = 20_000_000


class Flag(IntEnum):
    """What became of one puzzle of a batch."""

    SOLVED = 0  # solutions found (counted up to the limit), the first verified in the kernel
    UNSOLVABLE = 1  # none: the search proved it (givens that break a rule included)
    UNFINISHED = 2  # over the work budget: not answered
    WRONG = 3  # the kernel's solution failed its own verification: a bug
    BAD_VALUE = 4  # a value outside 0..N


class Batch(NamedTuple):
    """Per puzzle: ``counts`` (P,) int64, ``solutions`` (P, N*N) uint8 (the first one; zeros
    when none), ``flags`` (P,) uint8 (``Flag``), ``guesses`` and ``nodes`` (P,) int64."""

    counts: np.ndarray
    solutions: np.ndarray
    flags: np.ndarray
    guesses: np.ndarray
    nodes: np.ndarray


class Space(NamedTuple):
    """The arrays a batch's searches live in between kernel calls: ``state``, ``branch``,
    ``room`` and ``ctrl`` as ``solver.Workspace`` has them, and ``at``, the row under way."""

    state: np.ndarray
    branch: np.ndarray
    room: np.ndarray
    ctrl: np.ndarray
    at: np.ndarray


def run_batch(
    plan: Plan,
    puzzles: np.ndarray,
    kernel: Callable[..., None],
    deadline: Deadline | None = None,
) -> Batch:
    """The arrays of one batch around ``kernel(puzzles, space, work, solutions, flags,
    stats)``, a kernel call (either copy of the kernel: numba's, or the one built ahead of
    time) that fills them in from row ``space.at[0]`` on for about ``work`` units and moves
    ``at`` on; ``stats`` rows are (found, guesses, nodes). It is called until every row is
    answered, so that between calls Python runs the handlers of the signals that came in
    (Ctrl-C, SIGTERM), which cannot run while compiled code holds the thread, and looks at
    ``deadline`` (SolveTimeout once it has passed). ValueError for rows of another size."""
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
    while space.at[0] < count:
        if deadline is not None:
            deadline.check()
        kernel(puzzles, space, CALL_WORK, solutions, flags, stats)
    return Batch(stats[:, 0].copy(), solutions, flags, stats[:, 1].copy(), stats[:, 2].copy())
