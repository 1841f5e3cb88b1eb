"""Every form the project writes reads back as the same puzzle: line, text, JSON, f-puzzles.

Random boards with random kinds of the vocabulary (one to three, on 4x4, 6x6 and 9x9, with or
without jigsaw regions) are written in each form ``sudoku convert`` writes and read back; a
kind f-puzzles cannot say is refused when written, in one line naming it, never lost.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_constraints import instance

from solvers import Board, InputError, Shape, read_puzzles
from solvers.formats import variant_text
from solvers.formats.boards import Puzzle
from solvers.formats.writing import FORMS, written
from solvers.generation.layouts import random_regions
from solvers.model.constraints.kinds import KINDS
from solvers.model.variants import Rules


def board_of(kinds: list[str], shape: Shape, seed: int, jigsaw: bool) -> Board | None:
    rng = random.Random(seed)
    n = shape.size
    constraints = tuple(instance(kind, n, rng) for kind in kinds for _ in range(rng.randint(1, 2)))
    regions = random_regions(shape, rng) if jigsaw else None
    cells = tuple(rng.randint(0, n) if rng.random() < 0.2 else 0 for _ in range(n * n))
    try:
        return Board(shape, cells, Rules(regions, constraints))
    except InputError:  # a kind that reads boxes, on a jigsaw board
        return None


def read_back(text: str) -> Board:
    (item,) = list(read_puzzles(text.splitlines()))
    if isinstance(item, InputError):
        raise item
    return item.board


def round_trip(board: Board, form: str) -> Board | None:
    """The board written in ``form`` and read back; None where the form cannot say it."""
    try:
        text = written(Puzzle(board, 1, "line"), form)
    except InputError as error:
        assert form == "fpuzzles", (form, str(error))
        assert "f-puzzles" in str(error) or "cannot" in str(error), str(error)
        return None
    if form == "line":
        text = variant_text.header(board.rules, board.size) + "\n" + text
    return read_back(text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=3),
    st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 3)]),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_every_form_reads_back_the_same_puzzle(kinds, shape, seed, jigsaw):
    board = board_of(kinds, shape, seed, jigsaw)
    if board is None:
        return
    for form in FORMS:
        back = round_trip(board, form)
        if back is not None:
            assert back == board, (form, board.rules.label)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_kind_reads_back_from_every_form(name):
    board = board_of([name], Shape(3, 3), sum(map(ord, name)), jigsaw=False)
    assert board is not None
    said = {form: round_trip(board, form) for form in FORMS}
    assert all(back == board for back in said.values() if back is not None), name
    assert said["line"] == said["text"] == said["json"] == board


# What ``sudoku convert`` writes reads back as the same puzzle through the command itself,
# for what the forms above do not draw: a known solution, boxes of another shape than the
# size's own, a board without boxes, a size f-puzzles has no grid for.

SIX_BY_THREE_TWO = "........1..4...4523......2.1..6.3.2."  # unique with 3x2 boxes, none with 2x3
KNOWN = (
    "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7,"
    "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
)
FIVE_JIGSAW = "# rules: jigsaw\n.....4.............35.2.4 regions=AAAAABBBBCDDDBCDDEECEEECC\n"


def converted(cli, tmp_path, source: str, form: str, *options: str) -> str:
    """The file ``sudoku convert --to form`` writes from ``source``'s text."""
    given = tmp_path / "given.txt"
    given.write_text(source)
    done = cli("convert", str(given), *options, "--to", form)
    assert done.code == 0, done.err
    return done.out


@pytest.mark.parametrize("form", ["line", "text", "fpuzzles", "json"])
def test_a_board_read_with_box_converts_to_the_same_puzzle(cli, tmp_path, form):
    assert cli("count", "--box", "3x2", stdin=SIX_BY_THREE_TWO + "\n").out == "1\n"
    written = tmp_path / "written.txt"
    written.write_text(converted(cli, tmp_path, SIX_BY_THREE_TWO + "\n", form, "--box", "3x2"))
    back = cli("count", str(written), "--backend", "dfs")
    assert (back.code, back.out) == (0, "1\n"), back.err


@pytest.mark.parametrize("form", ["line", "fpuzzles", "json"])
def test_convert_keeps_the_known_solution(cli, tmp_path, form):
    written = converted(cli, tmp_path, KNOWN + "\n", form)
    (puzzle,) = read_puzzles(written.splitlines())
    assert isinstance(puzzle, Puzzle) and puzzle.known_solution is not None
    assert "".join(map(str, puzzle.known_solution.cells)) == KNOWN.split(",")[1]


def test_convert_to_text_names_the_known_solution_it_leaves_out(cli):
    done = cli("convert", "--to", "text", stdin=KNOWN + "\n")
    assert done.code == 0
    assert done.err == (
        "sudoku: left out the known solution: the text form has no place for it "
        "(--to json keeps every part)\n"
    )


def test_a_json_record_of_a_board_without_boxes_reads_back(cli, tmp_path):
    record = converted(cli, tmp_path, FIVE_JIGSAW, "json")
    assert '"box": null' in record
    back = cli("convert", "--to", "line", stdin=record)
    assert (back.code, back.out, back.err) == (0, FIVE_JIGSAW, "")


def test_a_board_f_puzzles_has_no_grid_for_is_refused_in_one_line(cli):
    cells = "".join(
        "ABCDEFGHIJKLMNOP123456789"[(5 * (r % 5) + r // 5 + c) % 25]
        for r in range(25)
        for c in range(25)
    )
    done = cli("convert", "--to", "fpuzzles", stdin=cells + "\n")
    assert (done.code, done.out) == (2, "")
    assert done.err == (
        "sudoku: line 1: a 25x25 board cannot be written as f-puzzles, whose boards go from "
        "4x4 to 16x16 (write it --to line, --to text or --to json)\n"
    )


def test_a_box_kind_on_boxes_f_puzzles_does_not_draw_is_refused_when_written(cli):
    """f-puzzles draws 2x3 boxes on 6x6: a 3x2 board goes there as regions, on which disjoint
    groups have no positions; written anyway, the link would not read back."""
    source = f"# rules: disjointgroups box=3x2\n{SIX_BY_THREE_TWO}\n"
    done = cli("convert", "--box", "3x2", "--to", "fpuzzles", stdin=source)
    assert (done.code, done.out) == (2, "")
    assert done.err == (
        "sudoku: line 2: disjointgroups reads 3x2 boxes, and f-puzzles draws only 2x3 ones on "
        "6x6: it cannot be written as f-puzzles (write it --to line, --to text or --to json)\n"
    )


@pytest.mark.parametrize(
    "fields, said",
    [
        ({"size": 4}, "the JSON record's size 4 does not match its 9x9 puzzle"),
        ({"constraints": "x"}, "the JSON record's constraints are not a list of texts"),
        ({"solution": "123"}, "the JSON record's solution is not a line as long as its puzzle"),
    ],
)
def test_a_json_record_that_contradicts_itself_is_named(cli, fields, said):
    record = {"size": 9, "puzzle": KNOWN.split(",")[0]} | fields
    done = cli("convert", "--to", "line", stdin=json.dumps(record) + "\n")
    assert (done.code, done.out, done.err) == (2, "", f"sudoku: line 1: {said}\n")
