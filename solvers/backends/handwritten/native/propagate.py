"""The general kernel's rules, each its own compiled function, and ``settle`` to a fixpoint.

A search row is ``[candidates per cell | values placed per unit]``. Each rule narrows the
candidates and reports what changed through the same three things: ``queue`` (cells that
became single, whose value has yet to leave their peers), the dirty set ``(d0, d1)`` (units
whose candidates changed: only there can a hidden single appear), and the work it did (about
one unit per mask read, the currency of the deadline). A rule returns a status: -1 on a
contradiction, else how many candidates it removed.

- naked single: a cell with one candidate takes it out of its peers;
- hidden single: a value with one place in a unit goes there;
- locked candidates: a value that unit A holds only where A meets unit B leaves the rest of B;
- naked pairs (boards of 16x16 and more): two cells of a unit with the same two candidates take
  them out of the unit's other cells;
- sum rule: a sum group's cells keep only the values of the group's sets that hold every value
  fixed in it and that its cells can still all take; a value every such set holds, with one
  cell of the group left for it, goes there, and with more, leaves the other cells of each unit
  that holds all of them (``_claim``).
"""

from __future__ import annotations

from solvers.backends.handwritten.native.bits import lowbit_index, popcount
from solvers.backends.handwritten.native.cache import numba


@numba.njit(cache=True, inline="always")
def next_unit(d0, d1):
    """Pop the lowest unit of a two-word bit set: (unit, d0, d1); unit -1 when empty."""
    if d0 != 0:
        low = d0 & -d0
        return lowbit_index(low), d0 ^ low, d1
    if d1 != 0:
        low = d1 & -d1
        return 64 + lowbit_index(low), d0, d1 ^ low
    return -1, d0, d1


@numba.njit(cache=True, inline="always")
def _remove(row, cell, values, queue, qn, d0, d1, unit_bits):
    """Take ``values`` out of ``cell``: (-1 if none is left, else 1 if any went, 0 if not)."""
    mask = row[cell]
    if mask & values == 0:
        return 0, qn, d0, d1
    mask &= ~values
    if mask == 0:
        return -1, qn, d0, d1
    row[cell] = mask
    d0 |= unit_bits[cell, 0]
    d1 |= unit_bits[cell, 1]
    if mask & (mask - 1) == 0:
        queue[qn] = cell
        qn += 1
    return 1, qn, d0, d1


@numba.njit(cache=True, inline="always")
def naked_singles(row, cells, queue, qn, d0, d1, t):
    """Each single of the queue leaves its peers (new singles join the queue)."""
    # The hottest loop of the kernel: written out rather than through ``_remove``, whose array
    # arguments cost a reference count each call, more than the rest of the root propagation
    # (docs/native.md, "The package against the prototype").
    work = 0
    while qn > 0:
        qn -= 1
        cell = queue[qn]
        bit = row[cell]
        for k in range(1, t.cell_units[cell, 0] + 1):
            row[cells + t.cell_units[cell, k]] |= bit
        work += t.peers[cell, 0]
        for k in range(1, t.peers[cell, 0] + 1):
            peer = t.peers[cell, k]
            mask = row[peer]
            if mask & bit:
                mask ^= bit
                if mask == 0:
                    return -1, qn, d0, d1, work
                row[peer] = mask
                d0 |= t.unit_bits[peer, 0]
                d1 |= t.unit_bits[peer, 1]
                if mask & (mask - 1) == 0:
                    queue[qn] = peer
                    qn += 1
    return 0, qn, d0, d1, work


@numba.njit(cache=True, inline="always")
def hidden_singles(row, cells, u, queue, qn, d0, d1, t):
    """In unit ``u``, each value with one place goes there."""
    units = t.units
    n = units.shape[1]
    once = 0
    twice = 0
    for k in range(n):
        mask = row[units[u, k]]
        twice |= once & mask
        once |= mask
    if once != (1 << n) - 1:
        return -1, qn, d0, d1, n  # a value has no place left
    hidden = once & ~twice & ~row[cells + u]
    if hidden == 0:
        return 0, qn, d0, d1, n
    for k in range(n):
        cell = units[u, k]
        mask = row[cell]
        only = mask & hidden
        if only != 0 and mask & (mask - 1) != 0:
            if only & (only - 1):
                return -1, qn, d0, d1, 2 * n  # one cell is the only place of two values
            row[cell] = only
            queue[qn] = cell
            qn += 1
            d0 |= t.unit_bits[cell, 0]
            d1 |= t.unit_bits[cell, 1]
    return 1, qn, d0, d1, 2 * n


