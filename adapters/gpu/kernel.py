"""The CUDA kernel: one thread per puzzle, a depth-first search with an explicit stack.

Each thread keeps its puzzle's search in columns of device arrays (row i of an array is item i
of every puzzle, so that neighbouring threads read neighbouring words: coalesced):

values   (C, P) uint8   the value of each cell, 0 empty
used     (U, P) int32   the values each unit holds, bit v-1 for value v
trail    (C, P) int16   the cells placed since the givens, in order (each cell once on a path)
mark     (C, P) int16   the trail's length when branch level d was entered
cell     (C, P) int16   the cell branched on at level d
left     (C, P) int32   its candidates not tried yet
regs     (R, P) int64   the registers below

A node is naked and hidden singles to a fixpoint (a cell with one candidate takes it, one with
none is a dead end; a value with one place left in a unit goes there, one with none is a dead
end), then a branch on the first empty cell with the fewest candidates,
values ascending. Going back pops the trail to the level's mark, which undoes every placement
made since, so the stack holds a cell and a mask per level instead of a copy of the board: a
few hundred bytes a puzzle on 9x9, a few kilobytes on 25x25.

A thread stops after ``slice_work`` units of work (one unit per empty cell looked at) and
leaves its registers behind: the next launch takes the search up exactly where it stopped, so
the host looks at its deadline between launches. The rules come from ``cell_units`` (each
cell's units, from ``solvers.model.compile``: rows, columns, boxes or regions, and any all-different
group of N cells), so the kernel knows no box shape: one compiled kernel serves every board.
"""

from __future__ import annotations

from numba import cuda

# The registers, one row of ``regs`` each
PHASE, DEPTH, TRAIL, COUNT, GUESSES, NODES, WORK = range(7)
REGISTERS = 7
# The phases: START (the first launch sets every puzzle up), PAUSED (a slice ran out: the next
# launch resumes), DONE (the search ended: COUNT solutions, capped at the limit), INVALID (a
# given outside 1..N)
START, PAUSED, DONE, INVALID = range(4)


@cuda.jit(device=True, inline=True)
def _place(p, c, bit, values, used, trail, tlen, cell_units):
    """Put the value ``bit`` (a one-bit mask) in cell ``c`` and push it on the trail."""
    values[c, p] = cuda.popc(bit - 1) + 1
    for j in range(1, cell_units[c, 0] + 1):
        used[cell_units[c, j], p] |= bit
    trail[tlen, p] = c
    return tlen + 1


@cuda.jit(device=True, inline=True)
def _undo(col, p, mark, full, values, used, trail, tlen, cell_units):
    """Take back every placement on puzzle ``p``'s trail after ``mark``; its board is column
    ``col`` of ``values`` and ``used`` (``p`` here; the thread's own in ``shared``'s kernel)."""
    while tlen > mark:
        tlen -= 1
        c = trail[tlen, p]
        bit = 1 << (int(values[c, col]) - 1)  # int: a uint8 shift would lose value 9 up
        for j in range(1, cell_units[c, 0] + 1):
            used[cell_units[c, j], col] &= full ^ bit  # not ~bit: negative, refused by
            # the simulator's unsigned arrays (``shared``'s masks)
        values[c, col] = 0
    return tlen


@cuda.jit(device=True, inline=True)
def _start(col, p, puzzles, n, cell_units, values, used):
    """Load puzzle ``p``'s givens into column ``col`` of ``values`` and ``used``; PAUSED
    (ready to search), INVALID (a value over N) or DONE (two equal givens in a unit: no
    solution)."""
    for u in range(used.shape[0]):
        used[u, col] = 0
    for c in range(puzzles.shape[1]):
        v = puzzles[p, c]
        values[c, col] = v
        if v > n:
            return INVALID
    for c in range(puzzles.shape[1]):
        v = int(values[c, col])
        if v != 0:
            bit = 1 << (v - 1)
            for j in range(1, cell_units[c, 0] + 1):
                u = cell_units[c, j]
                if used[u, col] & bit:
                    return DONE
                used[u, col] |= bit
    return PAUSED


@cuda.jit(device=True, inline=True)
def _candidates(p, c, full, used, cell_units):
    """The values no unit of cell ``c`` holds, as a mask."""
    m = full
    for j in range(1, cell_units[c, 0] + 1):
        m &= ~used[cell_units[c, j], p]
    return m


