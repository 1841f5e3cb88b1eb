"""The search: one resumable loop over an explicit stack, for the general kernel and the 9x9
band kernel alike, and the verification of a solution against the rules.

All state lives in caller-owned arrays (``Workspace``): ``state`` holds one row per depth (the
general kernel's candidates and placed values, or the band kernel's 30 words), ``branch`` each
depth's branch as [cell or band, index in the band, values left to try], ``ctrl`` the registers
(``bits``). A call stops once it has done ``budget`` more units of work and returns PAUSED; the
next call with the same arrays resumes exactly there.

Branching, the general kernel's (the band kernel has its own, ``band9.choose9``): dom/wdeg,
on a cell with the most weight per candidate and, among those, the busiest one (whose units
hold the most unsolved plus bivalue cells); values ascending. A cell weighs 1 plus its score:
its units (and, on boards with constraints, the propagators watching it) at the search's first
guess, plus one for each contradiction that a value placed in it led to, or that a propagator
over it found; every score is halved each ``DECAY_EVERY`` contradictions, so that the scores
follow where the search is now (as ISS's ``ConflictScores``). Until the first contradiction
every cell of a board with units alone weighs the same, so the choice is the cell with the
fewest candidates, as it was before the weights. A ``guess`` is a branch point, a ``node`` a
value tried at one. The scores live at the end of ``room`` (``scores``).
"""

from __future__ import annotations

from solvers.backends.handwritten.native.band9 import (
    NODE_WORK,
    choose9,
    place9,
    propagate9,
    solution9,
    start9,
)
from solvers.backends.handwritten.native.bits import lowbit_index, popcount
from solvers.backends.handwritten.native.cache import numba
from solvers.backends.handwritten.native.outcome import (
    CHOOSE,
    DEPTH,
    DONE,
    FOUND,
    GUESSES,
    INVALID,
    LIMIT,
    NODES,
    PAUSED,
    PHASE,
    START,
    VERIFIED,
    WORK,
)
from solvers.backends.handwritten.native.propagate import settle
from solvers.backends.handwritten.native.tables import sizes  # noqa: F401 (the work arrays' sizes)

DECAY_EVERY = 1 << 14  # contradictions between two halvings of every conflict score (as ISS)


@numba.njit(cache=True, inline="always")
def scores(room, cells):
    """The conflict scores at the end of ``room``: one per cell, then the contradictions
    since the last halving (``tables.sizes`` makes the room)."""
    return room[room.shape[0] - cells - 1 :]


@numba.njit(cache=True)
def conflict(room, cell, cells):
    """A value placed in ``cell`` led to a contradiction: the cell's score goes up, and every
    ``DECAY_EVERY`` contradictions every score is halved."""
    score = scores(room, cells)
    score[cell] += 1
    score[cells] += 1
    if score[cells] >= DECAY_EVERY:
        score[cells] = 0
        for k in range(cells):
            score[k] >>= 1


@numba.njit(cache=True, inline="always")
def unit_busy(row, busy, t):
    """How busy each unit is into ``busy``: its unsolved cells plus its bivalue ones."""
    units = t.units
    for u in range(units.shape[0]):
        open_ = 0
        for k in range(units.shape[1]):
            mask = row[units[u, k]]
            if mask & (mask - 1):
                open_ += 1 + (popcount(mask) == 2)
        busy[u] = open_


@numba.njit(cache=True, inline="always")
def _busiest(row, cells, weight, size, score, busy, t):
    """Among the cells of ``weight`` per ``size`` candidates (the most), the first whose units
    hold the most unsolved plus bivalue cells (``busy`` is room for a count per unit)."""
    unit_busy(row, busy, t)
    best = -1
    top = -1
    for cell in range(cells):
        mask = row[cell]
        if mask & (mask - 1) and (score[cell] + 1) * size == weight * popcount(mask):
            here = 0
            for k in range(1, t.cell_units[cell, 0] + 1):
                here += busy[t.cell_units[cell, k]]
            if here > top:
                top = here
                best = cell
    return best


