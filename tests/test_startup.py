"""Start-up: a run of few puzzles goes to the backend that answers first, start-up
included, and loads nothing it does not use; a run of many keeps the fastest per puzzle."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.backends import choice
from solvers.cli.parser import build_parser, commands
from solvers.formats.datasets import DATASETS

ROOT = Path(__file__).resolve().parents[1]


def test_few_puzzles_go_to_propagate_and_many_to_native():
    assert choice.default_backend(puzzles=1) == "propagate"
    assert choice.default_backend(puzzles=choice.SMALL_RUN) == "propagate"
    assert choice.default_backend(puzzles=choice.SMALL_RUN + 1) == "native"
    assert choice.default_backend() == "native"  # unknown: many


def test_few_puzzles_with_constraints_go_to_the_portfolio_and_many_to_native():
    from solvers.formats.boards import read_puzzles

    for name in ("killer9", "jigsaw9", "thermo9"):
        with DATASETS[name].open() as handle:
            board = next(iter(read_puzzles(handle.read().splitlines()))).board
        assert choice.default_backend(board, puzzles=1) == "portfolio"
        assert choice.default_backend(board, puzzles=choice.SMALL_RUN) == "portfolio"
        assert choice.default_backend(board, puzzles=choice.SMALL_RUN + 1) == "native"
        assert choice.default_backend(board) == "native"


def test_the_library_solves_one_puzzle_with_the_backend_the_command_takes_for_it(cli):
    from solvers import solve

    said = json.loads(cli("solve", "examples/boj2580.txt", "--json").out)["backend"]
    assert solve((ROOT / "examples/boj2580.txt").read_text()).backend == said


def test_the_library_counts_one_puzzle_with_the_backend_the_command_takes_for_it(cli, tmp_path):
    from solvers import count_solutions
    from solvers.base.errors import SolveTimeout

    empty = "." * 81  # more solutions than any limit: a count of it only ends at its deadline
    (tmp_path / "empty.txt").write_text(empty + "\n")
    run = cli("count", str(tmp_path / "empty.txt"), "--limit", "2", "--json")
    said = json.loads(run.out)["backend"]
    with pytest.raises(SolveTimeout, match=f"^backend {said} could not count within 0.2 s$"):
        count_solutions(empty, 10**9, timeout=0.2)


def test_a_board_is_solved_without_loading_numba_numpy_or_other_commands():
    code = (
        "import sys\n"
        "from solvers.cli.main import main\n"
        "status = main(['solve', 'examples/boj2580.txt'])\n"
        "heavy = [m for m in ('numba', 'numpy', 'solvers.cli.commands.compare',"
        " 'solvers.run.linefile', 'solvers.model.constraints', 'solvers.strength')"
        " if m in sys.modules]\n"
        "print(status, heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[-1] == "0 []"
    assert done.stdout.startswith("5 6 8 7 2 4 9 3 1\n")


def line_file(tmp_path: Path, count: int) -> Path:
    puzzles = DATASETS["hard9"].puzzles()
    path = tmp_path / f"{count}.txt"
    path.write_text("\n".join(puzzles[i % len(puzzles)] for i in range(count)) + "\n")
    return path


@pytest.mark.parametrize(
    ("count", "backend"), [(1, "propagate"), (choice.SMALL_RUN, "propagate"), (101, "native")]
)
def test_the_run_size_read_ahead_picks_the_backend(cli, tmp_path, count, backend):
    run = cli("solve", str(line_file(tmp_path, count)), "--json")
    records = [json.loads(line) for line in run.out.splitlines()]
    assert run.code == 0 and len(records) == count
    assert {record["backend"] for record in records} == {backend}


def test_a_named_backend_is_kept_for_a_few_puzzles(cli, tmp_path):
    # mrv, not the default propagate: dfs counted the three hard puzzles in 2.7 s of CPU, mrv 0.25 s
    run = cli("count", str(line_file(tmp_path, 3)), "--backend", "mrv", "--json")
    assert {json.loads(line)["backend"] for line in run.out.splitlines()} == {"mrv"}


def test_backends_states_the_rule(cli):
    last = cli("backends").out.splitlines()[-1]
    assert last.startswith(f"default: propagate for up to {choice.SMALL_RUN} puzzles")
    assert "native for more" in last
    assert f"portfolio for up to {choice.SMALL_RUN} puzzles with constraints" in last


def test_a_command_declares_its_own_arguments_only_and_the_help_lists_every_command():
    def declared(argv):
        actions = build_parser(argv)._actions
        (commands,) = [a for a in actions if isinstance(a, argparse._SubParsersAction)]
        return set(commands.choices)

    assert declared(["solve", "x.txt"]) == {"solve"}
    assert declared(["backends"]) == {"backends"}  # each command its own module
    assert declared(["--help"]) == declared(["no-such-command"]) == set(commands())


def test_an_unknown_command_is_still_a_usage_error_naming_every_command(cli, capsys):
    assert cli("no-such-command").code == 2
    said = capsys.readouterr().err  # argparse's own message
    assert "invalid choice: 'no-such-command'" in said and "'backends'" in said


def test_a_cached_kernel_loads_without_numbas_refresh():
    # the process finds the kernel in the cache: the session compiled it before any test
    # (tests/conftest.py's pytest_sessionstart); the per-puzzle kernel is numba's (the batch
    # kernel may be built ahead of time, without numba)
    code = (
        "import sys\n"
        "from solvers import solve\n"
        "print(solve([[0] * 9] * 9, backend='native').status.value, 'numba' in sys.modules)\n"
        "print([m for m in ('numba.np.linalg', 'numba.typed.typeddict') if m in sys.modules])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == ["solved True", "[]"]


@pytest.mark.slow
def test_the_startup_script_prints_each_figure_with_its_command():
    from conftest import SHARED_DATA

    if not (SHARED_DATA / "sudoku17.txt").is_file():
        pytest.skip(f"needs the public sets in {SHARED_DATA}")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "startup.py"), "--runs", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for shown in (
        "sudoku solve examples/boj2580.txt ",
        "sudoku count sudoku17.txt",
        "import numpy",
    ):
        assert shown in done.stdout
    assert "49,151 puzzles, every count 1" in done.stdout
    assert done.stdout.count(": met") + done.stdout.count(": MISSED") == 2


def test_a_small_run_prints_what_native_prints_for_puzzles_with_one_solution(cli):
    default, native = cli("solve", "hard9"), cli("solve", "hard9", "--backend", "native")
    assert default.code == native.code == 0
    assert default.out == native.out and len(default.out.splitlines()) == 100


@pytest.mark.parametrize("chosen", [None, "3"])
def test_the_command_runs_numpys_blas_on_one_thread_unless_the_user_chose(chosen):
    # BLAS threads spin at NumPy's load: a second of CPU per process on 16 cores, for no use
    env = {
        k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    }
    if chosen:
        env["OPENBLAS_NUM_THREADS"] = chosen
    code = "import os, solvers.cli.main, numpy\nprint(os.environ['OPENBLAS_NUM_THREADS'])"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == (chosen or "1")
