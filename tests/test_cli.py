"""The sudoku command as a user meets it: outputs, JSON, counts, exit statuses, help."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import BACKENDS, BOJ2239_IN, BOJ2239_OUT, BOJ2580_IN, DEVICES, TOOLCHAINS, as_lines

from solvers import format_board, parse
from solvers.backends import registry
from solvers.cli.parser import build_parser

LINE = BOJ2239_IN.replace(" ", "")
ANSWER = BOJ2239_OUT.replace(" ", "")


def test_many_puzzle_file_prints_one_line_each_in_order(cli, puzzles):
    boards = [puzzles["9x9-easy"], parse(LINE), puzzles["9x9-minimal"]]
    text = "".join(format_board(b, "line") + "\n" for b in boards)
    run = cli("solve", "--backend", "sat", stdin=text)
    assert run.code == 0
    solutions = [parse(line) for line in run.out.splitlines()]
    assert len(solutions) == 3 and solutions[1] == parse(ANSWER)


def test_json_has_one_object_per_puzzle_with_the_documented_fields(cli, puzzles):
    text = f"{LINE}\n{format_board(puzzles['no-solution-9x9'], 'line')}\nbad\n"
    run = cli("solve", "--json", "--backend", "pysat", stdin=text)
    records = [json.loads(line) for line in run.out.splitlines()]
    assert [r["status"] for r in records] == ["solved", "unsolvable", "invalid"]
    assert [r["index"] for r in records] == [1, 2, 3]
    first = records[0]
    assert set(first) == {
        "index",
        "puzzle",
        "status",
        "solution",
        "seconds",
        "backend",
        "stats",
        "error",
    }
    assert first["solution"] == ANSWER and first["backend"] == "pysat"
    assert first["puzzle"] == LINE.replace("0", ".") and 0 < first["seconds"] < 5
    assert records[1]["solution"] is None
    assert "3 cells" in records[2]["error"]
    assert run.code == 2  # bad input wins over unsolvable


def test_single_board_without_solution_says_so_and_exits_1(cli, puzzles):
    run = cli("solve", stdin=format_board(puzzles["no-solution-6x6"], "spaced"))
    assert run.code == 1 and run.out == "" and run.err.strip() == "sudoku: no solution"


def test_timeout_exits_3_and_wins_over_no_solution(cli, puzzles):
    hard = format_board(puzzles["16x16"], "line")
    none = format_board(puzzles["no-solution-6x6"], "line")
    empty16 = "." * 256
    run = cli(
        "count",
        "--backend",
        "dfs",
        "--limit",
        "1000000",
        "--timeout",
        "0.2",
        stdin=f"{none}\n{empty16}\n",
    )
    assert run.code == 3
    assert run.out.splitlines() == ["0"]
    assert "line 2: timeout after 0.2 s" in run.err
    del hard


def test_bad_input_wins_over_timeout(cli):
    run = cli(
        "count",
        "--backend",
        "dfs",
        "--limit",
        "1000000",
        "--timeout",
        "0.1",
        stdin="." * 81 + "\nxyz\n",
    )
    assert run.code == 2


def test_count_prints_one_integer_per_puzzle_stopping_at_the_limit(cli, puzzles):
    text = "".join(
        format_board(puzzles[name], "line") + "\n"
        for name in ("4x4", "several-4x4", "no-solution-6x6")
    )
    run = cli("count", "--backend", "cpsat", "--limit", "3", stdin=text)
    assert run.out.splitlines() == ["1", "3", "0"]
    assert run.code == 1
    run = cli("count", "--backend", "cpsat", "--json", stdin=text)
    assert [json.loads(line)["count"] for line in run.out.splitlines()] == [1, 2, 0]


def columns(line: str) -> list[str]:
    """A table line's columns (separated by two spaces or more)."""
    return re.split(r"\s{2,}", line.strip())


def test_backends_lists_every_backend_with_library_and_availability(cli):
    run = cli("backends")
    assert run.code == 0
    *table, rule = run.out.splitlines()  # the table, then the rule for the default
    rows = {row[0].split()[0]: row for row in map(columns, table)}
    assert list(rows) == registry.names() and rule.startswith("default: ")
    assert {"dfs", "csp", "cpsat", "sat", "pysat"} <= set(rows)
    assert [rows[name][2] for name in BACKENDS] == ["available"] * len(BACKENDS)
    for name in set(rows) - set(BACKENDS) - set(DEVICES):  # a toolchain missing: its hint
        assert rows[name][2].endswith(f"(apt-get install {TOOLCHAINS[name]})"), rows[name]
    for name in set(rows) & set(DEVICES) - set(BACKENDS):  # no device here: available or why
        assert rows[name][2] == "available" or "no CUDA GPU found" in rows[name][2], rows[name]
    assert rows["cpsat"][1].startswith("ortools ") and rows["csp"][1].startswith(
        "python-constraint2"
    )
    assert rows["sat"][1].startswith("pycosat ") and rows["pysat"][1].startswith("python-sat ")


