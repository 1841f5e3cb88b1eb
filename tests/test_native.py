"""What is particular to ``native``: its kernels against the others' answers (variants and
killer cages included), its own verification, resumable slices, and its deadline."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import time

import numpy as np
import pytest
from corpus import complete_board, variant

from solvers import Board, Shape, count_solutions, format_board, parse
from solvers.backends.handwritten.native.batch import Flag, solve_batch
from solvers.backends.handwritten.native.outcome import (
    FOUND,
    GUESSES,
    LIMIT,
    NODES,
    PAUSED,
    PHASE,
    START,
)
from solvers.backends.handwritten.native.search import verify
from solvers.backends.handwritten.native.solver import Solver
from solvers.backends.handwritten.native.tables import plan_for
from solvers.base.deadline import Deadline
from solvers.formats.datasets import DATASETS
from solvers.generation.generate import Request, generate
from solvers.generation.layouts import random_regions
from solvers.model.variants import Rules
from solvers.run.runner import Runner


def killers(size: int, kind: str, count: int, seed: int, clues: int | None = None) -> list:
    request = Request(Shape.for_size(size), clues=clues, kind=kind, rules=frozenset({"killer"}))
    puzzles = generate(request, seed=seed)
    return [next(puzzles)[0] for _ in range(count)]


@pytest.mark.parametrize(
    "size, kind, count, seed, limit",
    [
        (4, "several", 12, 2, 50),
        (6, "several", 8, 3, 50),
        (6, "none", 4, 4, 2),
        (9, "unique", 4, 1, 2),
    ],
)
def test_killer_counts_agree_with_cpsat_pysat_and_propagate(size, kind, count, seed, limit):
    clues = 0 if size == 9 else None
    for board in killers(size, kind, count, seed, clues):
        counted = count_solutions(board, limit, "native")
        assert counted == count_solutions(board, limit, "propagate")
        assert counted == count_solutions(board, min(limit, 2), "pysat") or limit > 2
        assert min(counted, 2) == count_solutions(board, 2, "cpsat")
        assert (counted == 0) == (kind == "none") and (counted > 1) == (kind == "several")


@pytest.mark.slow
def test_the_generated_zero_given_killers_agree_with_every_killer_backend(cli, tmp_path):
    made = cli("generate", "--rules", "killer", "--clues", "0", "--count", "20", "--seed", "1")
    path = tmp_path / "killer.txt"
    path.write_text(made.out)
    args = ["--backends", "native,cpsat,pysat,propagate", "--timeout", "10"]
    checked = cli("check", str(path), *args)
    assert checked.code == 0 and "20 puzzles: 20 agree" in checked.out


def variant_boards() -> list[Board]:
    rng = random.Random(15)
    boards = [Board.empty(Shape(2, 2), variant(Shape(2, 2), "x"))]
    boards += [Board.empty(Shape(2, 3), variant(Shape(2, 3), "x"))]
    boards += [Board.empty(Shape(2, 2), variant(Shape(2, 2), "windoku"))]
    for shape in (Shape(2, 2), Shape(2, 3)):
        regions = random_regions(shape, rng)
        boards.append(Board.empty(shape, Rules(regions=regions)))
    return boards


@pytest.mark.parametrize("board", variant_boards(), ids=lambda b: f"{b.size}-{b.rules.label}")
def test_variant_counts_agree_with_the_reference(board):
    assert count_solutions(board, 40, "native") == count_solutions(board, 40, "dfs")


def test_the_kernel_checks_units_cages_and_givens():
    grid = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    pairs = [tuple(range(k, k + 2)) for k in range(0, 16, 2)]  # cages along the rows
    cages = tuple((grid[a] + grid[b], (a, b)) for a, b in pairs)
    t = plan_for(Board.empty(Shape(2, 2), variant(Shape(2, 2), cages=cages))).tables
    no_givens = np.zeros(16, np.uint8)
    assert verify(no_givens, np.array(grid, np.uint8), t)
    relabelled = np.array([{1: 3, 3: 1}.get(v, v) for v in grid], np.uint8)  # a sudoku still
    assert verify(no_givens, relabelled, plan_for(Board.empty(Shape(2, 2))).tables)
    assert not verify(no_givens, relabelled, t)  # but the cage of r1c1 adds up to 5, not 3
    swapped = np.array(grid, np.uint8)
    swapped[[0, 1]] = swapped[[1, 0]]  # rows and cages hold, columns do not
    assert not verify(no_givens, swapped, t)
    given = no_givens.copy()
    given[5] = 1  # r2c2 given as 1, the grid has 4 there
    assert not verify(given, np.array(grid, np.uint8), t)


def test_a_search_cut_into_tiny_slices_finds_the_same():
    solver, slices = Solver(), 0
    lines = [*DATASETS["hard9"].puzzles()[:40], DATASETS["big16"].puzzles()[0]]
    for line in lines:
        board = parse(line)
        plan = plan_for(board)
        whole = solver.search(plan, bytes(board.cells), 2, None)
        whole = (whole[0], whole[1].copy(), whole[2])
        space = solver.workspace(plan)
        space.ctrl[PHASE], space.ctrl[LIMIT] = START, 2
        puzzle = np.frombuffer(bytes(board.cells), np.uint8)
        slices += 1
        while space.run(plan, puzzle, 50) == PAUSED:
            slices += 1
        ctrl = space.ctrl
        assert ctrl[FOUND] == whole[0] and (space.first == whole[1]).all()
        assert {"nodes": ctrl[NODES], "guesses": ctrl[GUESSES]} == whole[2]
    assert slices > 2 * len(lines)  # most searches were cut, some many times


def test_the_batch_answers_as_the_search_does(puzzles):
    names = ["9x9-easy", "9x9-minimal", "several-9x9", "no-solution-9x9", "full-9x9-one-wrong"]
    boards = [puzzles[name] for name in names]
    for plan in (plan_for(boards[0]), plan_for(boards[0])._replace(band=False)):
        batch = solve_batch(plan, np.array([b.cells for b in boards], np.uint8), 3)
        for k, board in enumerate(boards):
            found, first, stats = Solver().search(plan, bytes(board.cells), 3, None)
            assert batch.counts[k] == found
            assert (batch.guesses[k], batch.nodes[k]) == (stats["guesses"], stats["nodes"])
            if found:
                assert (batch.solutions[k] == first).all() and batch.flags[k] == Flag.SOLVED


def test_the_band_kernel_and_the_general_one_agree_on_counts():
    lines = DATASETS["hard9"].puzzles() + DATASETS["several9"].puzzles()
    values = np.array([parse(line).cells for line in lines], np.uint8)
    plan = plan_for(Board.empty(Shape(3, 3)))
    band, general = solve_batch(plan, values, 3), solve_batch(plan._replace(band=False), values, 3)
    assert plan.band and (band.counts == general.counts).all()
    assert (band.flags == Flag.SOLVED).all() and (general.flags == Flag.SOLVED).all()


@pytest.mark.slow  # CPU times, compared in one process: a loaded machine may still sway them
def test_the_band_kernel_counts_in_under_four_tenths_of_the_general_kernels_time():
    # The same deductions and branching (equal counts above), a third of the time: the band
    # kernel's placements and naked singles take no branch per cell (docs/native.md). With
    # a branch per cell it took about half.
    values = np.array([parse(line).cells for line in DATASETS["hard9"].puzzles()] * 3, np.uint8)
    plan = plan_for(Board.empty(Shape(3, 3)))
    general = plan._replace(band=False)
    solve_batch(plan, values[:2], 2), solve_batch(general, values[:2], 2)  # loaded
    ratios = []
    for _ in range(9):
        start = time.process_time()
        solve_batch(plan, values, 2)
        band = time.process_time() - start
        start = time.process_time()
        solve_batch(general, values, 2)
        ratios.append(band / (time.process_time() - start))
    assert sorted(ratios)[4] < 0.4, ratios


def _matched(edges: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The edges (i, j) of a 3x3 bipartite graph that lie on some perfect matching."""
    perms = itertools.permutations(range(3))
    return {(i, p[i]) for p in perms if all((r, p[r]) in edges for r in range(3)) for i in range(3)}


