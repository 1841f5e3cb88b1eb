"""The constrained kernel's propagators, one per primitive, and ``settle_all`` to a fixpoint.

Each propagator narrows the cells of one primitive (``constraints.Primitives``) and reports
its removals as the general kernel's rules do (``propagate``): through the single-cell
``queue``, the dirty units ``(d0, d1)`` and a status (-1 on a contradiction, else how many
cells lost candidates), with the work it did.

- relation: arc consistency, each cell keeps the values some value of the other allows;
- linear: bounds consistency for ==, <= and >= (a term keeps the values for which the other
  terms' bounds can still meet the constant); != once every cell but one is fixed;
- table: each cell keeps the values of the rows that every cell can still take; a table of
  value sets (a rellik cage's: its cells all differ, each row one set of as many values as
  cells) keeps the sets its cells can still cover, and places what every such set holds where
  one cell alone can take it.

``settle_all`` alternates the general kernel's ``settle`` with the propagators that watch a
cell whose candidates changed since they last ran (``seen`` holds each cell's candidates as
they were then), until neither changes anything. A propagator that finds a contradiction adds
one to the score of each of its cells (the search's dom/wdeg weights: ``search``).
"""

from __future__ import annotations

import numba

from solvers.backends.handwritten.native.bits import lowbit_index, popcount
from solvers.backends.handwritten.native.propagate import _remove, settle
from solvers.backends.handwritten.native.search import scores
from solvers.backends.handwritten.native.sum_bounds import EQ, GE, LE, NE, bounds, few, grouped


@numba.njit(cache=True, inline="always")
def _supported(row, cell, rel, r, at):
    """The union of ``rel[r, at + v]`` over the candidates v (bit index) of ``cell``."""
    allowed = 0
    mask = row[cell]
    while mask:
        low = mask & -mask
        allowed |= rel[r, at + lowbit_index(low)]
        mask ^= low
    return allowed


@numba.njit(cache=True)
def relation(row, r, queue, qn, d0, d1, unit_bits, rel):
    """Arc consistency on relation ``r`` (both ways). A cell with more candidates than any
    value of the other cell forbids supports every value there: nothing to look at (a
    non-consecutive pair is revised only once a cell is down to two candidates)."""
    n = (rel.shape[1] - 4) // 2
    a, b = rel[r, 0], rel[r, 1]
    s1 = 0
    if popcount(row[a]) <= rel[r, 2]:
        s1, qn, d0, d1 = _remove(
            row, b, ~_supported(row, a, rel, r, 4), queue, qn, d0, d1, unit_bits
        )
        if s1 < 0:
            return -1, qn, d0, d1, n
    s2 = 0
    if popcount(row[b]) <= rel[r, 3]:
        s2, qn, d0, d1 = _remove(
            row, a, ~_supported(row, b, rel, r, 4 + n), queue, qn, d0, d1, unit_bits
        )
    return (-1 if s2 < 0 else s1 + s2), qn, d0, d1, 2 + n


