"""``native:choice=``: the constrained kernel's cell choice, dom/wdeg (``wdeg``, the default) or
with ISS's value scores too (``values``: ``constrained``). Either way the search visits the
same solutions: counts agree with cpsat's on killer boards (which take the constrained kernel:
their implied linear rows), and the pigeonhole board of test_native_branching is proved in a
few nodes by both."""

from __future__ import annotations

import pytest
from test_implied import BOTTOM, REACHING, TOP, board
from test_native_branching import trap

from solvers import count_solutions
from solvers.backends.handwritten.native.outcome import HOUSES, VALUES, WDEG
from solvers.backends.handwritten.native.solver import Solver
from solvers.backends.handwritten.native.tables import plan_for

CHOICES = ("native:choice=wdeg", "native:choice=values", "native:choice=houses")


@pytest.mark.parametrize(
    ("rules", "rows"),
    [
        (TOP, range(1, 4)),
        (REACHING, range(7, 10)),
        (BOTTOM.replace("total=31", "total=32"), range(7, 10)),  # no completion reaches it
    ],
)
def test_both_choices_count_as_cpsat(rules, rows):
    b = board(rules, rows)
    assert plan_for(b).primitives is not None  # the constrained kernel, whose choice this is
    expected = count_solutions(b, limit=10_000, backend="cpsat")
    assert rules.endswith("total=32") or expected > 1
    for backend in CHOICES:
        assert count_solutions(b, limit=10_000, backend=backend) == expected, backend


@pytest.mark.parametrize("choice", [WDEG, VALUES, HOUSES])
def test_both_choices_go_where_the_search_fails(choice):
    b = trap()
    found, _, stats = Solver(choice).search(plan_for(b), bytes(b.cells), 2, None)
    assert found == 0
    assert stats["nodes"] < 5_000  # fewest candidates alone: a million nodes


def test_the_value_scores_change_the_search():
    # the trap's pigeonhole fails on values 1..4 again and again: they grow hot, the cells that
    # hold them weigh more, and the search takes another path to the same proof
    b = trap()
    nodes = [Solver(c).search(plan_for(b), bytes(b.cells), 2, None)[2]["nodes"] for c in (0, 1)]
    assert nodes[0] != nodes[1]
