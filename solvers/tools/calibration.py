"""A fixed workload that ``sudoku compare`` times through each run: what the machine gives now.

CPU times are not free of load where cores share caches: on a 2-vCPU machine, four busy
processes raised a backend's CPU time 2.6x (docs/compare.md, "Regressions"). A run therefore
times this workload before each backend spec and at its end, and ``--against`` divides each
puzzle's ratio of CPU times by the workload's (``regression.machine_factor``).

The workload does what the backends do, in small: a propagating search over candidate
bitmasks (as ``propagate`` and ``bitmask``), Algorithm X over dicts of sets (as ``dlx`` and
``exactcover``: many small objects, the work a loaded cache slows most) and NumPy checking
the units of many grids at once (as the vectorised verifier). It is written here, not
borrowed from the backends, so that a change to a backend never moves the reference it is
measured against (it reads only the board's units); ``WORKLOAD`` is a hash of this module's
text, so that two runs' samples are compared only when they timed the same work.
"""

from __future__ import annotations

import hashlib
import time
from functools import cache
from pathlib import Path
from statistics import median

import numpy as np

from solvers.board import Shape

# Two fixed puzzles of the shipped hard9, each searched after propagation: a millisecond or two.
SEARCHED = "4..........2.....7...8.5..4....4..733.......9...3.651.19.....6.84..2......31..9.8"
COVERED = "84...29......79....5.64....1.....8.....91..5........634.1.....6.6.....7...23....8"
GRIDS = 300  # grids the NumPy piece checks
ROUNDS = 3  # pieces timed in each sample: its time is the median of the rounds' times

SIZE, BOX = 9, 3
ALL = (1 << SIZE) - 1
# the board's own tables, as plain lists: a change to how Geometry keeps them leaves this alone
UNITS = [list(unit) for unit in Shape(BOX, BOX).geometry.units]
PEERS = [list(peers) for peers in Shape(BOX, BOX).geometry.peers]


def _givens(puzzle: str) -> list[int]:
    return [int(ch) if ch.isdigit() else 0 for ch in puzzle]


def _propagate(candidates: list[int]) -> bool:
    """Remove each decided cell's value from its peers until nothing changes; False on a
    contradiction."""
    changed = True
    while changed:
        changed = False
        for cell, mask in enumerate(candidates):
            if mask == 0:
                return False
            if mask & (mask - 1) == 0:
                for peer in PEERS[cell]:
                    if candidates[peer] & mask:
                        candidates[peer] &= ~mask
                        changed = True
    return True


def _search(candidates: list[int]) -> int:
    """Solutions below ``candidates``, up to two, by propagation and the fewest-candidates cell."""
    if not _propagate(candidates):
        return 0
    open_cells = [c for c, m in enumerate(candidates) if m & (m - 1)]
    if not open_cells:
        return 1
    cell = min(open_cells, key=lambda c: bin(candidates[c]).count("1"))
    found, mask = 0, candidates[cell]
    while mask and found < 2:
        bit = mask & -mask
        mask ^= bit
        trial = list(candidates)
        trial[cell] = bit
        found += _search(trial)
    return found


def bitmasks() -> int:
    """The propagating search on ``SEARCHED``: its solutions, up to two (it has one)."""
    return _search([ALL if v == 0 else 1 << (v - 1) for v in _givens(SEARCHED)])


@cache
def _rows() -> dict[tuple[int, int], tuple[int, ...]]:
    """Exact cover's rows: (cell, value) covers its cell's column and one column per unit of
    the cell and value."""
    units_of = Shape(BOX, BOX).geometry.units_of
    cells = SIZE * SIZE
    return {
        (cell, value): (cell, *(cells + unit * SIZE + value for unit in units_of[cell]))
        for cell in range(cells)
        for value in range(SIZE)
    }


def _cover(columns: dict[int, set], rows: dict, row: tuple) -> list[set]:
    removed = []
    for column in rows[row]:
        for other in columns[column]:
            for each in rows[other]:
                if each != column:
                    columns[each].discard(other)
        removed.append(columns.pop(column))
    return removed


def _uncover(columns: dict[int, set], rows: dict, row: tuple, removed: list[set]) -> None:
    for column in reversed(rows[row]):
        columns[column] = removed.pop()
        for other in columns[column]:
            for each in rows[other]:
                if each != column:
                    columns[each].add(other)


def _x(columns: dict[int, set], rows: dict, limit: int) -> int:
    """Algorithm X: exact covers of the open columns, up to ``limit``."""
    if not columns:
        return 1
    column = min(columns, key=lambda c: len(columns[c]))
    found = 0
    for row in list(columns[column]):
        removed = _cover(columns, rows, row)
        found += _x(columns, rows, limit - found)
        _uncover(columns, rows, row, removed)
        if found >= limit:
            break
    return found


def exact_cover() -> int:
    """Algorithm X on ``COVERED``: its solutions, up to two (it has one)."""
    rows = _rows()
    columns: dict[int, set] = {c: set() for c in range(SIZE * SIZE * 4)}
    for row, covered in rows.items():
        for column in covered:
            columns[column].add(row)
    for cell, value in enumerate(_givens(COVERED)):
        if value:
            _cover(columns, rows, (cell, value - 1))
    return _x(columns, rows, 2)


@cache
def _grids() -> tuple[np.ndarray, np.ndarray]:
    """Fixed solved grids (a pattern's digits relabelled, a few made wrong) and the units."""
    pattern = np.array([(r * BOX + r // BOX + c) % SIZE for r in range(SIZE) for c in range(SIZE)])
    labels = np.random.default_rng(2006).permuted(np.tile(np.arange(1, 10), (GRIDS, 1)), axis=1)
    grids = np.take_along_axis(labels, np.tile(pattern, (GRIDS, 1)), axis=1)
    grids[::7, 0] = grids[::7, 1]
    return grids, np.array(UNITS)


def arrays() -> int:
    """NumPy checks every unit of ``GRIDS`` grids at once, as the vectorised verifier does:
    the grids found wrong."""
    grids, units = _grids()
    ordered = np.sort(grids[:, units], axis=2)
    wrong = np.any(ordered != np.arange(1, SIZE + 1), axis=(1, 2))
    return int(np.count_nonzero(wrong))


PIECES = (bitmasks, exact_cover, arrays)


WORKLOAD = hashlib.blake2b(Path(__file__).read_bytes(), digest_size=8).hexdigest()


def sample() -> float:
    """The CPU seconds of the workload once: each piece the median of ``ROUNDS`` timings, in
    this thread alone (the run's other threads do not count)."""
    _warm()
    total = 0.0
    for piece in PIECES:
        times = []
        for _ in range(ROUNDS):
            start = time.thread_time()
            piece()
            times.append(time.thread_time() - start)
        total += median(times)
    return total


@cache
def _warm() -> None:
    """Build the tables and run each piece once, so that no sample times a first call."""
    for piece in PIECES:
        piece()
