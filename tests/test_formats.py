"""Reading and writing boards: the two write-ups' examples, every format, every shape."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import BOJ2239_IN, BOJ2239_OUT, BOJ2580_IN, BOJ2580_OUT, as_lines

from solvers import Board, InputError, Shape, format_board, parse, read_puzzles, solve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def strip_trailing(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def test_boj2580_spaced_example_gives_exactly_its_answer(cli):
    run = cli("solve", stdin=BOJ2580_IN)
    assert run.code == 0, run.err
    assert strip_trailing(run.out) == BOJ2580_OUT


def test_boj2239_compact_example_gives_exactly_its_answer(cli):
    run = cli("solve", stdin=as_lines(BOJ2239_IN))
    assert run.code == 0, run.err
    assert run.out == as_lines(BOJ2239_OUT)


def test_output_form_can_be_chosen(cli):
    run = cli("solve", "--format", "line", stdin=as_lines(BOJ2239_IN))
    assert run.out == BOJ2239_OUT.replace(" ", "") + "\n"
    run = cli("solve", "--format", "compact", stdin=BOJ2580_IN)
    assert run.out.split() == [row.replace(" ", "") for row in BOJ2580_OUT.splitlines()]


def test_line_format_takes_dots_zeros_comments_and_fields():
    puzzle = BOJ2239_IN.replace(" ", "")
    solution = BOJ2239_OUT.replace(" ", "")
    text = (
        "# a comment\n\nquizzes,solutions\n"
        f"{puzzle},{solution}\n"
        f"{puzzle.replace('0', '.')}:1:{solution}\n"
        f"{puzzle}\n"
    )
    items = list(read_puzzles(text.splitlines()))
    assert [p.line for p in items] == [4, 5, 6]
    assert items[0].board == items[1].board == items[2].board
    assert items[0].known_solution == items[1].known_solution == parse(solution)
    assert items[2].known_solution is None


def test_line_format_reads_letters_in_either_case_for_16x16(puzzles):
    text = format_board(puzzles["16x16"], "line")
    assert any(ch.isalpha() for ch in text)
    assert parse(text) == parse(text.lower()) == puzzles["16x16"]


@pytest.mark.parametrize("name, box", [("4x4", "2x2"), ("6x6", "2x3"), ("16x16", "4x4")])
@pytest.mark.parametrize("fmt", ["spaced", "compact", "line"])
def test_round_trip_parse_solve_format(puzzles, name, box, fmt):
    board = puzzles[name]
    if fmt == "compact" and board.size > 9:
        with pytest.raises(InputError, match="compact format holds boards up to 9x9"):
            format_board(board, fmt)
        return
    text = format_board(board, fmt)
    read = parse(text)
    assert read == board and str(read.shape) == box
    solution = solve(read, "sat").solution
    assert parse(format_board(solution, fmt)) == solution


def test_12x12_with_3x4_boxes_round_trips_through_the_cli(cli):
    import random

    from corpus import unique_puzzle

    board = unique_puzzle(Shape.parse("3x4"), random.Random(12), keep=90)
    run = cli("solve", "--backend", "sat", stdin=format_board(board, "spaced"))
    assert run.code == 0, run.err
    solution = parse(run.out)
    assert solution.shape == Shape(3, 4) and solution.is_complete()
    assert all(g in (0, v) for g, v in zip(board.cells, solution.cells, strict=True))


def test_box_shape_follows_the_size_and_can_be_overridden():
    assert [str(Shape.for_size(n)) for n in (4, 6, 8, 9, 12, 16, 25)] == [
        "2x2",
        "2x3",
        "2x4",
        "3x3",
        "3x4",
        "4x4",
        "5x5",
    ]
    board = parse("0" * 36, shape=Shape.parse("3x2"))
    assert board.shape == Shape(3, 2)
    assert len(board.geometry.boxes[0]) == 6


def test_units_and_peers_are_those_of_the_shape():
    g = Shape(2, 3).geometry
    assert g.boxes[0] == (0, 1, 2, 6, 7, 8)
    # (N-1) in the row, (N-1) in the column, (r-1)(c-1) more in the box
    assert all(len(p) == 5 + 5 + 1 * 2 for p in g.peers)
    g9 = Shape(3, 3).geometry
    assert len(g9.units) == 27 and all(len(p) == 20 for p in g9.peers)


def test_board_is_an_immutable_value():
    board = Board.empty(Shape(2, 2))
    with pytest.raises(AttributeError):
        board.cells = ()
    assert board == Board.empty(Shape(2, 2)) and hash(board) == hash(Board.empty(Shape(2, 2)))


MARKED = {  # Windows Notepad's "Unicode" and "Unicode big endian": UTF-16 with its BOM, CRLF
    "utf-16-le": b"\xff\xfe",
    "utf-16-be": b"\xfe\xff",
    "utf-32-le": b"\xff\xfe\x00\x00",  # starts as UTF-16-LE's mark does
    "utf-32-be": b"\x00\x00\xfe\xff",
}


def marked_copy(source: Path, encoding: str, folder: Path) -> Path:
    text = source.read_text(encoding="utf-8").replace("\n", "\r\n")
    copy = folder / f"{encoding}-{source.name}"
    copy.write_bytes(MARKED[encoding] + text.encode(encoding))
    return copy


@pytest.mark.parametrize("encoding", MARKED)
@pytest.mark.parametrize(
    "example, command",
    [
        ("puzzles.txt", ["solve"]),
        ("puzzles.txt", ["count", "--jobs", "2"]),  # the bulk path's reader of a line file
        ("boj2580.txt", ["solve"]),
        ("fpuzzles.json", ["solve"]),
        ("variants.txt", ["count"]),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else value,
)
def test_a_utf16_or_utf32_file_reads_as_its_utf8_original(
    cli, tmp_path, encoding, example, command
):
    original = EXAMPLES / example
    utf8 = cli(*command, str(original))
    utf16 = cli(*command, str(marked_copy(original, encoding, tmp_path)))
    assert utf8.out  # its bad lines are named alike: the example holds some
    assert (utf16.code, utf16.out, utf16.err) == (utf8.code, utf8.out, utf8.err)


@pytest.mark.parametrize("encoding", MARKED)
def test_utf16_on_standard_input_reads_as_its_utf8_original(tmp_path, encoding):
    copy = marked_copy(EXAMPLES / "puzzles.txt", encoding, tmp_path)
    runs = [
        subprocess.run(
            [sys.executable, "-m", "solvers", "solve", "-"],
            stdin=source.open("rb"),
            capture_output=True,
            text=True,
            timeout=120,
        )
        for source in (EXAMPLES / "puzzles.txt", copy)
    ]
    assert runs[0].stdout
    utf8, utf16 = ((run.returncode, run.stdout, run.stderr) for run in runs)
    assert utf16 == utf8


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-32-be"])
def test_check_counts_a_utf16_files_puzzles_as_its_utf8_originals(cli, tmp_path, encoding):
    # more than 10 puzzles: check's defaults for a large file, which a miscount of one puzzle
    # would swap for every backend's
    line = cli("convert", str(EXAMPLES / "boj2580.txt"), "--to", "line").out
    original = tmp_path / "twelve.txt"
    original.write_text(line * 12, encoding="utf-8")
    utf8 = cli("check", str(original), "--timeout", "5")
    utf16 = cli("check", str(marked_copy(original, encoding, tmp_path)), "--timeout", "5")
    assert "for more than 10 puzzles" in utf8.err.splitlines()[0]
    assert (utf16.code, utf16.out, utf16.err) == (utf8.code, utf8.out, utf8.err)
