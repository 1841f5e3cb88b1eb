"""Every backend against every other, on the project's own corpus and on random boards.

Every registered backend is in every test here: a backend added with ``registry.register`` is
cross-checked with no edit to this file."""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import BACKENDS, SHARED_DATA
from corpus import all_solutions, complete_board
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solvers import Board, Shape, Status, count_solutions, format_board, solve
from solvers.formats.datasets import DATASETS
from solvers.generation.generate import Request, layout
from solvers.model.verify import problems
from solvers.run.runner import Runner, borrowed

EXPECTED = {  # corpus entry -> solutions, counted up to 2
    "4x4": 1,
    "6x6": 1,
    "9x9-easy": 1,
    "9x9-minimal": 1,
    "16x16": 1,
    "several-9x9": 2,
    "several-4x4": 2,
    "no-solution-9x9": 0,
    "no-solution-6x6": 0,
    "empty-9x9": 2,
    "empty-6x6": 2,
    "full-9x9": 1,
    "full-9x9-one-empty": 1,
    "no-solution-4x4": 0,
}
# Givens that clash never reach a backend (the judge refuses them): they are tested apart.
CLASHING = ("full-9x9-one-wrong", "conflicting-givens")


# The default run gives every backend a board of each outcome (one solution on 4x4 and on a
# minimal 9x9, several, none, an empty board), the heavy run the whole corpus (14 boards x every
# backend: MiniZinc runs a process per call, docs/minizinc.md). Every size stays in the default
# run through test_backends_agree_on_the_unique_solutions.
IN_THE_DEFAULT_RUN = ("4x4", "9x9-minimal", "several-9x9", "no-solution-6x6", "empty-9x9")


@pytest.mark.parametrize(
    "name, backend",
    [
        pytest.param(
            name,
            backend,
            marks=[] if name in IN_THE_DEFAULT_RUN else [pytest.mark.heavy],
        )
        for name in EXPECTED
        for backend in BACKENDS
    ],
)
def test_every_backend_answers_the_corpus_right(puzzles, backend, name):
    board = puzzles[name]
    timeout = 60.0
    result = solve(board, backend, timeout=timeout)
    assert result.status is not Status.TIMEOUT
    if EXPECTED[name] == 0:
        assert result.status is Status.UNSOLVABLE and result.solution is None
    else:
        assert result.status is Status.SOLVED
        assert problems(board, result.solution) == []
    assert count_solutions(board, 2, backend, timeout=timeout) == EXPECTED[name]


def test_backends_agree_on_the_unique_solutions(puzzles):
    for name in ("4x4", "6x6", "9x9-easy", "16x16"):
        answers = {solve(puzzles[name], b).solution for b in BACKENDS}
        assert len(answers) == 1, name


def test_conflicting_givens_are_unsolvable_and_say_why(puzzles):
    result = solve(puzzles["conflicting-givens"], "cpsat")
    assert result.status is Status.UNSOLVABLE
    assert result.stats["conflict"].startswith("row 1 has ")


@pytest.mark.parametrize("name", CLASHING)
def test_clashing_givens_never_reach_a_backend(puzzles, crasher, name):
    # the crasher segfaults on any board it is given: an INVALID answer means it was not asked
    with Runner(crasher) as runner:
        answer = runner.count(puzzles[name], 2, timeout=5)
    assert answer.status is Status.INVALID and " has " in answer.detail


def shapes_and_holes():
    return st.tuples(
        st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]),
        st.integers(0, 2**32 - 1),
        st.floats(0.0, 0.6),
    )


# The default run draws a few boards of each kind; the heavy run (CI) many more.
RANDOM_BOARDS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(RANDOM_BOARDS, max_examples=10)
@given(shapes_and_holes())
def test_random_boards_with_holes_all_backends_complete_and_agree(case):
    holes_agree(case)


@pytest.mark.heavy
@settings(RANDOM_BOARDS, max_examples=80)
@given(shapes_and_holes())
def test_many_random_boards_with_holes_all_backends_complete_and_agree(case):
    holes_agree(case)


