"""Explain on sigh's ISS killers with cages of no total (ISS's 0 cage): with the cage read as
cells that differ, explain finishes them with no search, and the grid it fills keeps every
rule (the verifier's word). The puzzles stay outside the project (``bench/iss.py --out
/tmp/iss.txt``); without them these tests skip."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from solvers.formats.boards import read_puzzles
from solvers.model.board import Board
from solvers.strength import human
from solvers.strength.grid import outcome
from solvers.strength.rating import prepared

ISS = Path("/tmp/iss.txt")


def iss(name: str) -> Board:
    """The ISS puzzle of that name: its comment line and its board, read together."""
    lines = ISS.read_text().splitlines()
    at = next(k for k, line in enumerate(lines) if line.endswith(f": {name}"))
    (puzzle,) = read_puzzles(io.StringIO("\n".join(lines[at : at + 2]) + "\n"))
    return puzzle.board


@pytest.mark.skipif(not ISS.exists(), reason="no /tmp/iss.txt (ISS's puzzles)")
@pytest.mark.parametrize("name", ["Killer sudoku [0 cage]", "Killer sudoku [alldiff]"])
def test_explain_finishes_a_killer_with_a_cage_of_no_total(name):
    board = iss(name)
    assert any(c.kind == "killercage" and c.param("total") is None for c in board.rules.constraints)
    grid = prepared(board)
    taken = [step.where for step in human.steps(grid)]
    assert outcome(board, grid.candidates).solved
    assert any("with no total" in where for where in taken)
