"""Flat memory on long runs: a library that keeps memory per call for good (pychoco: about
176 KB a model) runs in a worker process replaced every ``RECYCLE_AFTER`` calls, so a run of
any length holds what ``RECYCLE_AFTER`` calls hold."""

from __future__ import annotations

import resource

import pytest

from solvers.backends import registry
from solvers.formats.boards import parse
from solvers.formats.datasets import DATASETS
from solvers.run.answer import Status
from solvers.run.runner import Runner

BOARDS = [parse(line) for name in ("easy9", "hard9") for line in DATASETS[name].puzzles()]


def test_a_leaking_library_runs_in_a_worker_replaced_as_it_declares(monkeypatch):
    choco = registry.backend_class("choco")
    monkeypatch.setattr(choco, "RECYCLE_AFTER", 3)
    with Runner("choco") as runner:
        workers = []
        for board in BOARDS[:7]:
            assert runner.count(board, 2).status is Status.SOLVED
            process = runner.worker._process
            workers.append(process.pid if process is not None else None)
    assert workers[:2] == [workers[0]] * 2 and workers[2] is None  # gone after its third
    assert workers[3] not in (None, workers[0]) and workers[5] is None  # a fresh one, gone too


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec, runs, per_model",
    [("choco", 3000, 300), ("cpmpy", 1500, 400)],  # KiB a model kept, with room
)
def test_a_leaking_library_holds_flat_memory_over_thousands_of_puzzles(spec, runs, per_model):
    # before, cpmpy's worker grew by about 280 KB a puzzle for good (Choco's models)
    peaks = []
    with Runner(spec) as runner:
        for i in range(runs):
            assert runner.count(BOARDS[i % len(BOARDS)], 2).status is Status.SOLVED
            if i % 100 == 50:
                peaks.append(runner.peak_rss_kb())
            if i == 50:  # here: the library's import and the first calls' buffers left out
                before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # a model kept and a fresh worker are well within these (docs/reliability.md, Memory)
    assert max(peaks) < min(peaks) + 500 * per_model
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 30_000  # KiB, here
