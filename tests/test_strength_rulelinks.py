"""The links a board's constraints give the chains (``rulelinks``), on boards made for them,
the expected values written from each kind's definition: a white Kropki dot (difference 1)
lets r1c2 hold only 4 or 6 beside a 5; a knight's move apart two cells differ; a killer cage
r1c1-r2c1 of total 3 holds 1 and 2. A chain across them reaches what a chain along the units
alone does not, and every step of a puzzle that needs such chains is sound (replayed against
its solution, as tests/test_kind_soundness.py does for every kind).
"""

from __future__ import annotations

import io

import pytest
from kind_puzzles import made

from solvers.formats.boards import read_puzzles
from solvers.model.board import Board
from solvers.strength import human, rulechains, rulelinks
from solvers.strength.chains import SHIFT, Chaining
from solvers.strength.techniques import Grid

UNIT_CHAINS = ("forcing X-chain", "forcing chain", "Nishio forcing chain",
               "multiple forcing chains", "dynamic forcing chains")  # fmt: skip


def board(rules: str, givens: str = "." * 81) -> Board:
    (puzzle,) = read_puzzles(io.StringIO(f"# rules: {rules}\n{givens}\n"))
    return puzzle.board


def cell(name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def key(name: str, value: int) -> int:
    return cell(name) << SHIFT | value


def mask(*values: int) -> int:
    return sum(1 << v for v in values)


def test_a_white_dot_links_its_two_cells_both_ways() -> None:
    grid = human.placed_givens(board("difference r1c1 r1c2"))
    links = dict(rulelinks.links(grid)[cell("r1c1")])
    allowed = links[cell("r1c2")]
    assert allowed[5] == mask(4, 6)
    assert allowed[1] == mask(2) and allowed[9] == mask(8)
    back = dict(rulelinks.links(grid)[cell("r1c2")])[cell("r1c1")]
    assert back[5] == mask(4, 6)
    # a dot says nothing more than its pair: no wide rule to read whole
    assert rulelinks.wide(grid)[cell("r1c1")] == []


def test_a_knight_s_move_apart_two_cells_differ_and_unit_mates_are_left_to_the_units() -> None:
    grid = human.placed_givens(board("anti-knight"))
    partners = dict(rulelinks.links(grid)[cell("r5c5")])
    knights = ("r3c4", "r3c6", "r4c3", "r4c7", "r6c3", "r6c7", "r7c4", "r7c6")
    assert set(partners) == {cell(name) for name in knights}
    full = grid.geometry.full_mask
    assert partners[cell("r3c4")][4] == full & ~mask(4)
    # r1c1's knight's moves r2c3 and r3c2 share its box: the units link them already
    assert rulelinks.links(grid)[cell("r1c1")] == []


def test_a_cage_of_three_is_read_whole_and_one_of_two_by_its_pairs() -> None:
    grid = human.placed_givens(
        board("killercage r1c1 r2c2 r3c3 total=6; killercage r9c1 r9c2 total=3")
    )
    wide = rulelinks.wide(grid)
    assert [c.kind for c, _ in wide[cell("r1c1")]] == ["killercage"]
    assert wide[cell("r9c1")] == []  # two cells: all it says is what each value allows
    pairs = dict(rulelinks.links(grid)[cell("r9c1")])
    assert pairs[cell("r9c2")][1] == mask(2) and pairs[cell("r9c2")][5] == 0


def test_an_on_across_a_dot_removes_what_the_dot_forbids() -> None:
    """r1c1=5 with a white dot to r1c2: r1c2 loses every value but 4 and 6 (and 5, its row
    mate's), a chain along the units alone only 5."""
    grid = human.placed_givens(board("difference r1c1 r1c2"))
    start = key("r1c1", 5)
    with_rules = Chaining(grid, x=True, y=True, dynamic=False, rules=True).run([start], [], False)
    without = Chaining(grid, x=True, y=True, dynamic=False).run([start], [], False)
    gone = {v for v in range(1, 10) if key("r1c2", v) in with_rules.off}
    assert gone == {1, 2, 3, 5, 7, 8, 9}
    assert {v for v in range(1, 10) if key("r1c2", v) in without.off} == {5}


def test_a_dynamic_chain_reads_a_cage_on_its_own_candidates() -> None:
    """A cage r1c1-r2c2-r3c3 of total 6 holds 1, 2 and 3; r2c2 is left 2 or 5. Assuming
    r1c1=1, r1c1's other values go, so the cage leaves r2c2 only 2 or 3, so 2, which a
    dynamic chain then places; without the cage's step it does not."""
    grid = human.placed_givens(board("killercage r1c1 r2c2 r3c3 total=6"))
    grid.candidates[cell("r2c2")] = mask(2, 5)
    start = key("r1c1", 1)
    chain = Chaining(grid, x=True, y=True, dynamic=True, rules=True).run([start], [], True)
    assert key("r2c2", 2) in chain.on and chain.clash is None
    plain = Chaining(grid, x=True, y=True, dynamic=True).run([start], [], True)
    assert key("r2c2", 2) not in plain.on


def test_a_dynamic_chain_that_breaks_a_cage_is_a_contradiction() -> None:
    """A cage r1c1-r1c2-r1c3 of total 24 is 7+8+9; with r1c2 and r1c3 left 8 or 9, r1c1=4
    leaves the cage no assignment: the chain clashes, and the dynamic forcing chains' first
    step is about r1c1 and keeps 7 there (it places 7: without it the cage breaks)."""
    grid = human.placed_givens(board("killercage r1c1 r1c2 r1c3 total=24"))
    grid.candidates[cell("r1c2")] = grid.candidates[cell("r1c3")] = mask(8, 9)
    chain = Chaining(grid, x=True, y=True, dynamic=True, rules=True)
    chain.run([key("r1c1", 4)], [], True)
    assert chain.clash is not None
    step = rulechains.rule_chains(grid)
    assert step is not None and step.technique.endswith("across rules")
    assert step.rating >= rulechains.RULES_BASE
    assert step.placed == ((cell("r1c1"), 7),) or (
        step.eliminated[0][0] == cell("r1c1") and step.eliminated[0][1] != 7
    )


@pytest.mark.parametrize(
    ("seed", "givens"),
    [(3, 20), pytest.param(2, 22, marks=pytest.mark.slow, id="2-unit-chains-first")],
)
def test_chains_across_rules_wait_until_every_cheaper_technique_stalls(
    seed: int, givens: int
) -> None:
    """Whispers puzzles made here (``kind_puzzles``): their explanations take a chain
    across the whispers' links only where every technique before it, the chains along the
    units included, finds nothing on the grid (seed 2 takes seven unit chains first);
    from then on the unit chains are not searched again (the chains across rules hold
    them), and every step keeps the solution. (Seed 1 with 22 givens no longer needs one:
    a rule's claiming takes the step its chain across rules took.)"""
    board, solution = made("whispers", seed, givens=givens)
    grid = human.placed_givens(board)
    cheaper = [find for _, find in human.ORDERED if find is not rulechains.rule_chains]
    before = (list(grid.candidates), set(grid.placed))
    taken = []
    for step in human.steps(grid):
        taken.append(step.technique)
        if step.technique.endswith("across rules"):
            fresh = Grid(grid.geometry, list(before[0]), set(before[1]), grid.constraints)
            assert [find for find in cheaper if find(fresh)] == []
            assert step.rating >= rulechains.RULES_BASE
        for c, value in step.placed:
            assert solution[c] == value
        assert all(solution[c] != value for c, value in step.eliminated)
        before = (list(grid.candidates), set(grid.placed))
    first = next(i for i, name in enumerate(taken) if name.endswith("across rules"))
    assert (seed == 2) == any(name in UNIT_CHAINS for name in taken[:first])
    assert not any(name in UNIT_CHAINS for name in taken[first:])


def test_a_dynamic_chain_across_rules_that_empties_a_cell_in_one_go_clashes() -> None:
    """r1c2 holds 1 or 2. Assuming r1c1=1 and r2c2=2 together, r1c2 loses 1 (row 1) and 2
    (box 1) before either loss is followed: no value is left it, a contradiction, though no
    candidate was ever both on and off. A chain across rules says so at the first of those
    "off"s (r1c2 must then be 1 as its last value, and is not); the chains along the units
    alone keep SE's rule (a clash is a candidate both on and off) and go on."""
    grid = human.placed_givens(board("xv r9c8 r9c9 sum=10"))
    grid.candidates[cell("r1c2")] = mask(1, 2)
    across = Chaining(grid, x=True, y=True, dynamic=True, rules=True)
    across.run([key("r1c1", 1), key("r2c2", 2)], [], True)
    assert across.clash == key("r1c2", 1)
    assert key("r1c2", 1) in across.on and key("r1c2", 2) in across.off
    units = Chaining(grid, x=True, y=True, dynamic=True)
    units.run([key("r1c1", 1), key("r2c2", 2)], [], True)
    assert units.clash != key("r1c2", 1)


def test_a_dynamic_chain_across_rules_that_leaves_a_value_no_place_in_a_unit_clashes() -> None:
    """In row 1, 5 may go only in r1c1 or r1c2: assuming both off for 5 leaves row 1 no
    place for 5, a contradiction the chain across rules states at the first of them (its
    hidden single in row 1 has no cell to land on)."""
    grid = human.placed_givens(board("xv r9c8 r9c9 sum=10"))
    for name in ("r1c3", "r1c4", "r1c5", "r1c6", "r1c7", "r1c8", "r1c9"):
        grid.candidates[cell(name)] &= ~mask(5)
    across = Chaining(grid, x=True, y=True, dynamic=True, rules=True)
    across.run([], [key("r1c1", 5), key("r1c2", 5)], True)
    assert across.clash in (key("r1c1", 5), key("r1c2", 5))