@numba.njit(cache=True)
def _not_equal(row, i, queue, qn, d0, d1, unit_bits, lin):
    """!=: with one cell left free, it loses the value that would meet the constant."""
    free = -1
    fixed = 0
    for j in range(lin[i, 2]):
        k, mask = lin[i, 3 + 2 * j], row[lin[i, 4 + 2 * j]]
        if mask & (mask - 1):
            if free >= 0:
                return 0, qn, d0, d1
            free = j
        else:
            fixed += k * (lowbit_index(mask) + 1)
    need = lin[i, 1] - fixed
    if free < 0:
        return (-1 if need == 0 else 0), qn, d0, d1
    k = lin[i, 3 + 2 * free]
    if need % k != 0 or not 1 <= need // k <= 63:
        return 0, qn, d0, d1
    bit = 1 << (need // k - 1)
    return _remove(row, lin[i, 4 + 2 * free], bit, queue, qn, d0, d1, unit_bits)


@numba.njit(cache=True)
def linear(row, i, queue, qn, d0, d1, unit_bits, lin, n):
    """Bounds consistency on linear row ``i``; arc consistency when it is == with two or
    three cells free (``sum_bounds.few``), with exclusion groups ``sum_bounds.grouped``."""
    op, constant, terms = lin[i, 0], lin[i, 1], lin[i, 2]
    if op == NE:
        status, qn, d0, d1 = _not_equal(row, i, queue, qn, d0, d1, unit_bits, lin)
        return status, qn, d0, d1, terms
    if op == EQ:
        status, qn, d0, d1, work = few(row, i, queue, qn, d0, d1, unit_bits, lin, n)
        if status != -2:
            return status, qn, d0, d1, work + terms
    if lin[i, lin.shape[1] - 1]:
        return grouped(row, i, queue, qn, d0, d1, unit_bits, lin)
    lo = 0
    hi = 0
    for j in range(terms):
        small, big = bounds(lin[i, 3 + 2 * j], row[lin[i, 4 + 2 * j]])
        lo += small
        hi += big
    upper = op != GE  # the sum must stay <= constant
    lower = op != LE  # the sum must stay >= constant
    if (upper and lo > constant) or (lower and hi < constant):
        return -1, qn, d0, d1, terms
    if (not upper or hi <= constant) and (not lower or lo >= constant):
        return 0, qn, d0, d1, terms  # every value of every cell fits
    removed = 0
    for j in range(terms):
        k, cell = lin[i, 3 + 2 * j], lin[i, 4 + 2 * j]
        small, big = bounds(k, row[cell])
        drop = 0
        mask = row[cell]
        while mask:
            low = mask & -mask
            kv = k * (lowbit_index(low) + 1)
            if (upper and kv - small > constant - lo) or (lower and big - kv > hi - constant):
                drop |= low
            mask ^= low
        status, qn, d0, d1 = _remove(row, cell, drop, queue, qn, d0, d1, unit_bits)
        if status < 0:
            return -1, qn, d0, d1, 2 * terms
        removed += status
    return removed, qn, d0, d1, 2 * terms


@numba.njit(cache=True)
def table(row, i, queue, qn, d0, d1, t, head, rows, acc):
    """Table ``i``: each cell keeps the values of the rows still open to every cell. A table of
    value sets (``_set_row``) reads its rows as sets, and places what each open set holds."""
    first, count, width = head[i, 0], head[i, 1], head[i, 2]
    sets = head[i, head.shape[1] - 1]
    need = _needed(row, i, head, t) if sets else 0
    required = -1
    acc[:width] = 0
    for r in range(first, first + count):
        supply = 0
        for j in range(width):
            mask = row[head[i, 3 + j]] & rows[r, j]
            if mask == 0:
                break
            supply |= mask
        else:
            if sets and not _set_row(row, i, head, rows[r, 0], supply, need):
                continue
            required &= supply
            for j in range(width):
                acc[j] |= rows[r, j]
    removed = 0
    for j in range(width):
        status, qn, d0, d1 = _remove(row, head[i, 3 + j], ~acc[j], queue, qn, d0, d1, t.unit_bits)
        if status < 0:
            return -1, qn, d0, d1, count * width
        removed += status
    if sets:
        status, qn, d0, d1 = _place_required(row, i, head, required, queue, qn, d0, d1, t)
        if status < 0:
            return -1, qn, d0, d1, count * width
        removed += status
    return removed, qn, d0, d1, count * width


@numba.njit(cache=True)
def _set_row(row, i, head, values, supply, need):
    """Whether a table of value sets (its cells all differ, each row one set of as many values
    as cells) may still take the set ``values``, whose values its cells can take are
    ``supply``: every value of it has a place (``supply`` is all of it), every value a unit
    can put only among the table's cells (``need``) is in it, and no k cells hold fewer than k
    of its values between them (ISS's ``Rellik``: the values forced into the cage)."""
    if supply != values or need & ~values:
        return False
    width = head[i, 2]
    for j in range(width):
        mask = row[head[i, 3 + j]] & values
        within = 0
        for k in range(width):
            if row[head[i, 3 + k]] & values & ~mask == 0:
                within += 1
        if within > popcount(mask):
            return False
    return True


@numba.njit(cache=True)
def _needed(row, i, head, t):
    """The values some unit can put only among table ``i``'s cells (ISS's
    ``HouseRequiredRellik``): those no cell of the unit outside the table can take."""
    width = head[i, 2]
    n = t.units.shape[1]
    need = 0
    for j in range(width):
        cell = head[i, 3 + j]
        for k in range(1, t.cell_units[cell, 0] + 1):
            u = t.cell_units[cell, k]
            seen = False  # the unit was looked at from an earlier cell of the table
            for e in range(j):
                if (t.unit_bits[head[i, 3 + e], u >> 6] >> (u & 63)) & 1:
                    seen = True
                    break
            if seen:
                continue
            outside = 0
            for m in range(n):
                other = t.units[u, m]
                inside = False
                for e in range(width):
                    if head[i, 3 + e] == other:
                        inside = True
                        break
                if not inside:
                    outside |= row[other]
            need |= ~outside
    return need & ((1 << n) - 1)


@numba.njit(cache=True)
def _place_required(row, i, head, required, queue, qn, d0, d1, t):
    """Each value that every open set of table ``i`` holds, where one cell of it alone can
    take it, goes there (-1 when no cell can)."""
    width = head[i, 2]
    removed = 0
    while required != 0:
        bit = required & -required
        required &= required - 1
        only = -1
        for j in range(width):
            if row[head[i, 3 + j]] & bit:
                only = head[i, 3 + j] if only == -1 else -2
        if only == -1:
            return -1, qn, d0, d1
        if only >= 0:
            status, qn, d0, d1 = _remove(row, only, ~bit, queue, qn, d0, d1, t.unit_bits)
            if status < 0:
                return -1, qn, d0, d1
            removed += status
    return removed, qn, d0, d1


@numba.njit(cache=True)
def _watchers(row, cells, seen, pending, queued, watch):
    """The propagators watching a cell changed since ``seen`` into ``pending``: how many."""
    count = 0
    for cell in range(cells):
        mask = row[cell]
        if mask != seen[cell]:
            seen[cell] = mask
            for k in range(1, watch[cell, 0] + 1):
                p = watch[cell, k]
                if queued[p] == 0:
                    queued[p] = 1
                    pending[count] = p
                    count += 1
    return count


@numba.njit(cache=True)
def _blame(room, cells, p, c):
    """Propagator ``p`` found a contradiction: each of its cells scores one more."""
    score = scores(room, cells)
    relations, linears = c.relations.shape[0], c.linears.shape[0]
    if p < relations:
        score[c.relations[p, 0]] += 1
        score[c.relations[p, 1]] += 1
    elif p < relations + linears:
        i = p - relations
        for j in range(c.linears[i, 2]):
            score[c.linears[i, 4 + 2 * j]] += 1
    else:
        i = p - relations - linears
        for j in range(c.tables[i, 2]):
            score[c.tables[i, 3 + j]] += 1


@numba.njit(cache=True)
def settle_all(row, cells, queue, qn, d0, d1, room, t, pairs, c, seen, pending, queued, acc):
    """The general kernel's rules and the propagators, to a fixpoint: the work done, or -1 on
    a contradiction. On return (not -1) ``seen`` holds every cell's candidates."""
    # the tables taken out once: each array passed to a call costs a reference count
    unit_bits, watch, rel, lin = t.unit_bits, c.watch, c.relations, c.linears
    head, rows = c.tables, c.table_rows
    relations, linears = rel.shape[0], lin.shape[0]
    n = t.units.shape[1]
    work = 0
    while True:
        done = settle(row, cells, queue, qn, d0, d1, room, t, pairs)
        if done < 0:
            return -1
        work += done + cells
        count = _watchers(row, cells, seen, pending, queued, watch)
        qn, d0, d1 = 0, 0, 0
        status, removed = 0, 0
        for k in range(count):  # every one leaves the queue, after a contradiction too
            p = pending[k]
            queued[p] = 0
            if status < 0:
                continue
            if p < relations:
                status, qn, d0, d1, w = relation(row, p, queue, qn, d0, d1, unit_bits, rel)
            elif p < relations + linears:
                i = p - relations
                status, qn, d0, d1, w = linear(row, i, queue, qn, d0, d1, unit_bits, lin, n)
            else:
                i = p - relations - linears
                status, qn, d0, d1, w = table(row, i, queue, qn, d0, d1, t, head, rows, acc)
            work += w
            removed += max(status, 0)
            if status < 0:
                _blame(room, cells, p, c)
        if status < 0:
            return -1
        if removed == 0:
            return work
