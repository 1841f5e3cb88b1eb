"""Many puzzles of one board shape and rules per kernel launch, every answer verified on the host.

``Batcher.run(board, puzzles, limit)`` copies a (P, N*N) uint8 array of values (0 empty) to
the device, runs the kernel (``kernel.search``) in launches of bounded work until every search
has ended (or its work budget has run out, or the deadline passed), copies the answers back
and hands each first solution to the project's verifier (``solvers.model.verify.failing_rows``),
which shares no code with the kernel. The copies to and from the device, the launches and the
verification are timed apart (``Timings``).

A launch is sized from the last one's time to take about ``LAUNCH_S``, so the deadline and a
signal are looked at between launches as ``native`` does between its kernel calls.
"""

from __future__ import annotations

import time
from enum import IntEnum
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import cuda

from adapters.gpu import kernel
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import flatten
from solvers.model.verify import failing_rows

UNLIMITED = 2**62  # a work budget that never runs out
THREADS = 128  # threads per block: one puzzle each
FIRST_SLICE = 1 << 14  # work units per puzzle in the first launch
LAUNCH_S = 0.02  # the time a launch is sized to take


class Flag(IntEnum):
    """What became of one puzzle (the values of the ``native`` batch's flags, so that the two
    read alike)."""

    SOLVED = 0  # solutions found (counted up to the limit), the first verified on the host
    UNSOLVABLE = 1  # none: the search proved it (givens that break a rule included)
    UNFINISHED = 2  # over the work budget: not answered
    WRONG = 3  # the kernel's solution failed the verifier: a bug
    BAD_VALUE = 4  # a value outside 0..N


class Timings(NamedTuple):
    """Seconds spent on one batch: copies to the device (puzzles and tables), the launches,
    copies back (solutions and registers), and the verification on the host."""

    to_device: float
    kernel: float
    from_device: float
    verify: float


class Batch(NamedTuple):
    """Per puzzle: ``counts`` (P,) int64, ``solutions`` (P, N*N) uint8 (the first one; zeros
    when none), ``flags`` (P,) uint8 (``Flag``), ``guesses``, ``nodes`` and ``work`` (P,)
    int64; and the batch's ``timings`` and ``launches``."""

    counts: np.ndarray
    solutions: np.ndarray
    flags: np.ndarray
    guesses: np.ndarray
    nodes: np.ndarray
    work: np.ndarray
    timings: Timings
    launches: int


