"""A fixed workload that ``sudoku compare`` times through each run: what the machine gives now.

CPU times are not free of load where cores share caches: on a 2-vCPU machine, four busy
processes raised a backend's CPU time markedly (docs/compare.md, "Regressions"). A run therefore
times this workload before each backend spec and at its end, and ``--against`` divides each
puzzle's CPU time now by the workload's median now to then (``regression.machine``).

The workload does what the backends do, in small: a propagating search over candidate
bitmasks (as ``propagate`` and ``bitmask``), Algorithm X over dancing links kept from one
search to the next (as ``dlx``: the work a busy machine slows most, ``Links``) and NumPy
checking the units of many grids at once (as the vectorised verifier). It is written here, not
borrowed from the backends, so that a change to a backend never moves the reference it is
measured against (it reads only the board's units); ``WORKLOAD`` is a hash of this module's
text, so that two runs' samples are compared only when they timed the same work.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from statistics import median

import numpy as np

from solvers.model.geometry import Shape

# Two fixed puzzles of the shipped hard9, each searched after propagation: about a millisecond.
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


@dataclass
class Links:
    """Exact cover's matrix as dancing links in flat lists, as ``dlx`` keeps its own: node 0 is
    the root, 1..C the column headers, then a node per one of each row (cell, value). Built
    once and reused, every cover undone after each search: a working set that stays in the
    caches of a quiet machine and is evicted on a busy one, which is what slows ``dlx`` most."""

    left: list[int]
    right: list[int]
    up: list[int]
    down: list[int]
    column: list[int]
    size: list[int]
    first: dict[tuple[int, int], int]  # each row's first node

    def cover(self, col: int) -> None:
        """Take column ``col`` out, and every row with a one in it out of its other columns."""
        right, up, down, column, size = self.right, self.up, self.down, self.column, self.size
        right[self.left[col]], self.left[right[col]] = right[col], self.left[col]
        row = down[col]
        while row != col:
            node = right[row]
            while node != row:
                down[up[node]], up[down[node]] = down[node], up[node]
                size[column[node]] -= 1
                node = right[node]
            row = down[row]

    def uncover(self, col: int) -> None:
        """Undo ``cover(col)``, in the reverse order."""
        left, up, down, column, size = self.left, self.up, self.down, self.column, self.size
        row = up[col]
        while row != col:
            node = left[row]
            while node != row:
                size[column[node]] += 1
                down[up[node]] = up[down[node]] = node
                node = left[node]
            row = up[row]
        self.right[left[col]] = left[self.right[col]] = col

    def search(self, limit: int) -> int:
        """Exact covers of the open columns, up to ``limit``: Knuth's Algorithm X."""
        right, down, size = self.right, self.down, self.size
        if right[0] == 0:
            return 1
        col, col_size, node = 0, len(size), right[0]
        while node != 0:
            if size[node] < col_size:
                col, col_size = node, size[node]
            node = right[node]
        self.cover(col)
        found, row = 0, down[col]
        while row != col and found < limit:
            self.choose(row)
            found += self.search(limit - found)
            self.unchoose(row)
            row = down[row]
        self.uncover(col)
        return found

    def choose(self, row: int) -> None:
        """Cover the other columns of the row with node ``row`` (its own is covered)."""
        node = self.right[row]
        while node != row:
            self.cover(self.column[node])
            node = self.right[node]

    def unchoose(self, row: int) -> None:
        """Undo ``choose(row)``."""
        node = self.left[row]
        while node != row:
            self.uncover(self.column[node])
            node = self.left[node]


@cache
def _links() -> Links:
    """The 9x9 board's matrix: row (cell, value) has a one in its cell's column and in one column
    per unit of the cell and value (``Geometry.units_of``)."""
    units_of = Shape(BOX, BOX).geometry.units_of
    cells = SIZE * SIZE
    columns = cells * 4
    links = Links(
        [columns, *range(columns)],
        [*range(1, columns + 1), 0],
        list(range(columns + 1)),
        list(range(columns + 1)),
        list(range(columns + 1)),
        [0] * (columns + 1),
        {},
    )
    for cell in range(cells):
        for value in range(SIZE):
            hits = [1 + cell, *(1 + cells + unit * SIZE + value for unit in units_of[cell])]
            first = links.first[cell, value] = len(links.left)
            for k, col in enumerate(hits):
                links.left.append(first + (k - 1) % len(hits))
                links.right.append(first + (k + 1) % len(hits))
                links.up.append(links.up[col])
                links.down.append(col)
                links.down[links.up[col]] = links.up[col] = first + k
                links.column.append(col)
                links.size[col] += 1
    return links


def dancing_links() -> int:
    """Algorithm X over the kept links on both puzzles, each given's row chosen first and every
    cover undone after: the solutions found (one each)."""
    links = _links()
    found = 0
    for puzzle in (SEARCHED, COVERED):
        givens = [
            links.first[cell, value - 1] for cell, value in enumerate(_givens(puzzle)) if value
        ]
        for row in givens:
            links.cover(links.column[row])
            links.choose(row)
        found += links.search(2)
        for row in reversed(givens):
            links.unchoose(row)
            links.uncover(links.column[row])
    return found


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


PIECES = (bitmasks, dancing_links, arrays)


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
