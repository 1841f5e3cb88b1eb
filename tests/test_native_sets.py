"""What a cage must hold. The sum rule: a value every combination of a killer cage holds leaves
the cells outside the cage of each unit that holds all its places (``propagate._claim``, ISS's
required value exclusions). The constrained kernel's tables of value sets (a rellik cage's:
its cells all differ and each row of its table is one set of as many values as cells) keep
only the sets the cells can still hold between them, as ISS's ``Rellik`` handler keeps the
values forced into the cage (``watch._set_row``). Counts agree with cpsat's on rellik boards;
four boards with no solution are proved at the root, each by one piece of that reasoning,
where before a search was needed; and with ISS's puzzles at hand, Hazy Rellik is proved in
far fewer guesses, and Wecoc #1 in fewer."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from test_implied import board

from solvers import Board, count_solutions
from solvers.backends.handwritten.native.solver import Solver
from solvers.backends.handwritten.native.tables import plan_for
from solvers.formats.boards import read_puzzles


def _board(rules: str, rows: list[str]):
    """A 9x9 board with ``rules`` and the rows given (``.`` empty; rows not given are empty)."""
    text = "".join(row or "." * 9 for row in rows) + "." * 9 * (9 - len(rows))
    header = f"# rules: {rules}\n" if rules else ""
    (puzzle,) = read_puzzles(io.StringIO(f"{header}{text}\n"))
    return puzzle.board


@pytest.mark.parametrize(
    "rules",
    [
        "rellikcage r1c1 r1c2 r2c1 total=10; rellikcage r1c4 r1c5 r1c6 r2c5 total=12; "
        "rellikcage r3c7 r3c8 r2c9 total=5",
        "rellikcage r1c1 r1c2 r1c3 total=15; rellikcage r2c4 r2c5 total=9",
        "rellikcage r2c3 r2c4 r3c3 r3c4 total=11; rellikcage r1c8 r1c9 r2c9 total=17",
    ],
)
def test_rellik_cages_count_as_cpsat(rules):
    b = board(rules, range(1, 4))  # rows 1-3 empty, the rest given
    assert plan_for(b).primitives is not None  # the constrained kernel
    expected = count_solutions(b, limit=100_000, backend="cpsat")
    assert expected > 1
    assert count_solutions(b, limit=100_000, backend="native") == expected


# Row 1 holds 4..9 at c4-c9, so its cage r1c1-r1c3 must hold 1, 2, 3 (each set of three values
# must have a place for each of its values), and 1 + 3 = 4.
ALL_OF_IT = ("rellikcage r1c1 r1c2 r1c3 total=4", ["...456789"])
# Columns 1 and 2 leave r1c1 and r1c2 only 1 and 2: two cells with two values between them,
# so the cage's set holds both, and 1 + 2 = 3 (r1c3 free).
NO_ROOM = (
    "rellikcage r1c1 r1c2 r1c3 total=3",
    [".........", *(f"{c1}{c2}......." for c1, c2 in zip("3456789", "7893456", strict=True))],
)
# Rows 2 and 3 hold their 1 and 9 outside box 1, and r1c3 is 5: box 1 can put 1 and 9 only in
# r1c1 and r1c2, the cage, and 1 + 9 = 10 (ISS's HouseRequiredRellik).
THE_HOUSE_NEEDS = ("rellikcage r1c1 r1c2 total=10", ["..5......", "...1..9..", "....9..1."])


# The 3 of r1c1 r1c2 is 1 + 2, so row 1 and box 1 hold their 1 and 2 there; column 3 holds 3..9
# in rows 2-8, leaving r1c3 only 1 and 2. (The 45 rule alone sees it too, row 1's other seven
# cells adding up to 42, 3..9: the search here is without the implied sums.)
CLAIMED = ("killercage r1c1 r1c2 total=3", ["", *(f"..{v}......" for v in range(3, 10))])


@pytest.mark.parametrize("case", [ALL_OF_IT, NO_ROOM, THE_HOUSE_NEEDS, CLAIMED])
def test_what_the_cage_must_hold_is_refused_at_the_root(case):
    rules, rows = case
    b = _board(rules, rows)
    assert count_solutions(b, limit=2, backend="cpsat") == 0
    plan = plan_for(b, implied=case is not CLAIMED)
    found, _, stats = Solver().search(plan, bytes(b.cells), 2, None)
    assert found == 0
    assert stats["guesses"] == 0
    assert count_solutions(_board("", rows), limit=2, backend="native") == 2  # the cage's doing


KILLERS = Path("/tmp/killers.txt")  # ISS's killer puzzles (bench/iss.py), never in the project


def killer(name: str) -> Board:
    """The ISS killer puzzle of that name: its comment line and its board, read together."""
    lines = KILLERS.read_text().splitlines()
    at = next(k for k, line in enumerate(lines) if line.endswith(f": {name}"))
    (puzzle,) = read_puzzles(io.StringIO("\n".join(lines[at : at + 2]) + "\n"))
    return puzzle.board


@pytest.mark.heavy
@pytest.mark.skipif(not KILLERS.exists(), reason="no /tmp/killers.txt (ISS's puzzles)")
def test_hazy_rellik_is_proved_in_few_guesses():
    b = killer("Hazy Rellik")
    found, _, stats = Solver().search(plan_for(b), bytes(b.cells), 2, None)
    assert found == 1  # unique
    assert stats["guesses"] < 1_000  # 18 measured (ISS 637); before, over 400,000 in 15 s


@pytest.mark.heavy
@pytest.mark.skipif(not KILLERS.exists(), reason="no /tmp/killers.txt (ISS's puzzles)")
def test_wecoc_1_is_proved_in_fewer_guesses():
    b = killer("Wecoc #1")
    found, _, stats = Solver().search(plan_for(b), bytes(b.cells), 2, None)
    assert found == 1  # unique
    assert stats["guesses"] < 30_000  # 19,061 measured (ISS 14,134); 38,123 without _claim
