"""The primitives engines compile: every kind's decomposition is a list of these.

Each is a small frozen value over cell indices and values 1..N (N known to the engine from the
board). They are meant to be encoded by any paradigm: all-different as a global constraint or
pairwise; a relation as binary clauses (one per forbidden pair) or a CP table; a linear
constraint as a CP-SAT/MIP row or a pseudo-Boolean CNF encoding; a domain as unit clauses; a
table as one selector per row.

``holds`` evaluates one primitive on values: the tests use it to confirm that a kind's
decomposition says what its check says. Engines never call it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass

# each operator of a linear row as Python's comparison, which the expressions of CP-SAT, CPMpy
# and Z3 overload: ``OPERATORS[row.op](total, row.constant)`` builds the relation asked for
OPERATORS: dict[str, Callable] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<=": operator.le,
    ">=": operator.ge,
}


@dataclass(frozen=True)
class AllDifferent:
    """The cells hold pairwise different values."""

    cells: tuple[int, ...]


@dataclass(frozen=True)
class Relation:
    """A binary relation between two cells, given by the value pairs it FORBIDS: ``(a, b)`` in
    ``forbidden`` means ``first`` may not hold a while ``second`` holds b. Forbidden pairs are
    what a CNF writes directly (one binary clause each); the allowed pairs are the complement
    over 1..N."""

    first: int
    second: int
    forbidden: frozenset[tuple[int, int]]


@dataclass(frozen=True)
class Linear:
    """``sum(coefficient * value of cell) <op> constant``, op among ``OPERATORS``; each cell
    appears once in ``terms``, as ``(coefficient, cell)``."""

    terms: tuple[tuple[int, int], ...]
    op: str
    constant: int

    def __post_init__(self) -> None:
        if self.op not in OPERATORS:
            raise ValueError(f"operator {self.op!r} is not one of {tuple(OPERATORS)}")


@dataclass(frozen=True)
class Domain:
    """The cell holds one of ``values``."""

    cell: int
    values: frozenset[int]


@dataclass(frozen=True)
class Table:
    """The cells' values match at least one row; a row gives each cell a SET of values (a
    compressed table), so one row stands for every tuple of its product."""

    cells: tuple[int, ...]
    rows: tuple[tuple[frozenset[int], ...], ...]


Primitive = AllDifferent | Relation | Linear | Domain | Table
PRIMITIVE_TYPES: tuple[type, ...] = (AllDifferent, Relation, Linear, Domain, Table)


def holds(primitive: Primitive, values: Mapping[int, int]) -> bool:
    """Whether ``primitive`` holds when each cell has the value ``values[cell]``."""
    if isinstance(primitive, AllDifferent):
        seen = [values[cell] for cell in primitive.cells]
        return len(set(seen)) == len(seen)
    if isinstance(primitive, Relation):
        return (values[primitive.first], values[primitive.second]) not in primitive.forbidden
    if isinstance(primitive, Linear):
        total = sum(coefficient * values[cell] for coefficient, cell in primitive.terms)
        return OPERATORS[primitive.op](total, primitive.constant)
    if isinstance(primitive, Domain):
        return values[primitive.cell] in primitive.values
    return any(
        all(values[cell] in allowed for cell, allowed in zip(primitive.cells, row, strict=True))
        for row in primitive.rows
    )
