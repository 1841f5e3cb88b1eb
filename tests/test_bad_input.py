"""Bad input: one line on stderr naming the problem and where it is, exit 2, no traceback."""

from __future__ import annotations

import json
import resource
import select
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import BOJ2580_IN

from solvers.backends import registry

ROOT = Path(__file__).resolve().parents[1]
GOOD = BOJ2580_IN.splitlines()
GOOD_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def replace_row(row: int, text: str) -> str:
    rows = list(GOOD)
    rows[row] = text
    return "\n".join(rows) + "\n"


CASES = {
    "too few rows": ("\n".join(GOOD[:8]) + "\n", "line 8: 8 rows, expected 9"),
    "too many rows": (BOJ2580_IN + GOOD[0] + "\n", "line 10: more than 9 rows"),
    "short row": (replace_row(3, "0 8 5 2 0 1 0 0"), "line 4: row 4 has 8 cells, expected 9"),
    "bad character": (
        replace_row(1, "0 4 2 0 x 0 6 0 0"),
        "line 2, column 9: 'x' is not a digit, a letter or '.'",
    ),
    "value out of range": (
        replace_row(2, "1 9 0 0 8 0 0 4 10"),
        "line 3, column 17: value 10 is outside 1..9",
    ),
    "no box shape": (
        "0 0 0 0 0\n" * 5,
        "line 1: a 5x5 board has no boxes (5 is prime): give it jigsaw regions",
    ),
    "conflicting givens": (
        replace_row(0, "0 6 8 0 0 0 9 3 6"),
        "line 1: row 1 has 6 twice (r1c2, r1c9)",
    ),
    "empty input": ("\n\n", "empty input"),
    "line with a symbol": (GOOD_LINE[:-1] + "*\n", "line 1, column 81: '*' is not a digit"),
    "line letter too big": (
        GOOD_LINE[:-1] + "A\n",
        "line 1, column 81: value 10 ('A') is outside 1..9",
    ),
    "line wrong length": (GOOD_LINE[:-1] + "\n", "line 1: 80 cells; a line puzzle has N*N cells"),
    "a value of 5000 digits": (
        replace_row(2, "1 9 0 0 8 0 0 4 " + "7" * 5000),
        "line 3, column 17: value 777777777777... (5000 digits) is no cell's value",
    ),
    "a sum of 5000 digits": (
        "# rules: killer\n" + "." * 16 + " cages=aabbccddeeffgghh sums=3,7," + "1" * 5000 + "\n",
        "line 2: sum 111111111111... is larger than any cage can add up to",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_input_gives_one_line_and_exit_2(cli, case):
    text, message = CASES[case]
    run = cli("solve", stdin=text)
    assert run.code == 2
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.err
    assert message in lines[0]


def test_unknown_backend_names_the_valid_ones(cli):
    run = cli("solve", "--backend", "magic", stdin=BOJ2580_IN)
    assert run.code == 2
    assert run.err.strip() == (
        f"sudoku: unknown backend 'magic'; choose from {', '.join(registry.names())}"
    )
    assert "dfs, " in run.err and "pysat" in run.err


def test_unknown_backend_option_is_named(cli):
    run = cli("solve", "--backend", "sat", "--option", "encoding=fancy", stdin=BOJ2580_IN)
    assert run.code == 2
    assert "encoding=fancy is not one of reduced, extended, minimal" in run.err


def test_missing_file_is_a_message_not_a_traceback(cli, tmp_path):
    run = cli("solve", str(tmp_path / "nope.txt"))
    assert run.code == 2 and "cannot read" in run.err and "Traceback" not in run.err


def test_bad_line_in_a_file_is_reported_and_the_others_solved(cli):
    text = f"{GOOD_LINE}\n{GOOD_LINE[:40]}\n# comment\n{GOOD_LINE.replace('4', '.', 1)}x\n"
    run = cli("solve", "--backend", "sat", stdin=text)
    assert run.code == 2
    assert len(run.out.splitlines()) == 1  # the one good puzzle is solved
    assert "line 2: 40 cells" in run.err and "line 4: 82 cells" in run.err


def test_box_that_does_not_fit(cli):
    run = cli("solve", "--box", "2x3", stdin=BOJ2580_IN)
    assert run.code == 2 and "box 2x3 does not fit a 9x9 board" in run.err


def test_usage_error_exit_2(cli):
    assert cli("solve", "--timeout", "soon").code == 2


def _fpuzzles(**keys: object) -> str:
    grid = [[{} for _ in range(4)] for _ in range(4)]
    return json.dumps({"size": 4, "grid": grid, **keys}) + "\n"


# Python's int() and \d read any script's digits: Arabic-Indic and full-width ones here.
ONE, THREE = "\u0661", "\u0663"  # Arabic-Indic
WIDE_THREE, WIDE_FOUR = "\uff13", "\uff14"  # full width
OTHER_DIGITS = {
    "grid value": (
        f"{ONE} 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n",
        f"'{ONE}' (U+0661) is not a digit",
    ),
    "line value": (WIDE_THREE + "." * 15 + "\n", f"'{WIDE_THREE}' (U+FF13) is not a digit"),
    "constraint cell": (
        f"# rules: thermometer r1c2 r{THREE}c1\n" + "." * 16 + "\n",
        f"'r{THREE}c1' is not a cell such as r1c2",
    ),
    "constraint total": (
        f"# rules: killercage r1c1 r1c2 total={WIDE_THREE}\n" + "." * 16 + "\n",
        f"total='{WIDE_THREE}': '{WIDE_THREE}' is not a whole number",
    ),
    "f-puzzles clue": (
        _fpuzzles(killercage=[{"cells": ["R1C1", "R1C2"], "value": THREE}]),
        f"the clue at R1C1 has value '{THREE}', not a number",
    ),
    "f-puzzles cell": (
        _fpuzzles(killercage=[{"cells": ["R1C1", f"R{ONE}C2"], "value": "3"}]),
        f"'R{ONE}C2' is not a cell of the 4x4 grid",
    ),
    "f-puzzles size": (_fpuzzles(size=WIDE_FOUR), f"size is '{WIDE_FOUR}', not a number"),
}


@pytest.mark.parametrize("case", OTHER_DIGITS, ids=list(OTHER_DIGITS))
def test_digits_of_other_scripts_are_refused_where_numbers_are_read(cli, case):
    text, says = OTHER_DIGITS[case]
    done = cli("count", stdin=text)
    assert done.code == 2 and not done.out
    (line,) = done.err.splitlines()
    assert says in line and "line " in line


@pytest.mark.parametrize("option", ["--limit", "--timeout"])
def test_digits_of_other_scripts_are_refused_in_options(cli, capsys, option):
    done = cli("count", option, WIDE_THREE, stdin=GOOD_LINE + "\n")
    assert done.code == 2 and not done.out
    assert f"argument {option}: '{WIDE_THREE}' is not a" in capsys.readouterr().err


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (600 << 20, 600 << 20))


def test_a_line_with_no_end_is_named_without_holding_it_in_memory():
    # 400 MB with no line break, under a 600 MB address-space limit: one line's error, and
    # the puzzle after it answered
    feed = f"head -c 400000000 /dev/zero | tr '\\0' x; printf '\\n{GOOD_LINE}\\n'"
    source = subprocess.Popen(["sh", "-c", feed], stdout=subprocess.PIPE)
    done = subprocess.run(
        [sys.executable, "-m", "solvers", "count", "-"],
        stdin=source.stdout,
        capture_output=True,
        text=True,
        preexec_fn=_limited,
    )
    source.stdout.close()
    source.wait()
    assert done.returncode == 2, done.stderr
    message = "line 1: over 1,000,000 characters: no puzzle is that long"
    assert done.stderr == f"sudoku: {message}\n"
    assert done.stdout == "1\n"


@pytest.mark.parametrize("command", ["solve /dev/zero", "count -"])
def test_dev_zero_ends_with_a_message(command):
    # /dev/zero has no line end: reading it to one never ends; its NUL bytes say it is no text
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [sys.executable, "-m", "solvers", *command.split()],
            stdin=zeros,
            capture_output=True,
            text=True,
            preexec_fn=_limited,
            timeout=60,
        )
    assert done.returncode == 2 and not done.stdout
    message = "line 1: NUL bytes and no line end in 1,000,000 characters: this is no text file"
    assert done.stderr == f"sudoku: {message}\n"


