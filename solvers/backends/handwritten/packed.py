"""The packed state of ``propagate``: every constraint of a geometry as a group of bits in ONE
Python int, and the masks that act on it (computed once per geometry).

Every group is ``W = N + 1`` bits: N candidate bits and a guard bit on top.

- a cell group per cell: bit v-1 is set while the cell may hold value v;
- a unit group per (unit, value): bit i is set while the unit's i-th cell may hold the value;
- for locked candidates, per pair of units A, B meeting in two or more cells and per value, an
  "A-side" group (the value's places in A outside B) and a "B-side" group (in B outside A).

A candidate (cell, value) has one bit in each group it belongs to (its copies). Placing it is
one AND with ``keep[cid]``, which clears every copy of every candidate it excludes; a group with
one bit left is a single, and ``search`` finds them for all groups at once.

Layout of the int, low bits first: the cell groups; N blocks of unit groups, block v holding
the unit groups of value v; N blocks of locked-candidate sides, block v holding the A-sides of
value v then its B-sides. Blocks of a kind share one stride, so a candidate's copies for value
v are its copies for value 0 shifted by v strides.
"""

from __future__ import annotations

from functools import lru_cache, reduce
from itertools import product
from operator import or_

from solvers.model.geometry import Geometry

TABLE_BYTES = 48 << 20  # per-candidate masks are computed ahead while they take at most this
LOCKED_MAX_SIZE = 16  # locked candidates pay up to 16x16 and cost on 25x25 (README)


