"""One puzzle at a time under a deadline: the kernel run in slices of bounded work.

Compiled code cannot look at the clock, so ``search`` runs the kernel for a first slice of
work, then sizes each next slice from the rate just measured to take about ``SLICE_SECONDS``,
looking at the clock in between. The kernel resumes where it stopped (its state lives in the
``Workspace``), so nothing is repeated and the deadline is overshot by one slice at most. A
search with no deadline is sliced as well, so that a signal ends it within a slice.
"""

from __future__ import annotations

import math
import time

import numpy as np

from solvers.backends.handwritten.native import outcome
from solvers.backends.handwritten.native.search import run_verified, sizes
from solvers.backends.handwritten.native.tables import KernelPlan
from solvers.base.errors import SolveTimeout, WrongAnswer

FIRST_SLICE = 2_000_000  # work units before the first look at the clock (a few ms: docs/native.md)
SLICE_SECONDS = 0.02  # later slices are sized from the measured rate to take about this long
MIN_SLICE, MAX_SLICE = 50_000, 500_000_000


class Workspace:
    """The arrays one search lives in, reused from one puzzle to the next (one search at a
    time: a deliberate cache, owned by one backend in one process)."""

    def __init__(self, plan: KernelPlan) -> None:
        cells = plan.cell_count
        width, room = sizes(plan)
        self.state = np.zeros((cells + 1, width), np.int64)
        self.branch = np.zeros((cells + 1, 3), np.int64)
        self.room = np.zeros(room, np.int64)
        self.ctrl = np.zeros(outcome.CTRL_SIZE, np.int64)
        self.first = np.zeros(cells, np.uint8)

    @staticmethod
    def key(plan: KernelPlan) -> tuple:
        return plan.cell_count, sizes(plan)

    def run(self, plan: KernelPlan, puzzle: np.ndarray, budget: int) -> int:
        """One slice of the search; its phase."""
        if plan.primitives is not None:  # the constrained kernel, loaded when first needed
            return _constrained(
                puzzle, self.state, self.branch, self.room, self.ctrl, self.first, plan.tables,
                plan.primitives, budget, plan.pairs,
            )  # fmt: skip
        return _kernel(
            puzzle, self.state, self.branch, self.room, self.ctrl, self.first, plan.tables,
            budget, plan.band, plan.pairs,
        )  # fmt: skip

    def stats(self) -> dict[str, int]:
        return _counters(self.ctrl.tolist())


def _counters(registers: list[int]) -> dict[str, int]:
    """A search's counters from its registers (read at once: a register read alone costs
    as much as the list of them all)."""
    return {"nodes": registers[outcome.NODES], "guesses": registers[outcome.GUESSES]}


def _kernel(*args):
    """``run_verified``, called straight into its compiled code once it is loaded: numba's
    dispatcher matches the argument types afresh on every call, a noticeable part of a 9x9
    solve (docs/native.md), and they never change here (a read-only puzzle, the
    workspace's arrays, the tables)."""
    global _kernel
    result, _kernel = _first_call(run_verified, args)
    return result


def _constrained(*args):
    """``constrained.run_constrained``, as ``_kernel``: imported, loaded (or compiled) and
    entered straight on the first board with constraints, never before."""
    from solvers.backends.handwritten.native.constrained import run_constrained

    global _constrained
    result, _constrained = _first_call(run_constrained, args)
    return result


def _first_call(dispatcher, args):
    """A first call of ``dispatcher`` (which loads or compiles it), and what to call next
    time: its compiled entry point for these arguments' types, or the dispatcher itself if
    numba keeps it elsewhere."""
    result = dispatcher(*args)
    types = tuple(map(dispatcher.typeof_pyval, args))
    compiled = getattr(dispatcher, "overloads", {}).get(types)
    return result, (dispatcher if compiled is None else compiled.entry_point)


class Solver:
    """Searches with one workspace per board shape (and rules' table sizes); ``choice`` is
    the constrained kernel's cell choice (``outcome.WDEG``, ``VALUES`` or ``HOUSES``)."""

    def __init__(self, choice: int = outcome.HOUSES) -> None:
        self._choice = choice
        self._spaces: dict[tuple, Workspace] = {}
        self._last: tuple[KernelPlan | None, Workspace | None] = (None, None)

    def workspace(self, plan: KernelPlan) -> Workspace:
        if plan is self._last[0]:
            return self._last[1]
        key = Workspace.key(plan)
        space = self._spaces.get(key)
        if space is None:
            space = self._spaces[key] = Workspace(plan)
        self._last = (plan, space)
        return space

    def search(
        self, plan: KernelPlan, cells: bytes, limit: int, deadline: float | None
    ) -> tuple[int, np.ndarray | None, dict[str, int]]:
        """(solutions up to ``limit``, the first or None, stats) of the puzzle whose values are
        ``cells``. ``deadline`` is a ``time.perf_counter()`` value; past it, SolveTimeout. The
        solution is a view of the workspace, valid until the next search."""
        space = self.workspace(plan)
        puzzle = np.frombuffer(cells, np.uint8)
        ctrl = space.ctrl
        ctrl[outcome.PHASE], ctrl[outcome.LIMIT], ctrl[outcome.WORK] = outcome.START, limit, 0
        ctrl[outcome.CHOICE] = self._choice
        phase = _sliced(space, plan, puzzle, math.inf if deadline is None else deadline)
        if phase == outcome.INVALID:
            raise ValueError("a value is outside 1..N")
        registers = ctrl.tolist()
        found = registers[outcome.FOUND]
        if found and not registers[outcome.VERIFIED]:
            raise WrongAnswer("the kernel's own check rejects its solution")
        return found, (space.first if found else None), _counters(registers)


def _sliced(space: Workspace, plan: KernelPlan, puzzle: np.ndarray, deadline: float) -> int:
    # Without a deadline too: between slices Python runs the handlers of the signals that came
    # in (Ctrl-C, SIGTERM), which cannot run while the compiled kernel holds the thread.
    budget = FIRST_SLICE
    start = time.perf_counter()
    phase = space.run(plan, puzzle, budget)
    while phase == outcome.PAUSED:
        now = time.perf_counter()
        if now >= deadline:
            raise SolveTimeout(stats=space.stats())
        # the next slice: about SLICE_SECONDS of work at the rate just seen, less near the end
        rate = budget / max(now - start, 1e-6)
        seconds = min(SLICE_SECONDS, deadline - now)
        budget = int(min(MAX_SLICE, max(MIN_SLICE, rate * seconds)))
        start = now
        phase = space.run(plan, puzzle, budget)
    return phase
