"""The SAT family's sums by each of PySAT's pseudo-Boolean encoders (``cages=`` and ``linear=``
a name of ``adapters.cnf_primitives.PB_ENCODERS``: ``pb`` Pindakaas's own choice, or ``bdd``,
``totalizer``, ``sortnetwrk``, ...): each encoder's clauses allow exactly the assignments whose
sum holds, on small rows; and on killer boards (the cages as PB sums) and on boards of the
sums of the vocabulary (their linear rows as PB sums) ``pysat`` counts alike with each encoder,
with the default (the automaton over partial sums) and with CP-SAT, every solution verified
by its runner."""

from __future__ import annotations

from itertools import product

import pytest
from own_models import count_alike, hand_made, killer_boards, open_runners, random_boards
from pysat.formula import IDPool
from pysat.solvers import Solver

from adapters import cnf
from adapters.cnf_primitives import PB_ENCODERS, linear_pb
from solvers.backends import registry
from solvers.model.compile import SumGroup
from solvers.model.constraints.primitives import OPERATORS, Linear

LIMIT = 50
# the kinds whose decomposition holds a linear row over the cells
SUMS = ("arrow", "littlekiller", "sumline", "xv")


@pytest.mark.parametrize("form", PB_ENCODERS)
@pytest.mark.parametrize(
    ("terms", "op", "constant"),
    [
        (((1, 0), (1, 1), (1, 2)), "==", 7),  # a little killer's diagonal (values may repeat)
        (((1, 0), (1, 1), (-1, 2)), "==", 0),  # an arrow: two shaft cells, the circle
        (((1, 0), (1, 1), (-10, 2), (-1, 3)), "==", 0),  # a pill of two digits
        (((2, 0), (1, 1), (3, 2)), "<=", 9),
        (((1, 0), (-2, 1), (1, 2)), ">=", 1),
        (((1, 0), (1, 1), (1, 2)), "!=", 6),
        (((1, 0), (1, 1)), "==", 9),  # no pair of values 1..4 adds up to 9
    ],
)
def test_each_encoder_allows_exactly_the_assignments_that_hold(form, terms, op, constant):
    n, cells = 4, len(terms)
    pool = IDPool(start_from=cells * n + 1)

    def x(cell: int, v: int) -> int:
        return cell * n + v

    values = [range(1, n + 1)] * cells
    clauses = linear_pb(Linear(terms, op, constant), values, pool, x, form)
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in clauses]) as solver:
        for cell in range(cells):  # one value a cell, as the rule clauses say
            solver.append_formula(cnf.exactly_one([x(cell, v) for v in range(1, n + 1)]))
        for chosen in product(range(1, n + 1), repeat=cells):
            holds = OPERATORS[op](sum(k * chosen[c] for k, c in terms), constant)
            assumed = [x(c, v) for c, v in enumerate(chosen)]
            assert solver.solve(assumptions=assumed) == holds, (form, chosen)


@pytest.mark.parametrize("form", PB_ENCODERS)
def test_a_cage_by_each_encoder_allows_exactly_its_fillings(form):
    # a sum group of three cells with total 7 on a 4x4: 1+2+4 in any order
    n, group = 4, SumGroup((0, 1, 2), 7)
    pool = cnf.variables(n)
    clauses = cnf.sum_group_clauses(group, n, pool, form)
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in clauses]) as solver:
        for cell in group.cells:
            solver.append_formula(cnf.exactly_one([cnf.variable(cell, v, n) for v in range(1, 5)]))
        for chosen in product(range(1, n + 1), repeat=3):
            holds = sorted(chosen) == [1, 2, 4]
            assumed = [cnf.variable(c, v, n) for c, v in zip(group.cells, chosen, strict=True)]
            assert solver.solve(assumptions=assumed) == holds, (form, chosen)


@pytest.fixture(scope="module")
def runners():
    specs = ("pysat", "cpsat", *(f"pysat:cages={f},linear={f}" for f in PB_ENCODERS))
    with open_runners(*specs) as opened:
        yield opened


@pytest.mark.parametrize("seed", range(2))
def test_killer_boards_count_alike_by_every_encoder(seed, runners):
    count_alike(runners, killer_boards(seed, share=0.3), LIMIT)


@pytest.mark.parametrize("kind", SUMS)
def test_boards_of_sums_count_alike_by_every_encoder(kind, runners):
    count_alike(runners, hand_made(kind) + random_boards(kind, f"sat pb {kind}"), LIMIT)


def test_the_encoders_are_forms_of_the_sums_with_the_defaults_first():
    for name in ("sat", "pysat", "cms"):
        options = registry.backend_class(name).OPTIONS
        assert options["linear"] == ("dp", *PB_ENCODERS)
        assert options["cages"] == ("combinations", *PB_ENCODERS)


def test_a_pb_form_takes_killer_cages_from_the_native_model():
    # the form named must reach the cages: they leave the native CNF for the PB sum
    assert "killercage" not in cnf.native_kinds({"cages": "bdd", "linear": "dp"})
    assert "killercage" in cnf.native_kinds({"cages": "combinations", "linear": "dp"})
    assert {"xv", "arrow"}.isdisjoint(
        cnf.native_kinds({"cages": "combinations", "linear": "adder"})
    )
