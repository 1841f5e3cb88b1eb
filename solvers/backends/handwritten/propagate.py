"""``propagate``: constraint propagation in pure Python, on a packed state.

The state is one int packing every constraint as a group of bits (``packed``). Placing a value
is one AND; naked and hidden singles in every group are found at once with a few int operations
(a subtraction per group whose borrow the guard bits stop); a branch copies nothing, since an
int is immutable. After the singles, when they stall, locked candidates (pointing and claiming,
over every pair of units that meet in two cells or more) run the same way. Then the search
branches on a cell with the fewest candidates, choosing among the first 2N such cells the one
whose weaker value the most peers still hold, trying values in ascending order.

The packed tables belong to a set of units (built once per geometry), and a board's other
rules are each puzzle's own: a board whose flattened rules (``solvers.model.compile``) hold more
than units goes to the cell-mask search of ``rules`` instead, with each of those rules compiled as
a propagator (``constrained``): propagate supports every kind.
"""

from __future__ import annotations

from typing import ClassVar

from solvers.backends.contract import Backend, Found
from solvers.backends.handwritten import Counted
from solvers.backends.handwritten.packed import Layout, layout_for
from solvers.base.deadline import Deadline
from solvers.model.board import Board
from solvers.model.compile import EVERY_KIND, flatten

CHOOSE_AMONG = 2  # ``choose`` scores the first CHOOSE_AMONG * N cells with fewest candidates


class Propagate(Backend):
    ENCODES = EVERY_KIND  # every kind: units packed, the rest as propagators
    # the 45 rule's sum groups (solvers.model.implied): off by default, as measured (its Python
    # sum rule pays more for the extra groups than they save: docs/native.md)
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"implied": ("off", "on")}

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        flat = flatten(board)
        if flat.beyond(frozenset()):  # more than units
            from solvers.backends.handwritten.constrained import ConstrainedSearch

            search = ConstrainedSearch(deadline, limit)
            search.implied = self.options.get("implied", "off") == "on"
            return search.run(board)
        return _Search(layout_for(flat.geometry), deadline, limit).run(board)


class _Search(Counted):
    def __init__(self, r: Layout, deadline: Deadline, limit: int) -> None:
        self.r = r
        super().__init__(deadline, limit)

    def run(self, board: Board) -> Found:
        r = self.r
        x, done = r.ALL, 0
        keep, guards = r.keep, r.guards
        for c, v in enumerate(board.cells):
            if v:
                cid = c * r.n + v - 1
                x &= keep[cid]
                done |= guards[cid]
        x, done = settle(x, done, r)
        if x:
            self.branch(x, done)
        return self.solutions.found(board, self.stats())

    def branch(self, x: int, done: int) -> bool:
        """Search below a settled state; True once enough solutions are found to stop."""
        r = self.r
        if done == r.G:
            return self.solutions.add(decode(x, r))
        at, mask = choose(x, fewest(x, r), r)
        self.guesses += 1
        cand_at, keep, guards = r.cand_at, r.keep, r.guards
        while mask:
            bit = mask & -mask
            mask ^= bit
            self.nodes += 1
            self.ticker.tick()
            cid = cand_at[at + bit.bit_length() - 1]
            cx, cd = settle(x & keep[cid], done | guards[cid], r)
            if cx and self.branch(cx, cd):
                return True
        return False


def settle(x: int, done: int, r: Layout) -> tuple[int, int]:
    """Singles to a fixpoint, then locked candidates, until nothing changes.

    ``done`` holds the guards of the groups whose single candidate has been placed. Returns
    the new ``(x, done)``, or ``(0, 0)`` on a contradiction (some group left empty).
    """
    while True:
        x, done, placed = singles(x, done, r)
        if not x:
            return 0, 0
        if placed:
            continue
        if not r.pairs:
            return x, done
        y = locked_candidates(x, r)
        if y is None:
            return x, done
        x = y


