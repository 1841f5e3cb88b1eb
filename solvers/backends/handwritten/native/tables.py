"""The kernel's tables: a board's rules as padded int64 arrays, read from the compile step.

Nothing here re-derives a rule: ``solvers.model.compile.flatten`` gives the units (rows, columns,
boxes or jigsaw regions, and every all-different group of N cells the constraints add), the
sum groups with their value sets, and the other primitives (``constraints``). What is built here is
only the kernel's view of them:

units       (U, N)        the cells of each unit (a unit listed twice is kept once)
cell_units  (C, 1+k)      [count, unit...] of each cell
unit_bits   (C, 2)        the units of each cell as a two-word bit set (U <= 128)
peers       (C, 1+p)      [count, peer...]: the other cells of its units, its sum groups and
                          its smaller all-different groups
segs        (S, 1+l)      [count, cell...]: pieces of units (below)
parts       (Q, 2+2m)     [unit A, pieces, seg, elim, seg, elim, ...]: a partition of unit A into
                          pieces, each the cells A shares with another unit B (elim: the row of
                          ``elims`` holding B - A), and what is left (elim -1)
unit_parts  (U, 1+k)      [count, part...] of each unit
elims       (E, 1+e)      [count, cell...]
sums        (K, 2+m)      [count, total, cell...] of each sum group
sum_sets    (K, 1+s)      [count, values...]: each set of values the group can hold, as a mask

The locked-candidates rule reads segs/parts/elims: a value that unit A can hold only inside one
piece leaves the rest of that piece's other unit B (pointing and claiming on classic boards;
box/diagonal and region/row interactions in the variants).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from solvers.backends.handwritten.native.arrays import padded
from solvers.model.board import Board
from solvers.model.compile import EVERY_KIND, Flat, SumGroup, flatten
from solvers.model.geometry import Shape

MAX_UNITS = 128  # the dirty-unit set is two 64-bit words: units beyond it are peer groups
WIDTH9 = 30  # the band kernel's state (band9.py): 27 digit-band words, each band's solved cells
PAIRS_FROM_SIZE = 16  # naked pairs pay on 25x25 (fewer timeouts), not on 9x9 (docs/native.md)


class Tables(NamedTuple):
    units: np.ndarray
    cell_units: np.ndarray
    unit_bits: np.ndarray
    peers: np.ndarray
    segs: np.ndarray
    parts: np.ndarray
    unit_parts: np.ndarray
    elims: np.ndarray
    sums: np.ndarray
    sum_sets: np.ndarray


class KernelPlan(NamedTuple):
    """What the kernel's search needs to know of a board's rules (not the pipeline's ``Plan``,
    which says how a run answers): the tables, and which kernel paths
    apply (``band``: the 9x9 bit-parallel kernel, for classic 9x9 only; ``pairs``: the naked
    pairs rule, on large boards; ``primitives``: the tables of the primitives beyond units and
    sum groups, ``constraints.Primitives``, for the constrained kernel; None without any)."""

    tables: Tables
    band: bool
    pairs: bool
    cell_count: int
    primitives: NamedTuple | None = None


def plan_for(board: Board, implied: bool = True) -> KernelPlan:
    """The plan for ``board``'s shape and rules (cached per flattened rules), with the
    implied sum groups of the compile step unless ``implied`` is False."""
    return _plan(flatten(board, implied))


@lru_cache(maxsize=256)
def _plan(flat: Flat) -> KernelPlan:
    units, n = tuple(dict.fromkeys(flat.units)), flat.size  # the units in order, each once
    primitives = flat.primitives_for(EVERY_KIND)  # the 45 rule's linear rows too
    if not primitives and len(units) <= MAX_UNITS:
        return build_plan(units, flat.sum_groups, n)
    from solvers.backends.handwritten.native.constraints import apart, primitive_tables, seen_of

    peers = apart(list(units[MAX_UNITS:]), primitives, n)
    plan = build_plan(units[:MAX_UNITS], flat.sum_groups, n, peers)
    # the 45 rule's rows keep plain bounds: exclusion groups cost them CPU for no guess saved
    # on ISS's killers (docs/native.md), where a little killer's diagonal gains (issue 41)
    seen = seen_of(plan.tables.peers)  # once per plan: the combined sums and the tables ask
    tables = primitive_tables(
        (*primitives, *_combined(flat, seen, n)),
        n,
        seen,
        plan.tables.units,
        frozenset(flat.implied_linears),
    )
    return plan._replace(band=False, primitives=tables)


def _combined(flat: Flat, seen: list[set[int]], n: int) -> list:
    """ISS's combined sums of the rules' own sums (little killers: ``combined``)."""
    from solvers.backends.handwritten.native.combined import combined_sums
    from solvers.model.constraints.primitives import Linear

    linears = [p for p in flat.primitives if isinstance(p, Linear)]
    if len(linears) < 2:
        return []
    return combined_sums(linears, seen, n)


def build_plan(
    units: tuple[tuple[int, ...], ...],
    sum_groups: tuple[SumGroup, ...],
    n: int,
    more_peers: list[set[int]] | None = None,
) -> KernelPlan:
    """The plan for these units and sum groups on an N x N board; ``more_peers`` are cells
    that must differ from each cell beyond its units and sum groups (the all-different groups
    that are not units)."""
    if len(units) > MAX_UNITS:
        raise ValueError(f"{len(units)} units: the kernel holds at most {MAX_UNITS}")
    of, by_units, plain_peers = _of_units(units, n)
    if sum_groups or (more_peers and any(more_peers)):
        peers = padded(_peers(units, of, sum_groups, n * n, more_peers))
    else:
        peers = plain_peers
    unit_array, cell_units, unit_bits, *locked = by_units
    tables = Tables(unit_array, cell_units, unit_bits, peers, *locked, *_sums(sum_groups, n))
    band = n == 9 and not sum_groups and set(map(frozenset, units)) == _classic9()
    return KernelPlan(tables, band, n >= PAIRS_FROM_SIZE, n * n)


@lru_cache(maxsize=64)
def _of_units(units: tuple[tuple[int, ...], ...], n: int):
    """What depends on the units alone (their tables, and the peers they make), kept for the
    next board with the same units: boards with constraints differ in their constraints, and
    the locked-candidates tables took most of a millisecond to build for each."""
    of: list[list[int]] = [[] for _ in range(n * n)]
    for index, unit in enumerate(units):
        for cell in unit:
            of[cell].append(index)
    tables = (np.array(units, dtype=np.int64), padded(of), _unit_bits(of), *_locked_tables(units))
    return of, tables, padded(_peers(units, of, (), n * n, None))


def sizes(plan: KernelPlan) -> tuple[int, int]:
    """(width of a state row, room for the queue, scratch and the conflict scores) of a search
    under ``plan`` (here, with no numba, for the ahead-of-time kernel's callers too: aot.py)."""
    t, cells = plan.tables, plan.cell_count
    width = WIDTH9 if plan.band else cells + len(t.units)
    scratch = max(t.units.shape[1], t.parts.shape[1], len(t.units))
    # the queue, scratch, a conflict score per value (``constrained``), per cell, and a count
    return width, cells + scratch + t.units.shape[1] + cells + 1


@lru_cache(maxsize=1)
def _classic9() -> set[frozenset[int]]:
    return set(map(frozenset, Shape(3, 3).geometry.units))


def _unit_bits(of: list[list[int]]) -> np.ndarray:
    bits = np.zeros((len(of), 2), dtype=np.uint64)
    for cell, mine in enumerate(of):
        for unit in mine:
            bits[cell, unit // 64] |= np.uint64(1) << np.uint64(unit % 64)
    return bits.view(np.int64)


def _peers(units, of, groups: tuple[SumGroup, ...], cells: int, more) -> list[list[int]]:
    mates: list[set[int]] = [set(mine) for mine in more] if more else [set() for _ in of]
    for group in groups:  # a sum group's values never repeat: its cells are peers
        for cell in group.cells:
            mates[cell].update(group.cells)
    found = []
    for cell in range(cells):
        near = mates[cell].union(*(units[u] for u in of[cell]))
        near.discard(cell)
        found.append(sorted(near))
    return found


def _locked_tables(units: list[tuple[int, ...]]):
    """(segs, parts, unit_parts, elims) for locked candidates over ``units``."""
    sets = [frozenset(unit) for unit in units]
    segs, elims = _Indexed(), _Indexed()
    parts: list[list[int]] = []
    unit_parts: list[list[int]] = [[] for _ in units]
    for a, unit in enumerate(sets):
        for partition in _partitions(a, sets):
            row = [a, 0]
            for piece, b in partition:
                row += [segs.index(piece), elims.index(sets[b] - piece)]
            rest = unit.difference(*(piece for piece, _ in partition))
            if rest:
                row += [segs.index(rest), -1]
            row[1] = (len(row) - 2) // 2
            unit_parts[a].append(len(parts))
            parts.append(row)
    width = max(map(len, parts), default=2)
    table = np.full((max(len(parts), 1), width), -1, dtype=np.int64)
    table[:, 1] = 0
    for i, row in enumerate(parts):
        table[i, : len(row)] = row
    return padded(segs.rows), table, padded(unit_parts), padded(elims.rows)


def _partitions(a: int, sets: list[frozenset[int]]) -> list[list[tuple[frozenset[int], int]]]:
    """Unit ``a``'s pieces shared with other units (two cells or more), grouped into sets of
    pieces that do not overlap: a box gives one by rows and one by columns."""
    partitions: list[list[tuple[frozenset[int], int]]] = []
    for b, other in enumerate(sets):
        piece = sets[a] & other
        if b == a or len(piece) < 2:
            continue
        for partition in partitions:  # the first it does not overlap
            if all(not piece & taken for taken, _ in partition):
                partition.append((piece, b))
                break
        else:
            partitions.append([(piece, b)])
    return partitions


class _Indexed:
    """Cell sets numbered in order of first appearance."""

    def __init__(self) -> None:
        self.rows: list[list[int]] = []
        self._ids: dict[frozenset[int], int] = {}

    def index(self, cells: frozenset[int]) -> int:
        if cells not in self._ids:
            self._ids[cells] = len(self.rows)
            self.rows.append(sorted(cells))
        return self._ids[cells]


def _sums(groups: tuple[SumGroup, ...], n: int) -> tuple[np.ndarray, np.ndarray]:
    """(sums, sum_sets); masks with bit v-1 for value v (the sets have bit v)."""
    table = np.zeros((len(groups), 2 + max((len(g.cells) for g in groups), default=0)), np.int64)
    for i, group in enumerate(groups):
        table[i, : 2 + len(group.cells)] = [len(group.cells), group.total, *group.cells]
    sets = [[mask >> 1 for mask in group.value_sets(n)] for group in groups]
    return table, padded(sets) if sets else np.zeros((0, 1), dtype=np.int64)
