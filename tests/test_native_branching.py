"""``native``'s branching (dom/wdeg, ``search``): the cells whose values lead to contradictions
weigh more, so the search goes first where it fails. A board made for it: five cells of box 1
that may hold only 1..4 (a pigeonhole: no solution, which no rule of the kernel sees without a
guess) and eight pairs of cells elsewhere that may each hold only two values, in either order.
Branching on the fewest candidates alone takes the pairs first, all 2^8 ways of them, and
refutes box 1 again under each: 1,070,078 nodes and 15 s before weights (issue 41). The
weighted choice proves it in under a thousand."""

from __future__ import annotations

from solvers import Board, Shape, count_solutions, solve
from solvers.backends.handwritten.native.solver import Solver
from solvers.backends.handwritten.native.tables import plan_for
from solvers.model.constraints.text import parse_constraint
from solvers.model.variants import Rules

PIGEONHOLE = ("r1c1", "r1c2", "r1c3", "r2c1", "r2c2")
PAIRS = (  # two cells of a row, their two values; no two pairs of a row, column or box share one
    ("r4c4 r4c5", "1,2"),
    ("r5c4 r5c5", "3,4"),
    ("r6c4 r6c5", "5,6"),
    ("r7c4 r7c5", "7,8"),
    ("r4c7 r4c8", "3,4"),
    ("r5c7 r5c8", "5,6"),
    ("r6c7 r6c8", "7,8"),
    ("r7c7 r7c8", "1,2"),
)


def trap(box_values: str = "1,2,3,4") -> Board:
    parts = [f"candidates {cell} values={box_values}" for cell in PIGEONHOLE]
    for cells, values in PAIRS:
        parts += [f"candidates {cell} values={values}" for cell in cells.split()]
    rules = Rules(constraints=tuple(parse_constraint(part, 9) for part in parts))
    return Board.empty(Shape(3, 3), rules)


def test_the_search_goes_where_it_fails():
    board = trap()
    found, _, stats = Solver().search(plan_for(board), bytes(board.cells), 2, None)
    assert found == 0
    assert stats["nodes"] < 5_000  # the pairs first: 2^8 refutations of box 1, a million nodes
    assert count_solutions(board, 2, "sat", timeout=60) == 0  # a SAT solver agrees


def test_the_same_board_with_room_in_box_1_is_solved():
    board = trap("1,2,3,4,5")  # five values for five cells: solutions
    answer = solve(board, "native", timeout=60)  # verified against every rule
    assert answer.solution is not None
    cells = answer.solution.cells
    assert sorted(cells[k] for k in (0, 1, 2, 9, 10)) == [1, 2, 3, 4, 5]
    assert {cells[9 * 3 + 3], cells[9 * 3 + 4]} == {1, 2}  # r4c4, r4c5 keep their pair
