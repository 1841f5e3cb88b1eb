"""``native`` on boards with constraints of the vocabulary: the constrained kernel's
propagators (a puzzle the constraints force is solved with no guess), its own check of the
primitives, the bulk path (one puzzle at a time, never without the constraints), and its
lazy loading (a classic run never loads it). The kernel's counts against dfs on every kind
are in test_vocabulary.py."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from test_vocabulary import board_with

from solvers import Board, Shape, count_solutions, solve, solve_many
from solvers.backends.batch import Flag
from solvers.backends.handwritten.native.constrained import _holds
from solvers.backends.handwritten.native.solver import Solver
from solvers.backends.handwritten.native.tables import plan_for
from solvers.formats.datasets import DATASETS
from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.text import parse_constraint
from solvers.model.variants import Rules
from solvers.run.runner import Runner


def constraints(text: str, n: int) -> tuple[Constraint, ...]:
    return tuple(parse_constraint(part.strip(), n) for part in text.split(";"))


# An empty 4x4 board that five thermometers force, reasoning as follows. Row 1 climbs 1-2-3-4
# (four strictly increasing values of 1..4); r2c3 < r2c4 take 1, 2 (what box 2 leaves them),
# so r2c1 < r2c2 take 3, 4; column 1 has 1 and 3, so r3c1 < r4c1 are 2, 4; column 2 has 2 and
# 4, so r3c2 < r4c2 are 1, 3; singles fill the rest. Only bounds reasoning on the thermometers'
# sums (linear rows) and the units' singles are needed: not one guess.
THERMOMETERS = (
    "thermometer r1c1 r1c2 r1c3 r1c4; thermometer r2c3 r2c4; thermometer r2c1 r2c2; "
    "thermometer r3c1 r4c1; thermometer r3c2 r4c2"
)
FORCED = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


def forced_board() -> Board:
    return Board.empty(Shape(2, 2), Rules(constraints=constraints(THERMOMETERS, 4)))


def test_a_puzzle_the_constraints_force_is_solved_without_a_guess():
    board = forced_board()
    found, first, stats = Solver().search(plan_for(board), bytes(board.cells), 2, None)
    assert (found, tuple(first.tolist())) == (1, FORCED)
    assert stats["guesses"] == 0


def root(board: Board) -> list[int]:
    """The candidates of each cell once the root is propagated (values, as sets)."""
    solver, plan = Solver(), plan_for(board)
    solver.search(plan, bytes(board.cells), 1, None)
    row = solver.workspace(plan).state[0]  # depth 0: the root, kept as the search went on
    return [{v for v in range(1, 5) if row[cell] >> (v - 1) & 1} for cell in range(16)]


@pytest.mark.parametrize(
    "text, givens, cell, value",
    [
        # a relation: a ratio dot beside a 1 leaves only 2
        ("ratio r1c1 r1c2", {0: 1}, 1, 2),
        # a linear row: an XV sum of 5 with a 1 leaves only 4 (singles leave 2, 3, 4)
        ("xv r1c1 r2c1 sum=5", {0: 1}, 4, 4),
        # a table: a quadruple's 1 has one of its four cells left (singles leave 1 or 3)
        ("quadruple r1c2 r1c3 r2c2 r2c3 values=1", {1: 2, 2: 3, 6: 4}, 5, 1),
        # a domain: an even cell beside givens 2 and 3 in its box (singles leave 1 or 4)
        ("even r2c2", {0: 2, 1: 3}, 5, 4),
    ],
)
def test_each_primitive_narrows_the_root(text, givens, cell, value):
    cells = [0] * 16
    for where, given in givens.items():
        cells[where] = given
    board = Board(Shape(2, 2), tuple(cells), Rules(constraints=constraints(text, 4)))
    assert root(board)[cell] == {value}
    assert len(root(Board(Shape(2, 2), tuple(cells)))[cell]) > 1  # the constraint did it


def test_the_kernel_checks_every_primitive_of_its_solution():
    text = THERMOMETERS + "; ratio r4c3 r4c4; odd r1c1; quadruple r1c1 r1c2 r2c1 r2c2 values=4"
    plan = plan_for(Board.empty(Shape(2, 2), Rules(constraints=constraints(text, 4))))
    check = _holds.py_func  # the compiled check's own code, run by Python
    assert check(np.array(FORCED), plan.tables, plan.primitives)
    swapped = list(FORCED)  # the units still hold, the thermometer of row 1 does not
    swapped[0:4] = [2, 1, 4, 3]
    swapped[4:8] = [4, 3, 2, 1]
    swapped[8:12] = [1, 2, 3, 4]
    swapped[12:16] = [3, 4, 1, 2]
    assert not check(np.array(swapped), plan.tables, plan.primitives)
    plain = plan_for(Board.empty(Shape(2, 2), Rules(constraints=constraints("odd r1c1", 4))))
    assert not check(np.array(swapped), plain.tables, plain.primitives)  # r1c1 is 2


def puzzle_lines(name: str) -> list[tuple[str, str]]:
    """(rules, puzzle) of each puzzle of a shipped dataset with a ``# rules:`` header."""
    rules, found = "", []
    for line in DATASETS[name].open():
        if line.startswith("# rules:"):
            rules = line.removeprefix("# rules:").strip()
        elif line.strip() and not line.startswith("#"):
            found.append((rules, line.strip()))
    return found


