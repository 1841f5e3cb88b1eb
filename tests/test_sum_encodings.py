"""Z3's linear rows as a decision diagram (``z3:sums=diagram``, ``adapters.z3_sums``) against
its pseudo-Boolean rows (``z3:sums=pb``, the default) and another engine (CP-SAT): the
diagram's clauses allow exactly the assignments whose sum holds, and on killer boards (the
cages decomposed into linear rows), arrows, little killers and the other sums of the
vocabulary, the three count alike, every solution verified by its runner."""

from __future__ import annotations

from itertools import product

import pytest
import z3
from own_models import count_alike, hand_made, killer_boards, open_runners, random_boards

from adapters.z3_sums import diagram, small_enough
from solvers.backends import registry
from solvers.model.constraints.primitives import OPERATORS, Linear

LIMIT = 200
SPECS = ("z3:sums=diagram,model=decomposed", "z3:sums=diagram", "z3", "cpsat")
# the kinds whose decomposition holds a linear row over the cells
SUMS = ("arrow", "littlekiller", "sumline", "xv", "doublearrow", "sum")


@pytest.fixture(scope="module")
def runners():
    with open_runners(*SPECS) as opened:
        yield opened


@pytest.mark.parametrize(
    ("terms", "op", "constant"),
    [
        (((1, 0), (1, 1), (1, 2)), "==", 7),  # a little killer's diagonal (values may repeat)
        (((1, 0), (1, 1), (-1, 2)), "==", 0),  # an arrow: two shaft cells, the circle
        (((1, 0), (1, 1), (-10, 2), (-1, 3)), "==", 0),  # a pill of two digits
        (((2, 0), (1, 1), (3, 2)), "<=", 9),
        (((1, 0), (-2, 1), (1, 2)), ">=", 1),
        (((1, 0), (1, 1)), "==", 9),  # no pair of values 1..4 adds up to 9
    ],
)
def test_the_diagram_allows_exactly_the_assignments_that_hold(terms, op, constant):
    n, cells = 4, len(terms)
    literals = [[z3.Bool(f"c{c}v{v}") for v in range(1, n + 1)] for c in range(cells)]
    solver = z3.Solver()
    solver.add(diagram(lambda c, v: literals[c][v - 1], Linear(terms, op, constant), n))
    solver.add([z3.PbEq([(x, 1) for x in row], 1) for row in literals])
    for values in product(range(1, n + 1), repeat=cells):
        chosen = [literals[c][v - 1] for c, v in enumerate(values)]
        holds = OPERATORS[op](sum(k * values[c] for k, c in terms), constant)
        assert (solver.check(*chosen) == z3.sat) == holds, values


@pytest.mark.parametrize("seed", range(4))
def test_killer_boards_count_alike(seed, runners):
    # the cages decomposed (model=decomposed): each a linear row, given as the diagram
    count_alike(runners, killer_boards(seed, share=0.3), LIMIT)


@pytest.mark.parametrize("kind", SUMS)
def test_boards_of_sums_count_alike(kind, runners):
    count_alike(runners, hand_made(kind) + random_boards(kind, f"z3 sums {kind}"), LIMIT)


def test_the_sums_are_an_option_with_the_pseudo_boolean_rows_by_default():
    assert registry.backend_class("z3").OPTIONS["sums"] == ("pb", "diagram")


def test_a_row_too_large_for_a_diagram_stays_a_pseudo_boolean_row():
    pill = Linear(((100, 0), (10, 1), (1, 2), *((-1, c) for c in range(3, 81))), "==", 0)
    diagonal = Linear(tuple((1, c * 10) for c in range(9)), "==", 45)
    assert not small_enough(pill, 9)
    assert small_enough(diagonal, 9)
