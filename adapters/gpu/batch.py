"""Many puzzles of one board shape and rules per kernel launch.

``Batcher.run(board, puzzles, limit)`` copies a (P, N*N) uint8 array of values (0 empty) to
the device, runs the kernel (``kernel.search``) in launches of bounded work until every search
has ended (or its time is up, or the deadline passed) and copies the answers back. The answer
is the backend contract's ``Batch`` with a ``Flag`` per puzzle, unverified: its caller verifies
every first solution on the host (``solve_many``, the judge, the benchmark), once; the copies to
and from the device and the launches are timed apart (``Timings``, for the throughput
benchmark).

A launch is sized from the last one's time to take about ``LAUNCH_S``, so the deadline and a
signal are looked at between launches as ``native`` does between its kernel calls. Every
puzzle of a batch is searched at once, a slice of work a launch, so each has been searched for
as long as the launches have run: past ``each`` seconds of them, no further launch is made and
the searches still under way are UNFINISHED.
"""

from __future__ import annotations

import os
import time
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import cuda

from adapters.gpu import band as bands
from adapters.gpu import kernel, shared
from solvers.backends.batch import Batch, Flag
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout, UsageError
from solvers.model.board import Board
from solvers.model.compile import flatten
from solvers.model.geometry import Shape

UNLIMITED = 2**62  # the kernel's work budget per puzzle: never runs out (time stops a batch)
THREADS = 128  # threads per block: one puzzle each
FIRST_SLICE = 1 << 14  # work units per puzzle in the first launch
LAUNCH_S = 0.02  # the time a launch is sized to take
LOOKS_PER_EACH = 4  # with ``each``, launches sized so that the clock is looked at this often
# the registers an answer reads (the rest stay on the device: fewer bytes copied back)
READ = (kernel.PHASE, kernel.COUNT, kernel.GUESSES, kernel.NODES)
FORKED = (
    "gpu: CUDA cannot be used in a process forked from one that used it (--jobs N forks "
    "worker processes): run gpu with --jobs 1, whose one process keeps every GPU thread busy"
)
# The process that used the device first, whichever batcher it used: a forked child
# inherits it (and builds batchers of its own, the runners it inherits being dropped)
_device_user: int | None = None


class Timings(NamedTuple):
    """One batch's seconds: copies to the device (puzzles and tables), the launches, copies
    back (solutions and registers); and its launches."""

    to_device: float
    kernel: float
    from_device: float
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
    ``units`` units, kept for the next batch that fits (allocating is a driver call); for the
    band kernel (``band``), its levels' states and branches instead of the boards and trails."""

    def __init__(self, capacity: int, cells: int, units: int, band: bool = False) -> None:
        self.fits = (capacity, cells, units, band)
        self.puzzles = cuda.device_array((capacity, cells), np.uint8)
        if band:
            self.states = cuda.device_array((30 * (bands.LEVELS + 1), capacity), np.int32)
            self.branch = cuda.device_array((3 * (bands.LEVELS + 1), capacity), np.int32)
        else:
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
        if self.fits[3]:
            return (self.states, self.branch, self.regs)
        return (self.values, self.used, self.trail, self.mark, self.cell, self.left, self.regs)


