"""Every backend stops within 1.5 times its timeout plus 0.2 s, whatever the board.

Start-up is measured apart: the runner is built and warmed up on the board's shape first (a
numba kernel loaded, a library's first call made), then one count is timed. The boards: an
empty 25x25 (counting its solutions never ends), a sparse 25x25, and a 9x9 with no solution
that the searches without propagation take long to refute.
"""

from __future__ import annotations

import random
import time

import pytest
from conftest import BACKENDS
from corpus import complete_board, variant

from solvers import Board, Shape, parse, solve
from solvers.backends import registry
from solvers.backends.contract import Operation
from solvers.formats.datasets import DATASETS
from solvers.model.compile import PRIMITIVES
from solvers.run.answer import Answer, Status
from solvers.run.runner import Runner

TIMEOUT = 0.5
ALLOWED = 1.5 * TIMEOUT + 0.2


def sparse25() -> Board:
    rng = random.Random(25)
    cells = list(complete_board(Shape(5, 5), rng).cells)
    for cell in rng.sample(range(625), 560):
        cells[cell] = 0
    return Board(Shape(5, 5), tuple(cells))


def unsolvable9() -> Board:
    """A hard shipped puzzle with one more given in its last empty cell: a value no peer holds
    but the solution does not have there. Unsolvable, and a row-major search goes deep before
    it finds out."""
    puzzle = parse(DATASETS["hard9"].puzzles()[0])
    solution = solve(puzzle, "sat").solution
    last = max(i for i, v in enumerate(puzzle.cells) if not v)
    taken = {puzzle.cells[p] for p in puzzle.geometry.peers[last]} | {solution.cells[last]}
    cells = list(puzzle.cells)
    cells[last] = min(set(range(1, 10)) - taken)
    return puzzle.with_cells(cells)


BOARDS = {
    "empty 25x25": lambda: Board.empty(Shape(5, 5)),
    "sparse 25x25": sparse25,
    "unsolvable 9x9": unsolvable9,
}


def timed_count(backend: str, board: Board) -> tuple[float, Status]:
    with Runner(backend) as runner:
        runner.warm_up(board.shape, TIMEOUT)
        start = time.perf_counter()
        answer = runner.count(board, 10**9, TIMEOUT)
        return time.perf_counter() - start, answer.status


# The default run takes the three ways a search of this project keeps its deadline: a ticker in
# a Python search (propagate), a resumable node budget (native), a conflict budget (pysat);
# every backend is in the slow run, which CI runs too (a worker killed at its deadline is in
# test_isolation.py).
EACH_KIND = {"propagate", "native", "pysat"}


@pytest.mark.parametrize(
    "backend",
    [pytest.param(b, marks=[] if b in EACH_KIND else [pytest.mark.slow]) for b in BACKENDS],
)
def test_every_backend_stops_in_time_on_an_empty_25x25(backend):
    took, status = timed_count(backend, BOARDS["empty 25x25"]())
    assert status is Status.TIMEOUT
    assert took <= ALLOWED, f"{backend}: {took:.2f} s for a {TIMEOUT} s timeout"


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["sparse 25x25", "unsolvable 9x9"])
def test_every_backend_stops_in_time_on_hard_boards(backend, name):
    took, status = timed_count(backend, BOARDS[name]())
    assert status in (Status.TIMEOUT, Status.SOLVED, Status.UNSOLVABLE), status
    assert took <= ALLOWED, f"{backend} on {name}: {took:.2f} s for a {TIMEOUT} s timeout"


# solve, count and compare (every call in a worker, counting to two as its unique mode does) on
# every backend, in the slow run (sat's first PicoSAT call alone, loading 870,000 clauses, takes
# about the whole of a 0.5 s timeout on a loaded machine: docs/reliability.md, Deadlines), on an
# empty 25x25 windoku where the backend encodes windows (the larger encoding, where an overrun
# shows), else on the empty classic 25x25.
WAYS = {
    "solve": (Operation.SOLVE, 1, None),
    "count": (Operation.COUNT, 10**9, None),
    "compare": (Operation.COUNT, 2, True),
}


