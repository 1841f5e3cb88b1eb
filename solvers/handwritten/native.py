"""``native``: the ``propagate`` algorithm compiled with numba.

The same rules (naked and hidden singles to a fixpoint, then branching on a cell with the
fewest candidates, values ascending), written as an iterative search over NumPy arrays so that
numba can compile it. The kernels are compiled once and cached on disk (numba's ``cache=True``);
the first use in a process loads or compiles them, which is setup, timed apart in
``setup_seconds``.

Compiled code cannot look at the clock, so a deadline is kept with a node budget: the kernel
stops after so many search nodes, the clock is checked, and the search is run again with four
times the budget, so at most about a third of the work is repeated.
"""

from __future__ import annotations

import time
from functools import lru_cache

import numba
import numpy as np

from solvers.backend import Found, HandwrittenSearch
from solvers.board import Board, Geometry, Shape
from solvers.deadline import Deadline
from solvers.errors import SolveTimeout

FIRST_BUDGET = 50_000  # search nodes before the first look at the clock
UNLIMITED = 2**62


@numba.njit(cache=True)
def _settle(cand, placed, todo, ntodo, dirty, peers, units, units_of, every):
    """Naked and hidden singles to a fixpoint; False on a contradiction. ``peers`` and
    ``units_of`` hold each cell's peers and units, padded with -1."""
    size = units.shape[1]
    while True:
        while ntodo > 0:
            ntodo -= 1
            cell = todo[ntodo]
            bit = cand[cell]
            for k in range(units_of.shape[1]):
                if units_of[cell, k] < 0:
                    break
                placed[units_of[cell, k]] |= bit
            for k in range(peers.shape[1]):
                peer = peers[cell, k]
                if peer < 0:
                    break
                mask = cand[peer]
                if mask & bit:
                    mask ^= bit
                    if mask == 0:
                        return False
                    cand[peer] = mask
                    _mark(dirty, units_of, peer)
                    if mask & (mask - 1) == 0:
                        todo[ntodo] = peer
                        ntodo += 1
        changed = False
        for u in range(units.shape[0]):
            if not dirty[u]:
                continue
            dirty[u] = False
            changed = True
            once = 0
            twice = 0
            for k in range(size):
                mask = cand[units[u, k]]
                twice |= once & mask
                once |= mask
            if once != every:
                return False
            hidden = once & ~twice & ~placed[u]
            if hidden:
                for k in range(size):
                    cell = units[u, k]
                    mask = cand[cell]
                    only = mask & hidden
                    if only != 0 and mask & (mask - 1) != 0:
                        if only & (only - 1) != 0:
                            return False
                        cand[cell] = only
                        todo[ntodo] = cell
                        ntodo += 1
                        _mark(dirty, units_of, cell)
        if ntodo == 0 and not changed:
            return True


@numba.njit(cache=True)
def _mark(dirty, units_of, cell):
    """The units of ``cell`` become dirty."""
    for k in range(units_of.shape[1]):
        if units_of[cell, k] < 0:
            return
        dirty[units_of[cell, k]] = True


