"""One benchmark per backend and dataset: a round solves the dataset's sample.

Timed: what a user pays per puzzle, model building included (the backend's ``solve`` on a
parsed board). Not timed, and reported in ``extra_info["setup_s"]``: building the backend
(imports done, a numba kernel loaded or compiled, a persistent solver for the shape) and one
solve of a complete board to wake the library. Every solution is verified after the rounds; a
wrong answer fails the benchmark.
"""

from __future__ import annotations

import os
import time

from conftest import load_boards

from solvers import registry
from solvers.board import Board
from solvers.deadline import Deadline, OutOfTime
from solvers.verify import verify


def test_solve(benchmark, pairing, request):
    dataset, backend = pairing
    config = request.config
    boards = load_boards(dataset, config.getoption("bench_limit"))
    timeout = config.getoption("puzzle_timeout")
    assert boards, f"no puzzles in {dataset}"

    start = time.perf_counter()
    engine = registry.load(backend)
    for shape in dict.fromkeys(board.shape for board in boards):
        getattr(engine, "prepare", lambda shape: None)(shape)
    engine.solve(Board.pattern(boards[0].shape), Deadline(timeout))
    setup = time.perf_counter() - start

    def one_round():
        answers = []
        for board in boards:
            try:
                answers.append(engine.solve(board, Deadline(timeout)))
            except OutOfTime:
                answers.append(None)
        return answers

    benchmark.group = os.path.basename(dataset)
    answers = benchmark.pedantic(one_round, rounds=config.getoption("bench_rounds"), iterations=1)
    timeouts = sum(answer is None for answer in answers)
    benchmark.extra_info.update(
        puzzles=len(boards), timeouts=timeouts, setup_s=setup, backend=backend, dataset=dataset
    )
    for board, answer in zip(boards, answers, strict=True):
        if answer is not None and answer.solution is not None:
            verify(board, answer.solution, backend)  # a wrong answer fails the benchmark
