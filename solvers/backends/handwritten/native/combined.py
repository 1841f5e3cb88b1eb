"""Sums of sums: ISS's combined sum handlers (``optimizer._makeCombinedSumHandlers``, e373f98).

Two sums over cells that do not overlap add up to one over all their cells. Where many cells
of one see cells of the other, the combined row's exclusion groups are larger than either's,
so its bounds (``sum_bounds.grouped``) say more than the two rows' apart: ISS proves "Zero
solution: Little Killer" in 832 guesses with these rows and does not finish it in 300,000
without them (docs/native.md). The merge is ISS's, bounded and greedy: each row scores the
slack its groups leave beyond its degrees of freedom, two related rows (at least six cells of
the smaller see a cell of the other) merge when the merged row scores more than both (or than
their sum), best first, the two then replaced by it; the merged rows left that score above 0
are the new ones.
"""

from __future__ import annotations

from typing import NamedTuple

from solvers.backends.handwritten.native.constraints import cliques
from solvers.model.constraints.primitives import Linear

RELATED = 6  # ISS's MIN_OVERLAP_COUNT


class _Sum(NamedTuple):
    cells: tuple[int, ...]  # sorted
    total: int
    score: int
    original: bool


def combined_sums(linears: list[Linear], seen: list[set[int]], n: int) -> list[Linear]:
    """The combined rows of the rows of ``linears`` that are sums (==, every coefficient 1,
    no cell twice); ``seen[cell]`` is the cells that differ from ``cell``."""
    active: dict[tuple[int, ...], _Sum] = {}
    for p in linears:
        cells = tuple(sorted(cell for _, cell in p.terms))
        if p.op != "==" or any(k != 1 for k, _ in p.terms) or len(set(cells)) < len(cells):
            continue
        record = _record(cells, p.constant, seen, n, True)
        if record is not None and cells not in active:
            active[cells] = record
    candidates: list[tuple[_Sum, _Sum, _Sum]] = []
    records = list(active.values())
    for i, a in enumerate(records):
        for b in records[i + 1 :]:
            _candidate(a, b, active, seen, n, candidates)
    while True:
        live = [
            c
            for c in candidates
            if active.get(c[0].cells) is c[0]
            and active.get(c[1].cells) is c[1]
            and c[2].cells not in active
        ]
        if not live:
            break
        a, b, best = max(live, key=lambda c: (c[2].score, c[2].cells))
        candidates = [c for c in live if c[2] is not best]
        del active[a.cells], active[b.cells]
        active[best.cells] = best
        for other in list(active.values()):
            if other is not best:
                _candidate(best, other, active, seen, n, candidates)
    return [
        Linear(tuple((1, cell) for cell in r.cells), "==", r.total)
        for r in active.values()
        if not r.original and r.score > 0
    ]


def _candidate(a: _Sum, b: _Sum, active, seen, n: int, candidates: list) -> None:
    if set(a.cells) & set(b.cells) or not _related(a, b, seen):
        return
    cells = tuple(sorted(a.cells + b.cells))
    if cells in active:
        return
    merged = _record(cells, a.total + b.total, seen, n, False)
    if merged is None:
        return
    if (merged.score <= a.score or merged.score <= b.score) and merged.score <= a.score + b.score:
        return
    candidates.append((a, b, merged))


def _related(a: _Sum, b: _Sum, seen: list[set[int]]) -> bool:
    small, big = (b, a) if len(b.cells) < len(a.cells) else (a, b)
    if len(small.cells) < RELATED:
        return False
    inside = set(big.cells)
    return sum(1 for cell in small.cells if seen[cell] & inside) >= RELATED


def _groups(cells: tuple[int, ...], seen: list[set[int]]) -> list[int]:
    """The sizes of the exclusion groups of ``cells`` (``constraints.cliques``)."""
    return [len(group) for group in cliques(cells, seen)]


def _record(cells, total: int, seen, n: int, original: bool) -> _Sum | None:
    sizes = _groups(cells, seen)
    least = sum(k * (k + 1) // 2 for k in sizes)
    most = sum(k * n - k * (k - 1) // 2 for k in sizes)
    if not least <= total <= most:
        return None
    dof = min(total - least, most - total)
    return _Sum(cells, total, sum(k * (n - k) - dof for k in sizes), original)
