"""What the SAT family's own models of kinds (``adapters.cnf_native``, ``adapters.cnf_native_sums``)
write with: the ``Encoder`` (the board's size, each cell's open values, the pool of auxiliary
variables) and the pieces they share: an all-different as "at most one cell per value", a
sequential counter whose every variable is defined both ways (Sinz, CP 2005), and literals
defined as a disjunction or as each prefix's disjunction. Every auxiliary variable is a function
of the cells, so that PicoSAT's enumeration counts each solution once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from adapters.cardinality import Clause, at_most_one
from adapters.cnf_primitives import Values

if TYPE_CHECKING:
    from pysat.formula import IDPool


class Encoder:
    """What a kind's model writes with: the board's size, each cell's open values, the pool of
    auxiliary variables, and the form of the linear rows it hands on (``linear``)."""

    def __init__(self, n: int, values: Values, pool: IDPool, linear: str) -> None:
        self.n, self.values, self.pool, self.linear = n, values, pool, linear

    def x(self, cell: int, v: int) -> int:
        return cell * self.n + v

    def new(self) -> int:
        return self.pool.id()


def all_different(e: Encoder, cells: Sequence[int]) -> list[Clause]:
    return [
        clause
        for v in range(1, e.n + 1)
        for clause in at_most_one([e.x(c, v) for c in cells if v in e.values[c]])
    ]


def count(e: Encoder, literals: Sequence[int], total: int) -> list[Clause]:
    """Exactly ``total`` of ``literals`` true (``at_least``'s counter up to total + 1)."""
    if total < 0 or total > len(literals):
        return [()]
    clauses, row = at_least(e, literals, total + 1)
    for j, must in ((total, True), (total + 1, False)):
        value = row[j]
        if isinstance(value, bool):
            if value is not must:
                return [()]
        else:
            clauses.append((value,) if must else (-value,))
    return clauses


def at_least(
    e: Encoder, literals: Sequence[int], top: int
) -> tuple[list[Clause], list[int | bool]]:
    """A sequential counter, s(i, j) "at least j of the first i are true" for j up to
    ``top``, each defined both ways; returns its clauses and the last row: "at least j of
    them" for j in 0..top, a literal, or True/False where already decided."""
    clauses: list[Clause] = []
    row: list[int | bool] = [True] + [False] * top
    for lit in literals:
        new: list[int | bool] = [True]
        for j in range(1, top + 1):
            keep, step = row[j], row[j - 1]
            if keep is True or (step is False and keep is False):
                new.append(keep)
                continue
            s = e.new()
            # s <-> keep or (step and lit)
            if keep is not False:
                clauses.append((s, -keep))
            if step is True:
                clauses.append((s, -lit))
                clauses.append((-s, lit) if keep is False else (-s, keep, lit))
            elif step is not False:
                clauses.append((s, -step, -lit))
                rest = () if keep is False else (keep,)
                clauses += [(-s, *rest, step), (-s, *rest, lit)]
            else:  # step False: s <-> keep
                clauses.append((-s, keep))
            new.append(s)
        row = new
    return clauses, row


def defined_or(e: Encoder, literals: Sequence[int]) -> tuple[int, list[Clause]]:
    """A fresh literal defined as the disjunction of ``literals`` (false for none)."""
    lit = e.new()
    return lit, [(-lit, *literals), *((lit, -other) for other in literals)]


def prefixes(e: Encoder, literals: Sequence[int]) -> tuple[list[int], list[Clause]]:
    """p[i] "one of ``literals[: i + 1]`` is true", each defined both ways."""
    found: list[int] = []
    clauses: list[Clause] = []
    for lit in literals:
        p, more = defined_or(e, [*found[-1:], lit])
        found.append(p)
        clauses += more
    return found, clauses