@numba.njit(cache=True, inline="always")
def _start(puzzle, row, queue, t):
    """The givens as single candidates in a fresh row; how many went into ``queue``."""
    cells = puzzle.shape[0]
    every = (1 << t.units.shape[1]) - 1
    given = 0
    for cell in range(cells):
        if puzzle[cell]:
            row[cell] = 1 << (puzzle[cell] - 1)
            queue[given] = cell
            given += 1
        else:
            row[cell] = every
    row[cells:] = 0
    return given


@numba.njit(cache=True)
def _every_unit(count):
    """Every one of ``count`` units, as a two-word bit set."""
    d0 = -1 if count >= 64 else (1 << count) - 1
    d1 = (1 << (count - 64)) - 1 if count > 64 else 0
    return d0, d1


@numba.njit(cache=True)
def _begin(puzzle, state, room, t, band, pairs):
    """The root: the givens placed and propagated; the work done, or -1 when the givens
    contradict each other."""
    if band:
        return start9(puzzle, state[0])
    cells = puzzle.shape[0]
    given = _start(puzzle, state[0], room, t)
    d0, d1 = _every_unit(t.units.shape[0])
    return settle(state[0], cells, room, given, d0, d1, room[cells:], t, pairs)


@numba.njit(cache=True)
def _valid(puzzle, n):
    """Whether every value of ``puzzle`` is within 0..n."""
    for cell in range(puzzle.shape[0]):  # noqa: SIM110 (a loop compiles to less than all())
        if puzzle[cell] > n:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _choose(row, branch, room, t):
    """The general kernel's branch of ``row`` into ``branch`` (dom/wdeg: the module's
    docstring); False when all is solved."""
    cells = t.cell_units.shape[0]
    score = scores(room, cells)
    weight = 0  # the most weight per candidate: weight / size
    size = 1
    for k in range(cells):
        mask = row[k]
        if mask & (mask - 1):
            if score[cells] < 0:  # the search's first guess: the scores start
                _first_scores(score, cells, t)
            count = popcount(mask)
            if (score[k] + 1) * size > weight * count:
                weight, size = score[k] + 1, count
    if weight == 0:
        return False
    cell = _busiest(row, cells, weight, size, score, room[cells:], t)
    branch[0] = cell
    branch[1] = 0
    branch[2] = row[cell]
    return True


@numba.njit(cache=True, inline="always")
def _descend(child, cell, bit, room, t, pairs):
    """The general kernel: value ``bit`` into ``cell`` of ``child``, propagated; the work
    done, or -1 when it leads to a contradiction."""
    cells = t.cell_units.shape[0]
    child[cell] = bit
    room[0] = cell
    d0 = t.unit_bits[cell, 0]
    d1 = t.unit_bits[cell, 1]
    return settle(child, cells, room, 1, d0, d1, room[cells:], t, pairs)


@numba.njit(cache=True, inline="always")
def _descend9(child, band, index, bit):
    """The band kernel: value ``bit`` into cell ``index`` of ``band``, propagated; the work
    done, or -1 when it leads to a contradiction."""
    return propagate9(child, place9(child, band, index, lowbit_index(bit)))


@numba.njit(cache=True, inline="always")
def _solved(row, first, band):
    """A complete row's values into ``first``."""
    if band:
        solution9(row, first)
    else:
        for cell in range(first.shape[0]):
            first[cell] = lowbit_index(row[cell]) + 1


@numba.njit(cache=True)
def _first_scores(score, cells, t):
    """The scores at a search's first guess: each cell's units (set then, not at the start, so
    that a puzzle solved with no guess never reads or writes them: a cold call's memory)."""
    for cell in range(cells):
        score[cell] = t.cell_units[cell, 0]
    score[cells] = 0


@numba.njit(cache=True)
def _restart(ctrl, room, cells):
    """The registers of a new search (its limit and work count are the caller's), its scores
    not set yet (``_first_scores``)."""
    scores(room, cells)[cells] = -1
    ctrl[FOUND] = 0
    ctrl[NODES] = 0
    ctrl[GUESSES] = 0
    ctrl[VERIFIED] = 0
    ctrl[DEPTH] = 0
    ctrl[CHOOSE] = 1