def holes_agree(case) -> None:
    shape, seed, fraction = case
    rng = random.Random(seed)
    full = complete_board(shape, rng)
    cells = list(full.cells)
    for cell in rng.sample(range(len(cells)), int(fraction * len(cells))):
        cells[cell] = 0
    board = Board(shape, tuple(cells))
    counts = set()
    for backend in BACKENDS:
        result = solve(board, backend, timeout=20)
        assert result.status is Status.SOLVED, backend
        assert problems(board, result.solution) == []
        counts.add(count_solutions(board, 2, backend, timeout=20))
    assert len(counts) == 1


VARIANTS = [("x",), ("windoku",), ("jigsaw",), ("killer",), ("killer", "x"), ("jigsaw", "x")]


def variant_boards():
    return st.tuples(
        st.sampled_from(VARIANTS),
        st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 3)]),
        st.integers(0, 2**32 - 1),
        st.floats(0.0, 0.6),
    )


@settings(RANDOM_BOARDS, max_examples=5)
@given(variant_boards())
def test_random_variant_boards_every_supporting_backend_completes_and_agrees(case):
    variants_agree(case)


@pytest.mark.heavy
@settings(RANDOM_BOARDS, max_examples=30)
@given(variant_boards())
def test_many_random_variant_boards_every_supporting_backend_completes_and_agrees(case):
    variants_agree(case)


def variants_agree(case) -> None:
    names, shape, seed, fraction = case
    assume("windoku" not in names or shape.box_rows == shape.box_cols)
    rng = random.Random(seed)
    full = layout(Request(shape, rules=frozenset(names)), rng)
    assume(full is not None)  # a random jigsaw layout may have no solution
    cells = list(full.cells)
    for cell in rng.sample(range(len(cells)), int(fraction * len(cells))):
        cells[cell] = 0
    board = full.with_cells(cells)
    counts, finished = set(), []
    for backend in BACKENDS:
        with borrowed(backend) as runner:  # the shared runner: its worker kept across boards
            solved = runner.solve(board, timeout=10)
            if solved.status in (Status.UNSUPPORTED, Status.TIMEOUT):
                continue  # not asked, or no word in time: neither is a disagreement
            assert solved.status is Status.SOLVED, (backend, solved.detail)
            counted = runner.count(board, 2, timeout=10)
        if counted.status is not Status.TIMEOUT:
            counts.add(counted.count)
            finished.append(backend)
    assert len(counts) == 1, counts
    assert {"cpsat", "sat", "pysat", "propagate", "dlx"} <= set(finished)


SHARED_FILES = ["top95.txt", "hardest.txt", "top1465.txt", "sudoku17.txt"]


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is not on this machine")
@pytest.mark.parametrize("filename", SHARED_FILES)
def test_public_benchmark_sample_is_unique_for_the_fast_backends(filename):
    with open(SHARED_DATA / filename, encoding="utf-8") as handle:
        lines = [line.strip() for line in itertools.islice(handle, 0, 200, 40)]
    for line in lines:
        answers = set()
        for backend in ("cpsat", "sat", "pysat"):
            result = solve(line, backend, timeout=30)
            assert result.status is Status.SOLVED, (backend, line)
            answers.add(result.solution)
            assert count_solutions(line, 2, backend, timeout=30) == 1
        assert len(answers) == 1


def test_check_command_agrees_on_the_corpus(cli, puzzles):
    names = ["4x4", "6x6", "9x9-easy", "several-4x4", "no-solution-6x6", "full-9x9"]
    text = "".join(format_board(puzzles[n], "line") + "\n" for n in names if n != "6x6")
    run = cli("check", "--backends", "all", stdin=text)
    assert run.code == 0, run.out
    assert run.out.splitlines()[-1].startswith("5 puzzles: 5 agree, 0 disagree")


def test_check_command_refuses_a_solution_field_that_is_no_solution(cli, puzzles):
    board = puzzles["9x9-easy"]
    solution = list(solve(board, "sat").solution.cells)
    empty = board.cells.index(0)
    solution[empty] = solution[empty] % 9 + 1
    wrong = format_board(Board(board.shape, tuple(solution)), "line")
    run = cli("check", "--backends", "sat,cpsat", stdin=f"{format_board(board, 'line')},{wrong}\n")
    assert run.code == 2  # bad input, not a disagreement between backends
    assert "line 1: the solution field is not a solution of the puzzle: " in run.err


