"""Bidirectional Y-cycles, as Sudoku Explainer 1.2.1 finds and rates them with its forcing
X-chains and forcing chains, in one producer sorted by rating
(diuf/sudoku/solver/rules/chaining/Chaining.java ``getLoopHintList``, CycleHint.java).

A Y-cycle is a loop of cells with two values each, each cell seeing the next and sharing a
value with it: if the first holds one of its values, the next cannot hold it and so holds its
other one, and so on round the loop back to the first; if the first holds its other value,
the same goes the other way round. Every solution follows one of the two ways. A value that
one way puts in a cell of the loop and the other way in another cell (two neighbours sharing
it, or any two of its cells holding it) leaves every cell outside the loop that sees both.

Rating (CycleHint.getDifficulty): 6.5 plus SE's length increment for the loop's candidates,
two a cell (the one it holds each way): 6.6 for four cells, 6.7 for five, 6.8 for six or seven.
As in SE, the cycles are followed breadth first from each value of each two-valued cell, one
path to each candidate (``doCycles``), and the cheapest step of the producer is taken.
"""

from __future__ import annotations

from collections import deque

from solvers.model.cells import cell_name
from solvers.strength import chains
from solvers.strength.grid import values
from solvers.strength.techniques import Grid, Step

BASE = 6.5  # CycleHint.getDifficulty, Y links alone


def y_cycle(grid: Grid) -> Step | None:
    """The Y-cycle that removes something whose rating is lowest (fewest cells), None when
    there is none; boards up to 9x9, as the chains."""
    if grid.geometry.size > chains.LARGEST:
        return None
    cand = grid.candidates
    pairs = {c for c in range(len(cand)) if c not in grid.placed and cand[c].bit_count() == 2}
    best: Step | None = None
    for start in sorted(pairs):
        for first in values(cand[start]):
            for loop in _loops(grid, pairs, start, first):
                rating = round(BASE + chains.length_added(2 * len(loop)), 1)
                if best and best.rating <= rating:
                    continue
                gone = _removed(grid, loop)
                if gone:
                    n = grid.geometry.size
                    way = " - ".join(f"{cell_name(c, n)}={v}" for c, v in loop)
                    where = f"{way}, or each the other value"
                    best = Step("bidirectional Y-cycle", rating, where, eliminated=gone)
    return best


def _loops(grid: Grid, pairs: set[int], start: int, first: int) -> list[list[tuple[int, int]]]:
    """The loops found breadth first from ``start`` holding ``first``: each a list of (cell,
    value it holds this way), one path to each (cell, value), as SE's ``doCycles``."""
    cand, peers = grid.candidates, grid.peer_sets
    last = (cand[start] & ~(1 << first)).bit_length() - 1  # start's other value closes it
    parent: dict[tuple[int, int], tuple[int, int] | None] = {(start, first): None}
    todo = deque([(start, first)])
    found = []
    while todo:
        cell, value = todo.popleft()
        for peer in sorted(peers[cell]):
            if peer not in pairs or not cand[peer] >> value & 1:
                continue
            if peer == start:
                continue
            held = (cand[peer] & ~(1 << value)).bit_length() - 1
            node = (peer, held)
            if node in parent:
                continue
            parent[node] = (cell, value)
            todo.append(node)
            if held == last and start in peers[peer]:
                path = _path(parent, node)
                if len({c for c, _ in path}) == len(path):  # a loop through distinct cells
                    found.append(path)
    return found


def _path(parent: dict, node: tuple[int, int]) -> list[tuple[int, int]]:
    path = []
    current = node
    while current is not None:
        path.append(current)
        current = parent[current]
    return path[::-1]


def _removed(grid: Grid, loop: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """A value one way holds in a cell of the loop and the other way in another leaves every
    cell outside the loop that sees both (CycleHint's forward and backward cancellations)."""
    cand, peers = grid.candidates, grid.peer_sets
    cells = {c for c, _ in loop}
    forward: set[tuple[int, int]] = set()
    backward: set[tuple[int, int]] = set()
    for cell, held in loop:
        other = (cand[cell] & ~(1 << held)).bit_length() - 1
        for value, side in ((held, forward), (other, backward)):
            side.update((p, value) for p in peers[cell] if p not in cells and cand[p] >> value & 1)
    return tuple(sorted(forward & backward))


def cycle_or_forcing_chain(grid: Grid) -> Step | None:
    """SE's first chaining producer (``Chaining(false, false, false, 0)``): cycles and forcing
    X- and XY-chains together, the lowest rating taken (a cycle on a tie, as SE lists its
    cycles first). The X- and XY-cycles are not implemented: a forcing chain finds what they
    find, 0.1 higher."""
    cycle = y_cycle(grid)
    if cycle and cycle.rating <= 6.6:  # no forcing chain rates lower (a forcing X-chain: 6.6)
        return cycle
    chain = chains.forcing_chain(grid)
    if cycle is None or (chain is not None and chain.rating < cycle.rating):
        return chain
    return cycle