@numba.njit(cache=True, inline="always")
def _confined(row, placed, q, pieces_of, t):
    """Partition ``q`` of a unit: each piece's candidates into ``pieces_of``, and the values
    (not yet placed in the unit) whose places all lie in one piece; and the work done."""
    once = 0
    twice = 0
    work = 0
    for j in range(t.parts[q, 1]):
        seg = t.parts[q, 2 + 2 * j]
        here = 0
        for k in range(1, t.segs[seg, 0] + 1):
            here |= row[t.segs[seg, k]]
        work += t.segs[seg, 0]
        pieces_of[j] = here
        twice |= once & here
        once |= here
    return once & ~twice & ~placed, work


@numba.njit(cache=True)
def locked_candidates(row, cells, queue, qn, d0, d1, l0, l1, pieces_of, t):
    """Locked candidates over the partitions of the units in the bit set (l0, l1)."""
    work = 0
    removed = 0
    while True:
        u, l0, l1 = next_unit(l0, l1)
        if u < 0:
            return removed, qn, d0, d1, work
        for p in range(1, t.unit_parts[u, 0] + 1):
            q = t.unit_parts[u, p]
            confined, w = _confined(row, row[cells + u], q, pieces_of, t)
            work += w
            if confined == 0:
                continue
            for j in range(t.parts[q, 1]):
                e = t.parts[q, 3 + 2 * j]
                values = pieces_of[j] & confined
                if e < 0 or values == 0:
                    continue
                work += t.elims[e, 0]
                for k in range(1, t.elims[e, 0] + 1):
                    cell = t.elims[e, k]
                    mask = row[cell]
                    if mask & values:
                        mask &= ~values
                        if mask == 0:
                            return -1, qn, d0, d1, work
                        row[cell] = mask
                        removed += 1
                        d0 |= t.unit_bits[cell, 0]
                        d1 |= t.unit_bits[cell, 1]
                        if mask & (mask - 1) == 0:
                            queue[qn] = cell
                            qn += 1


@numba.njit(cache=True, inline="always")
def _pairs_in(row, u, queue, qn, d0, d1, pair_at, t):
    """Naked pairs in unit ``u``; ``pair_at`` is room for the unit's bivalue cells."""
    units = t.units
    n = units.shape[1]
    found = 0
    for k in range(n):
        if popcount(row[units[u, k]]) == 2:
            pair_at[found] = k
            found += 1
    removed = 0
    for i in range(found - 1):
        pair = row[units[u, pair_at[i]]]
        for j in range(i + 1, found):
            if row[units[u, pair_at[j]]] != pair:
                continue
            for k in range(n):
                if k != pair_at[i] and k != pair_at[j]:
                    status, qn, d0, d1 = _remove(
                        row, units[u, k], pair, queue, qn, d0, d1, t.unit_bits
                    )
                    if status < 0:
                        return -1, qn, d0, d1
                    removed += status
    return removed, qn, d0, d1


@numba.njit(cache=True)
def naked_pairs(row, queue, qn, d0, d1, pair_at, t):
    """Naked pairs in every unit."""
    removed = 0
    for u in range(t.units.shape[0]):
        status, qn, d0, d1 = _pairs_in(row, u, queue, qn, d0, d1, pair_at, t)
        if status < 0:
            return -1, qn, d0, d1, t.units.size
        removed += status
    return removed, qn, d0, d1, t.units.size


@numba.njit(cache=True, inline="always")
def sum_values(row, k, t):
    """The values sum group ``k``'s cells may keep: those of its sets that hold every value
    fixed in the group and whose values its cells can all still take (0: none is left); and
    the values every such set holds (which some cell of the group must take)."""
    fixed = 0
    union = 0
    for j in range(2, t.sums[k, 0] + 2):
        mask = row[t.sums[k, j]]
        union |= mask
        if mask & (mask - 1) == 0:
            fixed |= mask
    allowed = 0
    required = -1
    for s in range(1, t.sum_sets[k, 0] + 1):
        values = t.sum_sets[k, s]
        if values & fixed == fixed and values & union == values:
            allowed |= values
            required &= values
    return allowed, required & allowed


