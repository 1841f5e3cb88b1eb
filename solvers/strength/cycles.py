"""Bidirectional cycles (X-, Y- and XY-cycles), as Sudoku Explainer 1.2.1 finds and rates them
with its forcing X-chains and forcing chains, in one producer sorted by rating
(diuf/sudoku/solver/rules/chaining/Chaining.java ``getHintList``, ``getLoopHintList``,
``doCycles``, ``createCycleHint``; CycleHint.java; read in SudokuMonster/SukakuExplainer, which
keeps SE's chaining as it was).

An X-cycle (a continuous nice loop on one value) alternates strong links (a unit with two
places for the value: if one is not it, the other is) and weak links (two cells that see each
other: not both), and closes on itself. Every solution holds the value at every other cell of
it, one set of alternate cells or the other: a cell outside it that sees one cell of each set
loses the value (at each weak link, the cells that see both ends). SE names a loop of four
cells a generalized X-wing. A discontinuous loop (one that comes back to its first cell
contradicting what it assumed) is SE's forcing X-chain (``chains.forcing_chain``, 6.6): it
places or removes the value at the break. An XY-cycle mixes those links with a cell's own
values (Y links: a cell holds one value, so not another; a cell of two values not holding one
holds the other): the same argument, on any candidate of the loop.

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

BASE = 6.5  # CycleHint.getDifficulty, X links alone or Y links alone
MIXED = 7.0  # CycleHint.getDifficulty, X and Y links together


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


def x_cycle(grid: Grid) -> Step | None:
    """The X-cycle that removes something whose rating is lowest, None when there is none."""
    return _best(grid, x=True, y=False)


def xy_cycle(grid: Grid) -> Step | None:
    """The XY-cycle (X and Y links together) that removes something whose rating is lowest."""
    return _best(grid, x=True, y=True)


# a node of a chain: (cell, value, on, parent node or None), SE's Potential with its first parent
Node = tuple


def _best(grid: Grid, x: bool, y: bool, below: float = 99.0) -> Step | None:
    """SE's ``getLoopHintList(grid, y, x)``: from each value of each open cell (X links: any
    cell; Y links alone: cells of two values, SE's ``doUnaryChaining``) the cycles back to it,
    the cheapest that removes something (rating, then the fewest candidates); only those
    rated below ``below``. Boards up to 9x9, as the chains."""
    if grid.geometry.size > chains.LARGEST:
        return None
    cand = grid.candidates
    base = MIXED if x and y else BASE
    best: tuple[float, int, Step] | None = None
    for start in range(len(cand)):
        if start in grid.placed or cand[start].bit_count() < 2:
            continue
        for value in values(cand[start]):
            for end in _cycles(grid, (start, value, True, None), x, y):
                size = _ancestors(end)
                rating = round(base + chains.length_added(size), 1)
                if rating >= below or (best and (rating, size) >= best[:2]):
                    continue
                gone = _cancelled(grid, end)
                if gone:
                    best = (rating, size, _step(grid, end, x, y, rating, gone))
    return best[2] if best else None


def _cycles(grid: Grid, source: Node, x: bool, y: bool) -> list[Node]:
    """SE's ``doCycles``: breadth first from ``source`` on, each "on" node once (its first
    parent kept), each "off" node from every "on" that makes it but its own descendants; every
    "on" node equal to ``source`` reached after four steps or more closes a cycle."""
    cand, peers, units_of = grid.candidates, grid.geometry.peers, grid.geometry.units_of
    places = chains.places_of(grid)
    stride = grid.geometry.size + 1
    key = source[:3]
    reached_on = {key}
    pending_on: deque[Node] = deque([source])
    pending_off: deque[Node] = deque()
    found: list[Node] = []
    length = 0
    while pending_on or pending_off:
        length += 1
        while pending_on:
            node = pending_on.popleft()
            cell, value = node[0], node[1]
            bit = 1 << value
            made = [(p, value) for p in peers[cell] if cand[p] & bit]
            if y:
                made = [(cell, w) for w in values(cand[cell] & ~bit)] + made
            for target in made:
                if not _is_parent(node, (*target, False)):
                    pending_off.append((*target, False, node))
        length += 1
        while pending_off:
            node = pending_off.popleft()
            cell, value = node[0], node[1]
            made = []
            if y and cand[cell].bit_count() == 2:
                made.append((cell, (cand[cell] & ~(1 << value)).bit_length() - 1))
            if x:
                for u in units_of[cell]:
                    left = places[u * stride + value] & ~(1 << cell)
                    if left and not left & (left - 1):  # two places in the unit
                        made.append((left.bit_length() - 1, value))
            for target in made:
                on = (*target, True)
                if length >= 4 and on == key:
                    found.append((*on, node))
                if on not in reached_on:
                    reached_on.add(on)
                    pending_on.append((*on, node))
    return found


def _is_parent(child: Node, candidate: tuple) -> bool:
    """Whether ``candidate`` (cell, value, on) is an ancestor of ``child`` (SE's ``isParent``)."""
    node = child[3]
    while node is not None:
        if node[:3] == candidate:
            return True
        node = node[3]
    return False


def _chain(end: Node) -> list[Node]:
    """The nodes from the cycle's start to ``end`` (the start again), in order."""
    nodes = []
    node: Node | None = end
    while node is not None:
        nodes.append(node)
        node = node[3]
    return nodes[::-1]


def _ancestors(end: Node) -> int:
    """How many distinct candidates, on or off, the cycle rests on (SE's getAncestorCount)."""
    return len({node[:3] for node in _chain(end)})


def _cancelled(grid: Grid, end: Node) -> tuple[tuple[int, int], ...]:
    """SE's ``createCycleHint``: an "on" node of the cycle removes its value from the cells
    outside the cycle that see it; an "off" node does as much the other way round (the
    cycle reversed holds it). What both ways remove goes."""
    cand, peers = grid.candidates, grid.peer_sets
    nodes = _chain(end)[1:]
    cells = {node[0] for node in nodes}
    forward: set[tuple[int, int]] = set()
    backward: set[tuple[int, int]] = set()
    for cell, value, on, _ in nodes:
        side = forward if on else backward
        side.update((p, value) for p in peers[cell] if p not in cells and cand[p] >> value & 1)
    return tuple(sorted(forward & backward))


def _step(
    grid: Grid, end: Node, x: bool, y: bool, rating: float, gone: tuple[tuple[int, int], ...]
) -> Step:
    n = grid.geometry.size
    nodes = _chain(end)
    cells = {node[0] for node in nodes}
    if x and y:
        name = "bidirectional cycle"
    else:
        name = "generalized X-wing" if len(cells) == 4 else "bidirectional X-cycle"
    way = " - ".join(f"{cell_name(c, n)}{'=' if on else '<>'}{v}" for c, v, on, _ in nodes)
    return Step(name, rating, f"{way}, or each the other way", eliminated=gone)


NAMES = ("generalized X-wing", "bidirectional X-cycle", "bidirectional Y-cycle",
         "bidirectional cycle")  # fmt: skip


def cycle_or_forcing_chain(grid: Grid) -> Step | None:
    """SE's first chaining producer (``Chaining(false, false, false, 0)``): X-, Y- and
    XY-cycles and forcing X- and XY-chains together, the lowest rating taken (a cycle on a
    tie, as SE lists its cycles first). A cycle of one kind of link rates 6.5 and more, a
    forcing X-chain 6.6, an XY-cycle and a forcing chain 7.0: the mixed ones are looked for
    only when nothing cheaper is found."""
    found = [step for step in (x_cycle(grid), y_cycle(grid)) if step]
    if not found or min(s.rating for s in found) > 6.6:
        chain = chains.forcing_chain(grid, x_only=True)
        if chain:
            found.append(chain)
    best = min(found, key=lambda s: s.rating) if found else None
    if best is None or best.rating > MIXED:
        below = best.rating + 0.05 if best else 99.0
        found += [s for s in (_best(grid, x=True, y=True, below=below),) if s]
        found += [s for s in (chains.forcing_chain(grid),) if s]
        best = min(found, key=lambda s: s.rating) if found else None
    return best
