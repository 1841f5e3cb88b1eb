"""The classic 9x9 kernel (``gpu:kernel=band``): native's band representation, one CUDA thread
a puzzle.

A puzzle's state is 30 words: per digit and band of three rows, the 27 cells of the band that
may still hold the digit, then the solved cells of each band (``solvers.model.bands``, after
Zhouyundong's JCZSolve). Propagation is the band kernel's of ``native`` (``band9``), written
again here for the device: per digit, the rows and boxes of a band and the bands and columns
of a stack matched one to one by table lookups (hidden singles and locked candidates both
ways), a row left with one cell placed, naked singles from bit-sliced counts of a band's
nine words; the branch is native's too (the busiest cell with two digits left, else the first
with the fewest), digits ascending. So the first solution found, the counts, guesses and nodes
are native's band kernel's, as the tests check.

Each thread works on its node in a local array of 30 words; the states of the levels above
it and their branches (band, cell, digits not tried) are in device memory, in columns (item
k of every puzzle side by side). ``LEVELS`` levels are kept: a search that would go deeper
stops as OVERFLOW and the batcher searches that puzzle again with the shared kernel, so
every puzzle is answered. The four tables (512 entries each) are copied into each block's
shared memory once. A thread stops after a slice of work and leaves its registers in device
memory, as the other kernels do (``kernel``), so the host looks at its deadline between
launches.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import cuda, types

from adapters.gpu.kernel import (
    COUNT,
    DEPTH,
    DONE,
    GUESSES,
    INVALID,
    NODES,
    PAUSED,
    PHASE,
    REGISTERS,
    TRAIL,
    WORK,
)
from solvers.model.bands import FULL27, band_tables

OVERFLOW = 4  # a phase: the search went deeper than LEVELS (the batcher hands it on)
LEVELS = 32  # branch levels kept a puzzle (30 words each, in device memory)
CHOOSE = TRAIL  # the register that says a branch is to be chosen at the current level
THREADS = 64  # threads a block
# Work units charged per step, as native's band kernel charges them
DIGIT_WORK, PLACE_WORK, NAKED_WORK, NODE_WORK = 48, 18, 54, 60


@lru_cache(maxsize=1)
def tables() -> np.ndarray:
    """SHRINK9, MATCH9, COMPLEX9 and COLS27 as the rows of one (4, 512) int32 array."""
    shrink, match, complex9, cols27, *_ = band_tables()
    return np.array([shrink, match, complex9, cols27], np.int32)


@cuda.jit(device=True, inline=True)
def _low(x):
    """The index of the lowest set bit of ``x`` (not 0)."""
    return cuda.popc((x & -x) - 1)


@cuda.jit(device=True, inline=True)
def _minirows(w, tab):
    return tab[0, w & 511] | tab[0, (w >> 9) & 511] << 3 | tab[0, w >> 18] << 6


@cuda.jit(device=True, inline=True)
def _digit(f, d, tab):
    """Digit d's three band words to a fixpoint of both matchings; False on a contradiction."""
    k = 3 * d
    a, b, c = f[k], f[k + 1], f[k + 2]
    while True:
        a &= tab[2, _minirows(a, tab)]
        b &= tab[2, _minirows(b, tab)]
        c &= tab[2, _minirows(c, tab)]
        if a == 0 or b == 0 or c == 0:
            return False
        ca = (a | a >> 9 | a >> 18) & 511
        cb = (b | b >> 9 | b >> 18) & 511
        cc = (c | c >> 9 | c >> 18) & 511
        la, lb, lc = 0, 0, 0
        for s in range(0, 9, 3):
            v = tab[1, (ca >> s) & 7 | ((cb >> s) & 7) << 3 | ((cc >> s) & 7) << 6]
            if v == 0:
                return False
            la |= (v & 7) << s
            lb |= ((v >> 3) & 7) << s
            lc |= ((v >> 6) & 7) << s
        a2, b2, c2 = a & tab[3, la], b & tab[3, lb], c & tab[3, lc]
        if a2 == a and b2 == b and c2 == c:
            break
        a, b, c = a2, b2, c2
    f[k], f[k + 1], f[k + 2] = a, b, c
    return True


@cuda.jit(device=True, inline=True)
def _single_rows(w):
    """The cells of a band word that are alone in their row."""
    x, y, z = w & 511, (w >> 9) & 511, w >> 18
    found = 0
    if x & (x - 1) == 0:
        found |= x
    if y & (y - 1) == 0:
        found |= y << 9
    if z & (z - 1) == 0:
        found |= z << 18
    return found


@cuda.jit(device=True, inline=True)
def _rows_of(w):
    """The rows of a band word that hold any of its cells."""
    rows = 0
    for r in range(3):
        if w & (511 << (9 * r)):
            rows |= 511 << (9 * r)
    return rows