@numba.njit(cache=True)
def sum_rule(row, queue, qn, d0, d1, t):
    """The sum rule in every sum group: its cells keep the values of its sets, and a value
    that every set holds goes where one cell alone can take it, or leaves the units that hold
    all its places (``_claim``) (sigh's Interactive Sudoku
    Solver's sum handler, with its combinations precomputed: docs/native.md)."""
    removed = 0
    work = 0
    for k in range(t.sums.shape[0]):
        allowed, required = sum_values(row, k, t)
        size = t.sums[k, 0]
        work += size + t.sum_sets[k, 0]
        for j in range(2, size + 2):
            cell = t.sums[k, j]
            status, qn, d0, d1 = _remove(row, cell, ~allowed, queue, qn, d0, d1, t.unit_bits)
            if status < 0:
                return -1, qn, d0, d1, work
            removed += status
        while required != 0:
            bit = required & -required
            required &= required - 1
            only = -1
            c0 = c1 = -1  # the units holding every place of it
            for j in range(2, size + 2):
                cell = t.sums[k, j]
                if row[cell] & bit:
                    only = cell if only == -1 else -2
                    c0 &= t.unit_bits[cell, 0]
                    c1 &= t.unit_bits[cell, 1]
            if only == -1:
                return -1, qn, d0, d1, work
            if only >= 0:
                status, qn, d0, d1 = _remove(row, only, ~bit, queue, qn, d0, d1, t.unit_bits)
            else:
                status, qn, d0, d1, w = _claim(row, k, bit, c0, c1, queue, qn, d0, d1, t)
                work += w
            if status < 0:
                return -1, qn, d0, d1, work
            removed += status
    return removed, qn, d0, d1, work


@numba.njit(cache=True)
def _claim(row, k, bit, c0, c1, queue, qn, d0, d1, t):
    """Value ``bit``, which sum group ``k`` must hold, leaves the cells outside the group of
    each unit that holds all its places in the group (ISS's required value exclusions)."""
    removed = 0
    work = 0
    size = t.sums[k, 0]
    while c0 != 0 or c1 != 0:
        u, c0, c1 = next_unit(c0, c1)
        for m in range(t.units.shape[1]):
            cell = t.units[u, m]
            if row[cell] & bit == 0:
                continue
            inside = False
            for j in range(2, size + 2):
                if t.sums[k, j] == cell:
                    inside = True
                    break
            if not inside:
                status, qn, d0, d1 = _remove(row, cell, bit, queue, qn, d0, d1, t.unit_bits)
                if status < 0:
                    return -1, qn, d0, d1, work
                removed += status
        work += t.units.shape[1]
    return removed, qn, d0, d1, work


@numba.njit(cache=True)
def settle(row, cells, queue, qn, d0, d1, room, t, pairs):
    """Every rule to a fixpoint: singles first, each stronger rule only when they are done,
    and back to the singles whenever one removed something. The work done, or -1 on a
    contradiction."""
    work = 0
    l0 = 0  # units changed since the last pass of locked candidates
    l1 = 0
    status = 0
    while status >= 0:
        status, qn, d0, d1, w = naked_singles(row, cells, queue, qn, d0, d1, t)
        work += w
        if status < 0:
            break
        u, d0, d1 = next_unit(d0, d1)
        if u >= 0:
            if u < 64:
                l0 |= 1 << u
            else:
                l1 |= 1 << (u - 64)
            status, qn, d0, d1, w = hidden_singles(row, cells, u, queue, qn, d0, d1, t)
        elif l0 != 0 or l1 != 0:
            status, qn, d0, d1, w = locked_candidates(
                row, cells, queue, qn, d0, d1, l0, l1, room, t
            )
            l0 = 0
            l1 = 0
        elif pairs or t.sums.shape[0] > 0:
            status, qn, d0, d1, w = _last_rules(row, queue, qn, d0, d1, room, t, pairs)
            if status == 0:
                break
        else:
            break
        work += w
    return work if status >= 0 else -1


@numba.njit(cache=True)
def _last_rules(row, queue, qn, d0, d1, room, t, pairs):
    """Naked pairs (if ``pairs``), then the sum rule: the first that removes anything says so."""
    if pairs:
        status, qn, d0, d1, work = naked_pairs(row, queue, qn, d0, d1, room, t)
        if status != 0:
            return status, qn, d0, d1, work
    if t.sums.shape[0] > 0:
        return sum_rule(row, queue, qn, d0, d1, t)
    return 0, qn, d0, d1, 0
