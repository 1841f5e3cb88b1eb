"""The shared-memory kernel: ``kernel.search``'s search with each thread's board held in its
block's shared memory, where ``kernel`` keeps it in device memory.

The search is the same (naked and hidden singles to a fixpoint, a branch on the first empty
cell with the fewest candidates, values ascending; the same registers, slices of work and
pauses), so both find the same first solution, counts, guesses and nodes. What differs is where
the state that every step reads lives. A thread of ``kernel.search`` works out a cell's
candidates from its unit masks in device memory; with a couple of thousand threads on a
multiprocessor, their boards overflow its L1 cache and most of those reads go to L2 (measured
on an H200: 1.6 million sudoku17 puzzles a second, against 5.5 million here: docs/gpu.md).
Here each thread's values, unit masks and the candidates of every cell sit in shared memory
(297 bytes on 9x9), the candidates are kept up to date as values are placed (a placement takes
its value out of every peer's candidates), so a pass over the cells reads one word a cell
instead of one a unit, and going back recomputes them from the unit masks. The rule tables
are copied into shared memory once a block. Device memory keeps what is touched rarely: the
trail and the branch stack (as in ``kernel``), and each board between launches.

A kernel is compiled for each geometry (cells, units, unit size, units a cell), whose sizes fix
the shared arrays (``compiled``). A board whose state does not fit ``SHARED_BYTES`` with 32
threads a block (25x25) is searched by ``kernel.search`` (``threads_for`` says 0).
"""

from __future__ import annotations

from functools import lru_cache

from numba import cuda, types

from adapters.gpu.kernel import (  # its registers, and its steps that need no candidates
    COUNT,
    DEPTH,
    DONE,
    GUESSES,
    NODES,
    PAUSED,
    PHASE,
    REGISTERS,
    TRAIL,
    WORK,
    _start,
    _undo,
)

SHARED_BYTES = 48 * 1024  # the static shared memory a block may hold
MOST_THREADS = 32  # threads a block, at most: on an H200, 32 beat 64 and 64 beat 128 (docs/gpu.md)


def threads_for(cells: int, units: int, size: int, width: int) -> int:
    """Threads a block of the shared kernel for this geometry (a multiple of 32), or 0 when
    not even 32 boards fit in ``SHARED_BYTES``."""
    mask = 2 if size <= 16 else 4
    tables = 2 * (units * size + cells * width)
    each = cells + mask * (units + cells)  # values, unit masks, candidates
    fit = (SHARED_BYTES - tables) // each // 32 * 32
    return min(MOST_THREADS, fit) if fit >= 32 else 0


@cuda.jit(device=True, inline=True)
def _place(t, p, c, bit, full, values, used, cand, trail, tlen, units, cell_units):
    """Put the value ``bit`` (a one-bit mask) in cell ``c``, take it out of every peer's
    candidates and push the cell on the trail."""
    values[c, t] = cuda.popc(bit - 1) + 1
    keep = full ^ bit  # not ~bit: a negative number, which the simulator's arrays refuse
    for j in range(1, cell_units[c, 0] + 1):
        u = cell_units[c, j]
        used[u, t] |= bit
        for i in range(units.shape[1]):
            cand[units[u, i], t] &= keep
    trail[tlen, p] = c
    return tlen + 1


@cuda.jit(device=True, inline=True)
def _refresh(t, full, values, used, cand, cell_units):
    """Every empty cell's candidates: the values none of its units holds."""
    for c in range(values.shape[0]):
        if values[c, t] == 0:
            m = full
            for j in range(1, cell_units[c, 0] + 1):
                m &= ~used[cell_units[c, j], t]
            cand[c, t] = m


@cuda.jit(device=True, inline=True)
def _hidden(t, u, full, units, values, used, cand):
    """Unit ``u``'s hidden single: (cell, bit) of the lowest value that only one of its empty
    cells can take, (-1, 0) when none, (-2, 0) when a value it lacks has no place left in it;
    and the cells looked at."""
    once, twice, looked = 0, 0, 0
    for j in range(units.shape[1]):
        c = units[u, j]
        if values[c, t] == 0:
            m = cand[c, t]
            twice |= once & m
            once |= m
            looked += 1
    if full & ~(once | used[u, t]):
        return -2, 0, looked
    lone = int(once & ~twice)  # int: the lowest bit below, -lone, wraps in 16 bits
    if lone == 0:
        return -1, 0, looked
    bit = lone & -lone
    for j in range(units.shape[1]):
        c = units[u, j]
        if values[c, t] == 0 and cand[c, t] & bit:
            return int(c), bit, looked
    return -1, 0, looked


