"""The classic 9x9 fast path: per digit and band of three rows, a 27-bit word of the cells that
may still hold the digit (27 words, then the solved cells of each band: a 240-byte state).

For one digit, within a band the three rows and the three boxes must be matched one to one: a
512-entry table (``COMPLEX9``) keeps only the mini-rows that lie on some perfect matching; within
a stack the bands and the three columns likewise (``MATCH9``). These two steps are hidden singles
in rows, columns and boxes and locked candidates both ways, in a few table lookups. A row left
with one cell places the digit there; naked singles come from bit-sliced counts of a band's nine
words. After Zhouyundong's representation in JCZSolve; the tables are derived in
``solvers.model.bands``. It finds what the general kernel finds with locked candidates, in about
half the time (docs/native.md).
"""

from __future__ import annotations

from solvers.backends.handwritten.native.bits import lowbit_index, popcount
from solvers.backends.handwritten.native.cache import numba
from solvers.model.bands import FULL27, band_tables

# Work units charged per step, in line with the general kernel's one per mask read.
DIGIT_WORK, PLACE_WORK, NAKED_WORK, NODE_WORK = 48, 18, 54, 60
SHRINK9, MATCH9, COMPLEX9, COLS27, ROW27, COL27, ROWBOX27 = band_tables()


@numba.njit(cache=True, inline="always")
def _minirows(w):
    return SHRINK9[w & 511] | SHRINK9[(w >> 9) & 511] << 3 | SHRINK9[w >> 18] << 6


@numba.njit(cache=True, inline="always")
def _stacks(a, b, c):
    """The band/column matching of one digit's three band words, stack by stack: the columns
    each band keeps, or a band left with none (-1)."""
    ca = (a | a >> 9 | a >> 18) & 511
    cb = (b | b >> 9 | b >> 18) & 511
    cc = (c | c >> 9 | c >> 18) & 511
    la = 0
    lb = 0
    lc = 0
    for s in range(0, 9, 3):
        v = MATCH9[(ca >> s) & 7 | ((cb >> s) & 7) << 3 | ((cc >> s) & 7) << 6]
        if v == 0:
            return -1, 0, 0
        la |= (v & 7) << s
        lb |= ((v >> 3) & 7) << s
        lc |= ((v >> 6) & 7) << s
    return la, lb, lc


@numba.njit(cache=True, inline="always")
def digit9(F, d):
    """Digit d's three band words to a fixpoint of both matchings. False on a contradiction.

    Each matching is idempotent (what it keeps lies on a matching of what it keeps), so when
    the band/column step removes nothing, the row/box step just applied has nothing left to
    remove either: the fixpoint is reached without another pass of both."""
    k = 3 * d
    a = F[k]
    b = F[k + 1]
    c = F[k + 2]
    while True:
        a = a & COMPLEX9[_minirows(a)]
        b = b & COMPLEX9[_minirows(b)]
        c = c & COMPLEX9[_minirows(c)]
        if a == 0 or b == 0 or c == 0:
            return False
        la, lb, lc = _stacks(a, b, c)
        if la < 0:
            return False
        a2 = a & COLS27[la]
        b2 = b & COLS27[lb]
        c2 = c & COLS27[lc]
        if a2 == a and b2 == b and c2 == c:
            break
        a = a2
        b = b2
        c = c2
    F[k] = a
    F[k + 1] = b
    F[k + 2] = c
    return True


@numba.njit(cache=True, inline="always")
def _single_rows(w):
    """The cells of a band word that are alone in their row."""
    x = w & 511
    y = (w >> 9) & 511
    z = w >> 18
    return (
        (x if x & (x - 1) == 0 else 0)
        | (y << 9 if y & (y - 1) == 0 else 0)
        | (z << 18 if z & (z - 1) == 0 else 0)
    )


@numba.njit(cache=True, inline="always")
def _rows_of(w):
    """The rows of a band word that hold any of its cells."""
    return (
        (ROW27[0] if w & ROW27[0] else 0)
        | (ROW27[1] if w & ROW27[1] else 0)
        | (ROW27[2] if w & ROW27[2] else 0)
    )


@numba.njit(cache=True, inline="always")
def _rows_placed(F, d, dirty):
    """Rows where digit d has one cell left: the digit is placed there and the cells leave
    the other digits (which become dirty). Returns (dirty, work). A band's new cells leave
    its nine words in one pass that branches on no digit: a branch per cell and digit,
    mispredicted, cost more than the work (docs/native.md, "Branches, not work")."""
    work = 0
    for b in range(3):
        new = _single_rows(F[3 * d + b]) & ~F[27 + b]
        if new:
            F[27 + b] |= new
            work += PLACE_WORK * popcount(new)
            own = F[3 * d + b]
            changed = 0
            for e in range(9):
                x = F[3 * e + b]
                y = x & ~new
                changed |= (y != x) << e
                F[3 * e + b] = y
            F[3 * d + b] = own
            dirty |= changed & ~(1 << d)
    return dirty, work


@numba.njit(cache=True, inline="always")
def _naked9(F, dirty):
    """Cells with one digit left keep it and it leaves their row (the rest follows in digit9);
    the dirty digits, or -1 when a cell has no digit left or two cells of a row have the
    same one. Digit by digit (its single cells at once), without a branch per cell: the
    branches a cell-by-cell loop mispredicts cost more than the work."""
    for b in range(3):
        ones = 0
        twos = 0
        for e in range(9):
            x = F[3 * e + b]
            twos |= ones & x
            ones |= x
        if ones != FULL27:
            return -1
        single = ones & ~twos & ~F[27 + b]
        if single:
            for e in range(9):
                x = F[3 * e + b]
                s = x & single
                if s:
                    rows = _rows_of(s)
                    if _single_rows(s) != s:
                        return -1
                    F[3 * e + b] = x & (~rows | s)
                    dirty |= 1 << e
    return dirty


