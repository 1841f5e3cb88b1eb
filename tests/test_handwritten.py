"""The handwritten family beside the reference: same answers, their counters, their limits."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from corpus import complete_board

from solvers import Board, Shape, Status, count_solutions, solve
from solvers.backends import choice
from solvers.formats.datasets import DATASETS
from solvers.model.verify import problems

FAMILY = ["bitmask", "mrv", "propagate", "native", "dlx", "norvig"]


@pytest.mark.parametrize("name", ["several-9x9", "several-4x4", "9x9-easy", "6x6", "empty-6x6"])
def test_bitmask_reproduces_dfs_exactly(puzzles, name):
    board = puzzles[name]
    assert solve(board, "bitmask").solution == solve(board, "dfs").solution
    assert count_solutions(board, 7, "bitmask") == count_solutions(board, 7, "dfs")


@pytest.mark.parametrize("backend", FAMILY)
def test_stats_count_nodes_and_guesses(puzzles, backend):
    hard = DATASETS["hard9"].puzzles()[0]  # hard9: 4 guesses or more by propagate
    result = solve(hard, backend)
    assert result.status is Status.SOLVED
    assert result.stats["nodes"] >= result.stats["guesses"] >= 1
    # a naked-and-hidden-singles puzzle is solved without a guess by the propagating ones
    easy = solve(puzzles["9x9-easy"], backend)
    if backend in ("propagate", "native", "dlx", "norvig"):
        assert easy.stats["guesses"] == 0


@pytest.mark.parametrize(
    "backend", ["propagate", "native", pytest.param("dlx", marks=pytest.mark.slow)]
)
def test_25x25_half_empty_boards_are_solved(backend):
    rng = random.Random(25)
    cells = list(complete_board(Shape(5, 5), rng).cells)
    for cell in rng.sample(range(625), 312):
        cells[cell] = 0
    board = Board(Shape(5, 5), tuple(cells))
    result = solve(board, backend, timeout=120)
    assert result.status is Status.SOLVED and problems(board, result.solution) == []


@pytest.mark.slow  # the default run has test_deadlines.py; this is the 9x9 form
@pytest.mark.parametrize("backend", FAMILY)
def test_family_deadlines_hold(backend):
    from solvers import SolveTimeout

    with pytest.raises(SolveTimeout):
        count_solutions(Board.empty(Shape(3, 3)), 10**9, backend, timeout=0.3)


def test_native_compiles_once_and_reports_setup_apart():
    from solvers.run.runner import Runner, shared

    with Runner("native") as runner:
        assert runner.setup_seconds == 0  # nothing is built before it is needed
        assert runner.engine is runner.engine  # built once
        assert runner.setup_seconds > 0  # loading (or compiling) the kernels is setup
    assert shared("native") is shared("native")  # solve() reuses one runner per process


def test_default_is_the_fastest_available_and_dfs_stays_the_reference(cli):
    assert choice.default_backend() == "native"
    lines = cli("backends").out.splitlines()
    assert any(line.startswith("native (default)") for line in lines)
    assert any(line.startswith("dfs (reference)") for line in lines)


def test_without_numba_native_is_unavailable_and_nothing_else_breaks(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(
        "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7\n"
    )
    code = (
        "import sys; sys.modules['numba'] = None\n"  # import numba now raises ImportError
        "from solvers import solve\nfrom solvers.backends import choice, registry\n"
        "from solvers.cli.main import main\n"
        "print(registry.availability('native'))\n"
        "print(choice.default_backend())\n"
        f"sys.exit(main(['solve', {str(board)!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("(False, 'backend native is unavailable:")
    assert "pip install numba" in lines[0]
    assert lines[1] == "propagate"
    assert (
        lines[2]
        == "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
    )