@cuda.jit(device=True, inline=True)
def _hidden(p, u, full, units, values, used, cell_units):
    """Unit ``u``'s hidden single: (cell, bit) of the lowest value that only one of its empty
    cells can take, (-1, 0) when none, (-2, 0) when a value it lacks has no place left in it;
    and the cells looked at."""
    once, twice, looked = 0, 0, 0
    for j in range(units.shape[1]):
        c = units[u, j]
        if values[c, p] == 0:
            m = _candidates(p, c, full, used, cell_units)
            twice |= once & m
            once |= m
            looked += 1
    if full & ~(once | used[u, p]):
        return -2, 0, looked
    lone = once & ~twice
    if lone == 0:
        return -1, 0, looked
    bit = lone & -lone
    for j in range(units.shape[1]):
        c = units[u, j]
        if values[c, p] == 0 and _candidates(p, c, full, used, cell_units) & bit:
            return c, bit, looked
    return -1, 0, looked


@cuda.jit
def search(puzzles, count_, n, units, cell_units, limit, budget, slice_work, first,
           values, used, trail, mark, cell, left, regs, solutions, pending):  # fmt: skip
    """Run the search of each of the first ``count_`` puzzles for up to ``slice_work`` units
    (at most ``budget`` in all), counting its solutions up to ``limit`` and keeping the first
    in ``solutions`` (P, C). ``first``: the puzzles' first launch. ``pending[0]`` counts the
    puzzles left PAUSED under their budget."""
    p = cuda.grid(1)
    if p >= count_:
        return
    full = (1 << n) - 1
    cells = puzzles.shape[1]
    if first:
        phase = _start(p, p, puzzles, n, cell_units, values, used)
        regs[PHASE, p] = phase
        for r in range(1, REGISTERS):
            regs[r, p] = 0
        if phase != PAUSED:
            return
    elif regs[PHASE, p] != PAUSED:
        return
    depth, tlen, found = regs[DEPTH, p], regs[TRAIL, p], regs[COUNT, p]
    guesses, nodes, work = regs[GUESSES, p], regs[NODES, p], regs[WORK, p]
    stop = work + slice_work
    if stop > budget:  # not min(): numba 0.68's built-in CUDA target fails to type it
        stop = budget
    phase = PAUSED
    while work < stop:
        nodes += 1
        alive, changed, best, fewest, best_mask = True, True, -1, 64, 0
        while changed and alive:  # singles to a fixpoint, and the cell to branch on
            changed, best, fewest = False, -1, 64
            for c in range(cells):  # naked singles: a cell with one candidate
                if values[c, p] != 0:
                    continue
                work += 1
                m = _candidates(p, c, full, used, cell_units)
                k = cuda.popc(m)
                if k == 0:
                    alive = False
                    break
                if k == 1:
                    tlen = _place(p, c, m, values, used, trail, tlen, cell_units)
                    changed = True
                elif k < fewest:
                    best, fewest, best_mask = c, k, m
            for u in range(units.shape[0] if alive and not changed else 0):
                # hidden singles: a value with one place left in a unit (one a unit a round)
                c, bit, looked = _hidden(p, u, full, units, values, used, cell_units)
                work += looked
                if c == -2:
                    alive = False
                    break
                if c >= 0:
                    tlen = _place(p, c, bit, values, used, trail, tlen, cell_units)
                    changed = True
        if alive and best < 0:  # every cell filled: a solution
            found += 1
            if found == 1:
                for c in range(cells):
                    solutions[p, c] = values[c, p]
            if found >= limit:
                phase = DONE
                break
            alive = False  # look on for the next one
        if alive:  # branch: the fewest candidates' first value, the rest kept on the stack
            bit = best_mask & -best_mask
            mark[depth, p], cell[depth, p], left[depth, p] = tlen, best, best_mask ^ bit
            depth += 1
            guesses += 1
            tlen = _place(p, best, bit, values, used, trail, tlen, cell_units)
            continue
        while depth > 0:  # back to the deepest level with a value left to try
            tlen = _undo(p, p, mark[depth - 1, p], full, values, used, trail, tlen, cell_units)
            rest = left[depth - 1, p]
            if rest != 0:
                bit = rest & -rest
                left[depth - 1, p] = rest ^ bit
                guesses += 1
                tlen = _place(p, cell[depth - 1, p], bit, values, used, trail, tlen, cell_units)
                break
            depth -= 1
        if depth == 0:
            phase = DONE
            break
    regs[PHASE, p], regs[DEPTH, p], regs[TRAIL, p], regs[COUNT, p] = phase, depth, tlen, found
    regs[GUESSES, p], regs[NODES, p], regs[WORK, p] = guesses, nodes, work
    if phase == PAUSED and work < budget:
        cuda.atomic.add(pending, 0, 1)
