"""The kernel of boards whose rules have primitives: a search entry of its own.

The same resumable search as ``search.run`` (the general kernel's rows, registers, and
branching by conflict scores), with ``watch.settle_all`` in place of ``settle`` after each
placement and the constraints' domains in the root's candidates. It is a separate entry so
that classic and killer boards keep their compiled kernels as they are; numba compiles (or
loads) this one the first time a board with primitives is searched, and never in a run
without one.
``run_constrained`` checks its first solution against every rule of the board.

Its cell choice is ``search``'s dom/wdeg (ctrl[CHOICE] WDEG), or with ctrl[CHOICE] VALUES also
ISS's weight on values (its ``ConflictScores``' value scores, ``getMaxValueScore``): each value
scores one for each contradiction it led to when placed, quartered whenever the cells' scores
are halved; when the top value's score is at least N and more than 1.5 times the least nonzero
one, every cell that still holds it weighs a fifth of that score more. With ctrl[CHOICE]
HOUSES, dom/wdeg with ISS's house candidates (``_house_branch``; without the value scores,
which cost it guesses on ISS's killers: docs/native.md): where the chosen cell has more than
two candidates, a value with two places left in a unit may be branched on instead, one place
then the other.
"""

from __future__ import annotations

import numba
import numpy as np

from solvers.backends.handwritten.native.bits import lowbit_index, popcount
from solvers.backends.handwritten.native.outcome import (
    CHOICE,
    CHOOSE,
    DEPTH,
    DONE,
    FOUND,
    GUESSES,
    HOUSES,
    INVALID,
    LIMIT,
    NODES,
    PAUSED,
    PHASE,
    START,
    VALUES,
    VERIFIED,
    WDEG,
    WORK,
)
from solvers.backends.handwritten.native.search import (
    _choose,
    _every_unit,
    _first_scores,
    _restart,
    _solved,
    _start,
    _valid,
    conflict,
    scores,
    verify,
)
from solvers.backends.handwritten.native.watch import EQ, GE, LE, NE, settle_all


@numba.njit(cache=True, inline="always")
def _value_scores(room, cells, n):
    """The conflict score of each value: the ``n`` words before the cells' (``scores``)."""
    end = room.shape[0] - cells - 1
    return room[end - n : end]


@numba.njit(cache=True)
def _value_conflict(room, bit, cells, n):
    """Value ``bit``, placed, led to a contradiction (``conflict`` has counted it for its
    cell): its score goes up; when the cells' scores were just halved, every value's is
    quartered (values' scores change faster: ISS's ``decay``)."""
    value = _value_scores(room, cells, n)
    value[lowbit_index(bit)] += 1
    if scores(room, cells)[cells] == 0:
        for v in range(n):
            value[v] >>= 2


@numba.njit(cache=True)
def _hot_value(room, cells, n):
    """(the value that led to the most contradictions lately, as a bit; its score), or (0, 0)
    unless it stands out: a score of at least ``n``, above 1.5 times the least nonzero one."""
    value = _value_scores(room, cells, n)
    top, bit, least = 0, 0, 1 << 62
    for v in range(n):
        if value[v] > top:
            top, bit = value[v], 1 << v
        if value[v] and value[v] < least:
            least = value[v]
    if top < n or 2 * top <= 3 * least:
        return 0, 0
    return bit, top


@numba.njit(cache=True, inline="always")
def _weight5(score, mask, hot, top):
    """Five times a cell's weight: ``search``'s (1 plus its score), plus a fifth of the hot
    value's score when the cell holds that value."""
    return 5 * (score + 1) + (top if mask & hot else 0)


@numba.njit(cache=True)
def _choose_valued(row, branch, room, t, houses):
    """``search._choose`` with the hot value's weight (the module's docstring): the cell with
    the most weight per candidate, among those the busiest, or with ``houses`` a value's two
    places in a unit (``_house_branch``); False when all is solved."""
    cells = t.cell_units.shape[0]
    score = scores(room, cells)
    hot, top = _hot_value(room, cells, t.units.shape[1])
    weight, size = 0, 1
    for k in range(cells):
        mask = row[k]
        if mask & (mask - 1):
            count = popcount(mask)
            w = _weight5(score[k], mask, hot, top)
            if w * size > weight * count:
                weight, size = w, count
    if weight == 0:
        return False
    busy = room[cells:]
    units = t.units
    for u in range(units.shape[0]):
        open_ = 0
        for k in range(units.shape[1]):
            mask = row[units[u, k]]
            if mask & (mask - 1):
                open_ += 1 + (popcount(mask) == 2)
        busy[u] = open_
    best, most = -1, -1
    for cell in range(cells):
        mask = row[cell]
        if mask & (mask - 1) and _weight5(score[cell], mask, hot, top) * size == weight * popcount(
            mask
        ):
            here = 0
            for k in range(1, t.cell_units[cell, 0] + 1):
                here += busy[t.cell_units[cell, k]]
            if here > most:
                most, best = here, cell
    branch[0] = best
    branch[1] = 0
    branch[2] = row[best]
    if houses and score[best] > 0 and popcount(row[best]) > 2:
        _house_branch(row, branch, score, popcount(row[best]), t)
    return True


