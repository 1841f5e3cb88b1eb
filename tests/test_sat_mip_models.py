"""The SAT family's and mip's model options for killer boards against CP-SAT: the 45 rule's
implied groups and rows in CNF (``sat|pysat|cms:implied=groups,rows,off``) and HiGHS with and
without its primal heuristics and restarts (``mip:heuristics=on,off``, ``restart=on,off``). On
killer boards made here (a random solution, random cages over it, some givens), every spec
counts alike up to a limit, and every solution the runners find is verified against the
rules."""

from __future__ import annotations

import pytest
from own_models import count_alike, killer_boards, open_runners

from adapters import cnf
from solvers.model.compile import flatten

SPECS = {
    "sat": ("sat:implied=rows", "sat:implied=off"),
    "pysat": ("pysat:implied=rows", "pysat:implied=off"),
    "cms": ("cms:implied=rows", "cms:implied=off"),
    "mip": ("mip", "mip:heuristics=off,restart=off", "mip:restart=off"),
}
LIMIT = 20


BOARDS = killer_boards(4141, 0.25)


def test_the_boards_hold_the_45_rules_groups_and_rows():
    # so that every implied= form has something to encode
    assert any(flatten(board).implied for board in BOARDS)
    assert any(flatten(board).implied_linears for board in BOARDS)


@pytest.mark.parametrize("engine", sorted(SPECS))
def test_each_model_option_counts_killer_boards_as_cpsat_does(engine):
    with open_runners("cpsat", *SPECS[engine]) as runners:
        count_alike(runners, BOARDS, LIMIT)


def test_implied_rows_add_clauses_and_off_removes_the_groups():
    board = next(b for b in BOARDS if flatten(b).implied and flatten(b).implied_linears)
    sizes = {}
    for implied in cnf.IMPLIED:
        options = {"cages": "combinations", "linear": "dp", "model": "native", "implied": implied}
        sizes[implied] = len(cnf.rule_extras(board, cnf.variables(board.size), options))
    assert sizes["off"] < sizes["groups"] < sizes["rows"]
