"""The primitives of a board's rules as the constrained kernel's int64 tables.

The compile step (``solvers.model.compile.flatten``) has already taken out the units and the
all-different groups with a sum (``tables``); each primitive left goes where the kernel
handles it best:

- all-different (of fewer than N cells, or a unit beyond ``tables.MAX_UNITS``): its cells
  become peers;
- domain: folded into ``init``, the candidates each cell starts with;
- relation, linear and table: propagators, re-run whenever a cell they watch has changed.

relations  (R, 4+2N)   [a, b, most a's one b forbids, most b's one a forbids,
                        values of b each value of a allows (N), of a each of b's allows (N)]
linears    (L, 4+3m)   [op, constant, terms, coefficient, cell, coefficient, cell, ...,
                        the exclusion group of each term (m), groups of two or more cells]
tables     (T, 4+k)    [first row, rows, cells, cell..., sets]; the rows' masks in ``table_rows``;
                       sets: 1 when the cells all differ and each row is one set of as many
                       values as cells, the same at every cell (a rellik cage's table)
table_rows (W, k)      one mask per cell of the row (the values the row allows there)
watch      (C, 1+w)    [count, propagator...]: relations first, then linears, then tables
init       (C,)        the candidates each cell starts with (the domains)

Masks have bit v-1 for value v, as everywhere in the kernel.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from solvers.backends.handwritten.native.arrays import padded
from solvers.model.constraints.primitives import (
    AllDifferent,
    Domain,
    Linear,
    Relation,
    Table,
    holds,
)

OPS = {"==": 0, "!=": 1, "<=": 2, ">=": 3}  # the kernel's numbers for Linear's operators


class Primitives(NamedTuple):
    relations: np.ndarray
    linears: np.ndarray
    tables: np.ndarray
    table_rows: np.ndarray
    watch: np.ndarray
    init: np.ndarray


def apart(groups: list[tuple[int, ...]], primitives, n: int) -> list[set[int]]:
    """The cells each cell must differ from beyond the kernel's units: those of ``groups``
    (units it has no room for) and of the all-different primitives."""
    groups += [p.cells for p in primitives if isinstance(p, AllDifferent)]
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for group in groups:
        for cell in group:
            peers[cell].update(group)
    return peers


def seen_of(peers: np.ndarray) -> list[set[int]]:
    """The cells each cell sees (must differ from), as sets, from the kernel's ``peers``
    table ([count, peer...] per cell): made once per plan and handed to everything that asks
    whether two cells differ."""
    return [set(row[1 : 1 + row[0]]) for row in peers.tolist()]


def primitive_tables(
    primitives,
    n: int,
    seen: list[set[int]],
    units: np.ndarray | None = None,
    ungrouped: frozenset = frozenset(),
) -> Primitives:
    """The tables of ``primitives`` but the all-different ones (the kernel's peers, which
    ``seen`` holds as sets: ``seen_of``). A
    table of value sets is watched by the other cells of each of the kernel's ``units`` that
    holds two or more of its cells too: a value they lose may be one the set must hold. The
    linear rows but those of ``ungrouped`` get their exclusion groups (``_exclusion_groups``)."""
    every = (1 << n) - 1
    init = np.full(n * n, every, np.int64)
    forbidden: dict[tuple[int, int], set[tuple[int, int]]] = {}
    linears: list[Linear] = []
    tables: list[Table] = []
    for p in primitives:
        if isinstance(p, Domain):
            init[p.cell] &= _mask(p.values, n)
        elif isinstance(p, Relation):  # one relation per pair of cells, the first cell lower
            a, b = sorted((p.first, p.second))
            pairs = p.forbidden if a == p.first else {(y, x) for x, y in p.forbidden}
            forbidden.setdefault((a, b), set()).update(pairs)
        elif isinstance(p, Linear):
            linears.append(p)
        elif isinstance(p, Table):
            tables.append(p)
    if any(not p.terms and not holds(p, {}) for p in linears) or any(
        not p.cells and not p.rows for p in tables
    ):  # a primitive over no cell, which fails: no cell watches it, so no cell may hold a value
        init[:] = 0
    pairs = sorted(forbidden)
    # Peers never hold the same value: a relation between peers says so too, and its arc
    # consistency is the stronger for it (a non-consecutive neighbour of a cell down to 4 or 5
    # loses 4 and 5 at once, where the relation alone takes nothing out).
    apart = [b in seen[a] for a, b in pairs]
    watchers: list[list[int]] = [[] for _ in range(n * n)]
    head, rows = _tables_of(tables, n, seen)
    for index, scope in enumerate(
        [list(pair) for pair in pairs]
        + [[cell for _, cell in p.terms] for p in linears]
        + [list(p.cells) for p in tables]
    ):
        for cell in scope:
            watchers[cell].append(index)
    first = len(pairs) + len(linears)
    for i, p in enumerate(tables):
        if head[i, -1] and units is not None:
            for cell in _beside(p.cells, units):
                watchers[cell].append(first + i)
    return Primitives(
        _relations(pairs, forbidden, apart, n),
        _linears(linears, seen, ungrouped),
        head,
        rows,
        padded(watchers),
        init,
    )


def _beside(cells, units: np.ndarray) -> list[int]:
    """The cells outside ``cells`` of the units holding two or more of them."""
    inside = set(cells)
    found: dict[int, None] = {}
    for unit in units.tolist():
        if len(inside.intersection(unit)) >= 2:
            found.update((cell, None) for cell in unit if cell not in inside)
    return list(found)


def _mask(values, n: int) -> int:
    return sum(1 << (v - 1) for v in set(values) if 1 <= v <= n)


def _mask_of(values: frozenset[int], n: int, made: dict[frozenset[int], int]) -> int:
    mask = made.get(values)
    if mask is None:
        mask = made[values] = _mask(values, n)
    return mask


def _relations(pairs, forbidden, apart: list[bool], n: int) -> np.ndarray:
    rows = [
        [a, b, *_supports(frozenset(forbidden[(a, b)]), peers, n)]
        for (a, b), peers in zip(pairs, apart, strict=True)
    ]
    return np.array(rows, np.int64).reshape(len(rows), 4 + 2 * n)


@lru_cache(maxsize=1024)
def _supports(forbidden: frozenset[tuple[int, int]], peers: bool, n: int) -> tuple[int, ...]:
    """A relation's row after its cells: (most values of a that one of b forbids, and of b
    by one of a, the values of b each value of a allows, of a each of b's allows). Kept per
    set of pairs: a board's 300 relations have a few sets, and building each row took most
    of a kropki9 puzzle's time."""
    every = (1 << n) - 1
    ab, ba = [0] * n, [0] * n  # the values of b each value of a forbids, and of a by b's
    for x, y in forbidden:
        if 1 <= x <= n and 1 <= y <= n:
            ab[x - 1] |= 1 << (y - 1)
            ba[y - 1] |= 1 << (x - 1)
    if peers:
        ab = [m | 1 << v for v, m in enumerate(ab)]
        ba = [m | 1 << v for v, m in enumerate(ba)]
    most_a, most_b = max(m.bit_count() for m in ba), max(m.bit_count() for m in ab)
    return (most_a, most_b, *(every & ~m for m in ab + ba))


