"""Every form the project writes reads back as the same puzzle: line, text, JSON, f-puzzles.

Random boards with random kinds of the vocabulary (one to three, on 4x4, 6x6 and 9x9, with or
without jigsaw regions) are written in each form ``sudoku convert`` writes and read back; a
kind f-puzzles cannot say is refused when written, in one line naming it, never lost.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_constraints import instance

from solvers import Board, InputError, Shape, read_puzzles
from solvers.constraints import KINDS
from solvers.formats import Puzzle, variant_text
from solvers.formats.writing import FORMS, written
from solvers.tools.layouts import random_regions
from solvers.variants import Rules


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
