"""The bulk paths: ``solve_many``, and the line-file fast path of ``sudoku solve/count FILE``,
whose output must be the per-puzzle path's, byte for byte, whatever the file holds."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from itertools import pairwise

import numpy as np
import pytest
from corpus import variant

from solvers import (
    Board,
    Shape,
    count_solutions,
    format_board,
    solve,
    solve_many,
)
from solvers.backends import choice
from solvers.backends.batch import Flag
from solvers.base.errors import SolveTimeout
from solvers.formats.boards import format_puzzle
from solvers.formats.datasets import DATASETS
from solvers.model import verify
from solvers.run import linefile, pipeline


def per_puzzle(monkeypatch, cli, *args):
    """The command through the per-puzzle path only."""
    with monkeypatch.context() as patch:
        patch.setattr(pipeline, "_bulk_route", lambda *a: None)
        return cli(*args)


def mixed_lines(puzzles) -> list[str]:
    """Everything a line file may hold, among plain 9x9 puzzles."""
    nine = DATASETS["hard9"].puzzles()[:30] + DATASETS["several9"].puzzles()[:5]
    line = {name: format_board(board, "line") for name, board in puzzles.items()}
    killer = Board(Shape(2, 2), (1,) + (0,) * 15, variant(Shape(2, 2), cages=KILLER4_CAGES))
    return [
        "# a comment",
        *nine[:5],
        "",
        "   " + nine[5] + "   ",  # indented, trailing blanks
        nine[6] + ":1:" + nine[6],  # tdoku's fields
        nine[7] + "," + "1" * 81,  # Kaggle's, a wrong known solution (read, not checked)
        nine[8] + "\r",  # CRLF once joined
        line["4x4"],
        line["16x16"],
        line["16x16"].lower(),
        line["several-4x4"],
        line["no-solution-9x9"],
        line["conflicting-givens"],
        line["full-9x9-one-wrong"],
        "not a puzzle",
        nine[9][:-1] + "x",  # a bad symbol
        nine[9][:-1] + "A",  # a value over 9
        nine[10] + " # a comment after the puzzle",
        nine[11] + " extra",
        "# rules: x",
        line["empty-6x6"],
        nine[12],
        "# rules: classic",
        *nine[13:20],
        format_puzzle(killer),
        "\x00" + nine[20],
        *nine[21:],
        "." * 16,
        "." * 36,
    ]


# pairs along the rows of the 4x4 board 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1
KILLER4_CAGES = [(3, (0, 1)), (7, (2, 3)), (7, (4, 5)), (3, (6, 7)), (3, (8, 9)), (7, (10, 11)),
                 (7, (12, 13)), (3, (14, 15))]  # fmt: skip


@pytest.fixture(scope="module")
def mixed(tmp_path_factory, puzzles):
    """Mixed files: plain, a CSV header and a byte-order mark first, no newline at the end."""
    folder = tmp_path_factory.mktemp("bulk")
    lines = mixed_lines(puzzles)
    files = {
        "plain": "\n".join(lines) + "\n",
        "csv": "quizzes,solutions\n" + "\n".join(lines),
        "bom": "\ufeff" + "\r\n".join(lines) + "\r\n",
        "lone-cr": "\r".join(lines[:12]) + "\n" + "\n".join(lines[12:]) + "\n",
        "stops": "\n".join([*lines[:30], "# rules: bogus", *lines[30:]]) + "\n",
    }
    paths = {}
    for name, text in files.items():
        paths[name] = folder / f"{name}.txt"
        paths[name].write_bytes(text.encode("utf-8"))
    return paths


COMMANDS = [
    ["solve"],
    ["solve", "--format", "line"],
    ["solve", "--format", "compact"],
    ["solve", "--format", "spaced"],
    ["solve", "--timeout", "5"],
    ["solve", "--box", "3x3"],
    ["count"],
    ["count", "--limit", "12"],
    ["count", "--input-format", "line"],
]


@pytest.mark.parametrize("name", ["plain", "csv", "bom", "lone-cr", "stops"])
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_the_fast_path_prints_what_the_per_puzzle_path_prints(
    cli, monkeypatch, mixed, name, command
):
    args = [*command, str(mixed[name]), "--backend", "native"]
    slow = per_puzzle(monkeypatch, cli, *args)
    calls = []
    real = linefile.answer_range
    monkeypatch.setattr(linefile, "answer_range", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(linefile, "RANGE_BYTES", 700)  # many ranges: about 8 lines each
    fast = cli(*args)
    assert calls, "the fast path was not taken"
    assert (fast.out, fast.err, fast.code) == (slow.out, slow.err, slow.code)
    assert slow.code == 2  # the bad lines


def test_the_default_backend_of_many_puzzles_takes_the_fast_path_too(cli, monkeypatch, mixed):
    monkeypatch.setattr(choice, "SMALL_RUN", 5)  # the file holds more than 5: many
    slow = per_puzzle(monkeypatch, cli, "count", str(mixed["plain"]))
    taken = []
    monkeypatch.setattr(linefile, "answers", _spy(linefile.answers, taken))
    fast = cli("count", str(mixed["plain"]))
    assert taken and (fast.out, fast.err, fast.code) == (slow.out, slow.err, slow.code)


def _spy(function, calls):
    def spied(*args):
        calls.append(args)
        return function(*args)

    return spied


@pytest.mark.parametrize("name", ["plain", "stops"])
@pytest.mark.parametrize("command", [["solve"], ["count", "--limit", "3"]])
def test_jobs_read_their_own_ranges_and_print_the_serial_output(
    cli, monkeypatch, mixed, command, name
):
    monkeypatch.setattr(linefile, "RANGE_BYTES", 700)
    args = [*command, str(mixed[name]), "--backend", "native"]
    serial, parallel = cli(*args), cli(*args, "--jobs", "2")
    assert (parallel.out, parallel.err, parallel.code) == (serial.out, serial.err, serial.code)
    assert serial.out == per_puzzle(monkeypatch, cli, *args).out


def test_json_and_standard_input_keep_the_per_puzzle_path(cli, monkeypatch, mixed):
    monkeypatch.setattr(linefile, "answers", lambda *a: pytest.fail("fast path taken"))
    cli("solve", str(mixed["plain"]), "--backend", "native", "--json")
    cli("count", "-", "--backend", "native", stdin=DATASETS["easy9"].puzzles()[0])


def test_a_file_that_is_not_line_format_keeps_the_per_puzzle_path(tmp_path):
    grid = tmp_path / "grid.txt"
    grid.write_text("1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n")
    assert linefile.start(str(grid), "auto") is None


def test_solve_many_answers_like_the_backend(puzzles):
    names = ["9x9-easy", "9x9-minimal", "several-9x9", "no-solution-9x9", "conflicting-givens"]
    boards = [puzzles[name] for name in names]
    found = solve_many(np.array([b.cells for b in boards]), limit=3)
    assert found.counts.tolist() == [count_solutions(b, 3, "native") for b in boards]
    assert found.flags.tolist() == [Flag.SOLVED] * 3 + [Flag.UNSOLVABLE] * 2
    for board, values in zip(boards[:3], found.solutions[:3], strict=True):
        assert tuple(values) == solve(board, "native").solution.cells


@pytest.mark.parametrize("backend", ["propagate", "cpsat", "pysat"])
def test_every_backend_answers_a_batch_as_the_kernel_does(puzzles, backend):
    # the contract's default batch: search on each row in turn, verified as the kernel's rows
    names = ["9x9-easy", "several-9x9", "no-solution-9x9", "conflicting-givens"]
    values = np.array([puzzles[name].cells for name in names] + [[10] + [0] * 80])
    found = solve_many(values, 3, backend=backend)
    kernel = solve_many(values, 3)
    assert found.flags.tolist() == kernel.flags.tolist() == [
        Flag.SOLVED, Flag.SOLVED, Flag.UNSOLVABLE, Flag.UNSOLVABLE, Flag.BAD_VALUE
    ]  # fmt: skip
    several = count_solutions(puzzles["several-9x9"], 3, "dfs")
    assert found.counts.tolist() == kernel.counts.tolist() == [1, several, 0, 0, 0]
    assert found.solutions[0].tolist() == kernel.solutions[0].tolist()
    assert not verify.failing_rows(puzzles["several-9x9"], values[1:2], found.solutions[1:2]).any()


def test_solve_many_takes_any_shape_rules_and_a_time_per_puzzle():
    empty = np.zeros((2, 36), np.int64)
    assert solve_many(empty, 5, shape=Shape(3, 2)).counts.tolist() == [5, 5]
    x = variant(Shape(3, 3), "x")
    assert solve_many(np.zeros((1, 16)), 10, rules=x).counts.tolist() == [
        count_solutions(Board.empty(Shape(2, 2), x), 10, "dfs")
    ]
    quick = solve_many(np.array([[0] * 16, [1] + [0] * 15]), 2, each=0.05)
    assert quick.flags.tolist() == [Flag.SOLVED, Flag.SOLVED]  # well within their time
    # every 25x25 grid counted: none ends in 0.05 s, and the next puzzle still gets its own
    long = solve_many(np.vstack([np.zeros((1, 625)), np.zeros((1, 625))]), 10**9, each=0.05)
    assert long.flags.tolist() == [Flag.UNFINISHED, Flag.UNFINISHED]
    bad = np.zeros((1, 16), np.int64)
    bad[0, 3] = 5
    assert solve_many(bad).flags.tolist() == [Flag.BAD_VALUE]


def test_solve_many_stops_at_its_timeout():
    # every 25x25 grid counted: no machine ends that in 0.2 s; the kernel is looked at between
    # its calls of bounded work, so it stops soon after (the bound here is loose on purpose)
    start = time.perf_counter()
    with pytest.raises(SolveTimeout):
        solve_many(np.zeros((1, 625)), 10**9, timeout=0.2)
    assert time.perf_counter() - start < 30


def test_the_file_path_imports_no_library_it_does_not_use(tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(DATASETS["easy9"].puzzles()[:3]) + "\n")
    code = (
        "import sys\n"
        "from solvers.cli.main import main\n"
        f"main(['count', {str(path)!r}, '--backend', 'native'])\n"
        "heavy = {'distributed', 'dask', 'matplotlib', 'ortools', 'pysat', 'pycosat',"
        " 'constraint', 'pandas'}\n"
        "print(sorted(heavy & {name.split('.')[0] for name in sys.modules}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["1", "1", "1", "[]"]


def test_the_fast_path_says_what_the_per_puzzle_path_says_of_jobs(cli, monkeypatch, tmp_path):
    path = tmp_path / "three.txt"
    path.write_text("\n".join(DATASETS["easy9"].puzzles()[:3]) + "\n")
    cores = os.cpu_count() or 1
    for jobs in ("4", str(cores + 1)):
        args = ["count", str(path), "--backend", "native", "--jobs", jobs]
        fast, slow = cli(*args), per_puzzle(monkeypatch, cli, *args)
        assert (fast.out, fast.err, fast.code) == (slow.out, slow.err, slow.code)
        assert "workers" in fast.err


@pytest.mark.slow
def test_the_speed_script_prints_each_target_with_its_verdict():
    from conftest import SHARED_DATA

    if not (SHARED_DATA / "sudoku17.txt").is_file():
        pytest.skip(f"needs the public sets in {SHARED_DATA}")
    script = os.path.join(os.path.dirname(__file__), "..", "bench", "speed.py")
    done = subprocess.run(
        [sys.executable, script, "--runs", "1"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    for target in ("1. sudoku compare", "2. sudoku count", "3. "):
        assert target in done.stdout
    assert done.stdout.count(": met") + done.stdout.count(": MISSED") >= 2


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"limit": 10**30}, "limit 1000000000000000000000000000000 is not between 1 and"),
        ({"limit": "2"}, "limit '2' is not a whole number"),
        ({"limit": 0}, "limit 0 is not between 1 and"),
        ({"each": -1}, "each -1 is not a number of seconds above 0"),
        ({"backend": "nosuch"}, "unknown backend 'nosuch'"),
        ({"backend": 3}, "backend 3 is not a backend's name or spec"),
        ({"timeout": 0}, "timeout 0 is not a number of seconds above 0"),
        ({"timeout": "1"}, "timeout '1' is not a number of seconds"),
        ({"puzzles": np.full((1, 81), 1.5)}, "puzzles must hold whole numbers, not float64"),
    ],
)
def test_solve_many_refuses_what_is_no_limit_or_no_cell_value_with_the_projects_errors(
    arguments, said
):
    from solvers.base.errors import SudokuError

    arguments = {"puzzles": np.zeros((1, 81), np.uint8), **arguments}
    with pytest.raises(SudokuError, match=said.replace("(", r"\(")):
        solve_many(**arguments)
    assert list(solve_many(np.zeros((1, 81), np.int64), np.int64(2)).counts) == [2]


def large_lines() -> list[str]:
    """A few thousand lines: shipped puzzles of several sides, with and without solutions,
    among comments, a bad line, a rules section and a bad rules line."""
    names = ["easy9", "hard9", "several9", "nosolution9", "small4", "big16"]
    puzzles = [line for name in names for line in DATASETS[name].puzzles()]
    lines = []
    for copy in range(15):
        lines += [f"# copy {copy}", *puzzles]
        if copy == 7:
            lines += [
                "not a puzzle",
                "# rules: x",
                *DATASETS["x9"].puzzles()[:5],
                "# rules: classic",
            ]
        if copy == 11:
            lines += ["# rules: bogus", *puzzles[:3], "# rules: classic"]
    return lines


@pytest.mark.parametrize("header", ["", "quizzes,solutions\n"])
@pytest.mark.parametrize("command", [["count", "--limit", "3"], ["solve"]], ids=" ".join)
def test_jobs_answer_a_large_file_as_one_job_does(cli, tmp_path, header, command):
    path = tmp_path / "large.txt"
    path.write_text(header + "\n".join(large_lines()) + "\n")
    assert len(list(linefile.ranges(str(path), 0, jobs=2))) > 2
    args = [*command, str(path), "--backend", "native"]
    serial, parallel = cli(*args), cli(*args, "--jobs", "2")
    assert (parallel.out, parallel.err, parallel.code) == (serial.out, serial.err, serial.code)
    assert serial.code == 2 and "line" in serial.err


def test_each_worker_gets_several_ranges_shrinking_toward_the_end(tmp_path):
    path = tmp_path / "large.txt"
    line = b"." * 81 + b"\n"
    path.write_bytes(line * ((8 << 20) // len(line)))  # 8 MB
    one = [r.end - r.start for r in linefile.ranges(str(path), 0)]
    assert len(one) == 8 and max(one) - linefile.RANGE_BYTES < len(line)
    sizes = [r.end - r.start for r in linefile.ranges(str(path), 0, jobs=8)]
    assert len(sizes) >= 8 * 4  # every worker several
    assert all(b - a < len(line) for a, b in pairwise(sizes))  # shrinking: all finish together
    assert min(sizes[:-1]) >= linefile.TAIL_BYTES  # never tiny (the last: what is left)
    assert sizes[0] >= 4 * sizes[-2]


def test_an_unreadable_rules_line_past_the_first_range_is_cited_by_its_own_number(cli, tmp_path):
    easy = DATASETS["easy9"].puzzles()
    lines = easy * (linefile.RANGE_BYTES // (82 * len(easy)) + 2)  # past the first range
    path = tmp_path / "long.txt"
    path.write_text("\n".join([*lines, "# rules: bogus", easy[0], easy[1]]) + "\n")
    bad = len(lines) + 1
    done = cli("count", str(path), "--backend", "native")
    assert done.err.splitlines()[1:] == [
        f"sudoku: line {bad + k}: under the rules line {bad}, which cannot be read" for k in (1, 2)
    ]