def singles(x: int, done: int, r: Layout) -> tuple[int, int, bool]:
    """Place every single (naked: a cell group with one bit; hidden: a unit group with one
    bit) not placed yet; ``(x, done, whether any was)``, x 0 on a contradiction."""
    G, ONES, FILL = r.G, r.ONES, r.FILL
    core = x & FILL
    t = (core | G) - ONES  # per group: x - 1, its guard left set iff x was not empty
    if t & G != G:
        return 0, 0, False
    new = (G ^ (((core & t) + FILL) & G)) ^ done  # groups with one bit, not yet placed
    if not new:
        return x, done, False
    keep, guards, cand_at = r.keep, r.guards, r.cand_at
    sel = core & ((new >> r.n) * r.LOW)  # the single candidates of the new groups
    while sel:
        p = sel.bit_length() - 1
        sel ^= 1 << p
        cid = cand_at[p]
        x &= keep[cid]
        done |= guards[cid]
    return x, done, True


def locked_candidates(x: int, r: Layout) -> int | None:
    """Pointing and claiming over every unit pair at once: an empty A-side with a non-empty
    B-side clears the B-side (the value is in the intersection), and the other way round.
    The new x, or None when nothing changes."""
    z = x >> r.lbase
    LGA, D = r.LGA, r.D
    nonempty = (z + r.LFILL) & r.LG
    a_side = nonempty & LGA
    b_side = nonempty >> D  # aligned with the A-sides
    clear_b = (LGA ^ a_side) & b_side
    clear_a = (LGA ^ b_side) & a_side
    if not (clear_a or clear_b):
        return None
    sel = z & ((((clear_b << D) | clear_a) >> (r.wl - 1)) * r.LSPREAD)
    drop, cand_at, lbase = r.drop, r.cand_at, r.lbase
    while sel:
        p = sel.bit_length() - 1
        sel ^= 1 << p
        x &= drop[cand_at[lbase + p]]
    return x


def fewest(x: int, r: Layout) -> int:
    """The guards of the groups with the fewest candidates: strip every group's lowest bit
    until some group has exactly one left."""
    G, ONES, FILL = r.G, r.ONES, r.FILL
    y = x & FILL
    while True:
        t = (y | G) - ONES
        y &= t
        t = (y | G) - ONES
        one = (t & G) ^ (((y & t) + FILL) & G)
        if one:
            return one


def choose(x: int, one: int, r: Layout) -> tuple[int, int]:
    """The group to branch on, among those (guards in ``one``) with the fewest candidates:
    of the first ``CHOOSE_AMONG * N`` cells, the one whose weaker value (the one fewer peers
    still hold) is held by the most peers, so either branch removes much; without such a
    cell, a unit group (a value with the fewest places in a unit). Its lowest bit position
    and its candidate bits."""
    cells = one & r.CELLG
    if not cells:
        p = one.bit_length() - 1 - r.n
        return p, (x >> p) & r.LOW
    xc, n, low, w = x & r.CELLFILL, r.n, r.LOW, r.w
    best = best_mask = best_score = -1
    budget = CHOOSE_AMONG * n
    while cells and budget:
        budget -= 1
        bit = cells & -cells
        cells ^= bit
        at = bit.bit_length() - 1 - n
        mask = (xc >> at) & low
        score = _weaker(xc, mask, r.peer_cells[at // w])
        if score > best_score:
            best, best_mask, best_score = at, mask, score
    return best, best_mask


def _weaker(xc: int, mask: int, peers: int) -> int:
    """How many peers hold the value of ``mask`` that the fewest peers hold."""
    score = 1 << 30
    while mask:
        b = mask & -mask
        mask ^= b
        score = min(score, (xc & (peers * b)).bit_count())
    return score


def decode(x: int, r: Layout) -> tuple[int, ...]:
    """The values of a solved state, cell by cell (k cells per table look-up)."""
    cells, table, mask = x & r.CELLFILL, r.CHUNKS, r.CHUNK_MASK
    out: list[int] = []
    for shift in r.CHUNK_SHIFTS:
        out += table[(cells >> shift) & mask]
    out += [((cells >> shift) & r.LOW).bit_length() for shift in r.TAIL_SHIFTS]
    return tuple(out)