def empty25_for(backend: str) -> Board:
    return Board.empty(
        Shape(5, 5), variant(Shape(5, 5), "windoku")
    )  # windows are units: every backend


def timed(backend: str, way: str, board: Board, timeout: float = TIMEOUT) -> tuple[float, Answer]:
    operation, limit, isolate = WAYS[way]
    with Runner(backend, isolate=isolate) as runner:
        runner.warm_up(board.shape, timeout)
        # Start-up for the windows too (pysat builds a solver per geometry).
        runner.solve(board, timeout)
        start = time.perf_counter()
        if operation is Operation.SOLVE:
            answer = runner.solve(board, timeout)
        else:
            answer = runner.count(board, limit, timeout)
        return time.perf_counter() - start, answer


# cms encodes each puzzle afresh, and adapters.cnf's reduced encoding plus pin_unused take about
# ALLOWED on a 25x25 windoku before a deadline can be looked at (docs/reliability.md, Deadlines):
# a known gap, for the CNF rewrite to close. Not strict: under load it is over the line, on a
# quiet machine about on it.
SLOW_ENCODING = pytest.mark.xfail(
    strict=False, reason="cnf.encode and pin_unused: 0.9 s per 25x25 windoku puzzle"
)


# sat's solve: PicoSAT takes the whole CNF again on every attempt, and its first attempt on a
# 25x25 windoku (870,000 clauses) is under a 0.5 s timeout on a quiet machine and over it under
# load (docs/reliability.md, Deadlines): about on the line. Its deadline at 1 to 4 s is held by
# the sweep below.
FIRST_CALL = pytest.mark.xfail(strict=False, reason="PicoSAT's first call: 0.25-0.6 s")


# pysat's count: a conflict budget of about 50 ms can hold one of CaDiCaL's passes over the
# whole formula (reducing learned clauses, probing), longer on a 25x25 as the solver ages, and
# PySAT has no way to stop CaDiCaL inside a call (docs/reliability.md, "Deadlines"): these cells
# rarely overrun (the runs there), but one such pass at the deadline is past ALLOWED.
CADICAL_PASS = pytest.mark.xfail(strict=False, reason="one CaDiCaL pass: 0.1-0.6 s, unstoppable")


def _marks(backend: str, way: str) -> list:
    marks = [pytest.mark.slow] + ([SLOW_ENCODING] if backend == "cms" else [])
    marks += [CADICAL_PASS] if backend == "pysat" and way in ("count", "compare") else []
    return marks + ([FIRST_CALL] if (backend, way) == ("sat", "solve") else [])


@pytest.mark.parametrize(
    "backend, way",
    [pytest.param(b, way, marks=_marks(b, way)) for b in BACKENDS for way in WAYS],
)
def test_every_backend_keeps_its_deadline_in_solve_count_and_compare(backend, way):
    took, answer = timed(backend, way, empty25_for(backend))
    assert answer.status in (Status.TIMEOUT, Status.SOLVED), (answer.status, answer.detail)
    assert took <= ALLOWED, f"{backend} {way}: {took:.2f} s for a {TIMEOUT} s timeout"


# pysat's persistent solver for a new geometry is built inside the deadline: making an empty
# 25x25 windoku's 870,000 rule clauses takes Python far longer than a short timeout, so it is
# made in steps with a look at the clock between them (docs/reliability.md, Deadlines).
@pytest.mark.slow
def test_pysat_builds_a_new_geometrys_solver_within_a_short_deadline():
    board, timeout = empty25_for("pysat"), 0.1
    with Runner("pysat") as runner:
        runner.warm_up(board.shape, timeout)  # its worker started, the plain 25x25's solver built
        start = time.perf_counter()
        answer = runner.solve(board, timeout)
        took = time.perf_counter() - start
    assert answer.status is Status.TIMEOUT, answer.status
    assert took <= 1.5 * timeout + 0.2, f"{took:.2f} s for a {timeout} s timeout"


