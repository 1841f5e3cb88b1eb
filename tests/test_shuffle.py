"""Shuffled copies of a puzzle: valid, reproducible, and every answer maps back exactly."""

from __future__ import annotations

import random

import corpus
import pytest
from corpus import variant

from solvers import Board, Shape, count_solutions, solve
from solvers.generation.shuffle import copies, random_transform

SHAPES = {"2x2": None, "2x3": None, "3x2": None, "3x3": None, "3x4": 80, "4x4": 150}


@pytest.mark.parametrize("box", SHAPES)
def test_each_shuffled_copy_solves_to_the_puzzles_solution_mapped(box):
    shape = Shape.parse(box)
    puzzle = corpus.unique_puzzle(shape, random.Random(3), keep=SHAPES[box])
    solution = solve(puzzle, "native").solution
    rng = random.Random(box)
    for _ in range(6):
        transform = random_transform(shape, rng)
        copy = transform.forward(puzzle)
        assert copy.givens() == puzzle.givens() and not copy.conflicts()
        assert count_solutions(copy, 2, "pysat") == 1
        assert transform.back(copy) == puzzle
        assert transform.back(solve(copy, "native").solution) == solution


def test_a_transpose_is_drawn_only_for_square_boxes():
    rng = random.Random(0)
    flips = {
        box: {random_transform(Shape.parse(box), rng).transpose for _ in range(40)}
        for box in SHAPES
    }
    assert flips["3x3"] == flips["2x2"] == flips["4x4"] == {True, False}
    assert flips["2x3"] == flips["3x2"] == flips["3x4"] == {False}


def test_copies_are_reproducible_by_seed_and_line():
    board = corpus.unique_puzzle(Shape(3, 3), random.Random(1))
    assert copies(board, 3, seed=1, line=7) == copies(board, 3, seed=1, line=7)
    assert copies(board, 3, seed=1, line=7)[:2] == copies(board, 2, seed=1, line=7)
    assert copies(board, 3, seed=1, line=7) != copies(board, 3, seed=2, line=7)
    assert copies(board, 3, seed=1, line=7) != copies(board, 3, seed=1, line=8)


def test_a_board_with_variant_rules_is_left_unshuffled():
    board = Board.empty(Shape(3, 3), variant(Shape(3, 3), "x"))
    assert copies(board, 3, seed=1, line=1) == []
