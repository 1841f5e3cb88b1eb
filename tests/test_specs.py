"""Specs and their options said once: a repeated key, an option given twice, an empty item in a
list are errors naming what clashes; a spec that restates a default is the default's row."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from solvers import UsageError, solve
from solvers.backends.spec import BackendSpec, parse_list

SUDOKU = str(Path(sys.executable).with_name("sudoku"))
LINE = "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7"


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "sat:encoding=minimal,encoding=reduced",
            "'sat:encoding=minimal,encoding=reduced': encoding is given twice"
            " (encoding=minimal, encoding=reduced)",
        ),
        ("sat:", "'sat:': a colon with no KEY=VALUE after it"),
    ],
)
def test_a_spec_says_each_thing_once(text, message):
    with pytest.raises(UsageError) as raised:
        BackendSpec.parse(text)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    "text, message",
    [
        ("sat,,native", "'sat,,native': item 2 is empty (two commas, or one at an end)"),
        (",sat", "',sat': item 1 is empty (two commas, or one at an end)"),
        ("sat,", "'sat,': item 2 is empty (two commas, or one at an end)"),
        ("sat:,native", "'sat:': a colon with no KEY=VALUE after it"),
    ],
)
def test_an_empty_item_in_a_list_is_an_error(text, message):
    with pytest.raises(UsageError) as raised:
        parse_list(text)
    assert str(raised.value) == message


def test_an_option_given_apart_from_the_spec_that_sets_it_is_an_error():
    with pytest.raises(UsageError, match="option encoding=minimal is given apart from the spec"):
        solve(LINE, "sat:encoding=reduced", encoding="minimal")


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["solve", "--backend", "sat:encoding=reduced", "--option", "encoding=minimal"],
            "sudoku: option encoding=minimal is given apart from the spec sat:encoding=reduced,"
            " which sets encoding=reduced: give it once\n",
        ),
        (
            ["solve", "--backend", "sat", "--option", "encoding=minimal", "--option", "encoding=x"],
            "sudoku: --option encoding is given twice (minimal, x)\n",
        ),
        (
            ["compare", "--backends", "sat:encoding=minimal", "--option", "sat:encoding=reduced"],
            "sudoku: option encoding=reduced is given apart from the spec sat:encoding=minimal,"
            " which sets encoding=minimal: give it once\n",
        ),
        (
            ["compare", "--backends", "sat", "--option", "sat:cages=pb", "--option", "sat:cages=x"],
            "sudoku: --option sat:cages is given twice (pb, x)\n",
        ),
        (["compare", "--backends", "sat,,native"], None),
    ],
)
def test_the_command_line_refuses_an_option_said_twice(cli, args, message):
    run = cli(*args, stdin=LINE + "\n")
    assert run.code == 2
    assert run.err == (
        message or "sudoku: 'sat,,native': item 2 is empty (two commas, or one at an end)\n"
    )


@pytest.mark.parametrize(
    "backends, baseline",
    [("sat,native", "sat:encoding=reduced"), ("sat:encoding=reduced,native", "sat")],
)
def test_a_spec_that_restates_a_default_is_the_same_row_and_baseline(
    cli, tmp_path, backends, baseline
):
    # sat's default encoding is reduced: one configuration, the row sat, either names it
    out = tmp_path / "run.json"
    run = cli(
        "compare", "--backends", backends, "--baseline", baseline,
        "--limit", "2", "--json", str(out),
    )  # fmt: skip
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    tables = sum(line.startswith("backend ") for line in lines)
    rows = [line.split()[0] for line in lines if line.startswith("sat")]
    assert tables and rows == ["sat"] * tables, run.out  # one sat row per dataset


# Fields and headers: said once, where a puzzle may start; messages that name the right thing.

KILLER = Path(__file__).resolve().parents[1] / "examples" / "killer.txt"
JIGSAW = (
    "..48....7.7...1....51..2..........56......3...8...................5....2...18..3."
    " regions=AABBBBBCCAADBCCCCCADDBBFCCFADDDBFFFFADDDEEEEFAGGEEIEEFAGGGEIIIFGGHHHHIIIGGHHHHHII"
)


def killer_lines() -> list[str]:
    return KILLER.read_text().splitlines()


@pytest.mark.parametrize(
    "text, message",
    [
        (
            f"# rules: jigsaw\n{JIGSAW} regions=AAA\n",
            "sudoku: line 2, column 173: regions= is given twice (columns 83 and 173): give it"
            " once\n",
        ),
        (
            f"# rules:\n{LINE}\n",
            "sudoku: line 1: a rules line with no rules: name them (x, windoku, jigsaw, killer, "
            "or constraints) or classic\nsudoku: line 2: under the rules line 1, which cannot be "
            "read\n",
        ),
        (
            "\n".join([*killer_lines()[:12], "# rules: killer x", killer_lines()[12]]) + "\n",
            "sudoku: line 13: a rules line inside a puzzle: put it before the puzzle's first"
            " line\n",
        ),
        (
            "\n".join(killer_lines()[:11] + killer_lines()[12:]) + "\n",
            "sudoku: line 3: the cage map has 8 rows, expected 9\n",
        ),
        (
            KILLER.read_text().replace("sums: 6 ", "sums: 60 "),
            "sudoku: line 3: the cage at r1c1 (total 60): no 3 distinct values from 1..9 add up"
            " to 60\n",
        ),
    ],
)
def test_a_field_or_header_out_of_place_is_named(cli, text, message):
    run = cli("solve", stdin=text)
    assert (run.code, run.err) == (2, message)


@pytest.mark.parametrize(
    "args, message",
    [
        (["report", "docs/compare.json", "-o", ""], "sudoku: cannot write -o: the path is empty\n"),
        (
            ["report", "docs/compare.json", "-o", "/proc/x.html"],
            "sudoku: cannot write -o /proc/x.html: No such file or directory\n",
        ),
        (
            ["compare", "--backends", "native", "--json", ""],
            "sudoku: cannot write --json: the path is empty\n",
        ),
        (
            ["compare", "--backends", "native", "--plot", "/proc/x.png"],
            "sudoku: cannot write --plot /proc/x.png: No such file or directory\n",
        ),
    ],
)
def test_an_output_that_cannot_be_written_is_named_before_any_work(cli, args, message):
    run = cli(*args)
    assert (run.code, run.err, run.out) == (2, message, "")


def test_a_closed_pipe_under_an_output_file_is_a_write_error(compare_run):
    # The shared compare run's page is well over a pipe's 64 KiB, so the write meets the closed
    # pipe (a larger run's, as docs/compare.json's, would take long to draw)
    code, run = compare_run[0].code, compare_run[1]
    assert code == 0
    done = subprocess.run(
        f"{SUDOKU} report {run} -o /dev/stdout | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.stderr == "sudoku: cannot write -o /dev/stdout: Broken pipe\n"