@cuda.jit(device=True, inline=True)
def _rows_placed(f, d, dirty):
    """Rows where digit d has one cell left: placed, the cells leave the other digits (which
    become dirty). (dirty, work)."""
    work = 0
    for b in range(3):
        new = _single_rows(f[3 * d + b]) & ~f[27 + b]
        if new:
            f[27 + b] |= new
            work += PLACE_WORK * cuda.popc(new)
            own = f[3 * d + b]
            for e in range(9):
                x = f[3 * e + b]
                y = x & ~new
                if y != x and e != d:
                    dirty |= 1 << e
                f[3 * e + b] = y
            f[3 * d + b] = own
    return dirty, work


@cuda.jit(device=True, inline=True)
def _naked(f):
    """Cells with one digit left keep it and it leaves their row; the dirty digits, or -1 when
    a cell has no digit left or two cells of a row have the same one."""
    dirty = 0
    for b in range(3):
        ones, twos = 0, 0
        for e in range(9):
            x = f[3 * e + b]
            twos |= ones & x
            ones |= x
        if ones != FULL27:
            return -1
        single = ones & ~twos & ~f[27 + b]
        if single:
            for e in range(9):
                x = f[3 * e + b]
                s = x & single
                if s:
                    if _single_rows(s) != s:
                        return -1
                    f[3 * e + b] = x & (~_rows_of(s) | s)
                    dirty |= 1 << e
    return dirty


@cuda.jit(device=True, inline=True)
def _propagate(f, dirty, tab):
    """Every rule to a fixpoint from the digits in ``dirty``: the work, or -1 on a
    contradiction."""
    work = 0
    while True:
        while dirty:
            d = _low(dirty)
            dirty &= dirty - 1
            work += DIGIT_WORK
            if not _digit(f, d, tab):
                return -1
            dirty, w = _rows_placed(f, d, dirty)
            work += w
        work += NAKED_WORK
        dirty = _naked(f)
        if dirty < 0:
            return -1
        if dirty == 0:
            return work


