"""The mip backend's own formulations of kinds (``adapters.mip_native``, ``mip:model=native``)
against the shared decomposition (``mip:model=decomposed``) and against another engine
(CP-SAT's default model, which shares nothing with mip's rows but the board): on small puzzles
made for the native models' tests (each unique only because of its rule: without it, it has
several solutions), on the kind's hand-made board of tests/test_definitions.py (whose count
the field's meaning gives), and on random 4x4 and 6x6 boards of the vocabulary's tests, all
three count alike up to a limit, and every solution any of them finds is verified against the
kind's own check."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_definitions import DEFINITIONS
from test_native_choco import MADE as MADE_FOR_CHOCO
from test_vocabulary import board_with

from adapters import mip_native
from solvers import Board, Shape, Status, parse
from solvers.backends import registry
from solvers.base.errors import UsageError
from solvers.model.cells import sum_sets
from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.text import parse_constraint
from solvers.model.variants import Rules
from solvers.run.runner import Runner

SPECS = ("mip:model=native", "mip:model=decomposed", "cpsat")
LIMIT = 300

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


def made(kind: str) -> list[Board]:
    return [parse(f"# rules: {rules}\n{givens}") for name, rules, givens in MADE if name == kind]


@pytest.fixture(scope="module")
def runners():
    with Runner(SPECS[0]) as native, Runner(SPECS[1]) as decomposed, Runner(SPECS[2]) as other:
        yield native, decomposed, other


def boards_of(kind: str) -> list[Board]:
    """The made puzzles of the kind, its board in tests/test_definitions.py, and random 4x4 and
    6x6 boards of the vocabulary's tests."""
    rng = random.Random(f"mip native {kind}")
    boards = made(kind) + [parse(d.board) for d in DEFINITIONS if d.kind == kind]
    for shape, givens in ((Shape(2, 2), 0.0), (Shape(2, 2), 0.2), (Shape(2, 3), 0.4)):
        boards.append(board_with(kind, shape, rng, givens))
    return boards


def test_every_native_kind_has_made_puzzles():
    assert set(mip_native.MODELS) <= {kind for kind, _, _ in MADE}


@pytest.mark.parametrize("kind", sorted(mip_native.MODELS))
def test_each_native_model_counts_as_the_decomposition_and_cpsat_do(kind, runners):
    for board in boards_of(kind):
        counts = []
        for runner in runners:
            counted = runner.count(board, LIMIT, timeout=60)  # the runner verifies each answer
            assert counted.status in (Status.SOLVED, Status.UNSOLVABLE), (runner, counted.detail)
            counts.append(counted.count)
        assert counts[0] == counts[1] == counts[2], (kind, board.rules.constraints, counts)


@pytest.mark.parametrize("kind", sorted(mip_native.MODELS))
def test_each_made_puzzle_is_unique_by_its_rule_alone(kind, runners):
    native = runners[0]
    for board in made(kind):
        assert native.count(board, LIMIT).count == 1
        without = Board(board.shape, board.cells, Rules())
        assert native.count(without, 2).count == 2  # so a model that drops the rule fails


@pytest.mark.parametrize("kind", sorted(mip_native.MODELS))
def test_each_native_model_solves_the_kinds_example_on_9x9(kind, runners):
    # the example on a 9x9 with the top three rows of CP-SAT's solution given: on an empty
    # grid HiGHS's first point of a board-wide negative Kropki rule can take a minute with
    # either model (negative-difference: past 60 s decomposed, 19.5 s CPU native)
    example = parse_constraint(KINDS[kind].example, 9)
    empty = Board(Shape(3, 3), (0,) * 81, Rules(constraints=(example,)))
    solution = runners[2].solve(empty, timeout=60).solution
    board = Board(empty.shape, (*solution.cells[:27], *(0,) * 54), empty.rules)
    assert runners[0].solve(board, timeout=60).status is Status.SOLVED  # and verified


def test_a_cage_of_too_many_sets_keeps_the_sum_and_the_values_cut(runners):
    # a 16x16 cage of 8 cells adding up to 68 has over SETS sets of values: all-different,
    # the sum row and the cut (the row's givens leave 5..12 to the cage), each answer verified
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
    with pytest.raises(UsageError, match="model=table is not one of native, decomposed"):
        Runner("mip:model=table")
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
