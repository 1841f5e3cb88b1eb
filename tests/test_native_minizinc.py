"""MiniZinc's own models of some kinds (``minizinc:model=native``, ``adapters.mzn_native``)
against the shared decomposition (``minizinc:model=decomposed``) and another engine (CP-SAT),
each run by the ``minizinc`` command and Gecode: on each kind's hand-made board
(tests/test_definitions.py, whose count the rule's meaning gives), on small boards made here
whose count the rule changes, and (slow) on random boards of the vocabulary's tests. Every
solution any of them finds is verified by the runner against the kind's own check."""

from __future__ import annotations

import pytest
from own_models import example_on_empty_9x9, open_runners, random_boards, refuses_an_unknown_model
from test_definitions import DEFINITIONS

from adapters import mzn
from solvers import Board, Status, parse
from solvers.backends import registry

AVAILABLE, WHY = registry.availability("minizinc")
pytestmark = pytest.mark.skipif(not AVAILABLE, reason=WHY)
NATIVE = sorted(mzn.NATIVE)
SPECS = ("minizinc:model=native", "minizinc:model=decomposed", "cpsat:model=decomposed")
LIMIT = 1000

# Boards made for this file, on 4x4 (one solution each, which the rule alone makes unique:
# without it the givens leave several), so that a native model that loses or bends the rule
# counts otherwise. Made by reading the clue off a solved grid and removing givens.
MADE = {
    "skyscraper": "# rules: skyscraper r1c1 r1c2 r1c3 r1c4 total=2\n.2......4.1.....",
    "xsum": "# rules: xsum r1c4 r1c3 r1c2 r1c1 total=8\n.....4...2..1...",
    "sandwich": "# rules: sandwich r1c1 r2c1 r3c1 r4c1 total=2\n...4..1......4..",
    "renban": "# rules: renban r1c1 r2c1 r2c2\n.......23..4..2.",
    "killercage": "# rules: killercage r1c1 r2c1 total=5\n.1..3.....13....",
    "thermometer": "# rules: thermometer r1c2 r2c3 r3c4\n...4........1...",
    "slow-thermometer": "# rules: slow-thermometer r1c2 r2c3 r3c4\n.2.....2.4..1...",
}


@pytest.fixture(scope="module")
def runners():
    with open_runners(*SPECS) as opened:
        yield opened


def counts(runners, board: Board) -> list[int]:
    """Each runner's count of ``board`` up to LIMIT, each solve agreeing with it (every
    solution verified by the runner)."""
    found = []
    for runner in runners:
        counted = runner.count(board, LIMIT, timeout=120)
        assert counted.status in (Status.SOLVED, Status.UNSOLVABLE), counted.detail
        solved = runner.solve(board, timeout=120)
        assert solved.status is (Status.SOLVED if counted.count else Status.UNSOLVABLE)
        found.append(counted.count)
    return found


def test_every_native_kind_has_a_board_made_here():
    assert sorted(MADE) == NATIVE


@pytest.mark.parametrize("kind", NATIVE)
def test_each_native_model_counts_the_kinds_hand_made_board_as_its_meaning_says(kind, runners):
    for definition in (d for d in DEFINITIONS if d.kind == kind):
        board = parse(definition.board)
        assert counts(runners, board) == [definition.count] * 3, definition.board


@pytest.mark.parametrize("kind", NATIVE)
def test_each_native_model_makes_the_board_made_for_it_unique_as_the_rule_does(kind, runners):
    board = parse(MADE[kind])
    assert counts(runners, board) == [1, 1, 1]
    plain = Board(board.shape, board.cells)  # the givens alone leave several
    assert runners[0].count(plain, LIMIT, timeout=120).count > 1


def test_a_native_model_is_written_with_minizincs_globals_and_none_of_the_decomposition():
    board = parse(MADE["skyscraper"].replace("\n", "; renban r4c1 r4c2 r4c3\n"))
    native, decomposed = mzn.model(board), mzn.model(board, native=frozenset())
    assert "regular(" in native and "max(" in native and "table_int(" not in native
    assert "regular(" not in decomposed and "table_int(" in decomposed


def test_encode_writes_the_native_model_unless_asked_for_the_decomposition(cli):
    puzzle = MADE["renban"]
    native = cli("encode", "--to", "minizinc", stdin=puzzle)
    decomposed = cli("encode", "--to", "minizinc", "--option", "model=decomposed", stdin=puzzle)
    assert native.code == decomposed.code == 0, (native.err, decomposed.err)
    assert "max([" in native.out and "table_int(" not in native.out
    assert "max([" not in decomposed.out and "table_int(" in decomposed.out
    wrong = cli("encode", "--to", "minizinc", "--option", "model=boolean", stdin=puzzle)
    assert wrong.code == 2
    assert wrong.err.strip() == (
        "sudoku: encode --to minizinc: model=boolean is not one of native, decomposed"
    )


def test_the_model_is_an_option_named_as_cpsats_is():
    assert registry.backend_class("minizinc").OPTIONS["model"] == ("native", "decomposed")
    refuses_an_unknown_model("minizinc", "native, decomposed")


def boards_of(kind: str) -> list[Board]:
    """The kind's example alone on an empty 9x9 and random 4x4 and 6x6 boards of the
    vocabulary's tests."""
    return [example_on_empty_9x9(kind), *random_boards(kind, f"minizinc native {kind}")]


@pytest.mark.slow
@pytest.mark.parametrize("kind", NATIVE)
def test_each_native_model_counts_random_boards_as_the_decomposition_and_cpsat_do(kind, runners):
    for board in boards_of(kind):
        if board.size > 6:  # its count is too large to take: solved, and verified
            assert runners[0].solve(board, timeout=120).status is Status.SOLVED
            continue
        found = counts(runners, board)
        assert found[0] == found[1] == found[2], (kind, board.rules.constraints, found)
