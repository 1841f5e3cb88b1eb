"""Failures a user meets: crashes, closed streams, full disks, bad arguments and bad calls.

Each group is one numbered point of the reliability issue; signals are in test_signals.py and
deadlines in test_deadlines.py.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOM

from solvers import (
    BackendSpec,
    Board,
    InputError,
    Shape,
    SudokuError,
    UsageError,
    count_solutions,
    read_puzzles,
    solve,
    solve_many,
)
from solvers.run.runner import Runner

SUDOKU = str(Path(sys.executable).with_name("sudoku"))
LINE = "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7"
ANSWER = "143628579572139468986754231391542786468917352725863914237481695619275843854396127"


def sudoku(*args: str, stdin=None, **options) -> subprocess.CompletedProcess:
    """The installed command in a process of its own."""
    return subprocess.run(
        [SUDOKU, *args], input=stdin, capture_output=True, timeout=120, check=False, **options
    )


# A backend's crash costs that puzzle only --------------------------------------------


@pytest.fixture
def crash_on_empty(registered):
    return registered("crashy", "crashing_backend:CrashOnEmpty", summary="segfaults on empty")


@pytest.mark.parametrize("command", ["solve", "count"])
def test_a_crash_costs_its_puzzle_alone_with_its_line(cli, crash_on_empty, command):
    text = f"{LINE}\n{'.' * 81}\n{LINE}\n"
    run = cli(command, "--backend", crash_on_empty, "--timeout", "20", stdin=text)
    assert run.err.strip().splitlines() == ["sudoku: line 2: crashy worker died (exit code -11)"]
    assert len(run.out.splitlines()) == 2  # the puzzles before and after it are answered
    assert run.code == 2


# Streams: closed, undecodable, full, gone ------------------------------------------


def test_closed_stdin_is_a_message(tmp_path):
    done = subprocess.run(
        [SUDOKU, "solve"], stdin=subprocess.DEVNULL, capture_output=True, check=False
    )
    assert done.returncode == 2  # an empty stdin
    closed = subprocess.run(
        f"{SUDOKU} solve <&-", shell=True, capture_output=True, text=True, check=False
    )
    assert closed.returncode == 2
    assert closed.stderr == "sudoku: standard input is closed: give a FILE, or pipe puzzles in\n"


def test_undecodable_stdin_under_a_strict_locale_is_named_as_the_byte_it_is():
    done = sudoku(
        "solve", stdin=b"\xff" + LINE.encode()[1:] + b"\n", env={**os.environ, "LC_ALL": "C"}
    )
    assert done.returncode == 2
    assert done.stderr.decode() == (
        "sudoku: line 1, column 1: byte 0xFF is not UTF-8: save the file as UTF-8\n"
    )


def test_a_closed_pipe_is_a_quiet_normal_end():
    text = (LINE + "\n") * 2000  # more than a pipe holds: the writer meets the closed end

    def bash(command: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["/bin/bash", "-c", command], input=text, capture_output=True, text=True, check=False
        )

    # one command, its pipeline's status printed after head's line (pipefail: the writer's own)
    done = bash(f"set -o pipefail; {SUDOKU} solve --backend native | head -1; echo status $?")
    assert done.stdout == f"{ANSWER}\nstatus 0\n" and done.stderr == ""


def test_a_full_disk_is_a_write_error():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [SUDOKU, "solve"], input=LINE + "\n", stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert done.returncode == 2
    assert done.stderr == "sudoku: cannot write the output: No space left on device\n"


def test_a_closed_stdout_is_an_error_not_lost_answers():
    done = subprocess.run(
        f"{SUDOKU} solve >&-", shell=True, input=LINE, capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stderr == "sudoku: standard output is closed: the answers would be lost\n"


def test_encode_creates_a_missing_output_folder(cli, tmp_path):
    target = tmp_path / "new" / "folder"
    run = cli("encode", "--output-dir", str(target), stdin=f"{LINE}\n{LINE}\n")
    assert run.code == 0 and sorted(p.name for p in target.iterdir()) == [
        "line-1.cnf",
        "line-2.cnf",
    ]


def test_a_backend_whose_library_fails_to_load_is_unavailable_not_a_crash():
    # A checkout the user cannot write, and no user cache folder: numba may create no folder
    # for its compiled code, and raises as the native kernels load. That backend is then
    # unavailable, with the reason and the way out; the others work, and the default moves on.
    code = (
        "import numba.core.caching as c\n"
        "def refused(self): raise PermissionError(13, 'Permission denied')\n"
        "for k in vars(c).values():\n"
        "    if isinstance(k, type) and hasattr(k, 'ensure_cache_path'):\n"
        "        k.ensure_cache_path = refused\n"
        "import sys; from solvers.cli.main import main\n"
        "code = main(['backends'])\n"
        "sys.exit(code or main(['solve', '-', '--format', 'line']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=LINE, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr
    (native,) = [line for line in done.stdout.splitlines() if line.startswith("native")]
    assert "backend native is unavailable: numba cannot keep its compiled kernel" in native
    assert "set NUMBA_CACHE_DIR to a folder you can write" in native
    assert done.stdout.splitlines()[-1] == ANSWER  # solved by the next fastest backend


# Arguments: one line, exit 2, before any work ----------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "--timeout", "nan"], "argument --timeout: 'nan' is not a number of seconds"),
        (["solve", "--timeout", "inf"], "argument --timeout: 'inf' is not a number of seconds"),
        (["solve", "--timeout", "1e308"], "argument --timeout: '1e308' is not a number"),
        (["solve", "--timeout", "0"], "argument --timeout: '0' is not a number of seconds"),
        (["solve", "--timeout", "-2"], "argument --timeout: '-2' is not a number of seconds"),
        (["solve", "--jobs", "-1"], "argument --jobs: -1 is not between 0 and"),
        (["count", "--limit", "99999999999999999999"], "argument --limit: 99999999999999999999 is"),
        (["count", "--limit", "0"], "argument --limit: 0 is not between 1 and"),
        (["solve", "--scheduler", "garbage"], "'garbage' is not a scheduler address"),
        (["solve", "--scheduler", ""], "'' is not a scheduler address"),
        (["check", "--backends", ""], "no backend named"),
        (["check", "--backends", ",,"], "no backend named"),
        (["generate", "--size", "0"], "argument --size: 0 is not between 4 and 25"),
        (["generate", "--seed", "-5"], "argument --seed: -5 is not between 0 and"),
        (["generate", "--clues", "200"], "--clues 200: a unique 9x9 puzzle needs at least 8"),
        (["generate", "--box", "1x5"], "box 1x5 is not a Sudoku box"),
        (["solve", "--box", "1x5"], "box 1x5 is not a Sudoku box"),
        (["solve", "--option", "encoding=minimal"], "--option needs --backend"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(cli, capsys, args, message):
    run = cli(*args, stdin=LINE + "\n")
    err = run.err + capsys.readouterr().err  # argparse writes to sys.stderr itself
    assert run.code == 2 and run.out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_jobs_never_exceed_the_puzzles_and_say_so(cli):
    run = cli("solve", "--backend", "sat", "--jobs", "1000", stdin=f"{LINE}\n{LINE}\n")
    assert run.code == 0 and run.out.splitlines() == [ANSWER, ANSWER]
    assert "sudoku: --jobs 1000: 2 puzzles, so 2 workers" in run.err


def test_an_unreachable_scheduler_is_named_at_once(cli):
    run = cli("solve", "--scheduler", "tcp://127.0.0.1:9", stdin=LINE + "\n")
    assert run.code == 2
    assert run.err.startswith("sudoku: cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")


# The library raises only the project's errors -----------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: solve(b"1..."),
        lambda: solve([[None] * 4] * 4),
        lambda: solve([["a"] * 4] * 4),
        lambda: solve([[1.5] + [0] * 3] + [[0] * 4] * 3),
        lambda: solve(["abcd"] * 4),
        lambda: solve(LINE, timeout="5"),
        lambda: solve(LINE, timeout=float("nan")),
        lambda: count_solutions(LINE, limit=None),
        lambda: count_solutions(LINE, limit="3"),
        lambda: count_solutions(LINE, limit=10**30),
        lambda: Shape(0, 0),
        lambda: Shape(-2, -2),
        lambda: Shape(2.0, 2),
        lambda: solve([[0] * 26] * 26),
        lambda: Board(Shape(2, 2), (0,) * 15),
        lambda: Board(Shape(2, 2), ("1",) * 16),
        lambda: Board(None, (0,) * 16),
        lambda: solve(np.zeros(16, np.uint8)),
        lambda: solve(Board(Shape(3, 3), (1.0,) + (0,) * 80)),
        lambda: count_solutions(Board(Shape(3, 3), (True,) + (0,) * 80)),
        lambda: list(read_puzzles("examples/boj2239.txt")),
        lambda: list(read_puzzles(None)),
        lambda: list(read_puzzles([b"1..............."])),
        lambda: list(read_puzzles(["1..............."], shape="2x2")),
        lambda: BackendSpec.parse(None),
        lambda: Runner(None),
    ],
)
def test_the_library_raises_only_its_own_errors(call):
    with pytest.raises(SudokuError) as raised:
        call()
    assert isinstance(raised.value, InputError | UsageError)


def test_a_file_name_given_for_lines_is_named_not_read_letter_by_letter():
    with pytest.raises(UsageError, match=re.escape("not one str: open the file, or pass text.")):
        list(read_puzzles("examples/boj2239.txt"))


def test_numpy_rows_are_read_as_the_numbers_they_hold():
    grid = np.zeros((4, 4), np.int64)
    grid[0, 0] = 1
    assert count_solutions(grid, limit=10) == 10
    assert solve([row for row in grid]).solution.cells[0] == 1
    assert solve([[np.int64(v) for v in row] for row in grid.tolist()]).status.value == "solved"


def test_a_board_of_numpy_integers_is_solved_as_its_values():
    # a board of uint8 cells: the searches' arithmetic on a cell's value overflowed uint8
    board = Board.from_rows(
        [[int(c) for c in LINE[r * 9 : r * 9 + 9].replace(".", "0")] for r in range(9)]
    )
    cells = Board(board.shape, tuple(np.array(board.cells, np.uint8)))
    assert solve(cells, backend="propagate").solution == solve(board, backend="propagate").solution
    assert count_solutions(cells, limit=2, backend="propagate") == 1


# compare and report: outputs checked before any work; a note with --jobs ----


@pytest.mark.parametrize(
    "args, message",
    [
        (["compare", "small4", "--json", "/nonexistent/run.json"], "cannot write --json"),
        (["compare", "small4", "--plot", "/nonexistent/run.png"], "cannot write --plot"),
        (["compare", "small4", "--limit", "0"], "argument --limit: 0 is not between 1"),
        # the folder of -o must be there, as for --json and --plot
        (["report", "run.json", "-o", "/dev/null/x/report.html"], "cannot write -o"),
    ],
)
def test_compare_and_report_outputs_are_checked_before_any_work(cli, capsys, args, message):
    run = cli(*args)
    err = run.err + capsys.readouterr().err
    assert run.code == 2 and message in err and run.out == ""


def test_compare_with_an_empty_dataset_is_bad_input(cli, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing here\n")
    run = cli("compare", str(empty), "--backends", "sat", "--plot", str(tmp_path / "p.png"))
    assert run.code == 2 and run.err.strip() == "sudoku: empty input"


def test_compare_with_jobs_says_that_timings_share_the_cores(cli):
    run = cli("compare", "small4", "--limit", "2", "--backends", "sat", "--jobs", "2", *ROOM)
    assert run.code == 0
    assert "sudoku: backends timed side by side share the cores" in run.err


# Bad argument types, and a process that may not have children ----------------


@pytest.mark.parametrize(
    "call, names",
    [
        (lambda: solve(LINE, backend=5), "backend 5"),
        (lambda: count_solutions(LINE, backend=["sat"]), "backend ['sat']"),
        (lambda: solve_many(np.zeros((1, 81), np.uint8), shape="3x3"), "shape '3x3'"),
        (lambda: solve_many(np.zeros((1, 81), np.uint8), rules="x"), "rules 'x'"),
    ],
)
def test_a_bad_argument_type_is_a_usage_error_naming_it(call, names):
    with pytest.raises(UsageError, match=re.escape(names)):
        call()


DAEMONIC = """
import multiprocessing, sys
sys.path.insert(0, {tests!r})
from solvers import count_solutions, solve
from solvers.backends import registry
from solvers.run import worker
worker.DIES_WITH_PARENT = {dies_with_parent}
registry.register("crasher", "crashing_backend:Crasher", summary="crashes on purpose")
LINE = {line!r}

