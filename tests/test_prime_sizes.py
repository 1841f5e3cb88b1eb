"""Boards of prime side (5, 7, 11, 13): no boxes, so jigsaw regions only; refused without
them, read and written in every form, generated, and solved and counted by every backend that
declares jigsaw exactly as dfs counts them."""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import BACKENDS

from solvers import Board, InputError, Shape, count_solutions, read_puzzles, solve
from solvers.base.errors import UsageError
from solvers.formats import fpuzzles
from solvers.formats.boards import format_puzzle
from solvers.formats.writing import text
from solvers.generation.generate import Request, complete_board, generate
from solvers.generation.layouts import random_regions
from solvers.model.cells import row_regions
from solvers.model.constraints.model import Constraint
from solvers.model.variants import Rules
from solvers.model.verify import problems

PRIMES = (5, 7, 11, 13)
JIGSAW_BACKENDS = BACKENDS  # regions are units: every backend reads them
# A 5x5 jigsaw drawn by hand: each region a bent strip of five cells.
HAND5 = "AAABB" + "ACABB" + "CCDDB" + "CEDDD" + "CEEEE"


def jigsaw(n: int, kind: str, seed: int) -> Board:
    """A generated n x n jigsaw puzzle: ``unique``, ``several`` solutions or ``none``."""
    request = Request(Shape.for_size(n), minimal=True, kind=kind, rules=frozenset({"jigsaw"}))
    board, _rating = next(generate(request, seed, timeout=30))
    return board


# (side, kind, seed) of the generated boards the engines count: 3, 10, 1, 0 solutions on 5x5
# and 2, 1, 0 on 7x7 (the plain searches take seconds on some other 7x7 seeds)
CASES = [(5, "several", 1), (5, "several", 2), (5, "unique", 1), (5, "none", 1)]
CASES += [(7, "several", 2), (7, "unique", 2), (7, "none", 2)]


@pytest.fixture(scope="module")
def prime_boards() -> list[tuple[Board, int]]:
    """Generated 5x5 and 7x7 jigsaws, each with its count (up to 50) by dfs."""
    boards = [jigsaw(n, kind, seed) for n, kind, seed in CASES]
    return [(board, count_solutions(board, 50, "dfs")) for board in boards]


def test_a_prime_side_is_a_board_without_boxes():
    for n in PRIMES:
        shape = Shape.for_size(n)
        assert (shape.box_rows, shape.box_cols, shape.has_boxes) == (1, n, False)
    assert Shape.for_size(9).has_boxes and Shape.for_size(6) == Shape(2, 3)
    with pytest.raises(InputError, match=r"no box shape fits a 17x17 board \(17 is prime"):
        Shape.for_size(17)
    with pytest.raises(InputError, match="box 1x6 is not a Sudoku box"):
        Shape(1, 6)  # a side with a box shape has one shape only
    with pytest.raises(InputError, match="box 1x5 is not a Sudoku box"):
        Shape.parse("1x5")  # --box: no boxes is not a box shape


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (Rules(), "a 5x5 board has no boxes (5 is prime): give it jigsaw regions"),
        (
            Rules(constraints=(Constraint("diagonal+"),)),
            "a 5x5 board has no boxes (5 is prime): give it jigsaw regions",
        ),
        (
            Rules(
                regions=row_regions(5),
                constraints=(Constraint("disjointgroups", (), (("box", (1, 5)),)),),
            ),
            "disjointgroups needs boxes, and a 5x5 board has none",
        ),
        (
            Rules(
                regions=row_regions(5),
                constraints=(Constraint("boxindexer", (6,), (("box", (1, 5)),)),),
            ),
            "boxindexer needs boxes, and a 5x5 board has none",
        ),
    ],
)
def test_a_prime_board_without_regions_or_with_a_rule_of_boxes_is_refused(rules, message):
    with pytest.raises(InputError) as caught:
        Board.empty(Shape.for_size(5), rules)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_command_refuses_a_prime_line_without_regions_with_exit_2(cli):
    run = cli("solve", stdin="3...2......5.4...4.......\n")
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == (
        "sudoku: line 1: a 5x5 board has no boxes (5 is prime): give it jigsaw regions"
    )
    run = cli("generate", "--size", "7", "--seed", "1")
    assert run.code == 2 and "a 7x7 board has no boxes" in run.err and "--rules jigsaw" in run.err


