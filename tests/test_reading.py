"""Reading input whole or refusing it by name, on every path a user reaches it by: a file,
standard input, the bulk path (``--backend native`` on a line file), ``--jobs 2``, and the
library's ``read_puzzles``."""

from __future__ import annotations

import io
import json
import sys

import pytest
from conftest import CliRun

from solvers import InputError, read_puzzles
from solvers.backends.spec import BackendSpec
from solvers.cli.main import main
from solvers.formats.textfile import as_text

GOOD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
PATHS = {
    "file": ("FILE",),
    "stdin": ("-",),
    "jobs": ("FILE", "--jobs", "2"),
    "bulk": ("FILE", "--backend", "native"),
    "bulk-jobs": ("FILE", "--backend", "native", "--jobs", "2"),
}


@pytest.fixture
def sudoku(monkeypatch, tmp_path):
    """sudoku(command, path, data: bytes, *more) -> CliRun, the input in a file or on stdin."""

    def run(command: str, path: str, data: bytes, *more: str) -> CliRun:
        file = tmp_path / "input.txt"
        file.write_bytes(data)
        stdin = io.TextIOWrapper(io.BufferedReader(io.BytesIO(data)), encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", stdin)
        args = [str(file) if arg == "FILE" else arg for arg in PATHS[path]]
        out, err = io.StringIO(), io.StringIO()
        code = main([command, *args, *more], out, err)
        return CliRun(code, out.getvalue(), err.getvalue())

    return run


def library(tmp_path, data: bytes) -> list:
    file = tmp_path / "library.txt"
    file.write_bytes(data)
    with as_text(open(file, "rb")) as handle:
        return [
            str(item) if isinstance(item, InputError) else item for item in read_puzzles(handle)
        ]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    "junk, said",
    [
        ("hello", "line 1: 5 cells; a line puzzle has N*N cells"),
        ("574", "line 1: 3 cells; a line puzzle has N*N cells"),
        ("5 7 4", "line 1: "),
    ],
)
def test_a_short_junk_first_line_is_its_own_error_and_the_puzzles_after_it_are_answered(
    sudoku, tmp_path, path, junk, said
):
    data = f"{junk}\n{GOOD}\n{GOOD}\n".encode()
    done = sudoku("count", path, data)
    assert done.code == 2 and done.out == "1\n1\n", done.err
    (error,) = done.err.splitlines()
    assert error.startswith(f"sudoku: {said}")
    read = library(tmp_path, data)
    assert read[0].startswith(said) and [item.line for item in read[1:]] == [2, 3]


@pytest.mark.parametrize("path", PATHS)
def test_an_undecodable_byte_is_named_as_a_byte_and_cells_are_not_miscounted(
    sudoku, path, tmp_path
):
    bad = GOOD[:4].encode() + b"\xff\xfe\xfd" + GOOD[5:].encode()  # 3 bytes for one cell
    data = bad + b"\n" + GOOD.encode() + b"\n"
    done = sudoku("count", path, data)
    assert done.code == 2 and done.out == "1\n", done.err
    said = "line 1, column 5: byte 0xFF is not UTF-8: save the file as UTF-8"
    assert done.err == f"sudoku: {said}\n"
    assert library(tmp_path, data)[0] == said


@pytest.mark.parametrize("path", PATHS)
def test_a_line_past_a_line_puzzle_s_length_names_the_limit(sudoku, path):
    data = f"{GOOD} {'#' * 20_000}\n{GOOD}\n".encode()
    done = sudoku("count", path, data)
    assert done.code == 2 and done.out == "1\n"
    assert done.err == "sudoku: line 1: 20,082 characters: no line puzzle is longer than 16,384\n"


def _thermo_document(padding: int) -> str:
    """A 4x4 whose thermometer runs right to left along row 1 (so row 1 is 4 3 2 1), written
    over several lines, the thermometer's line padded to ``padding`` characters."""
    grid = json.dumps([[{} for _ in range(4)] for _ in range(4)])
    thermo = '"thermometer": ' + " " * padding + '[{"lines": [["R1C4", "R1C3", "R1C2", "R1C1"]]}]'
    return f'{{\n  "size": 4,\n  "grid": {grid},\n  {thermo}\n}}\n'


@pytest.mark.parametrize("path", ["file", "stdin", "jobs"])
def test_a_json_document_with_a_long_line_is_read_whole(sudoku, path, tmp_path):
    data = _thermo_document(37_000).encode()
    done = sudoku("solve", path, data, "--format", "line")
    assert done.code == 0, done.err
    assert done.out.startswith("4321")
    (puzzle,) = library(tmp_path, data)
    assert len(puzzle.board.rules.constraints) == 1


