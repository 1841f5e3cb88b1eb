"""Today's rule variants as constraints: what ``Rules`` says, in the vocabulary of kinds.

``x`` is both diagonals, ``windoku`` an extra region per window, ``killer`` a cage per cage.
Jigsaw regions are no constraint: they replace the boxes, so they stay part of the board.
"""

from __future__ import annotations

from solvers.board import Shape
from solvers.variants import Rules, window_units

from .model import Constraint


def constraints_of(rules: Rules, shape: Shape) -> tuple[Constraint, ...]:
    """The constraints that say what ``rules`` adds to the units of rows, columns and regions."""
    found = []
    if rules.diagonals:
        found += [Constraint("diagonal-"), Constraint("diagonal+")]
    if rules.windows:
        found += [
            Constraint("extraregion", window)
            for window in window_units(shape.box_rows, shape.box_cols)
        ]
    found += [
        Constraint("killercage", cage.cells, (("total", cage.total),)) for cage in rules.cages
    ]
    return tuple(found)
