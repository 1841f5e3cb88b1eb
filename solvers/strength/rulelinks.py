"""The weak links a board's constraints imply between two cells, for the chains.

A constraint decomposes into primitives (``solvers.model.constraints``); each one over two
cells (a dot's relation, a thermometer's step, a knight's move apart, an XV's sum) says which
values of one cell go with each value of the other: "r1c1=3 and r1c2=5 cannot both be true"
is a weak link, as two cells of a unit holding the same value are. The chains follow them as
they follow the links of the units (``chains.Chaining``): an "on" removes from the other cell
every value the pair forbids with it, and in a dynamic chain a cell that lost values removes
from the other cell the values none of its remaining ones allows.

A constraint whose primitives are all of this kind (or units, or a cell's own domain) says
nothing more; the others (cages, arrows, renban, sandwiches, ...) are read whole by their own
steps (``kinds``) on a dynamic chain's candidates: ``wide``, and what those steps leave of a
rule's candidates, ``settled``.
"""

from __future__ import annotations

from math import prod

from solvers.model.constraints.kinds import decompose
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.primitives import (
    AllDifferent,
    Domain,
    Linear,
    Primitive,
    Relation,
    Table,
    holds,
)
from solvers.strength import kinds
from solvers.strength.techniques import Contradiction, Grid

# for each cell, (other cell, allowed): allowed[x] the other cell's values that go with x
Links = list[list[tuple[int, tuple[int, ...]]]]


def _pair(primitive: Primitive) -> tuple[int, int] | None:
    """The primitive's two cells when it binds exactly two, else None."""
    if isinstance(primitive, Relation):
        return primitive.first, primitive.second
    if isinstance(primitive, Linear) and len(primitive.terms) == 2:
        return primitive.terms[0][1], primitive.terms[1][1]
    if isinstance(primitive, AllDifferent | Table) and len(primitive.cells) == 2:
        return primitive.cells[0], primitive.cells[1]
    return None


def _covered(primitive: Primitive, n: int) -> bool:
    """What the links (a pair), the units (N cells all different) or the first steps (a
    cell's domain, read by the kind's own step) already say of the primitive."""
    if isinstance(primitive, Domain) or _pair(primitive) is not None:
        return True
    return isinstance(primitive, AllDifferent) and len(primitive.cells) >= n


def _analysed(grid: Grid) -> tuple[Links, list[list[tuple[Constraint, tuple[int, ...]]]]]:
    kept = grid.memo.get("rule links")
    if kept is not None:
        return kept
    n, full = grid.geometry.size, range(1, grid.geometry.size + 1)
    peers = grid.peer_sets
    tables: dict[tuple[int, int], list[int]] = {}
    wide: list[list[tuple[Constraint, tuple[int, ...]]]] = [[] for _ in grid.candidates]
    for constraint in grid.constraints:
        if constraint.kind in kinds.UNITS:
            continue
        primitives = decompose(constraint, n)
        for primitive in primitives:
            pair = _pair(primitive)
            if pair is None or pair[0] == pair[1]:
                continue
            a, b = pair
            if isinstance(primitive, AllDifferent) and b in peers[a]:
                continue  # two cells of a unit: the chains' own links
            forward = tables.setdefault((a, b), [0] + [(1 << (n + 1)) - 2] * n)
            backward = tables.setdefault((b, a), [0] + [(1 << (n + 1)) - 2] * n)
            for x in full:
                for y in full:
                    if not holds(primitive, {a: x, b: y}):
                        forward[x] &= ~(1 << y)
                        backward[y] &= ~(1 << x)
        if not all(_covered(p, n) for p in primitives):
            scope = kinds.scope(grid, constraint)
            for cell in scope:
                wide[cell].append((constraint, scope))
    links: Links = [[] for _ in grid.candidates]
    for (a, b), table in sorted(tables.items()):
        links[a].append((b, tuple(table)))
    grid.memo["rule links"] = (links, wide)
    return links, wide


def links(grid: Grid) -> Links:
    """For each cell, the cells some constraint binds it to, with what each value allows."""
    return _analysed(grid)[0]


def wide(grid: Grid) -> list[list[tuple[Constraint, tuple[int, ...]]]]:
    """For each cell, the constraints on it that say more than their pairs, with their cells."""
    return _analysed(grid)[1]


# a wider constraint's own step is taken on a chain's candidates only where they make at most
# this many assignments: it runs at every "off" of every chain, where a whole enumeration
# (up to a million in the rule's own step) would take seconds; leaving a step out is sound
RULE_ASSIGNMENTS = 5_000


def settled(
    grid: Grid, constraint: Constraint, scope: tuple[int, ...], masks: tuple[int, ...]
) -> tuple[int, ...] | None:
    """The candidates of the rule's cells once its own steps find nothing more on them,
    starting from ``masks``; None when it allows no assignment. What a rule's steps remove
    depends on its cells' candidates alone, so the answer is kept for the grid: the chains
    from every candidate meet the same few combinations again and again. ``masks`` as they
    are where they make more than RULE_ASSIGNMENTS assignments (the steps left out: sound)."""
    kept: dict = grid.memo.setdefault("rule settled", {})
    found = kept.get((constraint, masks), ())
    if found != ():
        return found
    cand = list(grid.candidates)
    for c, mask in zip(scope, masks, strict=True):
        cand[c] = mask
    view = rules_view(grid, cand)
    settled: tuple[int, ...] | None = masks
    while settled is not None and prod(m.bit_count() for m in settled) <= RULE_ASSIGNMENTS:
        try:
            step = kinds.own_step(view, constraint)
        except Contradiction:
            settled = None
            break
        if step is None:
            break
        for c, value in step.eliminated:
            cand[c] &= ~(1 << value)
        for c, value in step.placed:
            cand[c] = 1 << value
        settled = tuple(cand[c] for c in scope)
        if not all(settled):
            settled = None
    if len(kept) > 200_000:
        kept.clear()  # a bound on the memory a long explanation keeps
    kept[constraint, masks] = settled
    return settled


def rules_view(grid: Grid, cand: list[int]) -> Grid:
    """The grid with a chain's candidates, sharing what its rules computed once (memo)."""
    view = Grid(grid.geometry, cand, grid.placed, grid.constraints, grid.memo, grid.unique)
    view.__dict__["peer_sets"] = grid.peer_sets  # a cached property: made once, not per chain
    return view
