"""Bulk benchmarks: a dataset's puzzles counted up to 2 in one call, as ``solve_many`` does,
and as ``sudoku count FILE`` does on its fast path (file bytes in, text out: parsing, the
kernel, verification in the kernel and formatting, all timed). Start-up and the kernel's
loading are not timed (one untimed call first). ``python bench/speed.py`` measures the
command itself in fresh processes, start-up included, against the issue's targets."""

from __future__ import annotations

import os

import numpy as np
import pytest
from conftest import load_boards

from solvers import Status, solve_many
from solvers.backends.spec import BackendSpec
from solvers.formats.datasets import open_named
from solvers.run import linefile
from solvers.run.runner import shared

pytest.importorskip("numba")


def test_solve_many(benchmark, bulk_dataset, request):
    boards = load_boards(bulk_dataset, request.config.getoption("bench_limit"))
    kinds = {(board.shape, board.rules) for board in boards}
    if len(kinds) != 1:  # a jigsaw's regions or a killer's cages differ from puzzle to puzzle
        pytest.skip(f"{bulk_dataset} mixes board shapes or rules; solve_many takes one of each")
    [(shape, rules)] = kinds
    values = np.array([board.cells for board in boards], np.uint8)
    solve_many(values[:1], 2, shape=shape, rules=rules)  # loads the kernel
    benchmark.group = f"bulk {os.path.basename(bulk_dataset)}"
    found = benchmark.pedantic(
        solve_many,
        args=(values, 2),
        kwargs={"shape": shape, "rules": rules},
        rounds=request.config.getoption("bench_rounds"),
    )
    benchmark.extra_info.update(puzzles=len(boards), dataset=bulk_dataset)
    assert (found.flags != 3).all(), "a solution failed the kernel's own check"
    runner = shared("native")
    for board, count in zip(boards[:20], found.counts[:20], strict=True):
        answer = runner.count(board, 2)
        assert answer.status in (Status.SOLVED, Status.UNSOLVABLE) and answer.count == count


def test_count_file_fast_path(benchmark, bulk_dataset, request, tmp_path):
    limit = request.config.getoption("bench_limit")
    with open_named(bulk_dataset) as handle:
        lines = [line for line in handle if line.strip() and not line.startswith("#")][:limit]
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines))
    job = linefile.Job("count", 2, "line", None, None, lambda board: None, BackendSpec("native"))
    data = path.read_bytes()
    where = linefile.Range(str(path), 0, len(data))
    linefile.answer_range(job, where, data)  # loads the kernel
    benchmark.group = f"bulk {os.path.basename(bulk_dataset)}"
    answered = benchmark.pedantic(
        linefile.answer_range,
        args=(job, where, data),
        rounds=request.config.getoption("bench_rounds"),
    )
    benchmark.extra_info.update(puzzles=len(lines), dataset=bulk_dataset)
    assert answered.lines == len(lines)
