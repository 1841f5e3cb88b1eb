"""mip's HiGHS-only switches (``heuristics=``, ``restart=``) with ``solver=scip``: refused in one
line with exit status 2 instead of being ignored, while each alone (and scip with the defaults)
still solves."""

from __future__ import annotations

import pytest

from solvers import Board, Shape
from solvers.model.verify import verify

# a 4x4 made here: one given, many solutions, so a run always has an answer to print
BOARD = Board(Shape(2, 2), (1,) + (0,) * 15)
TEXT = "".join(str(value) for value in BOARD.cells)


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("mip:solver=scip,heuristics=off", "heuristics=off"),
        ("mip:solver=scip,restart=off", "restart=off"),
        ("mip:solver=scip,heuristics=off,restart=off", "heuristics=off, restart=off"),
    ],
)
def test_scip_refuses_highs_switches_in_one_line(cli, spec, named):
    run = cli("solve", TEXT, "--backend", spec)
    assert run.code == 2
    assert run.out == ""
    assert run.err.strip().count("\n") == 0
    assert named in run.err and "solver=scip" in run.err


@pytest.mark.parametrize(
    "spec", ["mip:solver=scip", "mip:solver=highs,heuristics=off,restart=off", "mip"]
)
def test_the_allowed_pairs_still_solve(cli, spec):
    run = cli("solve", TEXT, "--backend", spec)
    assert run.code == 0, run.err
    grid = run.out.split()[0]
    verify(BOARD, Board(Shape(2, 2), tuple(int(ch) for ch in grid)), spec)


def test_compare_refuses_the_pair_before_any_output(cli):
    # the spec is refused where it is resolved, before the first dataset's header line
    run = cli("compare", "small4", "--backends", "native,mip:solver=scip,heuristics=off")
    assert run.code == 2
    assert run.out == ""
    assert "heuristics=off" in run.err and run.err.strip().count("\n") == 0


def test_the_spec_itself_is_refused_where_it_is_resolved():
    from solvers.backends.spec import BackendSpec
    from solvers.base.errors import UsageError

    with pytest.raises(UsageError, match="restart=off"):
        BackendSpec.parse("mip:solver=scip,restart=off").resolve()