def test_check_command_reports_a_solution_other_than_the_files(cli, puzzles, registered):
    # A backend that counts one solution of a two-solution puzzle: the file's field is the
    # other one, a valid solution, so the backend's answer disagrees with the file.
    registered("undercounter", "tiny_backend:Undercounter", summary="counts 1 at most")
    board = puzzles["several-9x9"]
    mine = solve(board, "undercounter").solution
    other = next(s for s in all_solutions(board) if s != mine)
    line = f"{format_board(board, 'line')},{format_board(other, 'line')}\n"
    run = cli("check", "--backends", "undercounter", stdin=line)
    assert run.code == 4
    assert "line 1: undercounter: solution differs from the file's solution at r" in run.out


def test_check_command_reports_timeouts_apart(cli, puzzles):
    text = format_board(puzzles["16x16-minimal"], "line") + "\n"
    run = cli("check", "--backends", "dfs,sat", "--timeout", "0.2", stdin=text)
    assert run.code == 3
    assert "line 1: unconfirmed, timed out: dfs" in run.out
    assert run.out.splitlines()[-1].startswith("1 puzzle: 0 agree, 0 disagree, 1 unconfirmed")


def test_check_confirms_a_puzzle_two_backends_agree_on_whatever_timed_out(cli, puzzles, registered):
    registered("givesup", "tiny_backend:GivesUp", summary="gives up at once")
    text = format_board(puzzles["16x16-minimal"], "line") + "\n"
    run = cli("check", "--backends", "givesup,sat,cpsat", "--timeout", "30", stdin=text)
    assert run.code == 0, run.out
    assert run.out.splitlines()[-1].startswith("1 puzzle: 1 agree, 0 disagree, 0 unconfirmed")


def test_check_of_a_large_file_runs_three_engines_within_a_second_and_says_so(cli, tmp_path):
    path = tmp_path / "twelve.txt"
    path.write_text("".join(line + "\n" for line in DATASETS["easy9"].puzzles()[:12]))
    run = cli("check", str(path))
    assert run.code == 0, run.err
    assert run.err.splitlines() == [
        "sudoku: checking 12 puzzles with propagate, cpsat, pysat (for more than 10 puzzles; "
        "--backends), each solving and counting within 1 s (--timeout): at most 1 min 12 s"
    ]
    table = [line.split()[0] for line in run.out.splitlines()[1:4]]
    assert table == ["propagate", "cpsat", "pysat"]
    assert run.out.splitlines()[-1].startswith("12 puzzles: 12 agree")


def test_check_says_what_it_runs_and_how_long_it_may_take_unless_told_what(cli, tmp_path):
    one = "1" + "." * 15 + "\n"
    run = cli("check", stdin=one)
    assert run.code == 0, run.err
    backends = len(run.out.splitlines()) - 2  # a row each, between the header and the verdict
    assert run.err.startswith(
        f"sudoku: checking each puzzle with every available backend ({backends}; --backends "
        "chooses), each solving and counting within 10 s (--timeout): at most "
    )
    assert run.err.endswith(" a puzzle\n") and run.err.count("\n") == 1
    told = cli("check", "--backends", "sat,pysat", stdin=one)
    assert told.code == 0 and told.err == ""
    path = tmp_path / "twelve.txt"
    path.write_text(one * 12)
    large = cli("check", str(path), "--backends", "sat,pysat")
    assert large.err == (
        "sudoku: checking 12 puzzles with sat, pysat, each solving and counting within 1 s "
        "(--timeout): at most 48 s\n"
    )


def test_check_counts_each_puzzle_once_per_backend(cli, puzzles, registered):
    # a backend that answers each puzzle and then times out counting its solutions: each
    # puzzle is one timeout in its row, never a solve and a timeout both
    registered("nocount", "tiny_backend:SolverNotCounter", summary="solves, never counts")
    names = ["9x9-easy", "9x9-minimal", "4x4"]
    text = "".join(format_board(puzzles[name], "line") + "\n" for name in names)
    run = cli("check", "--backends", "nocount,sat", "--timeout", "30", stdin=text)
    assert run.code == 3, run.out
    lines = run.out.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("backend")))
    for row in lines[header + 1 : header + 3]:
        assert sum(int(cell) for cell in row.split()[1:]) == len(names), row
    assert lines[header + 1].split()[:4] == ["nocount", "0", "0", "3"]
    assert (
        "nocount: 3 of its 3 timeouts answered the puzzle, then ran out of time counting its "
        "solutions (up to 2)" in lines
    )
