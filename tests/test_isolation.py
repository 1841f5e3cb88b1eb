"""A backend run in a worker process cannot hang or crash the caller."""

from __future__ import annotations

import time

import pytest

from solvers import BackendCrashed, Board, Shape, Status, solve


def test_a_segfault_in_a_worker_is_an_error_not_a_crash(crasher):
    with pytest.raises(BackendCrashed, match="crasher worker died"):
        solve(Board.empty(Shape(2, 2)), crasher, timeout=5)


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
def test_a_worker_that_never_answers_is_killed_at_the_deadline_and_replaced(crasher):
    stuck = Board(Shape(2, 2), (1,) + (0,) * 15)
    start = time.perf_counter()
    assert solve(stuck, crasher, timeout=0.3).status is Status.TIMEOUT
    assert time.perf_counter() - start < 2
    with pytest.raises(BackendCrashed):  # a fresh worker takes the next call
        solve(Board.empty(Shape(2, 2)), crasher, timeout=5)
