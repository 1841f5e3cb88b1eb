"""Sum bounds for the constrained kernel's linear rows (ISS's ``SumHandler``), beside the
watchers (``watch``) that call them.

- ``bounds``: the least and greatest of one term, k * v over a cell's candidates;
- ``grouped``: bounds with exclusion groups: k cells that all see each other add up to at
  least the k smallest values of their union and at most the k largest (``_least``,
  ``_most``), and a value stays where the rest of its group and the other groups can still
  meet the constant;
- ``few``: arc consistency on an == row once two or three of its cells are free
  (``_enforceFewRemainingCells``).

Each narrows through ``propagate._remove`` and answers as the watchers do: a status (-1 on a
contradiction, else how many cells lost candidates), the queue and dirty units, the work.
A row of ``lin`` is ``constraints._linears``': [op, constant, terms, (coefficient, cell)...,
the exclusion group of each term..., groups of two or more cells].
"""

from __future__ import annotations

import numba

from solvers.backends.handwritten.native.bits import highbit_index, lowbit_index
from solvers.backends.handwritten.native.propagate import _remove

EQ, NE, LE, GE = range(4)  # constraints.OPS


@numba.njit(cache=True, inline="always")
def bounds(k, mask):
    """The least and greatest of k * v over the candidates v of ``mask``."""
    small = k * (lowbit_index(mask) + 1)
    big = k * (highbit_index(mask) + 1)
    return (small, big) if k > 0 else (big, small)


@numba.njit(cache=True, inline="always")
def _least(mask, k):
    """The sum of the ``k`` smallest values of ``mask``, or -1 when it has fewer."""
    total = 0
    for _ in range(k):
        if mask == 0:
            return -1
        total += lowbit_index(mask) + 1
        mask &= mask - 1
    return total


@numba.njit(cache=True, inline="always")
def _most(mask, k):
    """The sum of the ``k`` largest values of ``mask``, or -1 when it has fewer."""
    total = 0
    for _ in range(k):
        if mask == 0:
            return -1
        top = highbit_index(mask)
        total += top + 1
        mask ^= 1 << top
    return total


@numba.njit(cache=True)
def _group(row, i, j, lin, at):
    """(the union of the candidates of the other cells of term ``j``'s exclusion group, how
    many they are); the group of term j is at ``lin[i, at + j]``."""
    union, size = 0, 0
    for e in range(lin[i, 2]):
        if e != j and lin[i, at + e] == lin[i, at + j]:
            union |= row[lin[i, 4 + 2 * e]]
            size += 1
    return union, size


