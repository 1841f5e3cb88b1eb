"""The format of a source told from its first content line (``boards.detect``): a line of
digits, dots and blanks alone is a grid's row or a line puzzle without a look at the link and
section readers, and every line with anything else still meets them."""

from __future__ import annotations

import pytest

from solvers.formats.boards import detect, read_puzzles

ROW = "0 6 8 0 0 0 9 3 0"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (ROW, "spaced"),
        (". 6 8 . . . 9 3 .", "spaced"),
        ("0\t6\t8\t0\t0\t0\t9\t3\t0", "spaced"),
        ("068000930", "compact"),
        ("..8...93.", "compact"),
        ("." * 81, "line"),
        ("0" * 256, "line"),
        ("574", None),  # too short for any grid's row: the line's own error
        ("hello", None),
    ],
)
def test_a_line_of_digits_dots_and_blanks_is_told_by_its_shape(line, expected):
    assert detect(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (".Cage~10~R1C1~R1C2", "fpuzzles"),  # an ISS string starts with a dot, as a row can
        ("..AntiKnight", "fpuzzles"),
        ("https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbR", "fpuzzles"),
        ('{"size": 4, "grid": []}', "fpuzzles"),
        ("sums: 3 15", "spaced"),  # a killer grid's section, the grid left out
        ("constraints:", "spaced"),
        ("1 2 3 4 x", None),
    ],
)
def test_a_line_with_anything_else_still_meets_the_link_and_section_readers(line, expected):
    assert detect(line) == expected


def test_a_grid_file_read_whole_gives_the_board_of_its_rows():
    rows = ["4 . . 1", ". 1 4 .", ". 4 1 .", "1 . . 4"]
    (puzzle,) = read_puzzles(rows)
    assert puzzle.format == "spaced"
    assert puzzle.board.cells[:4] == (4, 0, 0, 1)
    assert puzzle.board.cells[-4:] == (1, 0, 0, 4)
