"""``native:choice=``: the constrained kernel's cell choice, dom/wdeg (``wdeg``, the default),
with ISS's value scores too (``values``), or with its house branches (``houses``:
``constrained``). Every way the search visits the same solutions: counts agree with cpsat's on
killer boards (which take the constrained kernel: their implied linear rows), the pigeonhole
board of test_native_branching is proved in a few nodes by each, and with ISS's puzzles at
hand, the house branches prove a hard killer in a tenth of the guesses."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from test_implied import BOTTOM, REACHING, TOP, board
from test_native_branching import trap

from solvers import count_solutions, solve
from solvers.backends.handwritten.native.outcome import HOUSES, VALUES, WDEG
from solvers.backends.handwritten.native.solver import Solver
from solvers.backends.handwritten.native.tables import plan_for
from solvers.formats.boards import read_puzzles

CHOICES = ("native:choice=wdeg", "native:choice=values", "native:choice=houses")


@pytest.mark.parametrize(
    ("rules", "rows"),
    [
        (TOP, range(1, 4)),
        (REACHING, range(7, 10)),
        (BOTTOM.replace("total=31", "total=32"), range(7, 10)),  # no completion reaches it
    ],
)
def test_both_choices_count_as_cpsat(rules, rows):
    b = board(rules, rows)
    assert plan_for(b).primitives is not None  # the constrained kernel, whose choice this is
    expected = count_solutions(b, limit=10_000, backend="cpsat")
    assert rules.endswith("total=32") or expected > 1
    for backend in CHOICES:
        assert count_solutions(b, limit=10_000, backend=backend) == expected, backend


@pytest.mark.parametrize("choice", [WDEG, VALUES, HOUSES])
def test_both_choices_go_where_the_search_fails(choice):
    b = trap()
    found, _, stats = Solver(choice).search(plan_for(b), bytes(b.cells), 2, None)
    assert found == 0
    assert stats["nodes"] < 5_000  # fewest candidates alone: a million nodes


KILLERS = Path("/tmp/killers.txt")  # ISS's killer puzzles (bench/iss.py), never in the project
HARD = "Killer sudoku [0 cage, hard]"


def _iss_puzzle(name: str):
    lines = KILLERS.read_text().splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("#") and line.endswith(name))
    (puzzle,) = read_puzzles(io.StringIO("\n".join(lines[at : at + 2]) + "\n"))
    return puzzle.board


@pytest.mark.heavy
@pytest.mark.skipif(not KILLERS.exists(), reason="no /tmp/killers.txt (ISS's puzzles)")
def test_the_house_branches_prove_the_hard_zero_cage_killer_in_far_fewer_guesses():
    # measured: 31465 guesses with wdeg, 3815 with houses (docs/native.md)
    b = _iss_puzzle(HARD)
    answer = solve(b, "native:choice=houses", timeout=120)  # verified against every rule
    guesses = {}
    for choice in (WDEG, VALUES, HOUSES):
        found, first, stats = Solver(choice).search(plan_for(b), bytes(b.cells), 2, None)
        assert found == 1  # proved unique, each way
        assert tuple(first.tolist()) == answer.solution.cells
        guesses[choice] = stats["guesses"]
    assert guesses[HOUSES] * 5 < guesses[WDEG]
