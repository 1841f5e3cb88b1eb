"""A renban too open to enumerate, read by its runs (solvers.strength.kind_runs).

The boards are made here. A renban of k cells holds one run of k consecutive different
values; on 1-9 a run of seven is 1-7, 2-8 or 3-9, so it always holds 3, 4, 5, 6 and 7. The
seven cells r1c6-r1c7-r2c7-r3c7-r4c8-r5c8-r6c8 are all seen by r1c8 (r1c6, r1c7 in its row,
r2c7, r3c7 in its box, the rest in its column), so r1c8 holds none of 3-7. With r1c1 = 2
given, a renban along r1c1-...-r1c6 runs 1-6 or 2-7: its other cells cannot be 8 or 9.
"""

from __future__ import annotations

import pytest
from kind_puzzles import gone, grid_of
from test_kind_soundness import replay

from solvers import solve
from solvers.strength import human, kind_runs, kinds
from solvers.strength.rating import prepared
from solvers.strength.techniques import Contradiction

SEVEN = "renban r1c6 r1c7 r2c7 r3c7 r4c8 r5c8 r6c8"


def test_an_open_renban_of_seven_points_its_middle_values_out():
    grid = grid_of(SEVEN)
    assert kinds.kind_step(grid) is None  # too open for the enumeration; each run possible
    removed: dict[str, set[int]] = {}
    first = None
    while (step := kind_runs.renban_pointing(grid)) is not None:
        first = first or step
        assert step.technique == "rule pointing" and step.rating == 2.7
        for name, values in gone(step).items():
            removed.setdefault(name, set()).update(values)
        human.apply(grid, step)
    assert removed == {"r1c8": {3, 4, 5, 6, 7}}
    assert first.describe(9).startswith(
        "renban r1c6-r1c7-r2c7-r3c7-r4c8-r5c8-r6c8: of 7 cells: only the runs "
        "1-7 or 2-8 or 3-9, so it holds 3, 4, 5, 6, 7; its 3 can only go in"
    )


def test_a_given_on_a_renban_of_six_leaves_the_runs_through_it():
    grid = grid_of("renban r1c1 r1c2 r1c3 r1c4 r1c5 r1c6", {"r1c1": 2})
    (rule,) = grid.constraints
    step = kind_runs.renban_runs(grid, rule)
    assert step.technique == "renban" and step.rating == 2.4
    assert gone(step) == {f"r1c{c}": {8, 9} for c in range(2, 7)}
    assert "only the runs 1-6 or 2-7" in step.describe(9)
    human.apply(grid, step)
    assert kind_runs.renban_runs(grid, rule) is None


def test_runs_need_a_value_of_the_run_for_each_cell():
    assert kind_runs.runs([1 << 1, 1 << 1], 9) == []  # two cells that can only be 1
    assert kind_runs.runs([0b110, 0b110, 1 << 9], 9) == []  # no run of three holds 1-2 and 9
    assert kind_runs.runs([0b1110, 0b1110], 9) == [0b110, 0b1100]  # 1-2 or 2-3
    grid = grid_of("renban r1c1 r1c2", {"r1c1": 1, "r1c2": 5})
    with pytest.raises(Contradiction):
        kind_runs.renban_runs(grid, grid.constraints[0])


def test_explain_reads_iss_hard_renban_3_by_its_runs_soundly(iss):
    """sigh's ISS 'Hard renban 3' (the ``iss`` fixture): its open renbans of six and seven
    cells said nothing before (one thermometer step, then a stall with 81 cells open)."""
    board = iss("Hard renban 3")
    taken = [step.technique for step in human.steps(prepared(board))]
    assert taken.count("rule pointing") >= 10
    assert replay(board, solve(board).solution.cells) == len(taken)
