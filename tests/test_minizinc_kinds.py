"""The vocabulary in the MiniZinc model: for a board of each kind of ``sudoku kinds``, the model
``encode --to minizinc`` writes, run by the ``minizinc`` command itself with Gecode, prints the
line ``sudoku solve --format line`` prints. The boards are test_vocabulary's random 6x6 boards
(a few constraints of one kind), given givens of a solution until CP-SAT counts one solution
only, so that both print the same line. A few kinds, covering every primitive and both forms
of a table, run by default; all of them under ``heavy``."""

from __future__ import annotations

import random
import subprocess

import pytest
from test_minizinc import gecode, needs_minizinc, run_model
from test_vocabulary import OVERLAPPING, board_with

from solvers import Board, Shape, Status, count_solutions, solve
from solvers.formats.boards import format_puzzle
from solvers.formats.variant_text import header
from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.model import Constraint
from solvers.model.variants import Rules

# between them: AllDifferent (a pair and a line), Relation, Linear, Domain, a small Table, a
# large one (renban's table on 6x6 is over SMALL_TABLE tuples: a Boolean per row)
QUICK = {"anti-king", "difference", "thermometer", "odd", "betweenline", "renban", "arrow"}


def unique_board(name: str) -> Board:
    """A 6x6 board with constraints of kind ``name`` and one solution."""
    rng = random.Random(f"minizinc {name}")
    while True:
        board = board_with(name, Shape(2, 3), rng, givens=0.0)
        answer = solve(board, "cpsat")
        if answer.status is Status.SOLVED:
            break
    cells, solution = list(board.cells), answer.solution.cells
    for cell in rng.sample(range(36), 36):
        if count_solutions(board.with_cells(tuple(cells)), 2, "cpsat") == 1:
            break
        cells[cell] = solution[cell]
    return board.with_cells(tuple(cells))


@needs_minizinc
@pytest.mark.parametrize(
    "name", [pytest.param(k, marks=[] if k in QUICK else [pytest.mark.heavy]) for k in KINDS]
)
def test_the_model_of_each_kind_prints_the_projects_answer(cli, tmp_path, name):
    board = unique_board(name)
    text = f"{header(board.rules, 6)}\n{format_puzzle(board)}\n"
    printed, expected = run_model(cli, text, tmp_path)
    assert printed == expected


@needs_minizinc
def test_a_table_written_row_by_row_counts_each_solution_once(monkeypatch, tmp_path):
    # rows that overlap both hold on (1, 1) and (1, 2): a row Boolean that the cells did not
    # fix would count those twice
    import adapters.mzn

    monkeypatch.setattr(adapters.mzn, "SMALL_TABLE", 0)
    writer = adapters.mzn.ModelWriter(Board.empty(Shape(2, 2)))
    writer.table(OVERLAPPING.cells, OVERLAPPING.rows)
    for cell in range(2, 16):
        writer.domain(cell, {1})
    path = tmp_path / "table.mzn"
    path.write_text(writer.text(), encoding="utf-8")
    assert "exists(rows_1)" in writer.text() and "table_int(" not in writer.text()
    done = subprocess.run(
        gecode("--all-solutions", str(path)), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("----------") == 5  # 11 12 21 22 13


def test_the_model_names_the_rules_and_writes_each_primitive(cli):
    # no minizinc needed: what the model says, item by item
    rules = "thermometer r1c1 r1c2 r2c3; odd r4c4; difference r1c1 r2c1; renban r3c1 r3c2 r3c3"
    # the decomposition's primitives (the thermometer and renban have native models too)
    encode = ("encode", "--to", "minizinc", "--option", "model=decomposed")
    run = cli(*encode, stdin=f"# rules: {rules}\n{'.' * 16}\n")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    (named,) = [line for line in lines if line.startswith("% rules: ")]
    assert set(named.removeprefix("% rules: ").split("; ")) == set(rules.split("; "))
    assert "constraint cell[1, 1] - cell[1, 2] <= -1;" in lines  # thermometer
    assert "constraint cell[1, 2] - cell[2, 3] <= -1;" in lines
    assert "constraint cell[4, 4] in {1, 3};" in lines  # odd
    difference = "constraint table_int([cell[1, 1], cell[2, 1]], [| 1, 2 | 2, 1 | 2, 3 |"
    assert any(line.startswith(difference) for line in lines)
    renban = "constraint all_different_int([cell[3, 1], cell[3, 2], cell[3, 3]]) :: domain;"
    assert renban in lines
    assert 'include "table_int.mzn";' in lines and run.out.count("table_int([") == 2


@needs_minizinc
def test_the_backend_counts_a_board_whose_table_is_a_boolean_per_row_as_cpsat_does():
    # renban over five cells of a 6x6 row: the runs 1-5 and 2-6 are two rows of 3,125 tuples
    # each, so a Boolean per row (the rows overlap on 2-5, which the all-different rules out)
    renban = Constraint("renban", (0, 1, 2, 3, 4))
    board = Board.empty(Shape(2, 3), Rules(constraints=(renban,)))
    solution = solve(board, "cpsat").solution.cells
    rng = random.Random(21)
    blank = set(range(6)) | set(rng.sample(range(6, 36), 20))
    puzzle = board.with_cells(tuple(0 if i in blank else v for i, v in enumerate(solution)))
    expected = count_solutions(puzzle, 50, "cpsat")
    assert 1 < expected < 50  # 13 here, dfs agreeing
    assert count_solutions(puzzle, 50, "minizinc") == expected