def test_solve_many_keeps_the_constraints():
    rules, puzzle = puzzle_lines("thermo9")[0]
    board_rules = Rules(constraints=constraints(rules, 9))
    values = np.array([[0 if c == "." else int(c) for c in puzzle]] * 2, np.uint8)
    values[1] = 0  # the empty board under the same thermometers: many solutions
    found = solve_many(values, 2, rules=board_rules)
    assert found.flags.tolist() == [Flag.SOLVED, Flag.SOLVED]
    assert found.counts.tolist() == [1, 2]
    board = Board(Shape(3, 3), tuple(values[0].tolist()), board_rules)
    assert tuple(found.solutions[0].tolist()) == solve(board, "cpsat").solution.cells
    over = solve_many(values[1:], 10**12, rules=board_rules, each=0.05)  # counted for hours
    assert over.flags.tolist() == [Flag.UNFINISHED]


def test_a_line_file_of_constraint_puzzles_is_counted_with_its_constraints(cli, tmp_path):
    path = tmp_path / "arrows.txt"
    lines = [f"# rules: {rules}\n{puzzle}\n" for rules, puzzle in puzzle_lines("arrow9")[:3]]
    path.write_text("".join(lines))
    counted = cli("count", str(path), "--limit", "2", "--backend", "native")
    assert (counted.code, counted.out) == (0, "1\n1\n1\n")
    empty = lines[0].splitlines()[0] + "\n" + "." * 81 + "\n"  # arrows alone: not unique
    path.write_text(empty)
    assert cli("count", str(path), "--limit", "2", "--backend", "native").out == "2\n"


@pytest.mark.parametrize("name", ["thermo9", "arrow9", "kropki9", "xv9"])
def test_the_generated_sets_agree_with_cpsat(name):
    # the first three puzzles of a shipped set: native proves each unique, as CP-SAT does
    for rules, puzzle in puzzle_lines(name)[:3]:
        cells = tuple(0 if c == "." else int(c) for c in puzzle)
        board = Board(Shape(3, 3), cells, Rules(constraints=constraints(rules, 9)))
        assert count_solutions(board, 2, "native") == 1 == count_solutions(board, 2, "cpsat")


def test_a_classic_run_never_loads_the_constrained_kernel():
    script = (
        "import sys\n"
        "from solvers import Board, Shape\n"
        "from solvers.backends.handwritten.native.backend import Native\n"
        "from solvers.base.deadline import Deadline\n"
        "Native().search(Board.empty(Shape(3, 3)), Deadline(None), 2)\n"
        "print('solvers.backends.handwritten.native.constrained' in sys.modules)\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert ran.stdout.strip() == "False", ran.stderr


@pytest.mark.heavy
@pytest.mark.parametrize("name", sorted(KINDS))
def test_native_counts_as_dfs_on_many_random_boards_of_each_kind(name):
    # test_vocabulary's boards, twenty times over (4 s in all): native's propagators
    # against the reference, which checks each kind by its own check
    shapes = [Shape(2, 2)]
    if not KINDS[name].board_wide:
        shapes.append(Shape(2, 3))
    with Runner("native") as native, Runner("dfs") as dfs:
        for seed in range(20):
            rng = random.Random(f"native {name} {seed}")
            for shape in shapes:
                board = board_with(name, shape, rng, givens=0.0 if shape.size == 4 else 0.5)
                ours, reference = (
                    native.count(board, 3, timeout=30),
                    dfs.count(board, 3, timeout=30),
                )
                assert (ours.status, ours.count) == (reference.status, reference.count), (
                    board.rules.constraints
                )


def test_the_verifier_and_the_kernel_flatten_a_boards_rules_once():
    """The verifier's ``flat(shape, rules)`` is the kernel's ``flatten(board)``: one cache
    entry, so a fresh process decomposes a skyscraper clue's table once, not twice (1.1 s of
    CPU on ISS's Renban skyscrapers, docs/native.md)."""
    from solvers.model.compile import flat, flatten

    rules = Rules(constraints=constraints("skyscraper r1c1 r1c2 r1c3 r1c4 total=2", 4))
    board = Board.empty(Shape(2, 2), rules)
    assert board.conflicts() == []
    assert flat(board.shape, board.rules) is flatten(board) is flat(board.shape, rules, True)
    assert plan_for(board) is plan_for(board)