@numba.njit(cache=True)
def _house_branch(row, branch, score, count, t):
    """ISS's house candidates (``CandidateFinders.House``): a value with two places left in a
    unit, one of whose cells weighs at least twice the chosen cell's weight per candidate,
    replaces the branch on that cell by a branch on the two places (the heavier first;
    branch[1] holds the other plus one). The heaviest such pair wins."""
    need = 2 * (score[branch[0]] + 1)  # a pair's weight times ``count`` must reach it
    units = t.units
    top = -1
    for u in range(units.shape[0]):
        seen = once = twice = 0
        for k in range(units.shape[1]):
            mask = row[units[u, k]]
            twice |= once & mask
            once |= seen & mask
            seen |= mask
        two = once & ~twice
        while two:
            bit = two & -two
            two ^= bit
            a = b = -1
            for k in range(units.shape[1]):
                if row[units[u, k]] & bit:
                    a, b = b, units[u, k]
            if score[a] > score[b]:
                a, b = b, a
            heavier = score[b] + 1
            if heavier * count >= need and heavier > top:
                top = heavier
                branch[0], branch[1], branch[2] = b, a + 1, bit


@numba.njit(cache=True)
def _begin(puzzle, row, room, t, c, pairs, scratch):
    """The root: givens and domains as candidates, propagated; the work, or -1."""
    cells = puzzle.shape[0]
    given = _start(puzzle, row, room, t)
    for cell in range(cells):
        mask = row[cell] & c.init[cell]
        if mask == 0:
            return -1
        if mask != row[cell]:
            row[cell] = mask
            if mask & (mask - 1) == 0:
                room[given] = cell
                given += 1
    d0, d1 = _every_unit(t.units.shape[0])
    seen, pending, queued, acc = scratch
    seen[:] = 0  # every propagator runs at the root
    return settle_all(
        row, cells, room, given, d0, d1, room[cells:], t, pairs, c, seen, pending, queued, acc
    )


@numba.njit(cache=True, inline="always")
def _descend(child, cell, bit, room, t, c, pairs, scratch):
    """Value ``bit`` into ``cell`` of ``child`` (a copy of its parent, at a fixpoint),
    propagated; the work done, or -1."""
    cells = t.cell_units.shape[0]
    seen, pending, queued, acc = scratch
    seen[:] = child[:cells]
    child[cell] = bit
    room[0] = cell
    d0 = t.unit_bits[cell, 0]
    d1 = t.unit_bits[cell, 1]
    return settle_all(
        child, cells, room, 1, d0, d1, room[cells:], t, pairs, c, seen, pending, queued, acc
    )


@numba.njit(cache=True)
def _open(puzzle, state, room, ctrl, t, c, pairs, scratch):
    """As ``search._open``: True when there is a search to go on with."""
    if ctrl[PHASE] == PAUSED:
        return True
    if ctrl[PHASE] != START:
        return False
    _restart(ctrl, room, puzzle.shape[0])
    score = scores(room, puzzle.shape[0])  # set now: a propagator may blame cells at the root
    _first_scores(score, puzzle.shape[0], t)
    for cell in range(puzzle.shape[0]):
        score[cell] += c.watch[cell, 0]  # the propagators over it weigh too
    _value_scores(room, puzzle.shape[0], t.units.shape[1])[:] = 0
    if not _valid(puzzle, t.units.shape[1]):
        ctrl[PHASE] = INVALID
        return False
    work = _begin(puzzle, state[0], room, t, c, pairs, scratch)
    ctrl[WORK] += max(work, 0)
    if work < 0:
        ctrl[PHASE] = DONE
    return work >= 0


