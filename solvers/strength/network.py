"""The constraints the CP levels propagate, each as its cells and a filter of their candidate
masks (bit v for value v): the filter returns the masks with every unsupported value removed,
or None when none is left to some cell.

From the compile step (``solvers.model.compile.flatten``): every unit and every smaller
all-different group by Régin's matching (generalised arc consistency); every sum group by
matching within each set of values that can fill it (so generalised arc consistency on the
group's all-different and sum together); every binary relation by arc consistency; every linear row
value by value against the other cells' bounds (bounds reasoning, weaker than arc consistency);
every domain once, at the start. Tables are not read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from solvers.model.board import Board
from solvers.model.compile import Flat, flatten
from solvers.strength.alldifferent import filtered
from solvers.strength.grid import values

Filter = Callable[[Sequence[int]], list[int] | None]


@dataclass(frozen=True)
class Network:
    """``constraints``: (cells, filter) pairs; ``of_cell``: the constraints on each cell;
    ``domains``: a mask per cell from the domain primitives (the full mask elsewhere)."""

    constraints: tuple[tuple[tuple[int, ...], Filter], ...]
    of_cell: tuple[tuple[int, ...], ...]
    domains: tuple[int, ...]


def network(board: Board) -> Network:
    return _network(flatten(board))


@lru_cache(maxsize=256)
def _network(flat: Flat) -> Network:
    from solvers.model.constraints.primitives import AllDifferent, Domain, Linear, Relation

    n = flat.size
    found: list[tuple[tuple[int, ...], Filter]] = [(unit, filtered) for unit in flat.units]
    found += [(g.cells, partial(_sum_group, sets=g.value_sets(n))) for g in flat.sum_groups]
    domains = [flat.geometry.full_mask] * (n * n)
    for p in flat.primitives:
        if isinstance(p, AllDifferent):
            found.append((p.cells, filtered))
        elif isinstance(p, Relation):
            found.append(((p.first, p.second), partial(_relation, forbidden=p.forbidden)))
        elif isinstance(p, Linear):
            cells = tuple(cell for _, cell in p.terms)
            coefficients = tuple(k for k, _ in p.terms)
            found.append((cells, partial(_linear, terms=coefficients, op=p.op, total=p.constant)))
        elif isinstance(p, Domain):
            domains[p.cell] &= sum(1 << v for v in p.values)
    of_cell: list[list[int]] = [[] for _ in range(n * n)]
    for index, (cells, _) in enumerate(found):
        for cell in cells:
            of_cell[cell].append(index)
    return Network(tuple(found), tuple(map(tuple, of_cell)), tuple(domains))


def _sum_group(domains: Sequence[int], sets: tuple[int, ...]) -> list[int] | None:
    kept = [0] * len(domains)
    for chosen in sets:
        within = [mask & chosen for mask in domains]
        if 0 in within:
            continue
        matched = filtered(within)
        if matched is not None:
            kept = [a | b for a, b in zip(kept, matched, strict=True)]
    return None if 0 in kept else kept


def _relation(domains: Sequence[int], forbidden: frozenset[tuple[int, int]]) -> list[int] | None:
    first, second = domains
    a = [x for x in values(first) if any((x, y) not in forbidden for y in values(second))]
    b = [y for y in values(second) if any((x, y) not in forbidden for x in a)]
    if not a or not b:
        return None
    return [sum(1 << x for x in a), sum(1 << y for y in b)]


def _linear(
    domains: Sequence[int], terms: tuple[int, ...], op: str, total: int
) -> list[int] | None:
    """Each value kept if the row can hold with the other cells anywhere within their
    bounds."""
    if op == "!=":
        return list(domains)  # decided only when every other cell is: left to the verifier
    spans = []
    for k, mask in zip(terms, domains, strict=True):
        held = values(mask)
        spans.append(sorted((k * held[0], k * held[-1])))
    low, high = sum(s[0] for s in spans), sum(s[1] for s in spans)
    kept = []
    for k, mask, (own_low, own_high) in zip(terms, domains, spans, strict=True):
        rest_low, rest_high = low - own_low, high - own_high
        mask = sum(
            1 << v
            for v in values(mask)
            if (op != "<=" or k * v + rest_low <= total)
            and (op != ">=" or k * v + rest_high >= total)
            and (op != "==" or k * v + rest_low <= total <= k * v + rest_high)
        )
        if not mask:
            return None
        kept.append(mask)
    return kept