def _digit_fixpoint(words: list[int]) -> list[int] | None:
    """One digit's three band words to a fixpoint of the row/box and band/column matchings,
    by brute force over the cells (the reference for band9.digit9; None: a contradiction)."""
    words = list(words)
    while True:
        before = list(words)
        for b in range(3):  # a minirow (row r, box x) stays only on a row/box matching
            rows = {(r, x) for r in range(3) for x in range(3) if words[b] >> (9 * r + 3 * x) & 7}
            keep = _matched(rows)
            words[b] &= sum(7 << (9 * r + 3 * x) for r, x in keep)
        for s in range(3):  # a band's column in stack s stays only on a band/column matching
            cols = {
                (b, c)
                for b in range(3)
                for c in range(3)
                if any(words[b] >> (9 * r + 3 * s + c) & 1 for r in range(3))
            }
            gone = cols - _matched(cols)
            for b, c in gone:
                words[b] &= ~sum(1 << (9 * r + 3 * s + c) for r in range(3))
        if 0 in words:
            return None
        if words == before:
            return words


# 600 random bands in the default run (about 1 s here), the long form's 3000 under heavy
@pytest.mark.parametrize("bands", [600, pytest.param(3000, marks=pytest.mark.heavy)])
def test_the_band_kernel_takes_each_digit_to_the_fixpoint_of_both_matchings(bands):
    from solvers.backends.handwritten.native.band9 import digit9

    rng = random.Random(34)
    full = (1 << 27) - 1
    for _ in range(bands):
        density = rng.choice((0.2, 0.35, 0.5, 0.8))
        words = [sum(1 << i for i in range(27) if rng.random() < density) for _ in range(3)]
        state = np.zeros(30, np.int64)
        state[3:6] = words  # digit 1 (index 1); the other words untouched
        state[:3] = state[6:27] = full
        kept = digit9(state, 1)
        expected = _digit_fixpoint(words)
        assert kept == (expected is not None), words
        if kept:
            assert list(state[3:6]) == expected, words