@numba.njit(cache=True)
def run(puzzle, state, branch, room, ctrl, first, t, c, budget, pairs, scratch):
    """``search.run`` for a board with constraints (the general kernel's loop, written out
    here as there: helpers for its steps cost time, measured there)."""
    stop_at = ctrl[WORK] + budget
    if not _open(puzzle, state, room, ctrl, t, c, pairs, scratch):
        return ctrl[PHASE]
    depth, choose, choice = ctrl[DEPTH], ctrl[CHOOSE] != 0, ctrl[CHOICE]
    found, nodes, guesses = ctrl[FOUND], ctrl[NODES], ctrl[GUESSES]
    work = ctrl[WORK]
    phase = DONE
    while depth >= 0:
        if choose:
            choose = False
            if choice == WDEG:
                more = _choose(state[depth], branch[depth], room, t)
            else:  # (the value scores stay 0 unless VALUES counts them)
                more = _choose_valued(state[depth], branch[depth], room, t, choice == HOUSES)
            if more:
                guesses += 1
            else:
                if found == 0:
                    _solved(state[depth], first, False)
                found += 1
                if found >= ctrl[LIMIT]:
                    break
                depth -= 1
                continue
        values = branch[depth, 2]
        if values == 0:
            depth -= 1
            continue
        bit = values & -values
        cell = branch[depth, 0]
        if branch[depth, 1] > 0:  # a value's two places in a unit: this one, then the other
            branch[depth, 0] = branch[depth, 1] - 1
            branch[depth, 1] = 0
        else:
            branch[depth, 2] = values ^ bit
        nodes += 1
        child = state[depth + 1]
        child[:] = state[depth]
        done = _descend(child, cell, bit, room, t, c, pairs, scratch)
        work += child.shape[0]  # the copy
        if done >= 0:
            work += done
            depth += 1
            choose = True
        else:
            conflict(room, cell, t.cell_units.shape[0])
            if choice == VALUES:
                _value_conflict(room, bit, t.cell_units.shape[0], t.units.shape[1])
        if work >= stop_at:
            phase = PAUSED
            break
    ctrl[PHASE], ctrl[DEPTH], ctrl[CHOOSE] = phase, depth, 1 if choose else 0
    ctrl[WORK], ctrl[FOUND], ctrl[NODES], ctrl[GUESSES] = work, found, nodes, guesses
    return phase


@numba.njit(cache=True)
def _holds(solution, t, c):
    """Whether ``solution`` keeps every peer apart and every primitive (domains included)."""
    n = t.units.shape[1]
    for cell in range(solution.shape[0]):
        v = solution[cell]
        if c.init[cell] & (1 << (v - 1)) == 0:
            return False
        for k in range(1, t.peers[cell, 0] + 1):
            if solution[t.peers[cell, k]] == v:
                return False
    rel = c.relations
    for r in range(rel.shape[0]):
        if rel[r, 3 + solution[rel[r, 0]]] & (1 << (solution[rel[r, 1]] - 1)) == 0:
            return False
    lin = c.linears
    for i in range(lin.shape[0]):
        total = 0
        for j in range(lin[i, 2]):
            total += lin[i, 3 + 2 * j] * solution[lin[i, 4 + 2 * j]]
        op, constant = lin[i, 0], lin[i, 1]
        if (
            (op == EQ and total != constant)
            or (op == NE and total == constant)
            or (op == LE and total > constant)
            or (op == GE and total < constant)
        ):
            return False
    head = c.tables
    for i in range(head.shape[0]):
        matched = False
        for r in range(head[i, 0], head[i, 0] + head[i, 1]):
            for j in range(head[i, 2]):
                if c.table_rows[r, j] & (1 << (solution[head[i, 3 + j]] - 1)) == 0:
                    break
            else:
                matched = True
                break
        if not matched:
            return False
    return n > 0


@numba.njit(cache=True)
def run_constrained(puzzle, state, branch, room, ctrl, first, t, c, budget, pairs):
    """``run``, then the first solution verified (ctrl[VERIFIED]) once the search is done."""
    cells = puzzle.shape[0]
    props = c.relations.shape[0] + c.linears.shape[0] + c.tables.shape[0]
    scratch = (
        np.zeros(cells, np.int64),
        np.zeros(max(props, 1), np.int64),
        np.zeros(max(props, 1), np.int64),
        np.zeros(max(c.table_rows.shape[1], 1), np.int64),
    )
    phase = run(puzzle, state, branch, room, ctrl, first, t, c, budget, pairs, scratch)
    if phase == DONE and ctrl[FOUND] > 0:
        ctrl[VERIFIED] = verify(puzzle, first, t) and _holds(first, t, c)
    return phase
