"""One benchmark per backend spec and dataset: a round answers the dataset's sample.

Timed: what a user pays per puzzle, model building included (the backend's ``count`` up to
two solutions in unique mode, or ``solve`` in first mode, on a parsed board, through its
``Runner``, which keeps ``--puzzle-timeout`` for every backend: in a worker process for one
that cannot stop by itself, in one round trip per round). Not timed, and reported in
``extra_info["setup_s"]``: building the backend (a numba kernel loaded or compiled, a
persistent solver for the shape) and one solve of a complete board to wake the library
(``Runner.warm_up``). Every answer is judged after the rounds; a wrong answer fails the
benchmark, and so does a disagreement with a backend benchmarked before on the same puzzles (a
miscount, another solvability, another unique solution), as the judge of check and compare
says. Timeouts are in ``extra_info`` and in the summary after the table.
"""

from __future__ import annotations

import os

import pytest
from conftest import RESULTS, WORDS, Timed, load_boards

from solvers.backends.contract import Operation
from solvers.run import judge
from solvers.run.answer import Status
from solvers.run.judge import disagreements
from solvers.run.runner import Runner


def test_solve(benchmark, pairing, request):
    dataset, backend = pairing
    config = request.config
    boards = load_boards(dataset, config.getoption("bench_limit"))
    timeout = config.getoption("puzzle_timeout")
    unique = config.getoption("bench_mode") == "unique"
    operation, limit = (Operation.COUNT, 2) if unique else (Operation.SOLVE, 1)
    assert boards, f"no puzzles in {dataset}"

    with Runner(backend) as runner:
        refused = [
            answer
            for board in boards
            if (answer := judge.refusal(runner.label, runner.spec.name, board))
        ]
        if refused:  # a rule the backend does not encode, or givens that break a rule
            pytest.skip(f"{backend} on {dataset}: {refused[0].detail}")
        for shape in dict.fromkeys(board.shape for board in boards):
            runner.warm_up(shape, timeout)
        benchmark.group = os.path.basename(dataset)
        attempts = benchmark.pedantic(
            runner.attempt_each,
            args=(boards, timeout, operation, limit),
            rounds=config.getoption("bench_rounds"),
        )
        answers = [
            runner.judge(operation, board, limit, timeout, tried)
            for board, tried in zip(boards, attempts, strict=True)
        ]
        setup = runner.setup_seconds
    timeouts = sum(answer.status is Status.TIMEOUT for answer in answers)
    benchmark.extra_info.update(
        puzzles=len(boards),
        timeouts=timeouts,
        setup_s=setup,
        backend=backend,
        dataset=dataset,
        mode="unique" if unique else "first",
    )
    median = benchmark.stats.stats.median if benchmark.stats else None
    RESULTS.append(Timed(dataset, backend, len(boards), timeouts, median))
    wrong = [a.detail for a in answers if a.status in (Status.WRONG, Status.ERROR)]
    assert not wrong, wrong[0]  # a wrong answer (or a crash) fails the benchmark
    found = []
    for index, answer in enumerate(answers):
        words = WORDS.setdefault((dataset, index), [])
        words.append(answer)
        found += [f"puzzle {index + 1}: {text}" for text in disagreements(words)]
    assert not found, found[0]
