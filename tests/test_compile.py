"""The compile step: what a board's constraints flatten into, and what each engine is given."""

from __future__ import annotations

from solvers import Board, Shape, parse
from solvers.model.compile import EVERY_KIND, PRIMITIVES, SUM_GROUPS, SumGroup, flatten
from solvers.model.constraints.primitives import AllDifferent, Linear

EMPTY9 = "." * 81


def flat_of(rules: str):
    """The rules as stated, flattened (the sums the 45 rule implies: test_implied.py)."""
    return flatten(parse(f"# rules: {rules}\n{EMPTY9}"), implied=False)


def test_a_classic_board_is_its_rows_columns_and_boxes():
    flat = flatten(Board.empty(Shape(3, 3)))
    assert len(flat.units) == 27 and flat.sum_groups == () and flat.primitives == ()
    assert flat.beyond(frozenset()) == frozenset()


def test_an_all_different_of_n_cells_is_a_unit_every_engine_reads():
    flat = flat_of("x; extraregion r1c1 r1c2 r1c3 r2c1 r2c2 r2c3 r3c4 r3c5 r3c6")
    assert len(flat.units) == 27 + 3 and flat.primitives == ()
    assert flat.units[27:29] == (tuple(range(8, 80, 8)), tuple(range(0, 81, 10)))
    assert flat.geometry.unit_names[27:] == ("diagonal+", "diagonal-", "extraregion at r1c1")
    assert flat.beyond(frozenset()) == frozenset()  # units alone: norvig takes it


def test_an_extra_region_that_repeats_a_box_is_one_unit():
    flat = flat_of("extraregion r1c1 r1c2 r1c3 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3")
    assert len(flat.units) == 27


def test_an_all_different_with_a_sum_of_ones_is_a_sum_group():
    flat = flat_of("killercage r1c1 r1c2 total=3; killercage r5c5 r5c6 r6c5")
    assert flat.sum_groups == (SumGroup((0, 1), 3),)
    assert flat.primitives == (AllDifferent((40, 41, 49)),)  # no total: no sum group
    assert flat.sum_group_kinds == {"killercage"} and flat.primitive_kinds == {"killercage"}
    assert SumGroup((0, 1), 3).value_sets(9) == (0b110,)


def test_a_cage_of_n_cells_adding_up_to_every_value_is_a_unit():
    row = " ".join(f"r2c{c}" for c in range(1, 10))
    flat = flat_of(f"killercage {row} total=45")
    assert len(flat.units) == 27 and flat.sum_groups == () and flat.primitives == ()


def test_an_engine_is_given_the_sum_groups_lowered_unless_it_encodes_them():
    flat = flat_of("killercage r1c1 r1c2 total=3; thermometer r9c1 r9c2")
    assert flat.primitives_for(EVERY_KIND) == flat.primitives
    lowered = flat.primitives_for(frozenset({PRIMITIVES}))
    assert lowered[:2] == (AllDifferent((0, 1)), Linear(((1, 0), (1, 1)), "==", 3))
    assert lowered[2:] == flat.primitives


def test_what_a_board_needs_beyond_an_engine_is_named_by_kind():
    flat = flat_of("killercage r1c1 r1c2 total=3; thermometer r9c1 r9c2; x")
    assert flat.beyond(frozenset()) == {"killercage", "thermometer"}
    assert flat.beyond(frozenset({SUM_GROUPS})) == {"thermometer"}
    assert flat.beyond(frozenset({PRIMITIVES})) == frozenset()  # sum groups reach it lowered
    assert flat.beyond(EVERY_KIND) == frozenset()


def test_one_board_flattens_once():
    board = parse(f"# rules: thermometer r1c1 r1c2\n{EMPTY9}")
    assert flatten(board) is flatten(board.with_cells((1,) + (0,) * 80))


def test_givens_that_repeat_in_a_sum_group_or_pass_its_total_are_conflicts():
    board = parse(f"# rules: killercage r2c1 r1c1 total=3\n2{'.' * 8}2{'.' * 71}")
    assert board.conflicts() == [
        "column 1 has 2 twice (r1c1, r2c1)",
        "box 1 has 2 twice (r1c1, r2c1)",
        "killercage at r2c1 (total 3) has 2 twice (r1c1, r2c1)",
        "killercage at r2c1 (total 3) holds givens adding up to 4",
    ]


def test_an_outside_backend_declaring_cages_gets_sum_groups():
    """An outside backend may declare the alias ``CAGES`` and read ``flat.cages``: it is
    given the sum groups whole, as one declaring ``SUM_GROUPS`` is."""
    from solvers.backends.contract import Backend, contract_fault
    from solvers.model.compile import CAGES, Cage

    class DeclaresCages(Backend):
        ENCODES = frozenset({CAGES})

    flat = flat_of("killercage r1c1 r1c2 total=3; thermometer r2c1 r2c2")
    assert contract_fault(DeclaresCages) is None
    assert flat.beyond(frozenset({CAGES})) == frozenset({"thermometer"})
    assert flat.primitives_for(frozenset({CAGES})) == flat.primitives  # not lowered
    assert flat.cages == flat.sum_groups and isinstance(flat.cages[0], Cage)


def test_a_sum_group_of_one_cell_is_one_an_engine_of_sum_groups_takes():
    flat = flat_of("killercage r5c5 total=7")
    assert flat.sum_groups == (SumGroup((40,), 7),) and flat.primitives == ()
    assert flat.beyond(frozenset({SUM_GROUPS})) == frozenset()
    assert flat_of("killercage r5c5").primitives == ()  # one cell differs from nothing