def test_the_generator_refuses_a_prime_size_without_jigsaw_or_with_windoku():
    with pytest.raises(UsageError, match="--rules jigsaw"):
        Request(Shape.for_size(5))
    with pytest.raises(UsageError, match="windoku needs boxes"):
        Request(Shape.for_size(7), rules=frozenset({"jigsaw", "windoku"}))


@pytest.mark.parametrize("n", [5, 7])
def test_the_generator_makes_unique_irregular_prime_jigsaws(cli, n):
    run = cli("generate", "--size", str(n), "--rules", "jigsaw", "--count", "2", "--seed", "3")
    assert run.code == 0, run.err
    boards = [item.board for item in read_puzzles(run.out.splitlines())]
    assert len(boards) == 2
    for board in boards:
        assert board.shape == Shape(1, n) and board.rules.label == "jigsaw"
        assert board.rules.regions != row_regions(n)  # drifted away from the rows
        assert count_solutions(board, 2, "propagate") == 1 == count_solutions(board, 2, "cpsat")


def test_a_prime_jigsaw_round_trips_through_the_line_the_text_and_f_puzzles():
    regions = tuple(ord(letter) - ord("A") for letter in HAND5)
    solved = complete_board(Shape.for_size(5), random.Random(5), Rules(regions=regions))
    board = solved.with_cells(v if i % 3 == 0 else 0 for i, v in enumerate(solved.cells))
    line = format_puzzle(board)
    assert line.endswith(f" regions={HAND5}")
    for written in (line, text(board), fpuzzles.link(board)):
        (item,) = read_puzzles(written.splitlines())
        assert item.board == board, written
    assert fpuzzles.read(fpuzzles.link(board)).board == board


def test_an_f_puzzles_prime_grid_without_regions_has_its_rows_as_regions():
    """f-puzzles draws 1 x N boxes on a prime N, so a grid with no region fields is a Latin
    square puzzle: with only its first row given, every Latin square of order 5 that starts
    with that row solves it."""
    data = {"size": 5, "grid": [[{} for _ in range(5)] for _ in range(5)]}
    for col, value in enumerate((1, 2, 3, 4, 5)):
        data["grid"][0][col] = {"value": value, "given": True}
    board = fpuzzles.from_json(data).board
    assert board.rules.regions == row_regions(5)
    # Latin squares of order 5 with the first row fixed: 161,280 / 5! = 1,344.
    assert count_solutions(board, 2000, "bitmask") == 1344 == count_solutions(board, 2000, "cpsat")
    assert fpuzzles.to_json(board)["grid"][3][3] == {}  # the rows are the default: not written


@pytest.mark.parametrize("backend", JIGSAW_BACKENDS)
def test_every_jigsaw_backend_counts_prime_boards_as_dfs_does(backend, prime_boards):
    counts = [expected for _board, expected in prime_boards]
    assert 0 in counts and 1 in counts and max(counts) > 1  # each kind of answer is met
    for board, expected in prime_boards:
        assert count_solutions(board, 50, backend, timeout=30) == expected, format_puzzle(board)
        if expected == 1:  # the one solution, verified against the rules and the givens
            answer = solve(board, backend, timeout=30)
            assert answer.solution == solve(board, "dfs").solution
            assert problems(board, answer.solution) == []


@pytest.mark.slow  # 3 s, the random layout's completion most of it
def test_cpsat_solves_a_13x13_jigsaw():
    rng = random.Random(13)
    shape = Shape.for_size(13)
    full = next(
        found
        for _ in itertools.count()
        if (found := complete_board(shape, rng, Rules(regions=random_regions(shape, rng))))
    )
    board = full.with_cells(v if rng.random() < 0.5 else 0 for v in full.cells)
    answer = solve(board, "cpsat", timeout=30)
    assert answer.solution is not None and problems(board, answer.solution) == []