@pytest.mark.parametrize("path", ["file", "stdin"])
def test_a_json_document_with_a_line_past_every_limit_is_refused_whole(sudoku, path):
    data = _thermo_document(1_000_001).encode() + GOOD.encode() + b"\n"
    done = sudoku("solve", path, data, "--format", "line")
    assert done.code == 2 and not done.out.startswith("4321")
    assert "line 4: over 1,000,000 characters: no puzzle is that long" in done.err


@pytest.mark.parametrize("path", ["file", "stdin"])
def test_one_line_json_of_thirty_kilobytes_is_read(sudoku, path):
    document = json.loads(_thermo_document(0)) | {"title": "t" * 30_000}
    done = sudoku("solve", path, (json.dumps(document) + "\n").encode(), "--format", "line")
    assert done.code == 0 and done.out.startswith("4321"), done.err


def test_a_file_replaced_during_a_bulk_run_is_refused_not_spliced(tmp_path, monkeypatch):
    from solvers.run import linefile

    monkeypatch.setattr(linefile, "RANGE_BYTES", 700)  # many ranges
    path = tmp_path / "many.txt"
    path.write_text(f"{GOOD}\n" * 40)
    other = tmp_path / "other.txt"
    other.write_text(("1" + GOOD[1:] + "\n") * 40)
    pieces = linefile.ranges(str(path), 0)
    first = next(pieces)
    other.replace(path)
    job = linefile.Job("count", 2, "line", None, None, lambda board: None, BackendSpec("native"))
    answered = linefile.answer_range(job, next(pieces))
    assert linefile.answer_range(job, first).stopped is not None
    assert str(answered.stopped).endswith(
        "the file changed while it was read (replaced or written to): run again"
    )


@pytest.mark.parametrize(
    "command", ["solve", "count", "rate", "convert --to line", "encode", "explain", "strength"]
)
def test_a_board_given_as_the_argument_is_read_as_one(cli, command):
    done = cli(*command.split(), GOOD)
    assert done.code == 0, done.err
    assert "cannot read" not in done.err


def test_a_link_given_as_the_argument_is_read_as_one_and_a_file_of_that_name_wins(
    cli, tmp_path, monkeypatch
):
    from solvers.formats import fpuzzles_link

    link = fpuzzles_link.encode(json.loads(_thermo_document(0)))
    done = cli("solve", link, "--format", "line")
    assert done.code == 0 and done.out.startswith("4321"), done.err
    monkeypatch.chdir(tmp_path)
    (tmp_path / GOOD).write_text("1234\n")  # a path that exists is read as the file
    assert cli("count", GOOD).err == "sudoku: line 1: 1 rows, expected 4 for a 4x4 board\n"
    assert "cannot read nosuch.txt" in cli("count", "nosuch.txt").err


def test_standard_input_on_a_terminal_is_said_to_be_read(cli, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal(GOOD + "\n"))
    out, err = io.StringIO(), io.StringIO()
    assert main(["count"], out, err) == 0
    assert err.getvalue().startswith("sudoku: reading puzzles from standard input")


@pytest.fixture(scope="module")
def run_file(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("run") / "run.json"
    out, err = io.StringIO(), io.StringIO()
    command = ["compare", "small4", "--backends", "dfs", "--limit", "3", "--json", str(path)]
    assert main([*command, "--timeout", "30"], out, err) == 0, err.getvalue()
    return json.loads(path.read_text())


def test_a_run_file_with_a_byte_order_mark_is_read(cli, run_file, tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(run_file).encode())
    done = cli("report", str(path), "-o", str(tmp_path / "bom.html"))
    assert done.code == 0, done.err


@pytest.mark.parametrize(
    "change, said",
    [
        (("records", "puzzle", 0), "records[0].puzzle is 0: a puzzle's line counts from 1"),
        (("records", "copy", 5), "records[0].copy is 5: datasets[0] runs 1 copies"),
        (("datasets", "puzzles", 2), "datasets[0].puzzles is 2, but its records answer 3"),
    ],
)
def test_a_hand_edited_impossible_run_file_is_refused_naming_the_field(
    cli, run_file, tmp_path, change, said
):
    edited = json.loads(json.dumps(run_file))
    part, field, value = change
    edited[part][0][field] = value
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    done = cli("report", str(path), "-o", str(tmp_path / "edited.html"))
    assert done.code == 2 and said in done.err and len(done.err.splitlines()) == 1


@pytest.mark.parametrize("text", ["\x00\n", "\x00", "\x00\n\x00\n# a comment\n"])
def test_input_of_refused_lines_alone_is_said_once_a_line_and_not_called_empty(cli, text):
    run = cli("solve", stdin=text)
    lines = run.err.splitlines()
    assert run.code == 2
    assert lines and all("a NUL byte" in line for line in lines), run.err
    assert len(lines) == text.count("\x00")
