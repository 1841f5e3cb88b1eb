"""What several engines make of a primitive alike (``solvers.model.constraints.primitives``):
``expanded``, a compressed table as the tuples it stands for, where they are few enough for an
engine's own table constraint (Choco, CPMpy, MiniZinc); ``WRITTEN``, a linear row's operator as
Choco and MiniZinc write it."""

from __future__ import annotations

from itertools import product
from math import prod

WRITTEN = {"==": "=", "!=": "!=", "<=": "<=", ">=": ">="}
SMALL_TABLE = 1000  # tuples: a compressed table expanding to more is a Boolean per row


def expanded(rows: tuple, at_most: int) -> list[tuple[int, ...]] | None:
    """The distinct tuples of a compressed table's ``rows`` (each row a value set per cell),
    sorted; None when there would be more than ``at_most``."""
    if sum(prod(map(len, row)) for row in rows) > at_most:
        return None
    return sorted({values for row in rows for values in product(*map(sorted, row))})