@numba.njit(cache=True, inline="always")
def propagate9(F, dirty):
    """Every rule to a fixpoint, starting from the digits in ``dirty``; the work done, or -1
    on a contradiction."""
    work = 0
    while True:
        while dirty:
            d = lowbit_index(dirty)
            dirty &= dirty - 1
            work += DIGIT_WORK
            if not digit9(F, d):
                return -1
            dirty, w = _rows_placed(F, d, dirty)
            work += w
        work += NAKED_WORK
        dirty = _naked9(F, 0)
        if dirty < 0:
            return -1
        if dirty == 0:
            return work


@numba.njit(cache=True, inline="always")
def place9(F, b, i, d):
    """Digit d into cell i of band b; the digits that changed, as a bit set."""
    bit = 1 << i
    keep = F[3 * d + b] & (~ROW27[i // 9] | bit)
    dirty = 1 << d
    for e in range(9):
        x = F[3 * e + b]
        y = x & ~bit
        dirty |= (y != x) << e
        F[3 * e + b] = y
    F[3 * d + b] = keep
    return dirty


@numba.njit(cache=True)
def start9(puzzle, F):
    """The givens into a fresh state; the work of the first propagation, or -1 when the givens
    contradict each other."""
    F[:] = 0
    for cell in range(81):  # each digit's givens in its band words, every given in F[27:]
        v = puzzle[cell]
        if v:
            bit = 1 << (cell % 27)
            F[3 * (v - 1) + cell // 27] |= bit
            F[27 + cell // 27] |= bit
    for b in range(3):
        free = FULL27 & ~F[27 + b]
        for e in range(9):
            own = F[3 * e + b]
            if _single_rows(own) != own:  # a digit given twice in a row
                return -1
            F[3 * e + b] = (free & ~_rows_of(own)) | own
        F[27 + b] = 0  # the solved cells: propagation marks them, the givens among them
    return propagate9(F, (1 << 9) - 1)


@numba.njit(cache=True, inline="always")
def _bivalue9(F, b, unsolved):
    """The cells of band b with exactly two digits left."""
    ones = 0
    twos = 0
    threes = 0
    for e in range(9):
        x = F[3 * e + b]
        threes |= twos & x
        twos |= ones & x
        ones |= x
    return twos & ~threes & unsolved


@numba.njit(cache=True)
def _busiest9(t0, t1, t2, u0, u1, u2):
    """The bivalue cell (band, index) with the most unsolved plus bivalue peers."""
    best = -1
    best_b = 0
    best_i = 0
    for b in range(3):
        if b == 0:
            m, ub, tb, uo, to = t0, u0, t0, u1 | u2, t1 | t2
        elif b == 1:
            m, ub, tb, uo, to = t1, u1, t1, u0 | u2, t0 | t2
        else:
            m, ub, tb, uo, to = t2, u2, t2, u0 | u1, t0 | t1
        while m:
            i = lowbit_index(m)
            m &= m - 1
            near = ROWBOX27[i]
            col = COL27[i % 9]
            score = (
                popcount(ub & near) + popcount(uo & col) + popcount(tb & near) + popcount(to & col)
            )
            if score > best:
                best = score
                best_b = b
                best_i = i
    return best_b, best_i


@numba.njit(cache=True)
def _fewest9(F, u0, u1, u2):
    """The first unsolved cell (band, index) with the fewest digits left."""
    fewest = 10
    best_b = 0
    best_i = 0
    for b in range(3):
        m = u0 if b == 0 else (u1 if b == 1 else u2)
        while m:
            i = lowbit_index(m)
            m &= m - 1
            count = 0
            for e in range(9):
                count += (F[3 * e + b] >> i) & 1
            if count < fewest:
                fewest = count
                best_b = b
                best_i = i
    return best_b, best_i


@numba.njit(cache=True)
def choose9(F, branch):
    """``branch`` = [band, index, digits] of the cell to branch on: the busiest bivalue cell,
    else a cell with the fewest digits. False when every cell is solved."""
    u0 = FULL27 & ~F[27]
    u1 = FULL27 & ~F[28]
    u2 = FULL27 & ~F[29]
    if u0 == 0 and u1 == 0 and u2 == 0:
        return False
    t0 = _bivalue9(F, 0, u0)
    t1 = _bivalue9(F, 1, u1)
    t2 = _bivalue9(F, 2, u2)
    if t0 | t1 | t2:
        b, i = _busiest9(t0, t1, t2, u0, u1, u2)
    else:
        b, i = _fewest9(F, u0, u1, u2)
    digits = 0
    for e in range(9):
        digits |= ((F[3 * e + b] >> i) & 1) << e
    branch[0] = b
    branch[1] = i
    branch[2] = digits
    return True


@numba.njit(cache=True)
def solution9(F, first):
    """The solved state's values into ``first``."""
    for k in range(27):
        w = F[k]
        base = (k % 3) * 27
        while w:
            first[base + lowbit_index(w)] = k // 3 + 1
            w &= w - 1