def test_backends_name_the_kinds_a_backend_takes_beyond_units(cli):
    rows = {row[0].split()[0]: row for row in map(columns, cli("backends").out.splitlines())}
    assert rows["dlx"][3] == rows["exactcover"][3] == "units, killercage"  # a sum rule
    assert (rows["norvig"][3], rows["cpsat"][3]) == ("units", "every kind")


def test_an_unavailable_backend_is_listed_with_its_reason(cli, registered):
    registered("ghost", "no_such_module_here:Ghost", distribution="ghost-lib", summary="x")
    run = cli("backends")
    (ghost,) = [columns(line) for line in run.out.splitlines() if line.startswith("ghost")]
    assert ghost[1] == "ghost-lib (not installed)"
    assert ghost[2].startswith(
        "backend ghost is unavailable: No module named 'no_such_module_here'"
    )
    assert ghost[2].endswith("(pip install ghost-lib)")


def every_command() -> list[str]:
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(commands.choices)


@pytest.mark.parametrize("command", every_command())
def test_every_command_has_help_with_an_example(cli, command, capsys):
    code = cli(command, "--help").code
    text = capsys.readouterr().out
    assert code == 0 and "example:" in text and f"sudoku {command}" in text


def test_the_help_covers_every_command_there_is():
    assert set(every_command()) == {
        "solve",
        "count",
        "check",
        "encode",
        "convert",
        "generate",
        "compare",
        "report",
        "datasets",
        "backends",
        "kinds",
        "strength",
        "explain",
        "rate",
        "candidates",
    }


def test_installed_command_and_python_m_both_work(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(BOJ2580_IN)
    script = str(Path(sys.executable).with_name("sudoku"))
    for command in ([script], [sys.executable, "-m", "solvers"]):
        done = subprocess.run(
            [*command, "solve", str(board), "--backend", "dfs"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[0] == "5 6 8 7 2 4 9 3 1"


def test_stdin_dash_reads_standard_input(cli):
    assert cli("solve", "-", stdin=as_lines(BOJ2239_IN)).out == as_lines(BOJ2239_OUT)


def test_importing_solvers_imports_no_adapter_library():
    code = (
        "import sys, solvers; solvers.solve('" + LINE + "');"
        "bad = {'ortools', 'pycosat', 'pysat', 'constraint', 'z3', 'highspy', 'pyscipopt',"
        " 'pychoco', 'pycryptosat', 'exact_cover', 'cpmpy'} & set(sys.modules);"
        "print(sorted(bad))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_an_engine_that_gives_up_with_no_timeout_is_one_line_not_a_traceback(cli, registered):
    registered("givesup", "tiny_backend:GivesUp")
    for command in ("solve", "count"):
        done = cli(command, "--backend", "givesup", stdin="." * 81 + "\n")
        assert done.code == 3, (command, done.err)
        assert done.err == "sudoku: line 1: no answer: the engine gave up\n", command


@pytest.mark.parametrize("command", ["count", "check", "encode", "convert"])
def test_an_option_a_command_would_not_use_is_refused_in_one_line(cli, capsys, command):
    more = {"convert": ["--to", "line"], "encode": ["--to", "dimacs"]}.get(command, [])
    assert cli(command, "examples/boj2580.txt", *more).code == 0
    capsys.readouterr()
    assert cli(command, "examples/boj2580.txt", *more, "--format", "line").code == 2
    assert "unrecognized arguments: --format line" in capsys.readouterr().err


IGNORED = {
    "solve --json --format": (
        ["solve", "examples/boj2580.txt", "--json", "--format", "line"],
        "sudoku solve: --format line and --json: the answers are written as JSON; give one",
    ),
    "count --jobs --scheduler": (
        ["count", "examples/puzzles.txt", "--jobs", "2", "--scheduler", "127.0.0.1:8786"],
        "sudoku count: --jobs 2 and --scheduler: the cluster's workers run the puzzles",
    ),
    "compare --seed alone": (
        ["compare", "small4", "--backends", "propagate", "--seed", "5"],
        "sudoku compare: --seed 5 without --shuffle: the seed is the shuffles'",
    ),
}


@pytest.mark.parametrize("case", IGNORED, ids=list(IGNORED))
def test_an_option_the_others_make_useless_is_refused_before_any_work(cli, capsys, case):
    args, says = IGNORED[case]
    done = cli(*args)
    assert done.code == 2 and not done.out
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(says) and line.endswith(f"(see 'sudoku {args[0]} --help')")


def test_a_box_shape_for_f_puzzles_is_refused_not_ignored(cli):
    done = cli("solve", "examples/fpuzzles.txt", "--box", "2x3")
    assert done.code == 2 and not done.out
    assert done.err == "sudoku: line 3: box 2x3 given, but an f-puzzles puzzle sets its own size\n"


def test_an_encode_option_given_twice_is_refused_not_overridden(cli):
    args = ["--option", "encoding=minimal", "--option", "encoding=extended"]
    done = cli("encode", "examples/boj2580.txt", *args)
    assert done.code == 2 and not done.out
    assert done.err == "sudoku: --option encoding is given twice (minimal, extended)\n"
