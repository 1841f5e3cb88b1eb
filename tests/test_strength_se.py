"""Rating on Sudoku Explainer's scale: SE's direct techniques, uniqueness, Sukaku Explainer's
WXYZ-wing and the chains, each on candidates made for it with the eliminations written from
the technique's definition; every step sound on puzzles that need chains; SE's order and its
length increment; and a puzzle the techniques cannot finish rated at least SE's next rating,
never lower.
"""

from __future__ import annotations

from itertools import islice

import pytest

from solvers.api import solve
from solvers.formats.boards import read_puzzles
from solvers.formats.datasets import DATASETS
from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.strength import bigwings, chains, direct, exclusion, human, uniqueness
from solvers.strength.rating import prepared, rate
from solvers.strength.techniques import Grid

SHAPE = Shape.for_size(9)
FULL = SHAPE.geometry.full_mask


def cell(name: str) -> int:
    """``r2c5`` -> its index on a 9x9 board."""
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def grid_with(masks: dict[str, set[int]], unique: bool = False, placed: dict | None = None) -> Grid:
    """Every cell open with every value, but the cells named, which hold just their values."""
    candidates = [FULL] * 81
    for name, held in masks.items():
        candidates[cell(name)] = sum(1 << v for v in held)
    grid = Grid(SHAPE.geometry, candidates, unique=unique)
    for name, value in (placed or {}).items():
        candidates[cell(name)] = 1 << value
        grid.placed.add(cell(name))
    return grid


def without(value: int, *names: str) -> dict[str, set[int]]:
    return {name: set(range(1, 10)) - {value} for name in names}


def test_full_house_is_the_last_cell_of_a_unit() -> None:
    row = {f"r1c{c}": {c} for c in range(1, 9)}
    grid = grid_with({**row, "r1c9": {9}}, placed={f"r1c{c}": c for c in range(1, 9)})
    step = direct.full_house(grid)
    assert step and step.rating == 1.0 and step.placed == ((cell("r1c9"), 9),)


def test_direct_pointing_places_the_single_it_makes() -> None:
    # 5 in box 1 only on row 1 (r1c1, r1c2); in box 2 only at r1c4 and r2c5: the pointing
    # removes r1c4's 5, which leaves r2c5 the one place for 5 in box 2
    box1 = without(5, "r1c3", "r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3")
    box2 = without(5, "r1c5", "r1c6", "r2c4", "r2c6", "r3c4", "r3c5", "r3c6")
    step = direct.direct_locked(grid_with({**box1, **box2}))
    assert step and step.technique == "direct pointing" and step.rating == 1.7
    assert step.placed == ((cell("r2c5"), 5),)
    # row 1 outside box 1 (r1c5, r1c6 hold no 5)
    assert set(step.eliminated) == {(cell(f"r1c{c}"), 5) for c in (4, 7, 8, 9)}


def test_direct_hidden_pair_places_the_single_it_makes() -> None:
    # in row 1, 1 and 2 only at r1c1 and r1c2 (a hidden pair); 3 only at r1c1, r1c2 and r1c9:
    # the pair's cells lose 3, so r1c9 is 3. Boxes and columns hold no such pattern.
    masks = {f"r1c{c}": set(range(4, 10)) for c in range(3, 9)}
    masks["r1c9"] = set(range(3, 10))
    step = direct.direct_hidden(grid_with(masks), k=2)
    assert step and step.technique == "direct hidden pair" and step.rating == 2.0
    assert step.placed == ((cell("r1c9"), 3),)
    assert set(step.eliminated) == {(cell(n), v) for n in ("r1c1", "r1c2") for v in range(3, 10)}


def test_unique_rectangle_type_1_only_on_a_puzzle_known_unique() -> None:
    # r1c1, r1c4, r2c1 hold just 1 and 2: r2c4 = 1 or 2 would let the four swap
    masks = {"r1c1": {1, 2}, "r1c4": {1, 2}, "r2c1": {1, 2}, "r2c4": {1, 2, 3, 7}}
    step = uniqueness.unique_rectangle(grid_with(masks, unique=True))
    assert step and step.rating == 4.5 and step.technique == "unique rectangle type 1"
    assert set(step.eliminated) == {(cell("r2c4"), 1), (cell("r2c4"), 2)}
    assert uniqueness.unique_rectangle(grid_with(masks, unique=False)) is None