@lru_cache(maxsize=64)
def tables(units: tuple[tuple[int, ...], ...], cells: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's tables: the cells of each unit (U, N), and each cell's units as padded
    rows [count, unit...] (C, 1+k)."""
    units = tuple(dict.fromkeys(units))  # a unit listed twice is kept once
    of: list[list[int]] = [[] for _ in range(cells)]
    for index, unit in enumerate(units):
        for c in unit:
            of[c].append(index)
    table = np.zeros((cells, 1 + max(map(len, of))), np.int32)
    for c, mine in enumerate(of):
        table[c, 0] = len(mine)
        table[c, 1 : 1 + len(mine)] = mine
    return np.array(units, np.int32), table


class _Space:
    """The device arrays of a batch of up to ``capacity`` puzzles of ``cells`` cells and
    ``units`` units, kept for the next batch that fits (allocating is a driver call)."""

    def __init__(self, capacity: int, cells: int, units: int) -> None:
        self.fits = (capacity, cells, units)
        self.puzzles = cuda.device_array((capacity, cells), np.uint8)
        self.values = cuda.device_array((cells, capacity), np.uint8)
        self.used = cuda.device_array((units, capacity), np.int32)
        self.trail = cuda.device_array((cells, capacity), np.int16)
        self.mark = cuda.device_array((cells, capacity), np.int16)
        self.cell = cuda.device_array((cells, capacity), np.int16)
        self.left = cuda.device_array((cells, capacity), np.int32)
        self.regs = cuda.device_array((kernel.REGISTERS, capacity), np.int64)
        self.solutions = cuda.device_array((capacity, cells), np.uint8)
        self.pending = cuda.device_array(1, np.int64)

    def state(self) -> tuple:
        return (self.values, self.used, self.trail, self.mark, self.cell, self.left, self.regs)


class Batcher:
    """Runs batches on the device; keeps each rule table and the last batch's arrays on the
    device for the next batch (a deliberate cache: nothing of one puzzle survives its batch
    that the next one reads, as every search starts from its own givens)."""

    def __init__(self) -> None:
        self._tables: dict[tuple, tuple] = {}
        self._space: _Space | None = None

    def run(
        self,
        board: Board,
        puzzles: np.ndarray,
        limit: int = 1,
        budget: int = UNLIMITED,
        deadline: Deadline | None = None,
    ) -> Batch:
        """Every row of ``puzzles`` (values of boards of ``board``'s shape and rules, 0 empty)
        searched for up to ``limit`` solutions, each within ``budget`` units of work.
        SolveTimeout once ``deadline`` has passed (looked at between launches)."""
        flat = flatten(board)
        cells, size = board.shape.cell_count, board.size
        puzzles = np.ascontiguousarray(puzzles, dtype=np.uint8)
        if puzzles.ndim != 2 or puzzles.shape[1] != cells:
            raise ValueError(f"puzzles must be a (P, {cells}) array, not {puzzles.shape}")
        count = len(puzzles)
        started = time.perf_counter()
        table = self._table(flat.units, cells)
        space = self._room(max(count, 1), cells, len(dict.fromkeys(flat.units)))
        if count:
            space.puzzles[:count].copy_to_device(puzzles)
        to_device = time.perf_counter() - started
        launches, spent = self._launch(space, table, count, size, limit, budget, deadline)
        started = time.perf_counter()
        regs = space.regs.copy_to_host()[:, :count]
        solutions = space.solutions[:count].copy_to_host() if count else np.zeros((0, cells))
        from_device = time.perf_counter() - started
        started = time.perf_counter()
        flags = _flags(regs, budget)
        solutions = np.where((flags == Flag.SOLVED)[:, None], solutions, 0).astype(np.uint8)
        solved = np.flatnonzero(flags == Flag.SOLVED)
        if len(solved):
            failing = failing_rows(board, puzzles[solved], solutions[solved])
            flags[solved[failing]] = Flag.WRONG
        verify = time.perf_counter() - started
        counts = np.where(flags == Flag.BAD_VALUE, 0, regs[kernel.COUNT])
        return Batch(
            counts.astype(np.int64),
            solutions,
            flags,
            regs[kernel.GUESSES].copy(),
            regs[kernel.NODES].copy(),
            regs[kernel.WORK].copy(),
            Timings(to_device, spent, from_device, verify),
            launches,
        )

    def _table(self, units: tuple[tuple[int, ...], ...], cells: int) -> tuple:
        key = (units, cells)
        if key not in self._tables:
            self._tables[key] = tuple(map(cuda.to_device, tables(units, cells)))
        return self._tables[key]

    def _room(self, count: int, cells: int, units: int) -> _Space:
        space = self._space
        if space is None or space.fits[1:] != (cells, units) or space.fits[0] < count:
            self._space = space = None  # free the old arrays before asking for new ones
            self._space = space = _Space(count, cells, units)
        return space

    def _launch(self, space, table, count, size, limit, budget, deadline) -> tuple[int, float]:
        """Launch the kernel until no search is left paused under its budget; (launches,
        seconds)."""
        threads = min(THREADS, max(count, 1))  # one block of P threads for a few puzzles
        blocks = (count + threads - 1) // threads
        work, launches, spent, first = FIRST_SLICE, 0, 0.0, True
        pending = np.ones(1, np.int64)
        while count and (first or pending[0]):
            if deadline is not None and deadline.expired():
                raise SolveTimeout(stats=_stats(space, count))
            started = time.perf_counter()
            space.pending.copy_to_device(np.zeros(1, np.int64))
            kernel.search[blocks, threads](
                space.puzzles, count, size, *table, limit, budget, work, first,
                *space.state(), space.solutions, space.pending)  # fmt: skip
            space.pending.copy_to_host(pending)  # waits for the launch to end
            took = time.perf_counter() - started
            spent += took
            launches += 1
            first = False
            # the next launch sized to take about LAUNCH_S (at most 8 times this one's work)
            aimed = work * LAUNCH_S / max(took, 1e-6)
            work = int(min(work * 8, budget, max(FIRST_SLICE, aimed)))
        return launches, spent


def _stats(space: _Space, count: int) -> dict[str, int]:
    regs = space.regs.copy_to_host()[:, :count]
    return {"guesses": int(regs[kernel.GUESSES].sum()), "nodes": int(regs[kernel.NODES].sum())}


def _flags(regs: np.ndarray, budget: int) -> np.ndarray:
    """Each puzzle's ``Flag`` from its registers (SOLVED before the verifier's word)."""
    phase, found = regs[kernel.PHASE], regs[kernel.COUNT]
    flags = np.full(phase.shape, Flag.UNFINISHED, np.uint8)
    flags[(phase == kernel.DONE) & (found > 0)] = Flag.SOLVED
    flags[(phase == kernel.DONE) & (found == 0)] = Flag.UNSOLVABLE
    flags[phase == kernel.INVALID] = Flag.BAD_VALUE
    return flags
