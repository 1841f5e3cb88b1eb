"""The mip backend's own formulations of kinds (``adapters.mip_native``, ``mip:model=native``)
against the shared decomposition (``mip:model=decomposed``) and against another engine
(CP-SAT's default model, which shares nothing with mip's rows but the board): on small puzzles
made for the native models' tests (each unique only because of its rule: without it, it has
several solutions), on the kind's hand-made board of tests/test_definitions.py (whose count
the field's meaning gives), and on random 4x4 and 6x6 boards of the vocabulary's tests, all
three count alike up to a limit, and every solution any of them finds is verified against the
kind's own check."""

from __future__ import annotations

import numpy as np
import pytest
from own_models import MADE as MADE_FOR_CHOCO
from own_models import OwnModelTests, example_on_empty_9x9, refuses_an_unknown_model

from adapters import mip_native
from solvers import Board, Status, parse
from solvers.backends import registry
from solvers.model.cells import sum_sets

# the kinds Choco's tests have no made puzzles of, made the same way for this file (a random
# solved grid, constraints that hold in it, givens removed while the puzzle stays unique); the
# comment says how many solutions the givens have without the constraints
MADE = (
    *MADE_FOR_CHOCO,
    ("xv", "xv r3c2 r3c3 sum=5; xv r2c3 r3c3 sum=5", ".4..........2..."),  # 12 without
    ("xv", "xv r3c5 r4c5 sum=10; xv r5c2 r6c2 sum=10",
     "..2..36.........4..1.5...43...2....."),  # 5 without
    ("negative-difference", "negative-difference exempt=r1c1-r1c2,r1c1-r2c1,r1c2-r2c2,"
     "r1c3-r2c3,r1c4-r2c4,r2c3-r2c4,r2c3-r3c3,r3c1-r4c1,r3c2-r3c3,r3c2-r4c2,r3c3-r4c3,"
     "r3c4-r4c4", "...1............"),  # 72 without
    ("negative-ratio", "negative-ratio exempt=r1c1-r2c1,r1c4-r2c4,r3c2-r3c3,r3c2-r4c2,"
     "r3c3-r4c3,r4c2-r4c3", ".........4.....1"),  # 12 without
    ("negative-xv", "negative-xv exempt=r1c1-r2c1,r1c2-r1c3,r1c2-r2c2,r2c3-r3c3,r2c4-r3c4,"
     "r3c1-r4c1,r3c2-r3c3,r3c2-r4c2", "......3.....4..."),  # 18 without
)  # fmt: skip


class TestMipModels(OwnModelTests):
    SPECS = ("mip:model=native", "mip:model=decomposed", "cpsat")
    MODELS = mip_native.MODELS
    MADE = MADE
    SEED = "mip native"
    LIMIT = 300

    def example(self, kind, runners):
        # the example on a 9x9 with the top three rows of CP-SAT's solution given: on an empty
        # grid HiGHS's first point of a board-wide negative Kropki rule can take a minute with
        # either model (negative-difference: past 60 s decomposed, 19.5 s CPU native)
        empty = example_on_empty_9x9(kind)
        solution = runners[2].solve(empty, timeout=60).solution
        return Board(empty.shape, (*solution.cells[:27], *(0,) * 54), empty.rules)

    def test_a_cage_of_too_many_sets_keeps_the_sum_and_the_values_cut(self, runners):
        # a 16x16 cage of 8 cells adding up to 68 has over SETS sets of values: all-different,
        # the sum row and the cut (the row's givens leave 5..12 to the cage), each answer
        # verified
        board = parse(
            "# rules: killercage r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 total=68\n"
            + "........1234DEFG"
            + "." * 240
        )
        assert len(sum_sets(8, 68, 16)) > mip_native.SETS
        answers = [runner.solve(board, timeout=60) for runner in runners]
        assert all(answer.status is Status.SOLVED for answer in answers), answers


def test_the_model_is_an_option_named_as_the_others_are_and_combines_with_the_solver():
    options = registry.backend_class("mip").OPTIONS
    assert options["model"] == ("native", "decomposed")
    refuses_an_unknown_model("mip", "native, decomposed")
    cls = registry.backend_class("mip")
    assert cls(solver="highs", model="decomposed").native_kinds() == set()
    assert cls(solver="scip", model="native").native_kinds() == set(mip_native.MODELS)


def test_rows_highs_refuses_are_an_error_not_a_model_without_them():
    # HiGHS refuses a batch of rows where one names a binary twice, and keeps none of them: a
    # model missing its rows would answer for a board without its rules
    from adapters.mip import _Highs
    from solvers.base.deadline import Deadline
    from solvers.base.errors import EngineError

    program = _Highs(np.zeros(4))
    with pytest.raises(EngineError, match="HiGHS refused the model's rows"):
        program.add([([0, 1], [1.0, 1.0], 1.0, 1.0), ([2, 2], [1.0, 1.0], 0.0, 1.0)], Deadline())