@cuda.jit(device=True, inline=True)
def _place(f, b, i, d):
    """Digit d into cell i of band b; the digits that changed, as a bit set."""
    bit = 1 << i
    keep = f[3 * d + b] & (~(511 << (9 * (i // 9))) | bit)
    dirty = 1 << d
    for e in range(9):
        x = f[3 * e + b]
        y = x & ~bit
        if y != x:
            dirty |= 1 << e
        f[3 * e + b] = y
    f[3 * d + b] = keep
    return dirty


@cuda.jit(device=True, inline=True)
def _start(puzzles, p, f, tab):
    """Puzzle p's givens into ``f``, propagated: the work, -1 when they contradict each other,
    -2 for a value over 9."""
    for k in range(30):
        f[k] = 0
    for cell in range(81):
        v = puzzles[p, cell]
        if v > 9:
            return -2
        if v:
            bit = 1 << (cell % 27)
            f[3 * (v - 1) + cell // 27] |= bit
            f[27 + cell // 27] |= bit
    for b in range(3):
        free = FULL27 & ~f[27 + b]
        for e in range(9):
            own = f[3 * e + b]
            if _single_rows(own) != own:  # a digit given twice in a row
                return -1
            f[3 * e + b] = (free & ~_rows_of(own)) | own
        f[27 + b] = 0  # the solved cells: propagation marks them, the givens among them
    return _propagate(f, (1 << 9) - 1, tab)


@cuda.jit(device=True, inline=True)
def _bivalue(f, b, unsolved):
    """The cells of band b with exactly two digits left."""
    ones, twos, threes = 0, 0, 0
    for e in range(9):
        x = f[3 * e + b]
        threes |= twos & x
        twos |= ones & x
        ones |= x
    return twos & ~threes & unsolved


@cuda.jit(device=True, inline=True)
def _choose(f):
    """The cell to branch on: (True, band, index, digits), the busiest bivalue cell (the most
    unsolved plus bivalue peers), else the first with the fewest digits; (False, ...) when
    every cell is solved."""
    u0, u1, u2 = FULL27 & ~f[27], FULL27 & ~f[28], FULL27 & ~f[29]
    if u0 == 0 and u1 == 0 and u2 == 0:
        return False, 0, 0, 0
    t0, t1, t2 = _bivalue(f, 0, u0), _bivalue(f, 1, u1), _bivalue(f, 2, u2)
    best_b, best_i = 0, 0
    if t0 | t1 | t2:
        best = -1
        for b in range(3):
            if b == 0:
                m, ub, tb, uo, to = t0, u0, t0, u1 | u2, t1 | t2
            elif b == 1:
                m, ub, tb, uo, to = t1, u1, t1, u0 | u2, t0 | t2
            else:
                m, ub, tb, uo, to = t2, u2, t2, u0 | u1, t0 | t1
            while m:
                i = _low(m)
                m &= m - 1
                near = ((511 << (9 * (i // 9))) | (0o7007007 << (3 * (i % 9 // 3)))) & ~(1 << i)
                col = 0x40201 << (i % 9)
                score = (
                    cuda.popc(ub & near)
                    + cuda.popc(uo & col)
                    + cuda.popc(tb & near)
                    + cuda.popc(to & col)
                )
                if score > best:
                    best, best_b, best_i = score, b, i
    else:
        fewest = 10
        for b in range(3):
            m = u0 if b == 0 else (u1 if b == 1 else u2)
            while m:
                i = _low(m)
                m &= m - 1
                count = 0
                for e in range(9):
                    count += (f[3 * e + b] >> i) & 1
                if count < fewest:
                    fewest, best_b, best_i = count, b, i
    digits = 0
    for e in range(9):
        digits |= ((f[3 * e + best_b] >> best_i) & 1) << e
    return True, best_b, best_i, digits


@cuda.jit(device=True, inline=True)
def _solution(f, solutions, p):
    for k in range(27):
        w = f[k]
        base = (k % 3) * 27
        while w:
            solutions[p, base + _low(w)] = k // 3 + 1
            w &= w - 1


@cuda.jit(device=True, inline=True)
def _load(f, states, level, p):
    for k in range(30):
        f[k] = states[30 * level + k, p]


@cuda.jit(device=True, inline=True)
def _store(f, states, level, p):
    for k in range(30):
        states[30 * level + k, p] = f[k]


@cuda.jit
def search(puzzles, count_, tables_in, limit, slice_work, first, states, branch, regs, solutions,
           pending):  # fmt: skip
    """Run the search of each of the first ``count_`` puzzles for up to ``slice_work`` units,
    counting its solutions up to ``limit`` and keeping the first in ``solutions`` (P, 81).
    ``states`` (30 * (LEVELS + 1), P): the state of each level; ``branch`` (3 * (LEVELS + 1),
    P): each level's band, cell and digits not tried. ``first``: the puzzles' first launch.
    ``pending[0]`` counts the puzzles left PAUSED."""
    tab = cuda.shared.array((4, 512), types.int32)
    for i in range(cuda.threadIdx.x, 4 * 512, cuda.blockDim.x):  # the tables, once a block
        tab[i // 512, i % 512] = tables_in[i // 512, i % 512]
    cuda.syncthreads()
    p = cuda.grid(1)
    if p >= count_:
        return
    f = cuda.local.array(30, types.int32)
    if first:
        for r in range(1, REGISTERS):
            regs[r, p] = 0
        work = _start(puzzles, p, f, tab)
        if work == -2:
            regs[PHASE, p] = INVALID
            return
        if work < 0:
            regs[PHASE, p] = DONE
            return
        regs[WORK, p] = work
        regs[CHOOSE, p] = 1
        _store(f, states, 0, p)
    elif regs[PHASE, p] != PAUSED:
        return
    depth, choose, found = regs[DEPTH, p], regs[CHOOSE, p] != 0, regs[COUNT, p]
    guesses, nodes, work = regs[GUESSES, p], regs[NODES, p], regs[WORK, p]
    stop = work + slice_work
    phase = DONE
    if choose:
        _load(f, states, depth, p)
    while depth >= 0:
        if choose:  # f holds the state of level ``depth``
            choose = False
            more, b, i, digits = _choose(f)
            if more:
                guesses += 1
                branch[3 * depth, p], branch[3 * depth + 1, p] = b, i
                branch[3 * depth + 2, p] = digits
            else:
                if found == 0:
                    _solution(f, solutions, p)
                found += 1
                if found >= limit:
                    break
                depth -= 1
                continue
        values = branch[3 * depth + 2, p]
        if values == 0:
            depth -= 1
            continue
        bit = values & -values
        branch[3 * depth + 2, p] = values ^ bit
        nodes += 1
        _load(f, states, depth, p)
        done = _propagate(f, _place(f, branch[3 * depth, p], branch[3 * depth + 1, p], _low(bit)),
                          tab)  # fmt: skip
        work += NODE_WORK
        if done >= 0:
            work += done
            if depth + 1 > LEVELS:
                phase = OVERFLOW
                break
            depth += 1
            _store(f, states, depth, p)
            choose = True
        if work >= stop:
            phase = PAUSED
            break
    regs[PHASE, p], regs[DEPTH, p], regs[CHOOSE, p] = phase, depth, 1 if choose else 0
    regs[WORK, p], regs[COUNT, p], regs[NODES, p], regs[GUESSES, p] = work, found, nodes, guesses
    if phase == PAUSED:
        cuda.atomic.add(pending, 0, 1)