def inside(_):
    said = []
    for call in (
        lambda: solve(LINE, "exactcover", timeout=5).status.name,
        lambda: count_solutions("." * 81, 10**9, "exactcover", timeout=0.5),
        lambda: solve("." * 16, "crasher", timeout=5).status.name,
        lambda: solve(LINE, "exactcover").status.name,
    ):
        try:
            said.append(str(call()))
        except Exception as error:
            said.append(f"{{type(error).__name__}}: {{error}}")
    return [*said, f"daemon={{multiprocessing.current_process().daemon}}"]

with multiprocessing.get_context("fork").Pool(1) as pool:
    print(*pool.map(inside, [0])[0], sep="\\n")
"""


def in_a_pool_worker(dies_with_parent: bool) -> list[str]:
    """What each call of ``DAEMONIC`` says inside a multiprocessing.Pool's worker, a daemonic
    process (as a Dask worker under its nanny is)."""
    script = DAEMONIC.format(
        line=LINE, tests=str(Path(__file__).parent), dies_with_parent=dies_with_parent
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_daemonic_process_keeps_a_deadline_and_contains_a_crash_in_a_worker_of_its_own():
    # multiprocessing refuses a daemonic process children, yet exactcover needs one to be
    # stopped at a deadline, and crasher one to crash in: solved in a worker; an endless
    # count killed at its deadline; a segfault costs its call alone; still daemonic after
    assert in_a_pool_worker(True) == [
        "SOLVED",
        "SolveTimeout: backend exactcover could not count within 0.5 s",
        "BackendCrashed: crasher worker died (exit code -11)",
        "SOLVED",
        "daemon=True",
    ]


def test_where_a_child_would_outlive_a_daemonic_parent_a_timed_call_names_the_way_out():
    # off Linux no death signal ties a worker to its parent: the timed calls that need one are
    # refused, naming the way out, and the runner still answers untimed calls
    refusal = (
        "UsageError: {} needs a worker process to keep a timeout, and this process is daemonic"
        " (a multiprocessing.Pool or Dask worker), which may not have children here: call"
        " without a timeout, or from a non-daemonic pool (concurrent.futures."
        "ProcessPoolExecutor; Dask workers started with DASK_DISTRIBUTED__WORKER__DAEMON=False)"
    )
    assert in_a_pool_worker(False) == [
        refusal.format("exactcover"),
        refusal.format("exactcover"),
        refusal.format("crasher"),
        "SOLVED",
        "daemon=True",
    ]


# An outside backend's answer is checked before it is believed --------------------------------


@pytest.mark.parametrize("form", ["none", "text", "negative", "over", "float", "short", "zero"])
def test_a_malformed_answer_is_a_bug_line_for_that_puzzle(cli, registered, monkeypatch, form):
    import tiny_backend

    monkeypatch.setattr(tiny_backend.Misshapen, "ANSWER", form)
    registered("misshapen", "tiny_backend:Misshapen")
    two = "." * 16 + "\n" + "." * 16 + "\n"
    for command in ("solve", "count"):
        done = cli(command, "--backend", "misshapen", stdin=two)
        assert done.code == 5, (command, form, done.err)
        lines = done.err.splitlines()
        assert len(lines) == 2 and all("returned a malformed answer" in ln for ln in lines)


def test_a_backend_that_calls_sys_exit_fails_its_puzzle_alone(cli, registered):
    registered("exits", "tiny_backend:Exits")
    done = cli("solve", "--backend", "exits", stdin="." * 16 + "\n" + "." * 16 + "\n")
    assert done.code == 2
    assert done.err.splitlines() == [
        "sudoku: line 1: backend raised SystemExit: 0",
        "sudoku: line 2: backend raised SystemExit: 0",
    ]


def test_a_number_of_thousands_of_digits_costs_its_puzzle_alone(cli, tmp_path):
    path = tmp_path / "big.txt"
    huge = "9" * 5000
    path.write_text(
        f"# rules: killercage r1c1 r1c2 total={huge}\n{'.' * 81}\n"
        f"# rules: killercage r1c1 r{huge}c2 total=3\n{'.' * 81}\n"
        f"# rules: classic\n{'.' * 81}\n"
    )
    done = cli("count", str(path), "--backend", "native")
    assert done.code == 2 and done.out == "2\n"
    lines = done.err.splitlines()
    assert len(lines) == 2 and all(len(line) < 200 for line in lines), lines
    assert "a number larger than any rule reads" in lines[0]
    assert "is outside the 9x9 board" in lines[1]


def test_check_of_an_empty_file_is_bad_input_with_no_backend_started(cli, tmp_path, capsys):
    """Not "checking 1 puzzle ... at most 6 min", every backend started and a table of zeros:
    the reader's word alone."""
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing here\n")
    run = cli("check", str(empty))
    err = run.err + capsys.readouterr().err
    assert run.code == 2 and err.strip() == "sudoku: empty input" and run.out == ""


def test_compare_where_no_backend_answers_a_puzzle_exits_3_and_names_them(cli):
    """Every puzzle timed out by every backend was exit 0, as though all were proved."""
    run = cli("compare", "small4", "--limit", "2", "--backends", "sat", "--timeout", "1e-7")
    assert run.code == 3, run.err
    assert "no backend answered within its timeout: puzzle" in run.out
