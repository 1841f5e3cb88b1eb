"""bench/walk.py follows what a reader follows: a field read off one of our dataclasses on the
way (an answer's status, a board's rules) is on the way too, though the hook sees no read."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.run.answer import Answer, Status

ROOT = Path(__file__).resolve().parents[1]


def _walk_module():
    spec = importlib.util.spec_from_file_location("bench_walk", ROOT / "bench" / "walk.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_walk"] = module
    spec.loader.exec_module(module)
    return module


def test_the_fields_of_a_dataclass_on_the_way_are_followed():
    walk = _walk_module()
    tracer = walk.Walk(ROOT, argparse.Namespace)
    solution = Board.pattern(Shape(2, 2))
    answer = Answer(Status.SOLVED, "dfs", solution)
    tracer.follow(answer)
    assert id(answer.status) in tracer.followed  # so Status.finished is a stop when called
    assert id(solution.rules) in tracer.followed  # a field's fields too: the board's rules


def test_a_value_of_no_dataclass_of_ours_is_not_searched():
    walk = _walk_module()
    tracer = walk.Walk(ROOT, argparse.Namespace)
    tracer.follow(Path("x"))
    assert len(tracer.followed) == 1
