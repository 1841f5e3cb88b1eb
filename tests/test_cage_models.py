"""Each engine's models of a killer cage and of the 45 rule's implied sum groups (``cages=``:
mip's choice among the sets of values, z3's selectors per set, CP-SAT's, Choco's and CPMpy's
tables of fillings) against CP-SAT and against the engine's other form: on killer boards made
here (a random solution, random cages over it, some givens), every spec counts alike up to a
limit, and every solution the runners find is verified against the rules."""

from __future__ import annotations

import pytest
from own_models import count_alike, killer_boards, open_runners

from adapters.primitive_forms import fillings, groups_as_cages
from solvers import Shape
from solvers.model.compile import PRIMITIVES, Flat, SumGroup, flatten
from solvers.model.constraints.primitives import AllDifferent, Linear

SPECS = {
    "mip": ("mip", "mip:cages=rows"),
    "z3": ("z3", "z3:cages=pb"),
    "choco": ("choco", "choco:cages=sum"),
    "cpsat": ("cpsat:cages=sum",),
    "cpmpy": ("cpmpy", "cpmpy:cages=sum"),
}
LIMIT = 20


BOARDS = killer_boards(41, 0.3)


def test_the_boards_hold_implied_sum_groups():
    # so that the engines' models of the 45 rule's groups are counted too
    assert all(flatten(board).implied for board in BOARDS[1:])


@pytest.mark.parametrize("engine", sorted(SPECS))
def test_each_cage_model_counts_killer_boards_as_cpsat_does(engine):
    with open_runners("cpsat", *SPECS[engine]) as runners:
        count_alike(runners, BOARDS, LIMIT)


def test_a_cages_fillings_are_its_sets_in_every_order():
    # two cells of 1..4 adding up to 7: 3 and 4 alone
    assert sorted(fillings(2, (7,), 4, 100)) == [(3, 4), (4, 3)]
    assert sorted(fillings(3, (6,), 9, 100)) == sorted(
        [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)]
    )
    assert fillings(2, (20,), 9, 100) == []  # no two values add up to 20
    assert fillings(6, (27,), 9, 100) is None  # more than 100 fillings: none


def test_a_sum_group_too_large_to_list_its_sets_is_lowered_the_rest_kept():
    # on 25x25, 12 cells have 5.2 million subsets of 1..25 to look through; 3 cells 2,300
    big = SumGroup(tuple(range(12)), 150)
    small = SumGroup((25, 26, 27), 6)
    flat = Flat(Shape(5, 5).geometry, sum_groups=(big, small))
    given, groups = groups_as_cages(flat, frozenset({PRIMITIVES}))
    assert groups == (small,)
    assert AllDifferent(big.cells) in given
    assert Linear(tuple((1, c) for c in big.cells), "==", 150) in given
    assert not any(set(getattr(p, "cells", ())) == {25, 26, 27} for p in given)
