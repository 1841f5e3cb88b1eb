"""A board's rules: its jigsaw regions, if any, and its constraints of the vocabulary.

Everything a puzzle adds to classic Sudoku is a constraint of the vocabulary
(``solvers.model.constraints``): the diagonals of an X sudoku, windoku's windows (extra regions),
killer's sum groups, thermometers and the rest. Jigsaw regions are no constraint: they replace the
boxes, so they stay part of the board's geometry. ``solvers.model.compile`` flattens both into what
engines encode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from solvers.base.errors import InputError
from solvers.model.cells import first_seen, no_boxes

if TYPE_CHECKING:
    from solvers.model.constraints.model import Constraint


@dataclass(frozen=True)
class Rules:
    """A puzzle's rules beyond classic Sudoku; ``Rules()`` is classic."""

    regions: tuple[int, ...] | None = None  # jigsaw: each cell's region, numbered from 0
    constraints: tuple[Constraint, ...] = ()  # kinds of the vocabulary (solvers.model.constraints)

    def __post_init__(self) -> None:
        if self.regions is not None:  # one numbering for the same regions: by first cell
            object.__setattr__(self, "regions", first_seen(self.regions))
        constraints = self.constraints
        if constraints:
            from solvers.model.constraints.cell_kinds import gather_extremes

            # the field's meaning: all of a board's maximum cells are one constraint (each
            # compared with the neighbours that are no maximum), likewise minimum cells
            constraints = gather_extremes(constraints)
        # One order for the same constraints, however they were listed (by kind, then cells,
        # then parameters), each once: a constraint given twice says nothing more
        order = sorted(dict.fromkeys(constraints), key=lambda c: (c.kind, c.cells, repr(c.params)))
        object.__setattr__(self, "constraints", tuple(order))

    @property
    def names(self) -> frozenset[str]:
        """The kinds of the constraints, and ``jigsaw`` for a board with regions."""
        jigsaw = {"jigsaw"} if self.regions is not None else set()
        return frozenset(jigsaw | {constraint.kind for constraint in self.constraints})

    @property
    def label(self) -> str:
        """``jigsaw`` first, then the kinds alphabetically; or ``classic``."""
        kinds = sorted({constraint.kind for constraint in self.constraints})
        return " ".join(["jigsaw"] * (self.regions is not None) + kinds) or "classic"

    @property
    def is_classic(self) -> bool:
        return self.regions is None and not self.constraints


CLASSIC = Rules()


def check_boxless(rules: Rules, n: int) -> None:
    """InputError unless a board of prime side ``n`` (one without boxes) has regions, and no
    rule that reads boxes."""
    if rules.regions is None:
        raise InputError(no_boxes(n))
    for constraint in rules.constraints:
        if constraint.param("box") is not None:  # disjoint groups, box indexers
            raise InputError(no_boxes(n, constraint.kind))