class Layout:
    """Where each group sits in the int, and the masks of every candidate."""

    def __init__(self, geometry: Geometry) -> None:
        n = geometry.size
        self.n, self.cells, self.units, self.w = n, n * n, geometry.units, n + 1
        self.peers = geometry.peers
        self.pairs = unit_pairs(geometry.units) if n <= LOCKED_MAX_SIZE else []
        self._place_groups()
        self._guards()
        self._decoding()
        qu0, ug0, ql0 = self._cell_pieces()
        self.cand_at = self._owners(qu0, ql0)
        self._masks(_Pieces(self, qu0, ug0, ql0))

    def _place_groups(self) -> None:
        """The offsets: cell groups at 0, unit blocks from ``base``, side blocks from
        ``lbase`` (B-sides ``D`` above the A-sides)."""
        n, w = self.n, self.w
        self.wl = max([max(len(p[3]), len(p[4])) for p in self.pairs], default=0) + 1
        self.base = self.cells * w
        self.stride = len(self.units) * w
        self.D = len(self.pairs) * self.wl
        self.lbase = self.base + n * self.stride
        self.lstride = 2 * self.D
        self.total = self.lbase + n * self.lstride

    def _guards(self) -> None:
        n, w = self.n, self.w
        cell_guards = sum(1 << (c * w + n) for c in range(self.cells))
        unit_guards = sum(1 << (u * w + n) for u in range(n * len(self.units)))
        self.G = cell_guards | unit_guards << self.base
        self.ONES = self.G >> n
        self.FILL = self.G - self.ONES  # every candidate bit of the cell and unit groups
        self.LOW = (1 << n) - 1
        self.CELLG, self.CELLFILL = cell_guards, (1 << self.base) - 1
        lga0 = sum(1 << (p * self.wl + self.wl - 1) for p in range(len(self.pairs)))
        self.LGA = lga0 * sum(1 << (v * self.lstride) for v in range(n))
        self.LG = self.LGA | self.LGA << self.D
        self.LFILL = self.LG - (self.LG >> (self.wl - 1))
        self.LSPREAD = (1 << (self.wl - 1)) - 1
        self.ALL = self.FILL | self.LFILL << self.lbase  # every candidate bit

    def _decoding(self) -> None:
        """Reading a solved state k cells at a time through a table (N**k entries <= 4096)."""
        n, w, cells = self.n, self.w, self.cells
        k = 1
        while n ** (k + 1) <= 4096 and k < cells:
            k += 1
        whole = cells // k * k
        self.CHUNK_SHIFTS = tuple(range(0, whole * w, k * w))
        self.CHUNK_MASK = (1 << (k * w)) - 1
        self.TAIL_SHIFTS = tuple(range(whole * w, self.base, w))
        self.CHUNKS = {
            sum(1 << (i * w + v) for i, v in enumerate(values)): tuple(v + 1 for v in values)
            for values in product(range(n), repeat=k)
        }

    def _cell_pieces(self) -> tuple[list[int], list[int], list[int]]:
        """Per cell, for value 0 and relative to its block: its unit-group copies, its unit
        guards, its locked-candidate copies."""
        n, w, wl = self.n, self.w, self.wl
        qu0, ug0, ql0 = [0] * self.cells, [0] * self.cells, [0] * self.cells
        for ui, unit in enumerate(self.units):
            for idx, c in enumerate(unit):
                qu0[c] |= 1 << (ui * w + idx)
                ug0[c] |= 1 << (ui * w + n)
        for p, (_a, _b, _i, a_rest, b_rest) in enumerate(self.pairs):
            for idx, c in enumerate(a_rest):
                ql0[c] |= 1 << (p * wl + idx)
            for idx, c in enumerate(b_rest):
                ql0[c] |= 1 << (self.D + p * wl + idx)
        self.peer_cells = [sum(1 << (p * w) for p in self.peers[c]) for c in range(self.cells)]
        return qu0, ug0, ql0

    def _owners(self, qu0: list[int], ql0: list[int]) -> list[int]:
        """Which candidate each bit position belongs to (-1: a guard or an unused bit)."""
        n, w = self.n, self.w
        owner = [-1] * self.total
        for c, v in product(range(self.cells), range(n)):
            cid = c * n + v
            owner[c * w + v] = cid
            for m, at in (
                (qu0[c], self.base + v * self.stride),
                (ql0[c], self.lbase + v * self.lstride),
            ):
                while m:
                    low = m & -m
                    m ^= low
                    owner[at + low.bit_length() - 1] = cid
        return owner

    def _masks(self, pieces: _Pieces) -> None:
        ncand, entry = self.cells * self.n, self.total // 8 + 40
        if (3 if self.pairs else 2) * ncand * entry <= TABLE_BYTES:
            self.keep = [pieces.keep(cid) for cid in range(ncand)]
            self.guards = [pieces.guards(cid) for cid in range(ncand)]
            self.drop = [pieces.drop(cid) for cid in range(ncand)] if self.pairs else []
        else:  # large boards: build each mask when first used, keep as many as fit
            self.keep = _Masks(pieces.keep, TABLE_BYTES * 6 // 10 // entry)
            self.guards = _Masks(pieces.guards, TABLE_BYTES * 3 // 10 // entry)
            self.drop = _Masks(pieces.drop, TABLE_BYTES // 10 // entry)


class _Pieces:
    """Builds a candidate's masks from per-cell pieces (value v: value 0 shifted v blocks)."""

    def __init__(self, r: Layout, qu0: list[int], ug0: list[int], ql0: list[int]) -> None:
        n, base, lbase, peers = r.n, r.base, r.lbase, r.peers
        spread_u = sum(1 << (v * r.stride) for v in range(n))
        spread_l = sum(1 << (v * r.lstride) for v in range(n))
        self.r = r
        self.qu = [q << base for q in qu0]
        self.ql = [q << lbase for q in ql0]
        # the cell's copies for every value; the cell's and its peers' copies for value 0
        self.qu_all = [(q * spread_u) << base for q in qu0]
        self.ql_all = [(q * spread_l) << lbase for q in ql0]
        self.qpu = [reduce(or_, (qu0[p] for p in (c, *peers[c]))) << base for c in range(r.cells)]
        self.qpl = [reduce(or_, (ql0[p] for p in (c, *peers[c]))) << lbase for c in range(r.cells)]
        self.ug = [g << base for g in ug0]
        self.cell_group = [r.LOW << (c * r.w) for c in range(r.cells)]

    def copies(self, cid: int) -> int:
        r = self.r
        c, v = divmod(cid, r.n)
        return (1 << (c * r.w + v)) | self.qu[c] << (v * r.stride) | self.ql[c] << (v * r.lstride)

    def drop(self, cid: int) -> int:
        """ALL less every copy of ``cid``."""
        return self.r.ALL ^ self.copies(cid)

    def keep(self, cid: int) -> int:
        """ALL less every copy of every candidate that placing ``cid`` excludes."""
        r = self.r
        c, v = divmod(cid, r.n)
        kill = (self.cell_group[c] ^ (1 << (c * r.w + v))) | r.peer_cells[c] << v
        kill |= self.qu_all[c] ^ (self.qpu[c] << (v * r.stride))
        if r.pairs:
            kill |= self.ql_all[c] ^ (self.qpl[c] << (v * r.lstride))
        return r.ALL ^ kill

    def guards(self, cid: int) -> int:
        """The guard bits of the cell and unit groups holding ``cid``."""
        r = self.r
        c, v = divmod(cid, r.n)
        return 1 << (c * r.w + r.n) | self.ug[c] << (v * r.stride)


class _Masks(dict):
    """Masks of a large board by candidate, built on first use; at most ``cap`` are kept."""

    def __init__(self, make, cap: int) -> None:
        super().__init__()
        self.make, self.cap = make, cap

    def __missing__(self, cid: int) -> int:
        mask = self.make(cid)
        if len(self) < self.cap:
            self[cid] = mask
        return mask


def unit_pairs(units) -> list[tuple[int, int, tuple, tuple, tuple]]:
    """Each pair of units meeting in 2+ cells, each with cells outside the other, as
    ``(a, b, intersection, a_rest, b_rest)``. (One shared cell gives nothing that hidden
    singles do not already give.)"""
    pairs = []
    for i, a in enumerate(units):
        cells_a = set(a)
        for j in range(i + 1, len(units)):
            b = units[j]
            inter = cells_a.intersection(b)
            if len(inter) >= 2:
                a_rest = tuple(c for c in a if c not in inter)
                b_rest = tuple(c for c in b if c not in inter)
                if a_rest and b_rest:
                    pairs.append((i, j, tuple(sorted(inter)), a_rest, b_rest))
    return pairs


@lru_cache(maxsize=8)
def layout_for(geometry: Geometry) -> Layout:
    """The layout of a geometry, computed once."""
    return Layout(geometry)