def test_wxyz_wing() -> None:
    # r1c1 {1,2}, r1c2 {2,3}, r2c2 {3,4} see each other: four values in three cells. The
    # pincer r2c7 {1,4} sees r2c2, the one of them with 4: z = 1 is in r2c7 or in r1c1, so it
    # leaves every cell that sees both
    masks = {"r1c1": {1, 2}, "r1c2": {2, 3}, "r2c2": {3, 4}, "r2c7": {1, 4}}
    step = bigwings.wxyz_wing(grid_with(masks))
    assert step and step.technique == "WXYZ-wing" and step.rating == 5.5
    seeing = {"r1c7", "r1c8", "r1c9", "r2c1", "r2c3"}
    assert set(step.eliminated) == {(cell(n), 1) for n in seeing}


def test_length_increment_follows_se_steps() -> None:
    # SE's table (ChainingHint.java): +0.1 past 4, 6, 8, 12, 16, 24, 32 nodes (less two)
    expected = {6: 0.0, 7: 0.1, 8: 0.1, 9: 0.2, 10: 0.2, 11: 0.3, 14: 0.3, 15: 0.4, 19: 0.5}
    expected |= {26: 0.5, 27: 0.6, 34: 0.6, 35: 0.7}
    assert {n: chains.length_added(n) for n in expected} == expected


def test_techniques_are_looked_for_in_se_order() -> None:
    # SE's producers run by rating (Solver.java); the kinds' own steps sit at 2.4-2.5
    ratings = []
    for _level, find in human.ORDERED:
        name = getattr(find, "func", find).__name__
        ratings.append((name, dict(getattr(find, "keywords", {}))))
    assert ratings[:5] == [
        ("full_house", {}),
        ("hidden_single", {"in_boxes": True}),
        ("hidden_single", {"in_boxes": False}),
        ("direct_locked", {}),
        ("direct_hidden", {"k": 2}),
    ]
    assert ratings[-5:] == [
        ("cycle_or_forcing_chain", {}),
        ("nishio", {}),
        ("multiple_forcing", {}),
        ("dynamic_forcing", {}),
        ("rule_chains", {}),  # 9.0: the chains across the constraints' links, last
    ]


def replay(board: Board) -> set[str]:
    """Every step of the explanation checked against the solution; the techniques used."""
    solution = solve(board).solution.cells
    used = set()
    for step in human.steps(prepared(board)):
        used.add(step.technique)
        for c, v in step.placed:
            assert solution[c] == v, step.describe(9)
        for c, v in step.eliminated:
            assert solution[c] != v, step.describe(9)
    return used


def hard(count: int) -> list[Board]:
    with DATASETS["hard9"].open() as handle:
        return [p.board for p in islice(read_puzzles(handle), count)]


def test_every_step_is_sound_on_puzzles_that_need_chains() -> None:
    used = set().union(*(replay(board) for board in hard(7)))
    assert {"bidirectional Y-cycle", "bidirectional cycle", "multiple forcing chains"} <= used


@pytest.mark.slow
def test_every_step_is_sound_on_every_hard_puzzle() -> None:
    used = set().union(*(replay(board) for board in hard(100)))
    assert {"WXYZ-wing", "unique rectangle type 1", "dynamic forcing chains"} <= used


def test_a_puzzle_the_techniques_cannot_finish_rates_at_least_se_next_rating() -> None:
    # an empty 16x16 board: no technique here finds anything, and chains are not searched
    # beyond 9x9, so the bound is SE's next technique after the uniqueness ones (6.2), never
    # the 0 of the steps taken
    rating = rate(Board(Shape.for_size(16), (0,) * 256))
    assert rating.level == "search" and rating.bound and rating.difficulty == 6.2
    assert str(rating).startswith("search >=6.2")


def test_aligned_pair_exclusion() -> None:
    # r1c1 {1,2,3} and r2c4 {1,2} do not see each other; r1c5 {1,3} and r2c2 {2,3} see both
    # (row 1 and box 2, box 1 and row 2). r1c1=3 leaves r1c5 empty with r2c4=1 and r2c2 empty
    # with r2c4=2: no value of r2c4 goes with it, so r1c1<>3. Every other pair survives. The
    # other cells are placed, so no other pair of cells is looked at before this one.
    masks = {"r1c1": {1, 2, 3}, "r2c4": {1, 2}, "r1c5": {1, 3}, "r2c2": {2, 3}}
    names = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)]
    grid = grid_with(masks, placed={n: 9 for n in names if n not in masks})
    step = exclusion.aligned_pair_exclusion(grid)
    assert step and step.technique == "aligned pair exclusion" and step.rating == 6.2
    assert step.eliminated == ((cell("r1c1"), 3),)
    # r2c4 {1,3}: r1c1=3 with r2c4=1 still empties r1c5, but r2c4=3 empties neither: it stays
    masks["r2c4"] = {1, 3}
    grid = grid_with(masks, placed={n: 9 for n in names if n not in masks})
    assert exclusion.aligned_pair_exclusion(grid) is None
