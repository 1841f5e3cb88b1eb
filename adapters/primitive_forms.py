"""What several engines make of a primitive alike (``solvers.model.constraints.primitives``):
``expanded``, a compressed table as the tuples it stands for, where they are few enough for an
engine's own table constraint (Choco, CPMpy, MiniZinc); ``fillings``, the same of a cage;
``groups_as_cages``, which sum groups an engine can model as its cages;
``WRITTEN``, a linear row's operator as
Choco and MiniZinc write it."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations, product
from math import comb, factorial, prod

from solvers.model.cells import sum_sets
from solvers.model.compile import SUM_GROUPS, Flat, SumGroup
from solvers.model.constraints.primitives import AllDifferent, Linear

WRITTEN = {"==": "=", "!=": "!=", "<=": "<=", ">=": ">="}
SMALL_TABLE = 1000  # tuples: a compressed table expanding to more is a Boolean per row
# a cage's fillings as a table up to this many: on killer9, Choco took 0.02 s a puzzle with
# up to 1,000 or 3,000, 0.06 s with none (a sum and an all-different each) and 0.2-0.5 s with
# up to 10,000 (building the tables)
CAGE_TABLE = 2000


def expanded(rows: tuple, at_most: int) -> list[tuple[int, ...]] | None:
    """The distinct tuples of a compressed table's ``rows`` (each row a value set per cell),
    sorted; None when there would be more than ``at_most``."""
    if sum(prod(map(len, row)) for row in rows) > at_most:
        return None
    return sorted({values for row in rows for values in product(*map(sorted, row))})


def fillings(
    count: int, totals: Sequence[int], n: int, at_most: int
) -> list[tuple[int, ...]] | None:
    """Every filling of ``count`` cells with different values of 1..n adding up to one of
    ``totals`` (a cage's allowed tuples), or None when there would be more than ``at_most``."""
    sets = sorted({s for total in totals for s in sum_sets(count, total, n)})
    if len(sets) * factorial(count) > at_most:
        return None
    held = ([v for v in range(1, n + 1) if s >> v & 1] for s in sets)
    return [p for values in held for p in permutations(values)]


# a sum group is modelled as a cage (its sets of values listed) where the subsets of 1..N of
# its size are at most this many: listing them takes a second and more past a few million
# (a group of 12 cells on 25x25: 5.2 million)
LISTED = 100_000


def groups_as_cages(flat: Flat, encodes: frozenset[str]) -> tuple[tuple, tuple[SumGroup, ...]]:
    """For an engine that encodes ``encodes`` and models sum groups as it does cages: the
    primitives it is given (``flat.primitives_for``), with each sum group whose sets are too
    many to list lowered among them (an all-different and a sum, as the decomposition), and
    the sum groups it models."""
    listed = tuple(g for g in flat.sum_groups if comb(flat.size, len(g.cells)) <= LISTED)
    lowered = [
        primitive
        for group in flat.sum_groups
        if group not in listed
        for primitive in (
            AllDifferent(group.cells),
            Linear(tuple((1, cell) for cell in group.cells), "==", group.total),
        )
    ]
    return (*lowered, *flat.primitives_for(encodes | {SUM_GROUPS})), listed