# A count with 10 ms left on a solver that has counted before: the first conflict budget of the
# call is sized by the time left, at the rate the solver's last budgets ran. A fixed first budget
# of 1,000 conflicts would run whole whatever the time left, far past 10 ms on this board; the
# conflicts done, not the seconds, so that the machine's load cannot decide it.
@pytest.mark.slow
def test_pysat_sizes_a_calls_first_conflict_budget_by_the_time_left():
    board = empty25_for("pysat")
    with Runner("pysat") as runner:
        runner.warm_up(board.shape, TIMEOUT)
        runner.solve(board, 30)  # the windows' solver built
        runner.count(board, 10**9, 1.0)
        answer = runner.count(board, 10**9, 0.01)
    assert answer.status is Status.TIMEOUT, answer.status
    assert answer.stats["conflicts"] < 1000, answer.stats


@pytest.mark.slow
def test_sat_solve_keeps_its_deadline_at_every_timeout():
    # PicoSAT starts each attempt afresh; doubling its propagation limit until one answers
    # would overshoot by up to the whole time spent, depending on where the deadline falls.
    board = empty25_for("sat")
    for timeout in (1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.3, 2.65, 3.0, 3.5, 4.0):
        took, answer = timed("sat", "solve", board, timeout)
        assert answer.status in (Status.TIMEOUT, Status.SOLVED), (answer.status, answer.detail)
        assert took <= 1.5 * timeout + 0.2, f"{took:.2f} s for a {timeout} s timeout"


# An empty 16x16 under three rules of pairs: 1,770 primitives beside its units, whose building
# is the larger part of the work before a search starts (a backend that builds them all before
# a look at the clock runs far past a 1 s timeout: docs/reliability.md, Deadlines).
PAIRS16 = "# rules: non-consecutive; anti-knight; anti-king\n" + "." * 256 + "\n"


def timed_on_pairs16(backend: str, way: str, timeout: float) -> tuple[float, Status]:
    board = parse(PAIRS16)
    with Runner(backend) as runner:
        # the library loaded, and what it keeps per geometry built (resumed from call to call),
        # by two calls before: what the call builds for the board's rules is all that is new
        runner.solve(board, timeout)
        runner.solve(board, timeout)
        start = time.perf_counter()
        answer = runner.solve(board, timeout) if way == "solve" else runner.count(board, 2, timeout)
        return time.perf_counter() - start, answer.status


@pytest.mark.slow
@pytest.mark.parametrize("way", ["solve", "count"])
@pytest.mark.parametrize(
    "backend", [b for b in BACKENDS if PRIMITIVES in registry.backend_class(b).ENCODES]
)
def test_the_deadline_covers_building_a_boards_rules(backend, way):
    timeout = 1.0
    took, status = timed_on_pairs16(backend, way, timeout)
    assert status in (Status.TIMEOUT, Status.SOLVED), status
    assert took <= 1.5 * timeout + 0.2, f"{backend} {way}: {took:.2f} s for a {timeout} s timeout"


# HiGHS looks at its time limit in presolve and in the search, but not while it sets up the
# root node between them: on this board's 36,000 rows it can run past its limit by more than the
# 0.25 s allowed here (docs/reliability.md, Deadlines). Killed at its deadline, mip ends within
# the worker's restart and the kill. Where the deadline falls decides it, hence the sweep.
@pytest.mark.slow
@pytest.mark.parametrize("way", ["solve", "count"])
def test_mip_ends_at_its_deadline_at_every_timeout_on_a_large_program(way):
    for timeout in (0.35, 0.5, 0.75, 1.0, 1.3):
        took, status = timed_on_pairs16("mip", way, timeout)
        assert status in (Status.TIMEOUT, Status.SOLVED), status
        assert took <= timeout + 0.25, f"{way}: {took:.2f} s for a {timeout} s timeout"
