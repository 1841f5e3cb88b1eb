"""The one-line text form of a constraint: examples per kind, round trips, and bad lines."""

from __future__ import annotations

import random

import pytest
from test_constraints import instance

from solvers.base.errors import InputError
from solvers.model.constraints.cell_kinds import gather_extremes
from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.text import format_constraint, parse_constraint

LINES = [
    ("anti-knight", Constraint("anti-knight")),
    ("thermometer r1c1 r1c2 r2c3", Constraint("thermometer", (0, 1, 11))),
    ("xv r4c5 r4c6 sum=10", Constraint("xv", (31, 32), (("sum", 10),))),
    ("killercage r1c1 r1c2 total=12", Constraint("killercage", (0, 1), (("total", 12),))),
    ("arrow r1c1 r1c2 r2c3 circle=2", Constraint("arrow", (0, 1, 11), (("circle", 2),))),
    ("quadruple r4c4 r4c5 r5c4 r5c5 values=1,1,7",
     Constraint("quadruple", (30, 31, 39, 40), (("values", (1, 1, 7)),))),
    ("regionsumline r1c3 r1c4 r2c4 regions=0,1,1",
     Constraint("regionsumline", (2, 3, 12), (("regions", (0, 1, 1)),))),
    ("disjointgroups box=3x3", Constraint("disjointgroups", (), (("box", (3, 3)),))),
    ("negative-xv exempt=r1c1-r1c2,r5c5-r6c5",
     Constraint("negative-xv", (), (("exempt", ((0, 1), (40, 49))),))),
]  # fmt: skip


@pytest.mark.parametrize("text, constraint", LINES)
def test_documented_lines_read_as_their_constraint_on_9x9(text, constraint):
    assert parse_constraint(text, 9) == constraint
    assert format_constraint(constraint, 9) == text


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_round_trips(name):
    rng = random.Random(name)
    for n in (4, 6):
        for _ in range(5):
            constraint = instance(name, n, rng)
            text = format_constraint(constraint, n)
            assert "\n" not in text and text.startswith(name)
            assert parse_constraint(text, n) == constraint
            assert format_constraint(parse_constraint(text, n), n) == text


BAD = [
    ("", "empty constraint line"),
    ("thermometer r1c1 r9c1", "cell r9c1 is outside the 4x4 board"),
    ("thermometer r1c1 x2", "'x2' is not a cell such as r1c2"),
    ("xv r1c1 r1c2 sum=ten", "'ten' is not a whole number"),
    ("xv r1c1 sum=5 r1c2", "cell 'r1c2' comes after the parameters"),
    ("xv r1c1 r1c2 sum=7", "sum 7 is not 5 or 10"),
    ("disjointgroups box=22", "is not of the form RxC"),
    ("negative-xv exempt=r1c1r1c2", "is not of the form r1c1-r1c2"),
    ("rainbow r1c1", "no constraint kind is named 'rainbow'"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_bad_lines_are_one_line_input_errors(text, message):
    with pytest.raises(InputError) as caught:
        parse_constraint(text, 4)
    assert message in str(caught.value) and "\n" not in str(caught.value)


# Maxima r2c2 and r2c3 side by side, minima r1c1 and r2c1 side by side (the maximum r2c2
# beside the minimum r2c1): each compared only with neighbours outside its own set, so two
# 4x4 grids fit (1324 2431 4213 3142 is one); compared with each other, none would.
FORTRESS_4X4 = "maximum r2c2; maximum r2c3; minimum r1c1; minimum r2c1"


@pytest.mark.parametrize("backend", ["cpsat", "dfs"])
def test_maxima_on_separate_lines_are_one_set_of_maxima(backend, cli, tmp_path):
    puzzle = tmp_path / "fortress.txt"
    puzzle.write_text(f"# rules: {FORTRESS_4X4}\n" + ". . . .\n" * 4)
    run = cli("count", str(puzzle), "--backend", backend)
    assert (run.code, run.out, run.err) == (0, "2\n", "")
    run = cli("convert", str(puzzle), "--to", "text")
    assert run.out.startswith("# rules: maximum r2c2 r2c3; minimum r1c1 r2c1\n")


def test_gathering_keeps_other_constraints_and_each_cell_once():
    read = [parse_constraint(text, 4) for text in ("maximum r1c1", "odd r2c2", "maximum r1c2 r1c1")]
    assert gather_extremes(read) == (
        Constraint("maximum", (0, 1)),
        Constraint("odd", (5,)),
    )