class Batcher:
    """Runs batches on the device; keeps each rule table and the last batch's arrays on the
    device for the next batch (a deliberate cache: nothing of one puzzle survives its batch
    that the next one reads, as every search starts from its own givens)."""

    def __init__(self, kernel: str = "band") -> None:
        self._tables: dict[tuple, tuple] = {}
        self._space: _Space | None = None
        # band: classic 9x9 boards (the rest as shared); shared where a block of boards fits;
        # else, and for global, kernel.search
        self._kind = kernel
        self._fallback: Batcher | None = None  # the band kernel's searches that went too deep

    def run(
        self,
        board: Board,
        puzzles: np.ndarray,
        limit: int = 1,
        deadline: Deadline | None = None,
        each: float | None = None,
    ) -> tuple[Batch, Timings]:
        """Every row of ``puzzles`` (values of boards of ``board``'s shape and rules, 0 empty)
        searched for up to ``limit`` solutions; a row still searched after ``each`` seconds of
        launches is UNFINISHED (None: no cap). SolveTimeout once ``deadline`` has passed
        (looked at between launches). ValueError for rows of another size; UsageError in a
        process forked after this one used the device (CUDA would fail there, numba with
        "CUDA initialized before forking"; the simulator is held to the same)."""
        global _device_user
        if _device_user is None:
            _device_user = os.getpid()
        elif _device_user != os.getpid():
            raise UsageError(FORKED)
        flat = flatten(board)
        cells, size = board.shape.cell_count, board.size
        puzzles = np.ascontiguousarray(puzzles, dtype=np.uint8)
        if puzzles.ndim != 2 or puzzles.shape[1] != cells:
            raise ValueError(f"puzzles must be a (P, {cells}) array, not {puzzles.shape}")
        count = len(puzzles)
        started = time.perf_counter()
        band = self._kind == "band" and _classic9(flat.units, size)
        table = (self._band_table(),) if band else self._table(flat.units, cells)
        space = self._room(max(count, 1), cells, len(dict.fromkeys(flat.units)), band)
        if count:
            space.puzzles[:count].copy_to_device(puzzles)
        to_device = time.perf_counter() - started
        launches, spent = self._launch(space, table, count, size, limit, deadline, each, band)
        started = time.perf_counter()
        regs = {r: space.regs[r, :count].copy_to_host() for r in READ}
        solutions = (
            space.solutions[:count].copy_to_host() if count else np.zeros((0, cells), np.uint8)
        )
        from_device = time.perf_counter() - started
        flags = _flags(regs)
        solutions[flags != Flag.SOLVED] = 0  # what a search left there is no answer
        answered = (flags != Flag.BAD_VALUE) & (flags != Flag.UNFINISHED)
        counts = np.where(answered, regs[kernel.COUNT], 0).astype(np.int64)
        batch = Batch(counts, solutions, flags, regs[kernel.GUESSES], regs[kernel.NODES])
        timings = Timings(to_device, spent, from_device, launches)
        deep = np.flatnonzero(regs[kernel.PHASE] == bands.OVERFLOW)
        if len(deep):  # searched again by the shared kernel, from their givens
            self._fallback = self._fallback or Batcher("shared")
            again, more = self._fallback.run(board, puzzles[deep], limit, deadline, each)
            for mine, theirs in zip(batch, again, strict=True):
                mine[deep] = theirs
            timings = Timings(*(a + b for a, b in zip(timings, more, strict=True)))
        return batch, timings

    def _band_table(self):
        if "band" not in self._tables:
            self._tables["band"] = cuda.to_device(bands.tables())
        return self._tables["band"]

    def _table(self, units: tuple[tuple[int, ...], ...], cells: int) -> tuple:
        key = (units, cells)
        if key not in self._tables:
            self._tables[key] = tuple(map(cuda.to_device, tables(units, cells)))
        return self._tables[key]

    def _room(self, count: int, cells: int, units: int, band: bool) -> _Space:
        space = self._space
        if space is None or space.fits[1:] != (cells, units, band) or space.fits[0] < count:
            self._space = space = None  # free the old arrays before asking for new ones
            self._space = space = _Space(count, cells, units, band)
        return space

    def _kernel(self, table: tuple, size: int) -> tuple:
        """The kernel for this geometry and the threads a block it is launched with: the
        shared-memory one where a block of its boards fits, else ``kernel.search``."""
        units, cell_units = table
        geometry = (cell_units.shape[0], units.shape[0], size, cell_units.shape[1])
        threads = shared.threads_for(*geometry) if self._kind != "global" else 0
        if threads:
            return shared.compiled(*geometry, threads), threads
        return kernel.search, THREADS

    def _launch(self, space, table, count, size, limit, deadline, each, band) -> tuple:
        """Launch the kernel until no search is left paused, or ``each`` seconds have gone on
        launches; (launches, seconds)."""
        if band:
            search, threads, head = bands.search, bands.THREADS, (*table, limit)
        else:
            search, threads = self._kernel(table, size)
            head = (size, *table, limit, UNLIMITED)
        if search is kernel.search:
            threads = min(threads, max(count, 1))  # one block of P threads for a few puzzles
        blocks = (count + threads - 1) // threads
        work, launches, spent, first = FIRST_SLICE, 0, 0.0, True
        aim = LAUNCH_S if each is None else min(LAUNCH_S, each / LOOKS_PER_EACH)
        pending = np.ones(1, np.int64)
        while count and (first or pending[0]):
            if deadline is not None and deadline.expired():
                raise SolveTimeout(stats=_stats(space, count))
            if each is not None and spent > each:  # every search under way has had its time
                break
            started = time.perf_counter()
            space.pending.copy_to_device(np.zeros(1, np.int64))
            search[blocks, threads](
                space.puzzles, count, *head, work, first, *space.state(), space.solutions,
                space.pending)  # fmt: skip
            space.pending.copy_to_host(pending)  # waits for the launch to end
            took = time.perf_counter() - started
            spent += took
            launches += 1
            first = False
            # the next launch sized to take about ``aim`` (at most 8 times this one's work)
            work = int(min(work * 8, max(FIRST_SLICE, work * aim / max(took, 1e-6))))
        return launches, spent


@lru_cache(maxsize=8)
def _classic9(units: tuple[tuple[int, ...], ...], size: int) -> bool:
    """Whether these are the classic 9x9 board's units alone (the band kernel's board)."""
    return size == 9 and set(units) == set(flatten(Board.empty(Shape(3, 3))).units)


def _stats(space: _Space, count: int) -> dict[str, int]:
    regs = space.regs.copy_to_host()[:, :count]
    return {"guesses": int(regs[kernel.GUESSES].sum()), "nodes": int(regs[kernel.NODES].sum())}


def _flags(regs: dict[int, np.ndarray]) -> np.ndarray:
    """Each puzzle's ``Flag`` from its registers (SOLVED before the verifier's word; a search
    still paused is UNFINISHED)."""
    phase, found = regs[kernel.PHASE], regs[kernel.COUNT]
    flags = np.full(phase.shape, Flag.UNFINISHED, np.uint8)
    flags[(phase == kernel.DONE) & (found > 0)] = Flag.SOLVED
    flags[(phase == kernel.DONE) & (found == 0)] = Flag.UNSOLVABLE
    flags[phase == kernel.INVALID] = Flag.BAD_VALUE
    return flags
