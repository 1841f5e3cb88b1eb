"""Explain on sigh's ISS killers with cages of no total (ISS's 0 cage): with the cage read as
cells that differ, explain finishes them with no search, and the grid it fills keeps every
rule (the verifier's word). The puzzles stay outside the project (the ``iss`` fixture,
tests/iss_puzzles.py, says where they are read from); without them these tests skip."""

from __future__ import annotations

import pytest

from solvers.strength import human
from solvers.strength.grid import outcome
from solvers.strength.rating import prepared


@pytest.mark.parametrize("name", ["Killer sudoku [0 cage]", "Killer sudoku [alldiff]"])
def test_explain_finishes_a_killer_with_a_cage_of_no_total(iss, name):
    board = iss(name)
    assert any(c.kind == "killercage" and c.param("total") is None for c in board.rules.constraints)
    grid = prepared(board)
    taken = [step.where for step in human.steps(grid)]
    assert outcome(board, grid.candidates).solved
    assert any("with no total" in where for where in taken)
