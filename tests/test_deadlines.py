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
from corpus import complete_board

from solvers import Board, Shape, parse, solve
from solvers.execution import Runner, Status
from solvers.tools.datasets import DATASETS

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
