"""The reference backend: the write-ups' answers, lexicographic order, deadlines, stats."""

from __future__ import annotations

import time

import pytest
from conftest import BOJ2239_IN, BOJ2239_OUT
from corpus import all_solutions

from solvers import Board, Shape, Status, count_solutions, parse, solve


def test_boj2239_answer_from_the_library():
    rows = [[int(ch) for ch in row] for row in BOJ2239_IN.split()]
    result = solve(rows, "dfs")  # a list of rows, as the write-ups keep the board
    assert result.status is Status.SOLVED and result.backend == "dfs"
    assert result.solution == parse("\n".join(BOJ2239_OUT.split()))
    # the write-ups' search on this board: 187 placements, 136 of them undone
    assert result.stats == {"nodes": 187, "backtracks": 136}


def test_dfs_returns_the_lexicographically_smallest_of_several(puzzles):
    for name in ("several-9x9", "several-4x4"):
        board = puzzles[name]
        every = all_solutions(board)
        assert len(every) >= 2
        assert solve(board, "dfs").solution == min(every, key=lambda b: b.cells)


def test_empty_board_gives_the_smallest_grid():
    solution = solve(Board.empty(Shape(2, 2)), "dfs").solution
    assert solution.rows() == [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]


def test_dfs_counts_up_to_the_limit(puzzles):
    assert count_solutions(puzzles["several-4x4"], 5, "dfs") == 5
    assert count_solutions(puzzles["4x4"], 5, "dfs") == 1
    assert count_solutions(puzzles["no-solution-6x6"], 2, "dfs") == 0


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
def test_dfs_deadline_holds(puzzles):
    hard = puzzles["16x16-minimal"]  # far out of the row-major DFS's reach
    start = time.perf_counter()
    result = solve(hard, "dfs", timeout=0.3)
    assert result.status is Status.TIMEOUT and result.stats["nodes"] > 0
    assert time.perf_counter() - start < 2.0
