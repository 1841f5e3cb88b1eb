"""Every kind by its name (``KINDS``), and what is asked of a constraint by its kind: its
validation, its check over a solution, its decomposition into primitives, and which kinds an
engine supports when it compiles a given set of primitive types (``kinds_compiled_by``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from solvers.base.errors import InputError

from . import (
    cell_kinds,
    counting,
    dots,
    indexers,
    lines,
    neighbours,
    outside,
    regions,
    squares,
    sums,
)
from .model import Constraint, Kind
from .primitives import Primitive

__all__ = ["check", "decompose", "kind_of", "kinds_compiled_by", "plain", "validate"]

KINDS: dict[str, Kind] = {
    kind.name: kind
    for module in (
        neighbours,
        cell_kinds,
        dots,
        sums,
        lines,
        outside,
        regions,
        indexers,
        squares,
        counting,
    )
    for kind in module.KINDS
}


def kind_of(constraint: Constraint) -> Kind:
    """The constraint's kind; InputError naming it if no kind has that name."""
    try:
        return KINDS[constraint.kind]
    except KeyError:
        raise InputError(f"no constraint kind is named {constraint.kind!r}") from None


def kinds_compiled_by(primitives: set[type] | frozenset[type]) -> frozenset[str]:
    """The kinds whose decomposition uses only these primitive types."""
    return frozenset(name for name, kind in KINDS.items() if kind.primitives <= set(primitives))


def plain(constraint: Constraint, n: int) -> Constraint:
    """The constraint without the parameters it gives at their default values on an N x N
    board: the same constraint, in one form however it was written."""
    kind = KINDS.get(constraint.kind)
    if kind is None:
        return constraint
    if kind.canonical is not None:
        constraint = kind.canonical(constraint)
    if kind.defaults is None:
        return constraint
    defaults = kind.defaults(n)
    params = tuple(p for p in constraint.params if defaults.get(p[0], p) != p[1])
    return (
        constraint if len(params) == len(constraint.params) else replace(constraint, params=params)
    )


def validate(constraint: Constraint, n: int) -> None:
    kind_of(constraint).validate(constraint, n)


def check(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    """The problems of a filled grid (row-major values) against one constraint, in words."""
    return kind_of(constraint).check(constraint, grid, n)


def decompose(constraint: Constraint, n: int) -> list[Primitive]:
    return kind_of(constraint).decompose(constraint, n)