# The deadline: every call returns within 1.5 x its timeout + 0.2 s (every backend's in
# test_deadlines.py; here native's on a sparse 25x25 it does not finish, and from the command
# line, through the file fast path too) ------------------------------------------------


def sparse25() -> Board:
    """A 25x25 board with 44% of its cells given: native does not finish it within 1 s."""
    rng = random.Random(1)
    cells = list(complete_board(Shape(5, 5), rng).cells)
    for cell in rng.sample(range(625), 625 - 275):
        cells[cell] = 0
    return Board(Shape(5, 5), tuple(cells))


# no solution; dfs and bitmask take seconds to find out
HARD_UNSOLVABLE = (
    "..5...........3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
)
DEADLINE_CASES = {
    "empty-25x25": (lambda: Board.empty(Shape(5, 5)), 10**9),
    "sparse-25x25": (sparse25, 2),
    "unsolvable-9x9": (lambda: parse(HARD_UNSOLVABLE), 2),
}


def returned_within(backend: str, case: str, timeout: float) -> float:
    make, limit = DEADLINE_CASES[case]
    board = make()
    with Runner(backend) as runner:
        runner.warm_up(board.shape, timeout)
        start = time.perf_counter()
        runner.count(board, limit, timeout)
        return time.perf_counter() - start


@pytest.mark.slow  # test_deadlines.py holds native (and every backend) to it by default
@pytest.mark.parametrize("case", DEADLINE_CASES)
def test_native_returns_by_its_deadline(case):
    assert returned_within("native", case, 0.5) <= 1.5 * 0.5 + 0.2


@pytest.fixture
def files25(tmp_path):
    empty, complete = tmp_path / "empty25.txt", tmp_path / "complete25.txt"
    empty.write_text("." * 625 + "\n")
    complete.write_text(format_board(Board.pattern(Shape(5, 5)), "line") + "\n")
    return empty, complete


@pytest.mark.slow  # a process of its own on a 25x25
def test_the_command_keeps_the_deadline_on_an_empty_25x25_count(files25):
    def wall(path, *extra):
        command = [sys.executable, "-m", "solvers", "count", str(path), "--backend", "native"]
        start = time.perf_counter()
        done = subprocess.run(
            [*command, "--json", "--timeout", "0.5", *extra], capture_output=True, check=False
        )
        return time.perf_counter() - start, done.returncode

    empty, complete = files25
    startup, code = wall(complete)  # the same command with nothing to wait for
    assert code == 0
    spent, code = wall(empty, "--limit", "1000000000")
    assert code == 3  # a timeout
    assert spent - startup <= 1.5 * 0.5 + 0.2


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
def test_the_file_fast_path_keeps_the_deadline(cli, files25):
    empty, complete = files25
    assert cli("count", str(complete), "--backend", "native", "--timeout", "0.5").code == 0
    start = time.perf_counter()
    run = cli("count", str(empty), "--backend", "native", "--limit", "10000000", "--timeout", "0.5")
    assert time.perf_counter() - start <= 1.5 * 0.5 + 0.2
    assert run.code == 3 and run.err == "sudoku: line 1: timeout after 0.5 s\n"


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
def test_setup_is_apart_from_the_first_search():
    board = parse(DATASETS["hard9"].puzzles()[0])
    with Runner("native") as runner:
        runner.warm_up(board.shape)
        start = time.perf_counter()
        runner.solve(board, 1.0)
        assert time.perf_counter() - start < 0.05  # no compilation or loading left
    engine = Runner("native").engine
    assert engine.search(board, Deadline(None), 1).count == 1


def test_the_first_kernel_call_does_not_load_scipy_linalg_and_numba_blas_still_works():
    # numba's BLAS check would import scipy.linalg (a large part of every command's start-up:
    # docs/backends.md)
    code = """
import sys
import numba
import numpy as np
from solvers import solve
assert solve([[0] * 9] * 9, backend="native").status.value == "solved"
assert "scipy.linalg" not in sys.modules, "scipy.linalg loaded"
dot = numba.njit(lambda a, b: (np.dot(a, b), np.vdot(a, b)))
assert dot(np.ones(3), np.full(3, 2.0)) == (6.0, 6.0)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_one_backend_answers_boards_of_other_rules_in_turn_by_their_own_rules():
    # the backend keeps the last board's plan for the next board of the same shape and rules:
    # a board of other rules (the same shape) must never be searched under the kept plan
    from solvers.model.verify import verify as verify_board

    nine = Shape(3, 3)
    boards = [
        Board.empty(nine),
        Board.empty(nine, variant(nine, "x")),
        Board.empty(nine, variant(nine, "windoku")),
        Board.empty(Shape(2, 2)),
        Board.empty(nine, variant(nine, "x")),
        Board.empty(nine),
    ]
    engine = Runner("native").engine
    solutions = []
    for board in boards:
        found = engine.search(board, Deadline(None), 1)
        assert found.count == 1
        verify_board(board, found.solution, "native")  # raises on a broken rule
        solutions.append(found.solution.cells)
    # the classic solution breaks a diagonal: the X board's was found under its own rules
    assert solutions[0] != solutions[1] and solutions[1] == solutions[4]