@numba.njit(cache=True)
def _popcount(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@numba.njit(cache=True)
def _value(bit):
    value = 0
    while bit > 1:
        bit >>= 1
        value += 1
    return value


@numba.njit(cache=True)
def _fewest(cand):
    """The first cell with the fewest candidates (two at best), or -1 when all are single."""
    best = -1
    fewest = 99
    for cell in range(cand.shape[0]):
        mask = cand[cell]
        if mask & (mask - 1):
            count = _popcount(mask)
            if count < fewest:
                best = cell
                fewest = count
                if count == 2:
                    break
    return best


@numba.njit(cache=True)
def _start(board, cand, todo, every):
    """The givens as single candidates, the empty cells with every value; how many givens
    were put in ``todo``."""
    ngivens = 0
    for cell in range(board.shape[0]):
        if board[cell]:
            cand[cell] = 1 << board[cell]
            todo[ngivens] = cell
            ngivens += 1
        else:
            cand[cell] = every
    return ngivens


@numba.njit(cache=True)
def _search(board, peers, units, units_of, every, limit, budget, first):
    """Up to ``limit`` solutions (the first written to ``first``) within ``budget`` nodes.

    Returns (solutions found, nodes, guesses, finished): finished is False when the budget ran
    out before the search could say. Depth d of the search keeps its candidates and placed
    masks in row d of ``cand`` and ``placed``, the cell it branches on, and the values left.
    """
    cells = board.shape[0]
    cand = np.empty((cells + 1, cells), np.int64)
    placed = np.zeros((cells + 1, units.shape[0]), np.int64)
    branch_cell = np.empty(cells + 1, np.int64)
    remaining = np.empty(cells + 1, np.int64)
    todo = np.empty(4 * cells, np.int64)
    dirty = np.ones(units.shape[0], np.bool_)
    ngivens = _start(board, cand[0], todo, every)
    found = nodes = guesses = 0
    if not _settle(cand[0], placed[0], todo, ngivens, dirty, peers, units, units_of, every):
        return found, nodes, guesses, True
    depth = 0
    choose = True
    while True:
        if choose:
            choose = False
            best = _fewest(cand[depth])
            if best < 0:
                if found == 0:
                    for cell in range(cells):
                        first[cell] = _value(cand[depth, cell])
                found += 1
                if found >= limit:
                    return found, nodes, guesses, True
                remaining[depth] = 0  # nothing to try here: back up
            else:
                guesses += 1
                branch_cell[depth] = best
                remaining[depth] = cand[depth, best]
        if remaining[depth] == 0:
            depth -= 1
            if depth < 0:
                return found, nodes, guesses, True
            continue
        bit = remaining[depth] & -remaining[depth]
        remaining[depth] ^= bit
        nodes += 1
        if nodes > budget:
            return found, nodes, guesses, False
        cand[depth + 1, :] = cand[depth, :]
        placed[depth + 1, :] = placed[depth, :]
        cell = branch_cell[depth]
        cand[depth + 1, cell] = bit
        todo[0] = cell
        dirty[:] = False
        _mark(dirty, units_of, cell)
        if _settle(
            cand[depth + 1], placed[depth + 1], todo, 1, dirty, peers, units, units_of, every
        ):
            depth += 1
            choose = True


class _Tables:
    """A geometry's tables as NumPy arrays for the kernels, rows padded with -1."""

    def __init__(self, geometry: Geometry) -> None:
        self.peers = _padded(geometry.peers)
        self.units = np.array(geometry.units, dtype=np.int64)
        self.units_of = _padded(geometry.units_of)
        self.every = geometry.full_mask


def _padded(rows: tuple[tuple[int, ...], ...]) -> np.ndarray:
    table = np.full((len(rows), max(map(len, rows))), -1, dtype=np.int64)
    for i, row in enumerate(rows):
        table[i, : len(row)] = row
    return table


@lru_cache(maxsize=64)
def _tables(geometry: Geometry) -> _Tables:
    return _Tables(geometry)


class Native(HandwrittenSearch):
    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        start = time.perf_counter()
        self._run(Board.empty(Shape(2, 2)), 1, UNLIMITED)  # load or compile the kernels
        self.setup_seconds = time.perf_counter() - start

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        budget = UNLIMITED if deadline.at is None else FIRST_BUDGET
        while True:
            found, nodes, guesses, finished, first = self._run(board, limit, budget)
            if finished:
                break
            if deadline.expired():
                raise SolveTimeout(stats={"nodes": nodes, "guesses": guesses})
            budget *= 4
        solution = board.with_cells(first.tolist()) if found else None
        return Found(found, solution, {"nodes": nodes, "guesses": guesses})

    @staticmethod
    def _run(board: Board, limit: int, budget: int):
        tables = _tables(board.geometry)
        first = np.zeros(board.shape.cell_count, dtype=np.int64)
        cells = np.array(board.cells, dtype=np.int64)
        found, nodes, guesses, finished = _search(
            cells, tables.peers, tables.units, tables.units_of, tables.every, limit, budget, first
        )
        return found, nodes, guesses, finished, first
