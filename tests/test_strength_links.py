"""Sukaku Explainer's strong links (X-chains on one value, grouped or not), its VWXYZ-wing
and SE's BUG type 2, each on candidates made for it, the eliminations written from the
technique's definition: the value leaves every cell that sees both ends of the chain (the
pincer and every cell of the wing that holds z; every extra cell of the BUG). That every step
is sound on real puzzles, the replay of tests/test_strength_se.py holds (it runs every
technique).
"""

from __future__ import annotations

import json
import re
from itertools import islice

from solvers.api import solve
from solvers.formats.boards import read_puzzles
from solvers.formats.datasets import DATASETS
from solvers.model.geometry import Shape
from solvers.strength import bigwings, cycles, human, stronglinks, uniqueness
from solvers.strength.rating import prepared
from solvers.strength.techniques import Grid

SHAPE = Shape.for_size(9)
FULL = SHAPE.geometry.full_mask


def cell(name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def names(step_cells: tuple[tuple[int, int], ...]) -> set[tuple[str, int]]:
    return {(f"r{c // 9 + 1}c{c % 9 + 1}", v) for c, v in step_cells}


def only(value: int, units: dict[str, list[str]]) -> Grid:
    """Every cell open with every value, but that in each unit named (``row 1``, ``column 3``)
    ``value`` is left only in the cells listed."""
    candidates = [FULL] * 81
    for unit, kept in units.items():
        kind, number = unit.split()
        index = int(number) - 1
        cells = (
            [index * 9 + c for c in range(9)]
            if kind == "row"
            else [r * 9 + index for r in range(9)]
        )
        for c in cells:
            if c not in {cell(name) for name in kept}:
                candidates[c] &= ~(1 << value)
    return Grid(SHAPE.geometry, candidates)


def test_skyscraper() -> None:
    # 5 in row 1 only at r1c1 and r1c5, in row 5 only at r5c1 and r5c6; r1c1 and r5c1 see
    # each other, so 5 is at r1c5 or at r5c6: it leaves the cells that see both holding it
    # (r1c6 and r5c5 hold no 5). Every other unit has seven places or more: no other link.
    grid = only(5, {"row 1": ["r1c1", "r1c5"], "row 5": ["r5c1", "r5c6"]})
    step = stronglinks.strong_links(grid, count=2)
    assert step and step.technique == "skyscraper" and step.rating == 4.0
    assert names(step.eliminated) == {(n, 5) for n in ("r2c6", "r3c6", "r4c5", "r6c5")}
    # in a player's words: each strong link, the unit it is in, and what goes
    said = step.describe(9)
    assert "(row 1)" in said and "(row 5)" in said and said.startswith("skyscraper in ")
    assert said.endswith("r2c6<>5, r3c6<>5, r4c5<>5, r6c5<>5")


def test_grouped_two_string_kite() -> None:
    # 5 in row 1 only at r1c1, r1c2 (box 1) and r1c7: a grouped strong link between the pair
    # and r1c7. In column 3 only at r3c3 and r8c3; r3c3 sees both of the pair (box 1). So 5 is
    # at r1c7 or r8c3, and leaves r8c7, the one cell with 5 that sees both. The boxes with
    # six places (box 2, two rows; box 4, two columns) link nothing that reaches a target.
    grid = only(5, {"row 1": ["r1c1", "r1c2", "r1c7"], "column 3": ["r3c3", "r8c3"]})
    step = stronglinks.strong_links(grid, count=2)
    assert step and step.technique == "grouped 2-string kite" and step.rating == 4.3
    assert names(step.eliminated) == {("r8c7", 5)}
    assert "r1c1+r1c2" in step.where


def test_three_skyscrapers() -> None:
    # rows 1, 4 and 7 each hold 5 in two places: r1c5=r1c1 - r4c1=r4c8 - r7c8=r7c6, joined
    # by columns 1 and 8. 5 is at r1c5 or r7c6; no two of the links make a chain that removes
    # anything, so it takes three (Sukaku Explainer's 5.4 for three rows)
    rows = {"row 1": ["r1c1", "r1c5"], "row 4": ["r4c1", "r4c8"], "row 7": ["r7c8", "r7c6"]}
    grid = only(5, rows)
    assert stronglinks.strong_links(grid, count=2) is None
    step = stronglinks.strong_links(grid, count=3)
    assert step and step.technique == "3 skyscrapers" and step.rating == 5.4
    assert names(step.eliminated) == {(n, 5) for n in ("r2c6", "r3c6", "r8c5", "r9c5")}


def test_rating_follows_the_links_kinds() -> None:
    # StrongLinksHint.getDifficulty: parallel lines +0, a box and both line kinds +0.2, any
    # other mix +0.1, a grouped link +0.3
    b = stronglinks
    assert b.added(b.ROW) == b.added(b.COLUMN) == 0.0
    assert b.added(b.ROW | b.COLUMN) == b.added(b.BOX | b.ROW) == b.added(b.BOX) == 0.1
    assert b.added(b.BOX | b.ROW | b.COLUMN) == 0.2
    assert b.added(b.GROUPED | b.ROW) == 0.3


def test_vwxyz_wing() -> None:
    # r1c1 {1,2}, r1c2 {2,3}, r1c3 {3,4}, r2c1 {4,5} see each other (box 1): five values in
    # four cells. The pincer r2c7 {1,5} sees r2c1, the one of them with 5: z = 1 is in r2c7 or
    # in r1c1, so it leaves every cell that sees both (Sukaku Explainer: 6.3, largest cell 2)
    masks = {"r1c1": {1, 2}, "r1c2": {2, 3}, "r1c3": {3, 4}, "r2c1": {4, 5}, "r2c7": {1, 5}}
    candidates = [FULL] * 81
    for name, held in masks.items():
        candidates[cell(name)] = sum(1 << v for v in held)
    step = bigwings.vwxyz_wing(Grid(SHAPE.geometry, candidates))
    assert step and step.technique == "VWXYZ-wing" and step.rating == 6.3
    seeing = {"r1c7", "r1c8", "r1c9", "r2c2", "r2c3"}
    assert names(step.eliminated) == {(n, 1) for n in seeing}


def test_strong_links_sit_in_sukaku_explainers_order() -> None:
    # Solver.java: two links before the XY-wing, three before the WXYZ-wing, four before the
    # VWXYZ-wing, five and six after aligned pair exclusion, every one before the chains
    order = []
    for _level, find in human.ORDERED:
        name = getattr(find, "func", find).__name__
        order.append(f"{name}{getattr(find, 'keywords', {}).get('count', '')}")
    at = order.index
    assert at("strong_links2") < at("wing") and at("strong_links3") < at("wxyz_wing")
    assert at("bug_one") < at("strong_links4") < at("vwxyz_wing") < at("aligned_pair_exclusion")
    assert at("aligned_pair_exclusion") < at("strong_links5") < at("uvwxyz_wing")
    assert at("strong_links6") < at("cycle_or_forcing_chain")


def test_bug_type_two() -> None:
    # a solved grid S, and the open cells those holding 1, 2, 3 or 4, each with its value and
    # its swap (1<->2, 3<->4): every open cell two values, every value two places in each unit
    # (a BUG). r1c1 {1,2} and r1c2 {1,2} hold 3 as well: without it the grid would be the BUG,
    # so one of them is 3, and 3 leaves every cell that sees both (Bug2Hint: 5.7)
    solved = [(r * 3 + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]
    swap = {1: 2, 2: 1, 3: 4, 4: 3}
    candidates = [1 << v | 1 << swap.get(v, v) for v in solved]
    for name in ("r1c1", "r1c2"):
        candidates[cell(name)] |= 1 << 3
    grid = Grid(SHAPE.geometry, candidates, unique=True)
    grid.placed.update(c for c, v in enumerate(solved) if v not in swap)
    step = uniqueness.bug_two(grid)
    assert step and step.technique == "BUG type 2" and step.rating == 5.7
    assert names(step.eliminated) == {("r1c3", 3), ("r1c4", 3), ("r2c1", 3)}
    assert uniqueness.bug_one(grid) is None
    # only where the puzzle is known to have one solution
    grid.unique = False
    assert uniqueness.bug_two(grid) is None


def test_y_cycle() -> None:
    # r1c1 {1,2} - r1c5 {2,3} - r5c5 {3,4} - r5c1 {4,1}, each seeing the next: r1c1=1 makes
    # r5c1=4, r5c5=3, r1c5=2; r1c1=2 makes r1c5=3, r5c5=4, r5c1=1. Either way row 1 has its 2
    # in r1c1 or r1c5, column 5 its 3 in r1c5 or r5c5, row 5 its 4, column 1 its 1 in the
    # loop: those values leave the rest of each line (SE: 6.5 + 0.1 for eight candidates)
    masks = {"r1c1": {1, 2}, "r1c5": {2, 3}, "r5c5": {3, 4}, "r5c1": {4, 1}}
    candidates = [FULL] * 81
    for name, held in masks.items():
        candidates[cell(name)] = sum(1 << v for v in held)
    grid = Grid(SHAPE.geometry, candidates)
    step = cycles.y_cycle(grid)
    assert step and step.technique == "bidirectional Y-cycle" and step.rating == 6.6
    expected = {(f"r1c{c}", 2) for c in range(1, 10)} | {(f"r{r}c5", 3) for r in range(1, 10)}
    expected |= {(f"r5c{c}", 4) for c in range(1, 10)} | {(f"r{r}c1", 1) for r in range(1, 10)}
    expected -= {(name, v) for name in masks for v in range(1, 10)}
    assert names(step.eliminated) == expected
    # SE's first chaining producer takes it: no forcing chain rates lower than 6.6
    assert cycles.cycle_or_forcing_chain(grid) == step


def test_explain_says_the_chain_in_a_players_words(cli) -> None:
    # the shipped hard9's 11th puzzle needs a skyscraper at its hardest: explain names each
    # strong link with its unit, and what leaves; rate grades it by it (Sukaku's 4.0)
    done = cli("explain", "hard9", "--puzzle", "11")
    assert done.code == 0, done.err
    step = next(line for line in done.out.splitlines() if "skyscraper" in line)
    assert re.search(
        r"skyscraper in r\dc\d=r\dc\d \(row \d\) - r\dc\d=r\dc\d \(row \d\) on \d: ", step
    )
    assert done.out.splitlines()[-10] == "solved; rating strong-links 4.0 skyscraper"
    # and a Y-cycle, the loop one way round (the other way holds each cell's other value)
    done = cli("explain", "hard9", "--puzzle", "1")
    step = next(line for line in done.out.splitlines() if "Y-cycle" in line)
    assert re.search(r"Y-cycle in (r\dc\d=\d - )+r\dc\d=\d, or each the other value: r", step)


def colours_seen(grid: Grid, value: int, one: set[str], other: set[str]) -> set[tuple[str, int]]:
    """The cells outside a loop that hold ``value`` and see a cell of each of its two sets of
    alternate cells (one set holds the value in every solution): an X-cycle's eliminations."""
    peers = grid.peer_sets
    loop = {cell(name) for name in one | other}
    return {
        (f"r{c // 9 + 1}c{c % 9 + 1}", value)
        for c in range(81)
        if c not in loop
        and grid.candidates[c] >> value & 1
        and any(cell(a) in peers[c] for a in one)
        and any(cell(b) in peers[c] for b in other)
    }


def test_x_cycle() -> None:
    # 5 in row 1 only at r1c1 and r1c5, in column 6 only at r2c6 and r5c6, in column 2 only
    # at r3c2 and r5c2 (three strong links); r1c5 and r2c6 see each other (box 2), r5c6 and
    # r5c2 (row 5), r3c2 and r1c1 (box 1): a loop of six cells, strong and weak links in
    # turn. If r1c1 is 5, so are r5c2 and r2c6; if not, r1c5, r5c6 and r3c2 are: a 5 that
    # sees one of each goes (SE's CycleHint: 6.5 + nothing for six candidates)
    grid = only(5, {"row 1": ["r1c1", "r1c5"], "column 6": ["r2c6", "r5c6"],
                    "column 2": ["r3c2", "r5c2"]})  # fmt: skip
    step = cycles.x_cycle(grid)
    assert step and step.technique == "bidirectional X-cycle" and step.rating == 6.5
    expected = colours_seen(grid, 5, {"r1c1", "r5c2", "r2c6"}, {"r1c5", "r5c6", "r3c2"})
    # at each weak link, the cells that see both its ends
    assert {("r2c4", 5), ("r3c5", 5), ("r5c5", 5), ("r5c9", 5), ("r2c1", 5)} <= expected
    assert names(step.eliminated) == expected
    # it rates below any forcing X-chain (6.6): SE's first chaining producer takes it
    assert cycles.cycle_or_forcing_chain(grid) == step
    # a loop of four cells is SE's generalized X-wing: 5 in row 1 at r1c1 and r1c5, in row 2
    # at r2c2 and r2c6; r1c5-r2c6 (box 2) and r2c2-r1c1 (box 1) see each other
    grid = only(5, {"row 1": ["r1c1", "r1c5"], "row 2": ["r2c2", "r2c6"]})
    step = cycles.x_cycle(grid)
    assert step and step.technique == "generalized X-wing" and step.rating == 6.5
    assert names(step.eliminated) == colours_seen(grid, 5, {"r1c1", "r2c6"}, {"r1c5", "r2c2"})


def test_xy_cycle() -> None:
    # r1c1 {1,2}, r1c5 {2,3}, r5c5 {3,4}, r9c1 {2,4}; r5c1 {1,4,7}; 4 in column 1 only at
    # r5c1 and r9c1, 2 only at r1c1 and r9c1. r1c1=2 makes r1c5=3 (row 1, then its other
    # value), r5c5=4 (column 5), r5c1<>4 (row 5), r9c1=4 (column 1's one other 4) and
    # r9c1<>2, back to r1c1=2 (column 1's other 2); r1c1<>2 makes each the other way round.
    # A loop of cell links (Y) and unit links (X) together: SE's "bidirectional cycle", 7.0 +
    # 0.1 for its eight candidates. Row 1 has its 2 in r1c1 or r1c5, column 5 its 3 in r1c5
    # or r5c5, row 5 its 4 in r5c5 or r5c1: those leave the rest of each line.
    masks = {"r1c1": {1, 2}, "r1c5": {2, 3}, "r5c5": {3, 4}, "r9c1": {2, 4}, "r5c1": {1, 4, 7}}
    candidates = [FULL] * 81
    for r in range(9):
        candidates[r * 9] &= ~(1 << 4 | 1 << 2)
    for name, held in masks.items():
        candidates[cell(name)] = sum(1 << v for v in held)
    grid = Grid(SHAPE.geometry, candidates)
    assert cycles.x_cycle(grid) is None and cycles.y_cycle(grid) is None
    step = cycles.xy_cycle(grid)
    assert step and step.technique == "bidirectional cycle" and step.rating == 7.1
    expected = {(f"r1c{c}", 2) for c in range(2, 10)} | {(f"r{r}c5", 3) for r in range(2, 10)}
    expected |= {(f"r5c{c}", 4) for c in range(2, 10)}
    expected -= {(name, v) for name in masks for v in range(1, 10)}
    assert names(step.eliminated) == expected
    assert cycles.cycle_or_forcing_chain(grid).rating == 7.1


def test_unique_rectangle_type_three() -> None:
    # r2c1 and r2c4 hold just 1 and 2; r1c1 {1,2,5} and r1c4 {1,2,6} (boxes 1 and 2). If
    # neither roof cell held 5 or 6 the four cells could swap 1 and 2: a second solution. So
    # row 1 has its 5 or its 6 on the roof, and r1c7 {5,6} the other: a naked pair of the
    # roof and r1c7, and 5 and 6 leave row 1's other cells (SE: 4.5 + 0.1 for a pair)
    masks = {"r2c1": {1, 2}, "r2c4": {1, 2}, "r1c1": {1, 2, 5}, "r1c4": {1, 2, 6}, "r1c7": {5, 6}}
    candidates = [FULL] * 81
    for name, held in masks.items():
        candidates[cell(name)] = sum(1 << v for v in held)
    grid = Grid(SHAPE.geometry, candidates, unique=True)
    step = uniqueness.unique_rectangle(grid)
    assert step and step.technique == "unique rectangle type 3" and step.rating == 4.6
    expected = {(f"r1c{c}", v) for c in (2, 3, 5, 6, 8, 9) for v in (5, 6)}
    assert names(step.eliminated) == expected
    assert "naked set r1c1 r1c4 r1c7" in step.describe(9)
    # only where the puzzle is known to have one solution
    grid.unique = False
    assert uniqueness.unique_rectangle(grid) is None


def test_unique_rectangle_type_three_of_a_hidden_pair() -> None:
    # r2c1 and r2c4 hold just 1 and 2; r1c1 {1,2,5} and r1c4 {1,2,6} (boxes 1 and 2). The roof
    # holds at most one of 1 and 2: with both, r2c1 and r2c4 would hold the other two and the
    # four could swap 1 and 2, a second solution. Row 1's 1 and 2 have one place besides the
    # roof, r1c7 {1,2,3,4} (its other cells hold 3 to 9): so r1c7 holds the one the roof does
    # not, a hidden pair of the roof and r1c7, and r1c7 loses 3 and 4 (SE's
    # UniqueLoopType3HiddenHint: 4.5 + 0.1 (size - 2), 4.5 for a pair). No naked set is there:
    # the roof's 5 and 6 with row 1's other cells make none.
    masks = {"r2c1": {1, 2}, "r2c4": {1, 2}, "r1c1": {1, 2, 5}, "r1c4": {1, 2, 6}}
    masks |= {f"r1c{c}": set(range(3, 10)) for c in (2, 3, 5, 6, 8, 9)}
    masks["r1c7"] = {1, 2, 3, 4}
    candidates = [FULL] * 81
    for name, held in masks.items():
        candidates[cell(name)] = sum(1 << v for v in held)
    grid = Grid(SHAPE.geometry, candidates, unique=True)
    step = uniqueness.unique_rectangle(grid)
    assert step and step.technique == "unique rectangle type 3" and step.rating == 4.5
    assert names(step.eliminated) == {("r1c7", 3), ("r1c7", 4)}
    assert "hidden set 12 in r1c1 r1c4 r1c7" in step.describe(9)
    # a value of the roof's in r1c7 goes too: the hidden set is 1 and 2 alone
    candidates[cell("r1c7")] |= 1 << 5
    step = uniqueness.unique_rectangle(Grid(SHAPE.geometry, candidates, unique=True))
    assert step and names(step.eliminated) == {("r1c7", v) for v in (3, 4, 5)}
    # with a naked pair on the same roof (r1c7 {5,6}, r1c2 {3,5} losing 5: 4.6) and a hidden
    # pair (r1c8 {1,2,3} losing 3: 4.5), SE sorts its hints by rating: the hidden pair first
    masks = {"r2c1": {1, 2}, "r2c4": {1, 2}, "r1c1": {1, 2, 5}, "r1c4": {1, 2, 6}}
    masks |= {f"r1c{c}": {3, 4, 7, 8, 9} for c in (3, 5, 6, 9)}
    masks |= {"r1c2": {3, 5}, "r1c7": {5, 6}, "r1c8": {1, 2, 3}}
    both = [FULL] * 81
    for name, held in masks.items():
        both[cell(name)] = sum(1 << v for v in held)
    step = uniqueness.unique_rectangle(Grid(SHAPE.geometry, both, unique=True))
    assert step and step.rating == 4.5 and names(step.eliminated) == {("r1c8", 3)}
    both[cell("r1c8")] &= ~(1 << 3)  # once the hidden pair removes nothing, the naked one
    step = uniqueness.unique_rectangle(Grid(SHAPE.geometry, both, unique=True))
    assert step and step.rating == 4.6 and names(step.eliminated) == {("r1c2", 5)}
    grid.unique = False
    assert uniqueness.unique_rectangle(grid) is None


def test_explain_shows_an_xy_cycle_and_its_removal_keeps_the_solution(cli) -> None:
    # the shipped hard9's 10th puzzle (made by this project's generator) meets an XY-cycle:
    # explain names it, the loop one way round, and what goes is not in the solution
    done = cli("explain", "hard9", "--puzzle", "10", "--json")
    assert done.code == 0, done.err
    records = [json.loads(line) for line in done.out.splitlines()]
    step = next(r for r in records if r.get("technique") == "bidirectional cycle")
    assert step["rating"] == 7.1 and step["eliminated"]
    assert re.fullmatch(r"(r\dc\d(=|<>)\d - )+r\dc\d=\d, or each the other way", step["where"])
    with DATASETS["hard9"].open() as handle:
        board = next(islice(read_puzzles(handle), 9, None)).board
    solution = solve(board).solution.cells
    for name, value in step["eliminated"]:
        assert solution[cell(name)] != value


def test_rate_meets_a_unique_rectangle_type_three_that_keeps_the_solution() -> None:
    # the shipped hard9's 39th puzzle (made by this project's generator, one solution) meets a
    # UR type 3 on the path rate grades, and what it removes is not in the solution
    # (``explain`` starts from the givens without the uniqueness check: it shows none)
    with DATASETS["hard9"].open() as handle:
        board = next(islice(read_puzzles(handle), 38, None)).board
    solution = solve(board).solution.cells
    found = [s for s in human.steps(prepared(board)) if s.technique == "unique rectangle type 3"]
    assert found and found[0].rating == 4.6
    for c, v in found[0].eliminated:
        assert solution[c] != v


def test_rate_meets_a_unique_rectangle_type_three_of_a_hidden_set_that_keeps_the_solution() -> None:
    # the shipped hard9's 23rd puzzle (made by this project's generator, one solution) meets a
    # UR type 3 of a hidden pair on the path rate grades: what it removes is not in the solution
    with DATASETS["hard9"].open() as handle:
        board = next(islice(read_puzzles(handle), 22, None)).board
    solution = solve(board).solution.cells
    found = [s for s in human.steps(prepared(board)) if "hidden set" in s.where]
    assert found and found[0].technique == "unique rectangle type 3" and found[0].rating == 4.5
    for c, v in found[0].eliminated:
        assert solution[c] != v


def test_bug_type_four() -> None:
    # a solved grid S; the open cells those holding 1, 2 or 3, each with its value and the next
    # (1->2->3->1): every open cell two values, every value two places in each unit (a BUG).
    # r1c1 {1,2} holds 7 as well, r1c2 {2,3} 8. Without those the grid would be the BUG, so one
    # of them holds its extra value; and row 1's 2 is in r1c1 or r1c2 (its two places in the
    # BUG). So r1c1 is 2 or 7 and r1c2 is 2 or 8: r1c1<>1, r1c2<>3 (Bug4Hint: 5.7)
    solved = [(r * 3 + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]
    after = {1: 2, 2: 3, 3: 1}
    candidates = [1 << v | 1 << after.get(v, v) for v in solved]
    candidates[cell("r1c1")] |= 1 << 7
    candidates[cell("r1c2")] |= 1 << 8
    grid = Grid(SHAPE.geometry, candidates, unique=True)
    grid.placed.update(c for c, v in enumerate(solved) if v not in after)
    assert uniqueness.bug_one(grid) is None and uniqueness.bug_two(grid) is None
    step = uniqueness.bug_four(grid)
    assert step and step.technique == "BUG type 4" and step.rating == 5.7
    assert names(step.eliminated) == {("r1c1", 1), ("r1c2", 3)}
    grid.unique = False
    assert uniqueness.bug_four(grid) is None