@numba.njit(cache=True)
def grouped(row, i, queue, qn, d0, d1, unit_bits, lin):
    """Bounds on linear row ``i`` with its exclusion groups (ISS's ``SumHandler``): the cells
    of a group differ, so k of them add up to at least the k smallest values of their union
    and at most the k largest; a value stays where the other groups' bounds and the rest of
    its own group, without that value, can still meet the constant."""
    op, constant, terms = lin[i, 0], lin[i, 1], lin[i, 2]
    at = 3 + 2 * ((lin.shape[1] - 4) // 3)
    upper, lower = op != GE, op != LE
    lo, hi = 0, 0
    for j in range(terms):
        union, size = _group(row, i, j, lin, at)
        k, mask = lin[i, 3 + 2 * j], row[lin[i, 4 + 2 * j]]
        if size == 0:
            small, big = bounds(k, mask)
        else:  # each group counted once, from its first term
            first = True
            for e in range(j):
                if lin[i, at + e] == lin[i, at + j]:
                    first = False
                    break
            if not first:
                continue
            union |= mask
            small, big = _least(union, size + 1), _most(union, size + 1)
            if small < 0:
                return -1, qn, d0, d1, terms
        lo += small
        hi += big
    if (upper and lo > constant) or (lower and hi < constant):
        return -1, qn, d0, d1, terms
    if (not upper or hi <= constant) and (not lower or lo >= constant):
        return 0, qn, d0, d1, terms  # every value of every cell fits
    removed = 0
    for j in range(terms):
        k, cell = lin[i, 3 + 2 * j], lin[i, 4 + 2 * j]
        mask = row[cell]
        others, size = _group(row, i, j, lin, at)
        if size == 0:
            small, big = bounds(k, mask)
        else:
            union = others | mask
            small, big = _least(union, size + 1), _most(union, size + 1)
        drop = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            kv = k * (lowbit_index(low) + 1)
            least, most = kv, kv
            if size:
                fewest, largest = _least(others & ~low, size), _most(others & ~low, size)
                if fewest < 0:
                    drop |= low
                    continue
                least, most = kv + fewest, kv + largest
            if (upper and least - small > constant - lo) or (lower and big - most > hi - constant):
                drop |= low
        status, qn, d0, d1 = _remove(row, cell, drop, queue, qn, d0, d1, unit_bits)
        if status < 0:
            return -1, qn, d0, d1, 4 * terms
        removed += status
    return removed, qn, d0, d1, 4 * terms


@numba.njit(cache=True, inline="always")
def _value_of(k, need, n):
    """The bit of the value v with k * v == need, or 0 when there is none in 1..n."""
    if need % k != 0 or not 1 <= need // k <= n:
        return 0
    return 1 << (need // k - 1)


@numba.njit(cache=True)
def few(row, i, queue, qn, d0, d1, unit_bits, lin, n):
    """Arc consistency on == row ``i`` once two or three of its cells are free (ISS's
    ``SumHandler._enforceFewRemainingCells``): each value stays where values of the others
    meet the constant with it, different ones in one exclusion group. Status -2 when more
    than three cells are free (bounds do the rest)."""
    at = 3 + 2 * ((lin.shape[1] - 4) // 3)
    need = lin[i, 1]
    free = 0
    j0, j1, j2 = -1, -1, -1
    for j in range(lin[i, 2]):
        mask = row[lin[i, 4 + 2 * j]]
        if mask & (mask - 1):
            free += 1
            if free > 3:
                return -2, qn, d0, d1, 0
            if j0 < 0:
                j0 = j
            elif j1 < 0:
                j1 = j
            else:
                j2 = j
        else:
            need -= lin[i, 3 + 2 * j] * (lowbit_index(mask) + 1)
    if free < 2:
        return -2, qn, d0, d1, 0
    k0, k1 = lin[i, 3 + 2 * j0], lin[i, 3 + 2 * j1]
    c0, c1 = lin[i, 4 + 2 * j0], lin[i, 4 + 2 * j1]
    m0, m1 = row[c0], row[c1]
    apart01 = lin[i, at + j0] == lin[i, at + j1]
    s0, s1, s2 = 0, 0, 0
    work, removed = 0, 0
    if free == 2:
        rest = m0
        while rest:
            b0 = rest & -rest
            rest ^= b0
            b1 = _value_of(k1, need - k0 * (lowbit_index(b0) + 1), n) & m1
            if b1 and not (apart01 and b0 == b1):
                s0 |= b0
                s1 |= b1
            work += 1
    else:
        k2, c2 = lin[i, 3 + 2 * j2], lin[i, 4 + 2 * j2]
        m2 = row[c2]
        apart02 = lin[i, at + j0] == lin[i, at + j2]
        apart12 = lin[i, at + j1] == lin[i, at + j2]
        rest0 = m0
        while rest0:
            b0 = rest0 & -rest0
            rest0 ^= b0
            left = need - k0 * (lowbit_index(b0) + 1)
            rest1 = m1
            while rest1:
                b1 = rest1 & -rest1
                rest1 ^= b1
                work += 1
                if apart01 and b0 == b1:
                    continue
                b2 = _value_of(k2, left - k1 * (lowbit_index(b1) + 1), n) & m2
                if b2 and not (apart02 and b0 == b2) and not (apart12 and b1 == b2):
                    s0 |= b0
                    s1 |= b1
                    s2 |= b2
        status, qn, d0, d1 = _remove(row, c2, ~s2, queue, qn, d0, d1, unit_bits)
        if status < 0:
            return -1, qn, d0, d1, work
        removed += status
    status, qn, d0, d1 = _remove(row, c0, ~s0, queue, qn, d0, d1, unit_bits)
    if status < 0:
        return -1, qn, d0, d1, work
    removed += status
    status, qn, d0, d1 = _remove(row, c1, ~s1, queue, qn, d0, d1, unit_bits)
    if status < 0:
        return -1, qn, d0, d1, work
    return removed + status, qn, d0, d1, work