def _linears(linears: list[Linear], seen: list[set[int]], ungrouped: frozenset) -> np.ndarray:
    most = max((len(p.terms) for p in linears), default=0)
    table = np.zeros((len(linears), 4 + 3 * most), np.int64)
    for i, p in enumerate(linears):
        terms = [x for term in p.terms for x in term]
        table[i, : 3 + len(terms)] = [OPS[p.op], p.constant, len(p.terms), *terms]
        group = list(range(len(p.terms)))
        if p.op != "!=" and p not in ungrouped:
            group = _exclusion_groups(p.terms, seen)
        table[i, 3 + 2 * most : 3 + 2 * most + len(group)] = group
        table[i, -1] = len(group) - len(set(group))
    return table


def _exclusion_groups(terms: tuple[tuple[int, int], ...], seen: list[set[int]]) -> list[int]:
    """The group of each term: terms of coefficient 1 whose cells all see each other share
    one (so they hold different values), each other term is a group of its own (a little
    killer's diagonal splits into its cells in each box)."""
    ones = [cell for k, cell in terms if k == 1]
    where = {cell: g for g, clique in enumerate(cliques(ones, seen)) for cell in clique}
    group, more = [], len(where)
    for k, cell in terms:
        if k == 1 and cell in where:
            group.append(where.pop(cell))
        else:  # another coefficient, or a cell met again
            group.append(more)
            more += 1
    return group


def cliques(cells, seen) -> list[list[int]]:
    """``cells`` split into groups that all see each other (``seen[cell]``: the cells that
    differ from it), greedy as ISS's ``findExclusionGroupsGreedy``: each group grown from the
    cells left, taking the one that sees the most of those still open (the lowest among
    ties)."""
    left = set(cells)
    groups = []
    while left:
        open_, group = set(left), []
        while open_:
            best = max(sorted(open_), key=lambda cell: len(seen[cell] & open_))
            group.append(best)
            left.discard(best)
            open_ = (open_ - {best}) & seen[best]
        groups.append(group)
    return groups


def _tables_of(tables: list[Table], n: int, seen: list[set[int]]) -> tuple[np.ndarray, np.ndarray]:
    width = max((len(p.cells) for p in tables), default=0)
    head = np.zeros((len(tables), 4 + width), np.int64)
    rows: list[list[int]] = []
    # A mask per set of values, made once: a skyscraper clue's table has thousands of rows
    # of a few dozen sets, and making each mask anew took most of a fresh process's CPU on
    # Renban skyscrapers (0.36 s of 0.4 in the plan; docs/native.md, issue 41).
    made: dict[frozenset[int], int] = {}
    for i, p in enumerate(tables):
        head[i, : 3 + len(p.cells)] = [len(rows), len(p.rows), len(p.cells), *p.cells]
        masks = [[_mask_of(values, n, made) for values in row] for row in p.rows]
        head[i, -1] = _value_sets(p.cells, masks, seen)
        rows += [row + [0] * (width - len(row)) for row in masks]
    return head, np.array(rows, np.int64).reshape(len(rows), width)


def _value_sets(cells, masks: list[list[int]], seen: list[set[int]]) -> bool:
    """Whether a table's cells all differ and each row allows one set of as many values as
    cells at every cell: then each row says which values the cells hold, in some order."""
    if len(set(cells)) != len(cells) or not masks:
        return False
    if any(b not in seen[a] for a in cells for b in cells if a != b):
        return False
    return all(len(set(row)) == 1 and row[0].bit_count() == len(cells) for row in masks)
