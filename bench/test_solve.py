"""One benchmark per backend and dataset: a round solves the dataset's sample.

Timed: what a user pays per puzzle, model building included (the backend's ``solve`` on a
parsed board, through its ``Runner``, which keeps ``--puzzle-timeout`` for every backend: in a
worker process for one that cannot stop by itself, in one round trip per round). Not timed, and
reported in ``extra_info["setup_s"]``: building the backend (a numba kernel loaded or compiled,
a persistent solver for the shape) and one solve of a complete board to wake the library
(``Runner.warm_up``). Every answer is judged after the rounds; a wrong answer fails the
benchmark.
"""

from __future__ import annotations

import os

from conftest import load_boards

from solvers.backend import Operation
from solvers.execution import Runner, Status


def test_solve(benchmark, pairing, request):
    dataset, backend = pairing
    config = request.config
    boards = load_boards(dataset, config.getoption("bench_limit"))
    timeout = config.getoption("puzzle_timeout")
    assert boards, f"no puzzles in {dataset}"

    with Runner(backend) as runner:
        for shape in dict.fromkeys(board.shape for board in boards):
            runner.warm_up(shape, timeout)
        benchmark.group = os.path.basename(dataset)
        attempts = benchmark.pedantic(
            runner.attempt_each, args=(boards, timeout), rounds=config.getoption("bench_rounds")
        )
        answers = [
            runner.judge(Operation.SOLVE, board, 1, timeout, tried)
            for board, tried in zip(boards, attempts, strict=True)
        ]
        setup = runner.setup_seconds
    timeouts = sum(answer.status is Status.TIMEOUT for answer in answers)
    benchmark.extra_info.update(
        puzzles=len(boards), timeouts=timeouts, setup_s=setup, backend=backend, dataset=dataset
    )
    wrong = [a.detail for a in answers if a.status in (Status.WRONG, Status.ERROR)]
    assert not wrong, wrong[0]  # a wrong answer (or a crash) fails the benchmark
