"""Today's variants re-expressed as constraints judge every grid as the verifier does.

Over all 576 Latin squares of order 4, a grid obeys a variant's rules (the verifier's verdict)
exactly when it obeys the base board's units and every constraint of ``constraints_of``.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from solvers.board import Board, Shape
from solvers.constraints import check, constraints_of, validate
from solvers.variants import Cage, Rules
from solvers.verify import problems

SHAPE = Shape(2, 2)
REGIONS = (0, 0, 0, 1, 0, 1, 1, 1, 2, 2, 2, 3, 2, 3, 3, 3)
CAGES = (Cage(3, (0, 1)), Cage(5, (2, 6)), Cage(8, (10, 11, 15)))


def latin_squares(n: int = 4) -> list[tuple[int, ...]]:
    rows = list(permutations(range(1, n + 1)))
    found: list[tuple[int, ...]] = []

    def extend(square: list[tuple[int, ...]]) -> None:
        if len(square) == n:
            found.append(tuple(v for row in square for v in row))
            return
        for row in rows:
            if all(row[c] != other[c] for other in square for c in range(n)):
                extend([*square, row])

    extend([])
    return found


RULES = {
    "x": Rules(diagonals=True),
    "windoku": Rules(windows=True),
    "killer": Rules(cages=CAGES),
    "x killer": Rules(diagonals=True, cages=CAGES),
    "jigsaw x": Rules(diagonals=True, regions=REGIONS),
}


@pytest.mark.parametrize("label", list(RULES))
def test_constraints_of_a_variant_agree_with_the_verifier(label):
    rules = RULES[label]
    base = Rules(regions=rules.regions)
    constraints = constraints_of(rules, SHAPE)
    for constraint in constraints:
        validate(constraint, 4)
    verdicts = set()
    for grid in latin_squares():
        by_verifier = not problems(Board.empty(SHAPE, rules), Board.unchecked(SHAPE, grid, rules))
        in_base = not problems(Board.empty(SHAPE, base), Board.unchecked(SHAPE, grid, base))
        by_constraints = in_base and not any(check(c, grid, 4) for c in constraints)
        assert by_verifier == by_constraints, grid
        verdicts.add(by_verifier)
    assert verdicts == {True, False}


def test_classic_rules_add_no_constraint():
    assert constraints_of(Rules(), SHAPE) == ()
    assert constraints_of(Rules(regions=REGIONS), SHAPE) == ()
