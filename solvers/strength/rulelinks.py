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
steps (``kinds``) on a dynamic chain's candidates: ``wide``.
"""

from __future__ import annotations

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
from solvers.strength.techniques import Grid

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
