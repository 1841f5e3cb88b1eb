"""The compile step judges every grid as the verifier does.

Over all 576 Latin squares of order 4, a grid obeys a board's rules (the verifier's verdict,
from each kind's own check) exactly when it obeys what ``solvers.model.compile`` flattens them into:
every unit a permutation, every cage distinct values adding up to its total, every primitive
holding.
"""

from __future__ import annotations

from itertools import permutations

import pytest
from corpus import variant

from solvers.formats.variant_text import variants
from solvers.model.board import Board
from solvers.model.compile import flatten
from solvers.model.constraints.primitives import holds
from solvers.model.geometry import Shape
from solvers.model.variants import Rules
from solvers.model.verify import problems

SHAPE = Shape(2, 2)
REGIONS = (0, 0, 0, 1, 0, 1, 1, 1, 2, 2, 2, 3, 2, 3, 3, 3)
CAGES = ((3, (0, 1)), (5, (2, 6)), (8, (10, 11, 15)))


def latin_squares(n: int = 4) -> list[tuple[int, ...]]:
    rows = list(permutations(range(1, n + 1)))
    found: list[tuple[int, ...]] = []

    def extend(square: list[tuple[int, ...]]) -> None:
        if len(square) == n:
            found.append(tuple(v for row in square for v in row))
            return
        for row in rows:
            if all(row[c] != other[c] for other in square for c in range(n)):
                extend([*square, row])

    extend([])
    return found


RULES = {
    "x": variant(SHAPE, "x"),
    "windoku": variant(SHAPE, "windoku"),
    "killer": variant(SHAPE, cages=CAGES),
    "x killer": variant(SHAPE, "x", cages=CAGES),
    "jigsaw x": variant(SHAPE, "x", regions=REGIONS),
}


def obeys(flat, grid: tuple[int, ...]) -> bool:
    values = dict(enumerate(grid))
    return (
        all(len({grid[c] for c in unit}) == 4 for unit in flat.units)
        and all(
            len({grid[c] for c in group.cells}) == len(group.cells)
            and sum(grid[c] for c in group.cells) == group.total
            for group in flat.sum_groups
        )
        and all(holds(p, values) for p in flat.primitives)
    )


@pytest.mark.parametrize("label", list(RULES))
def test_the_compiled_rules_agree_with_the_verifier(label):
    rules = RULES[label]
    flat = flatten(Board.empty(SHAPE, rules))
    verdicts = set()
    for grid in latin_squares():
        by_verifier = not problems(Board.empty(SHAPE, rules), Board.unchecked(SHAPE, grid, rules))
        assert by_verifier == obeys(flat, grid), grid
        verdicts.add(by_verifier)
    assert verdicts == {True, False}


def test_the_variants_compile_to_units_and_sum_groups():
    assert len(flatten(Board.empty(SHAPE, RULES["x"])).units) == 12 + 2
    windoku = flatten(Board.empty(SHAPE, RULES["windoku"]))
    assert len(windoku.units) == 12 + 1 and windoku.units[-1] == (5, 6, 9, 10)
    killer = flatten(Board.empty(SHAPE, RULES["killer"]))
    assert [(c.total, c.cells) for c in killer.stated_groups] == list(CAGES)
    assert killer.primitives == ()
    assert variants(set(), SHAPE) == () and flatten(Board.empty(SHAPE, Rules())).sum_groups == ()


# A whispers line may pass a cell again (a loop, or a line crossing itself): its rule holds
# between neighbours on the line, each pair once, as the Interactive Sudoku Solver reads the
# published lines that pass a cell twice. On 4x4 the default gap is 2.
LOOP = "whispers r1c2 r1c3 r2c3 r2c2 r1c2"


@pytest.mark.parametrize("backend", ["dfs", "native", "propagate", "sat", "cpsat", "z3"])
def test_a_whispers_line_that_passes_a_cell_again_counts_as_its_pairs_say(backend):
    from solvers import count_solutions
    from solvers.formats.boards import parse

    board = parse(f"# rules: {LOOP}\n" + "." * 16)
    loop = board.rules.constraints[0]
    assert loop.cells == (1, 2, 6, 5, 1)
    pairs = [(1, 2), (2, 6), (6, 5), (5, 1)]
    boxes = [[r * 4 + c for r in rows for c in cols] for rows in ((0, 1), (2, 3))
             for cols in ((0, 1), (2, 3))]  # fmt: skip
    squares = [g for g in latin_squares() if all(len({g[c] for c in box}) == 4 for box in boxes)]
    expected = sum(all(abs(g[a] - g[b]) >= 2 for a, b in pairs) for g in squares)
    assert 0 < expected < len(squares)
    assert count_solutions(board, limit=1000, backend=backend) == expected
