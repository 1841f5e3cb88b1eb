"""The execution layer: one runner per backend spec, owning its worker; the backend contract;
registering a backend; what a forked child inherits."""

from __future__ import annotations

import dataclasses
import os

import pytest

from solvers import Board, Shape, Status, read_puzzles, solve
from solvers.backends import registry
from solvers.backends.spec import BackendSpec
from solvers.formats.boards import Puzzle
from solvers.formats.datasets import DATASETS
from solvers.run.parallel import ordered
from solvers.run.pipeline import Plan, Task
from solvers.run.runner import Runner

LINE = "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7"


def test_a_forked_pool_works_after_this_process_used_a_worker():
    # pysat with Lingeling and a timeout runs in a worker process owned by this process's
    # runner; children forked afterwards must start their own, never use (or test) the parent's.
    assert solve(LINE, "pysat:solver=lingeling", timeout=5).status is Status.SOLVED
    with DATASETS["easy9"].open() as handle:
        items = [item for item in read_puzzles(handle) if isinstance(item, Puzzle)][:40]
    task = Task(Plan("solve", (BackendSpec.parse("pysat:solver=lingeling"),), timeout=5.0))
    answers = [answer for _item, answer in ordered(task, items, jobs=2)]
    assert len(answers) == len(items)
    assert {answer.status for answer in answers} == {Status.SOLVED}
    assert solve(LINE, "pysat:solver=lingeling", timeout=5).status is Status.SOLVED  # still works


def test_a_runner_owns_its_worker_and_closing_stops_it():
    with Runner("pysat:solver=lingeling") as runner:
        assert runner.solve(Board.pattern(Shape(3, 3)), timeout=5).status is Status.SOLVED
        pid = runner.worker._process.pid  # Lingeling cannot stop by itself: it ran in a worker
        os.kill(pid, 0)  # alive
    with pytest.raises(ProcessLookupError):  # stopped and reaped: no orphan left behind
        os.kill(pid, 0)


def test_a_backend_is_added_by_one_register_line(cli, registered):
    registered("tiny", "tiny_backend:Tiny", summary="a first search")
    assert solve(LINE, "tiny").status is Status.SOLVED
    assert "tiny" in cli("backends").out
    run = cli("check", "--backends", "tiny,dfs", stdin=LINE + "\n")
    assert run.code == 0 and run.out.splitlines()[-1].startswith("1 puzzle: 1 agree")


def test_a_name_is_registered_once():
    from solvers import UsageError

    with pytest.raises(UsageError, match="already registered"):
        registry.register("dfs", "tiny_backend:Tiny")


def test_answers_are_frozen_values():
    answer = solve(LINE, "dfs")
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.status = Status.WRONG


def test_a_wrong_grid_is_judged_wrong_never_solved(cli, registered):
    registered("liar", "tiny_backend:Liar", summary="returns a wrong grid")
    with Runner("liar") as runner:
        answer = runner.solve(Board.empty(Shape(2, 2)))
    assert answer.status is Status.WRONG
    assert "returned a wrong solution" in answer.detail
    run = cli("solve", "--backend", "liar", stdin="." * 16 + "\n")
    assert run.code == 5 and "BUG: backend liar returned a wrong solution" in run.err