@lru_cache(maxsize=16)
def compiled(cells: int, unit_count: int, size: int, width: int, threads: int):
    """The kernel for boards of ``cells`` cells and ``unit_count`` units of ``size`` cells,
    each cell in at most ``width - 1`` units, launched with ``threads`` threads a block. Its
    arguments are ``kernel.search``'s."""
    mask = types.uint16 if size <= 16 else types.uint32

    @cuda.jit
    def search(puzzles, count_, n, units_in, cell_units_in, limit, budget, slice_work,
               first, values_out, used_out, trail, mark, cell, left, regs, solutions,
               pending):  # fmt: skip
        units = cuda.shared.array((unit_count, size), types.int16)
        cell_units = cuda.shared.array((cells, width), types.int16)
        values = cuda.shared.array((cells, threads), types.uint8)
        used = cuda.shared.array((unit_count, threads), mask)
        cand = cuda.shared.array((cells, threads), mask)
        t = cuda.threadIdx.x
        for i in range(t, unit_count * size, threads):  # the tables, once a block
            units[i // size, i % size] = units_in[i // size, i % size]
        for i in range(t, cells * width, threads):
            cell_units[i // width, i % width] = cell_units_in[i // width, i % width]
        cuda.syncthreads()
        p = cuda.grid(1)
        if p >= count_:
            return
        full = (1 << n) - 1
        if first:
            phase = _start(t, p, puzzles, n, cell_units, values, used)
            regs[PHASE, p] = phase
            for r in range(1, REGISTERS):
                regs[r, p] = 0
            if phase != PAUSED:
                return
        elif regs[PHASE, p] != PAUSED:
            return
        else:  # the board as the last launch left it
            for c in range(cells):
                values[c, t] = values_out[c, p]
            for u in range(unit_count):
                used[u, t] = used_out[u, p]
        _refresh(t, full, values, used, cand, cell_units)
        depth, tlen, found = regs[DEPTH, p], regs[TRAIL, p], regs[COUNT, p]
        guesses, nodes, work = regs[GUESSES, p], regs[NODES, p], regs[WORK, p]
        stop = work + slice_work
        if stop > budget:
            stop = budget
        phase = PAUSED
        while work < stop:
            nodes += 1
            alive, changed, best, fewest, best_mask = True, True, -1, 64, 0
            while changed and alive:  # singles to a fixpoint, and the cell to branch on
                changed, best, fewest = False, -1, 64
                for c in range(cells):  # naked singles: a cell with one candidate
                    if values[c, t] != 0:
                        continue
                    work += 1
                    m = cand[c, t]
                    k = cuda.popc(m)
                    if k == 0:
                        alive = False
                        break
                    if k == 1:
                        tlen = _place(t, p, c, m, full, values, used, cand, trail, tlen, units,
                                      cell_units)  # fmt: skip
                        changed = True
                    elif k < fewest:
                        best, fewest, best_mask = c, k, m
                for u in range(unit_count if alive and not changed else 0):
                    # hidden singles: a value with one place left in a unit (one a unit a round)
                    c, bit, looked = _hidden(t, u, full, units, values, used, cand)
                    work += looked
                    if c == -2:
                        alive = False
                        break
                    if c >= 0:
                        tlen = _place(t, p, c, bit, full, values, used, cand, trail, tlen, units,
                                      cell_units)  # fmt: skip
                        changed = True
            if alive and best < 0:  # every cell filled: a solution
                found += 1
                if found == 1:
                    for c in range(cells):
                        solutions[p, c] = values[c, t]
                if found >= limit:
                    phase = DONE
                    break
                alive = False  # look on for the next one
            if alive:  # branch: the fewest candidates' first value, the rest kept on the stack
                low = int(best_mask)
                bit = low & -low
                mark[depth, p], cell[depth, p], left[depth, p] = tlen, best, best_mask ^ bit
                depth += 1
                guesses += 1
                tlen = _place(
                    t, p, best, bit, full, values, used, cand, trail, tlen, units, cell_units
                )
                continue
            while depth > 0:  # back to the deepest level with a value left to try
                tlen = _undo(t, p, mark[depth - 1, p], full, values, used, trail, tlen, cell_units)
                rest = left[depth - 1, p]
                if rest != 0:
                    rest = int(rest)
                    bit = rest & -rest
                    left[depth - 1, p] = rest ^ bit
                    guesses += 1
                    _refresh(t, full, values, used, cand, cell_units)
                    back = cell[depth - 1, p]
                    tlen = _place(t, p, back, bit, full, values, used, cand, trail, tlen, units,
                                  cell_units)  # fmt: skip
                    break
                depth -= 1
            if depth == 0:
                phase = DONE
                break
        if phase == PAUSED:  # the board for the next launch
            for c in range(cells):
                values_out[c, p] = values[c, t]
            for u in range(unit_count):
                used_out[u, p] = used[u, t]
        regs[PHASE, p], regs[DEPTH, p], regs[TRAIL, p], regs[COUNT, p] = phase, depth, tlen, found
        regs[GUESSES, p], regs[NODES, p], regs[WORK, p] = guesses, nodes, work
        if phase == PAUSED and work < budget:
            cuda.atomic.add(pending, 0, 1)

    return search