@numba.njit(cache=True)
def _open(puzzle, state, room, ctrl, t, band, pairs):
    """A new search's root propagated (phase START), or a paused one taken up again: True
    when there is a search to go on with."""
    if ctrl[PHASE] == PAUSED:
        return True
    if ctrl[PHASE] != START:
        return False
    _restart(ctrl, room, puzzle.shape[0])
    if not _valid(puzzle, t.units.shape[1]):
        ctrl[PHASE] = INVALID
        return False
    work = _begin(puzzle, state, room, t, band, pairs)
    ctrl[WORK] += max(work, 0)
    if work < 0:
        ctrl[PHASE] = DONE
    return work >= 0


@numba.njit(cache=True, inline="always")
def run(puzzle, state, branch, room, ctrl, first, t, budget, band, pairs):
    """Up to ctrl[LIMIT] solutions of ``puzzle`` (values, 0 empty), the first into ``first``,
    within about ``budget`` more units of work (the root's propagation included, so that
    where a search is cut into calls never changes where a budget stops it). Returns the
    phase: DONE, PAUSED (call again with the same arrays to go on) or INVALID (a value
    outside 1..N)."""
    stop_at = ctrl[WORK] + budget
    if not _open(puzzle, state, room, ctrl, t, band, pairs):
        return ctrl[PHASE]
    depth, choose = ctrl[DEPTH], ctrl[CHOOSE] != 0
    found, nodes, guesses = ctrl[FOUND], ctrl[NODES], ctrl[GUESSES]
    work = ctrl[WORK]
    phase = DONE
    while depth >= 0:
        if choose:
            choose = False
            if band:
                more = choose9(state[depth], branch[depth])
            else:
                more = _choose(state[depth], branch[depth], room, t)
            if more:
                guesses += 1
            else:
                if found == 0:
                    _solved(state[depth], first, band)
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
        branch[depth, 2] = values ^ bit
        nodes += 1
        child = state[depth + 1]
        child[:] = state[depth]
        # (helpers taking the tables for these two steps cost more: docs/native.md)
        if band:
            done = _descend9(child, branch[depth, 0], branch[depth, 1], bit)
            work += NODE_WORK
        else:
            done = _descend(child, branch[depth, 0], bit, room, t, pairs)
            work += child.shape[0]  # the copy
        if done >= 0:
            work += done
            depth += 1
            choose = True
        elif not band:
            conflict(room, branch[depth, 0], puzzle.shape[0])
        if work >= stop_at:
            phase = PAUSED
            break
    ctrl[PHASE], ctrl[DEPTH], ctrl[CHOOSE] = phase, depth, 1 if choose else 0
    ctrl[WORK], ctrl[FOUND], ctrl[NODES], ctrl[GUESSES] = work, found, nodes, guesses
    return phase


@numba.njit(cache=True)
def verify(puzzle, solution, t):
    """True when ``solution`` keeps the givens, every unit holds each value once, and every
    sum group holds distinct values adding up to its total."""
    n = t.units.shape[1]
    for cell in range(puzzle.shape[0]):
        v = solution[cell]
        if v < 1 or v > n or (puzzle[cell] != 0 and puzzle[cell] != v):
            return False
    for u in range(t.units.shape[0]):
        seen = 0
        for k in range(n):
            seen |= 1 << (solution[t.units[u, k]] - 1)
        if seen != (1 << n) - 1:
            return False
    for k in range(t.sums.shape[0]):
        seen = 0
        total = 0
        for j in range(2, t.sums[k, 0] + 2):
            v = solution[t.sums[k, j]]
            seen |= 1 << (v - 1)
            total += v
        if total != t.sums[k, 1] or popcount(seen) != t.sums[k, 0]:
            return False
    return True


@numba.njit(cache=True)
def run_verified(puzzle, state, branch, room, ctrl, first, t, budget, band, pairs):
    """``run``, then the first solution verified (ctrl[VERIFIED]) once the search is done."""
    phase = run(puzzle, state, branch, room, ctrl, first, t, budget, band, pairs)
    if phase == DONE and ctrl[FOUND] > 0:
        ctrl[VERIFIED] = verify(puzzle, first, t)
    return phase