def test_a_line_past_the_limit_is_named_at_once():
    # the message comes as soon as the limit is passed, while the line is still coming
    # (a backend named: the default choice reads a few puzzles ahead)
    feed = subprocess.Popen(
        [sys.executable, "-m", "solvers", "count", "-", "--backend", "sat"],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    feed.stdin.write(f"{GOOD_LINE}\n".encode() + b"7" * 1_100_000)
    feed.stdin.flush()
    said, _, _ = select.select([feed.stderr], [], [], 60)  # the line has no end yet
    first = feed.stderr.readline() if said else b"nothing within 60 s"
    feed.stdin.close()
    feed.wait(timeout=60)
    assert first == b"sudoku: line 2: over 1,000,000 characters: no puzzle is that long\n"


def test_an_f_puzzles_link_among_line_puzzles_is_named_as_one(cli):
    link = (ROOT / "examples" / "fpuzzles.txt").read_text().splitlines()[-1]
    assert link.startswith("https://www.f-puzzles.com/")
    done = cli("count", stdin=f"{GOOD_LINE}\n{link}\n{GOOD_LINE}\n")
    assert done.code == 2 and done.out == "1\n1\n"
    assert done.err == (
        "sudoku: line 2: an f-puzzles puzzle in a file of line puzzles (its first puzzle says "
        "which): put the links in a file of their own\n"
    )


def test_an_iss_puzzle_among_line_puzzles_and_a_line_puzzle_among_iss_ones_are_named(cli):
    # before: the first was "an f-puzzles puzzle", the second "the f-puzzles payload holds '.'"
    iss = ".~R1C1_1~R1C3_3"
    done = cli("count", stdin=f"{GOOD_LINE}\n{iss}\n{GOOD_LINE}\n")
    assert done.code == 2 and done.out == "1\n1\n"
    assert done.err == (
        "sudoku: line 2: an ISS puzzle in a file of line puzzles (its first puzzle says "
        "which): put the links in a file of their own\n"
    )
    done = cli("count", "--limit", "1", stdin=f"{iss}\n{GOOD_LINE}\n{iss}\n")
    assert done.code == 2 and done.out == "1\n1\n"
    assert done.err == (
        "sudoku: line 2: a line puzzle in a file of f-puzzles or ISS puzzles (its first puzzle "
        "says which): put the line puzzles in a file of their own\n"
    )


def test_an_empty_or_overlong_file_argument_is_named_in_one_short_line(cli):
    # before: '' was named 'input', and a mistyped board of 100,000 symbols said whole
    done = cli("solve", "")
    assert done.code == 2
    assert done.err == "sudoku: cannot read '' (an empty path): No such file or directory\n"
    done = cli("solve", "." * 100_000)
    assert done.code == 2
    assert done.err.startswith("sudoku: cannot read " + "." * 40 + "... (a path of 100,000 ")
    assert len(done.err) < 200


def test_a_board_argument_a_cell_short_is_named_as_a_board_too(cli, tmp_path):
    # before: 'cannot read 2....7.9...: No such file or directory' alone, as if a file were meant
    done = cli("solve", GOOD_LINE[:-1])
    assert (done.code, done.out) == (2, "")
    assert done.err == (
        f"sudoku: cannot read {GOOD_LINE[:-1]}: No such file or directory (nor a board: 80 "
        "cells, and a line puzzle has N*N for N in 4..25)\n"
    )
    done = cli("solve", str(tmp_path / "puzzles.txt"))  # a file's name says no more
    assert done.err.endswith("puzzles.txt: No such file or directory\n")
