"""bench/walk.py, the measure of issue 43's way through the code: it follows a command's parsed
arguments from the parser to the engine and back to the output, and counts what it crossed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _walk_module():
    spec = importlib.util.spec_from_file_location("bench_walk", ROOT / "bench" / "walk.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_walk"] = module
    spec.loader.exec_module(module)
    return module


def test_the_walk_of_solve_runs_from_the_command_through_the_engine_to_the_output(monkeypatch):
    walk = _walk_module()
    monkeypatch.chdir(ROOT)
    stops = walk.walk(walk.COMMANDS["solve"], ROOT)
    names = [(walk.module_of(path, ROOT), function) for path, function in stops]
    assert ("solvers.cli.commands.solve", "run") in names
    assert ("solvers.backends.handwritten.dfs", "DepthFirst.search") in names  # the engine
    assert names.index(("solvers.cli.commands.solve", "run")) < names.index(
        ("solvers.backends.handwritten.dfs", "DepthFirst.search")
    )
    assert not [
        n
        for n in names
        if n[0] == "solvers.backends.handwritten.dfs" and n[1] != "DepthFirst.search"
    ]
    assert any(module == "solvers.cli.output" for module, _ in names)  # and back to the output
    figures = walk.counted(stops, ROOT)
    assert figures["stops"] == len(stops) and 0 < figures["files"] <= figures["stops"]


def test_climbs_and_returns_are_counted_as_the_way_goes():
    walk = _walk_module()
    files = ("solvers/cli/commands/solve.py", "solvers/backends/spec.py", "solvers/model/board.py")
    cli, spec, board = (str(ROOT / p) for p in files)
    way = [(cli, "run"), (spec, "parse"), (board, "size"), (spec, "label"), (cli, "report")]
    # down to backends, down to model, up to backends (a climb, a return), up to cli (both)
    assert walk.counted(way, ROOT) == {"stops": 5, "files": 3, "climbs": 2, "returns": 2}
