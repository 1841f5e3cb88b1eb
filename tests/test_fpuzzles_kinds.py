"""The vocabulary's kinds as f-puzzles keys: each key read into its constraints and written back
in the shape f-puzzles writes, the negative constraints of the dots, a round trip per kind
through the text form (solved by cpsat to the same solution, the same constraints in the JSON),
what is refused either way, and sizes 4 to 16."""

from __future__ import annotations

import json
import random

import pytest
from corpus import variant
from test_constraints import instance

from solvers import Board, InputError, Shape, count_solutions, read_puzzles, solve
from solvers.formats import fpuzzles, fpuzzles_link
from solvers.formats.writing import text
from solvers.model.constraints.kinds import KINDS, check
from solvers.model.constraints.model import Constraint
from solvers.model.variants import Rules


def grid_json(size: int, **keys) -> dict:
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)]} | keys


def read(data: dict) -> Board:
    return fpuzzles.from_json(json.loads(json.dumps(data))).board


def refusal(data: dict) -> str:
    with pytest.raises(InputError) as caught:
        fpuzzles.from_json(data, 4)
    assert caught.value.line == 4 and "\n" not in caught.value.message
    return caught.value.message


def canonical(data: dict) -> dict:
    """An f-puzzles JSON's rules, order aside: each list key as a sorted list of its entries
    (each entry's cell lists kept in order: a line's order is its meaning)."""
    return {
        key: sorted(json.dumps(entry, sort_keys=True) for entry in value)
        if isinstance(value, list)
        else value
        for key, value in data.items()
        if key not in ("grid", "size")
    }


def C(kind: str, *cells: int, **params) -> Constraint:
    return Constraint(kind, cells, tuple(params.items()))


COL3 = tuple(range(2, 81, 9))
ROW4_FROM_RIGHT = tuple(range(35, 26, -1))
COL9_FROM_BOTTOM = tuple(range(80, 7, -9))
ROW3 = tuple(range(18, 27))
# Each key as f-puzzles writes it on a 9x9 board, and the constraints it says.
KEYS = [
    ("antiknight", True, [C("anti-knight")]),
    ("antiking", True, [C("anti-king")]),
    ("disjointgroups", True, [C("disjointgroups", box=(3, 3))]),
    ("nonconsecutive", True, [C("non-consecutive")]),
    ("diagonal+", True, [C("diagonal+")]),
    ("diagonal-", True, [C("diagonal-")]),
    ("odd", [{"cell": "R1C1"}, {"cell": "R9C9"}], [C("odd", 0), C("odd", 80)]),
    ("even", [{"cell": "R5C5"}], [C("even", 40)]),
    ("minimum", [{"cell": "R2C2"}], [C("minimum", 10)]),
    ("maximum", [{"cell": "R2C8"}, {"cell": "R3C8"}], [C("maximum", 16, 25)]),
    ("rowindexer", [{"cells": ["R1C6"]}], [C("rowindexer", 5)]),
    ("columnindexer", [{"cells": ["R4C1"]}, {"cells": ["R5C1"]}],
     [C("columnindexer", 27), C("columnindexer", 36)]),
    ("boxindexer", [{"cells": ["R2C2"]}], [C("boxindexer", 10, box=(3, 3))]),
    ("xv", [{"cells": ["R4C5", "R4C6"], "value": "X"}, {"cells": ["R1C1", "R2C1"], "value": "V"}],
     [C("xv", 31, 32, sum=10), C("xv", 0, 9, sum=5)]),
    ("difference", [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C2", "R2C3"], "value": "3"}],
     [C("difference", 0, 1), C("difference", 10, 11, difference=3)]),
    ("ratio", [{"cells": ["R2C2", "R3C2"]}, {"cells": ["R5C5", "R5C6"], "value": "3"}],
     [C("ratio", 10, 19), C("ratio", 40, 41, ratio=3)]),
    ("thermometer", [{"lines": [["R1C1", "R1C2", "R2C3"]]}], [C("thermometer", 0, 1, 11)]),
    ("palindrome", [{"lines": [["R5C1", "R5C2", "R5C3", "R4C3"]]}],
     [C("palindrome", 36, 37, 38, 29)]),
    ("whispers", [{"lines": [["R2C2", "R2C3"]]}, {"lines": [["R8C8", "R9C9"]]}],
     [C("whispers", 10, 11), C("whispers", 70, 80)]),
    # Dutch whispers, as dclamage/SudokuSolver's plugin writes them: a gap of 4 on 9x9
    ("whispers", [{"lines": [["R4C4", "R4C5"]], "value": "4"}],
     [C("whispers", 30, 31, difference=4)]),
    ("renban", [{"lines": [["R7C7", "R7C8", "R8C8"]]}], [C("renban", 60, 61, 70)]),
    ("betweenline", [{"lines": [["R6C1", "R6C2", "R6C3", "R7C4"]]}],
     [C("betweenline", 45, 46, 47, 57)]),
    ("regionsumline", [{"lines": [["R1C3", "R1C4", "R2C4"]]}],
     [C("regionsumline", 2, 3, 12, regions=(0, 1, 1))]),
    ("entropicline", [{"lines": [["R8C2", "R8C3", "R8C4", "R8C5"]]}],
     [C("entropic", 64, 65, 66, 67)]),
    ("slowthermometer", [{"lines": [["R9C1", "R8C1", "R7C1"]]}],
     [C("slow-thermometer", 72, 63, 54)]),
    ("zipperline", [{"lines": [["R4C1", "R4C2", "R4C3", "R5C3", "R6C3"]]}],
     [C("zipper", 27, 28, 29, 38, 47)]),
    ("modularline", [{"lines": [["R6C6", "R6C7", "R6C8", "R7C8"]]}],
     [C("modularline", 50, 51, 52, 61)]),
    ("nabner", [{"lines": [["R3C6", "R4C7", "R5C8"]]}], [C("nabner", 23, 33, 43)]),
    ("lockout", [{"lines": [["R9C6", "R8C7", "R9C8"]]}], [C("lockout", 77, 69, 79)]),
    ("doublearrow", [{"lines": [["R4C7", "R5C7", "R6C7", "R7C7"]]}],
     [C("doublearrow", 33, 42, 51, 60)]),
    ("sandwichsum", [{"cell": "R0C3", "value": "15"}, {"cell": "R4C10", "value": "0"}],
     [C("sandwich", *COL3, total=15), C("sandwich", *ROW4_FROM_RIGHT, total=0)]),
    ("xsum", [{"cell": "R10C9", "value": "20"}], [C("xsum", *COL9_FROM_BOTTOM, total=20)]),
    ("skyscraper", [{"cell": "R3C0", "value": "4"}], [C("skyscraper", *ROW3, total=4)]),
    ("arrow", [{"cells": ["R1C5"], "lines": [["R1C5", "R2C5", "R3C5"]]},
               {"cells": ["R5C1", "R5C2"], "lines": [["R5C2", "R6C2", "R7C2"]]}],
     [C("arrow", 4, 13, 22), C("arrow", 36, 37, 46, 55, circle=2)]),  # circle 1: the default
    # a pill's shaft drawn from its first cell (r8c1 r8c2, down from r8c1), as f-puzzles may
    ("arrow", [{"cells": ["R8C1", "R8C2"], "lines": [["R8C1", "R9C1", "R9C2"]]}],
     [C("arrow", 63, 64, 72, 73, circle=2)]),
    ("littlekillersum", [{"cell": "R0C2", "direction": "DR", "value": "15"}],
     [C("littlekiller", 2, 12, 22, 32, 42, 52, 62, total=15)]),
    ("quadruple", [{"cells": ["R4C4", "R4C5", "R5C4", "R5C5"], "values": [1, 2, 7]}],
     [C("quadruple", 30, 31, 39, 40, values=(1, 2, 7))]),
    ("clone", [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R9C8", "R9C9"]}],
     [C("clone", 0, 1, 79, 80)]),
    ("killercage", [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R5C5"], "value": "7"}],
     [C("killercage", 0, 1), C("killercage", 40, total=7)]),
    ("extraregion", [{"cells": ["R1C1", "R1C2", "R2C1"]}], [C("extraregion", 0, 1, 9)]),
]  # fmt: skip


@pytest.mark.parametrize(("key", "value", "constraints"), KEYS, ids=[k[0] for k in KEYS])
def test_each_key_reads_into_its_constraints_and_is_written_back_so(key, value, constraints):
    board = read(grid_json(9, **{key: value}))
    assert board.rules == Rules(constraints=tuple(constraints))
    written = fpuzzles.to_json(Board.empty(Shape(3, 3), Rules(constraints=tuple(constraints))))
    assert canonical(written) == canonical({key: value})


def test_every_kind_with_an_f_puzzles_key_is_in_the_table():
    keys = {key for key, _, _ in KEYS}
    assert {kind.fpuzzles for kind in KINDS.values() if kind.fpuzzles} <= keys


def test_a_key_may_group_what_the_model_holds_apart():
    # A thermometer's branches share an entry; the indexers' cells share one; a clone's
    # cell cloned onto itself says nothing.
    data = grid_json(
        9,
        thermometer=[{"lines": [["R1C1", "R1C2"], ["R1C1", "R2C1"]]}],
        rowindexer=[{"cells": ["R1C1", "R1C2"]}],
        clone=[{"cells": ["R1C1", "R1C5"], "cloneCells": ["R9C9", "R1C5"]}],
    )
    assert read(data).rules.constraints == (
        C("clone", 0, 80),
        C("rowindexer", 0),
        C("rowindexer", 1),
        C("thermometer", 0, 1),
        C("thermometer", 0, 9),
    )


@pytest.mark.parametrize("backend", ["cpsat", "dfs"])
def test_a_keys_maxima_are_compared_only_with_cells_outside_the_key(backend, cli, tmp_path):
    # maxima r2c2, r2c3 side by side, minima r1c1, r2c1 side by side: two 4x4 grids fit
    # (f-puzzles' meaning); compared with each other, none would
    maxima, minima = [{"cell": "R2C2"}, {"cell": "R2C3"}], [{"cell": "R1C1"}, {"cell": "R2C1"}]
    puzzle = tmp_path / "fortress.json"
    puzzle.write_text(json.dumps(grid_json(4, maximum=maxima, minimum=minima)))
    run = cli("count", str(puzzle), "--backend", backend)
    assert (run.code, run.out, run.err) == (0, "2\n", "")


@pytest.mark.parametrize("backend", ["cpsat", "dfs"])
def test_a_region_sum_line_back_in_a_region_sums_each_stretch(backend, cli, tmp_path):
    # box 1, box 2, box 1 again: r1c1 + r1c2 = r1c3 = r2c2 (dclamage's
    # RegionSumLinesConstraint.cs splits the line where it crosses a box border), 24 grids;
    # summing box 1's three cells against r1c3 would leave none
    line = {"lines": [["R1C1", "R1C2", "R1C3", "R2C2"]]}
    puzzle = tmp_path / "stretches.json"
    puzzle.write_text(json.dumps(grid_json(4, regionsumline=[line])))
    run = cli("count", str(puzzle), "--backend", backend, "--limit", "100")
    assert (run.code, run.out, run.err) == (0, "24\n", "")
    board = read(grid_json(4, regionsumline=[line]))
    assert board.rules.constraints == (C("regionsumline", 0, 1, 2, 5, regions=(0, 0, 1, 2)),)
    assert fpuzzles.to_json(board)["regionsumline"] == [line]


@pytest.mark.parametrize("backend", ["cpsat", "dfs"])
@pytest.mark.parametrize(("parity", "kind", "count"), [("Odd", "odd", 24), ("Even", "even", 48)])
def test_a_cells_parity_is_an_odd_or_an_even_cell(backend, parity, kind, count, cli, tmp_path):
    # as "Orbit" by Qodec writes its odd and even corners; r1c2 given 1 leaves r1c1 2, 3 or 4
    data = grid_json(4)
    data["grid"][0][:2] = [{"parity": parity}, {"value": 1, "given": True}]
    puzzle = tmp_path / "parity.json"
    puzzle.write_text(json.dumps(data))
    run = cli("count", str(puzzle), "--backend", backend, "--limit", "100")
    assert (run.code, run.out, run.err) == (0, f"{count}\n", "")
    board = read(data)
    assert board.rules.constraints == (C(kind, 0),)
    assert fpuzzles.to_json(board)[kind] == [{"cell": "R1C1"}]


def test_a_boards_maxima_are_one_set_however_they_were_given():
    # as f-puzzles lists them under one key: touching maxima are not compared with each other
    touching = Rules(constraints=(C("maximum", 10), C("maximum", 11)))
    assert touching.constraints == (C("maximum", 10, 11),)
    assert fpuzzles.to_json(Board.empty(Shape(3, 3), touching))["maximum"] == [
        {"cell": "R2C2"},
        {"cell": "R2C3"},
    ]


def test_a_drawn_cage_with_a_digital_root_is_a_multisum_cage_and_is_written_back_so():
    # as dclamage/SudokuSolver's SolverFactory.cs reads f-puzzles' cage key: DR5 on two cells
    # of 9x9 is 5 or 14 (23 is out of reach); a cage with other text is a drawing
    cages = [{"cells": ["R1C1", "R1C2"], "value": "DR5"}, {"cells": ["R5C5"], "value": "7"}]
    found = fpuzzles.from_json(grid_json(9, cage=cages))
    assert found.board.rules.constraints == (C("multisumcage", 0, 1, totals=(5, 14)),)
    assert found.ignored == ("cage",)
    assert fpuzzles.to_json(found.board)["cage"] == cages[:1]
    odd = Board.empty(Shape(3, 3), Rules(constraints=(C("multisumcage", 0, 1, totals=(5,)),)))
    with pytest.raises(InputError, match="has totals no digital root gives"):
        fpuzzles.to_json(odd)


def test_cages_windows_and_diagonals_are_constraints_of_their_kinds():
    cages = [{"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R9C9"], "value": "9"}]
    board = read(grid_json(9, killercage=cages))
    assert board.rules.names == {"killercage"} and len(board.rules.constraints) == 2
    overlapping = [*cages, {"cells": ["R1C2", "R2C2"], "value": "10"}]
    board = read(grid_json(9, killercage=overlapping))
    assert board.rules.names == {"killercage"} and len(board.rules.constraints) == 3
    windoku = variant(Shape(3, 3), "windoku")
    windows = fpuzzles.to_json(Board.empty(Shape(3, 3), windoku))["extraregion"]
    assert read(grid_json(9, extraregion=windows)).rules == windoku
    assert read(grid_json(9, extraregion=windows[:3])).rules.names == {"extraregion"}
    both = read(grid_json(9, **{"diagonal+": True, "diagonal-": True}))
    assert both.rules == variant(Shape(3, 3), "x")


# -- the negative constraints of the dots ----------------------------------------------------

WHITE = [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C1", "R2C2"], "value": "2"}]
BLACK = [{"cells": ["R3C1", "R3C2"]}, {"cells": ["R4C1", "R4C2"], "value": "3"}]
KROPKI = ((0, 1), (9, 10), (18, 19), (27, 28))
XV = [{"cells": ["R5C1", "R5C2"], "value": "X"}]


@pytest.mark.parametrize(
    ("switches", "negatives"),
    [
        ({"nonconsecutive": True}, [C("negative-difference", exempt=KROPKI)]),
        (
            {"negative": ["difference"]},
            [
                C("negative-difference", exempt=KROPKI),
                C("negative-difference", exempt=KROPKI, difference=2),
            ],
        ),
        (
            {"negative": ["ratio"]},
            [C("negative-ratio", exempt=KROPKI), C("negative-ratio", exempt=KROPKI, ratio=3)],
        ),
        ({"negative": ["xv"]}, [C("negative-xv", exempt=((36, 37),))]),
        (
            {"nonconsecutive": True, "negative": ["ratio", "xv"]},
            [
                C("negative-difference", exempt=KROPKI),
                C("negative-ratio", exempt=KROPKI),
                C("negative-ratio", exempt=KROPKI, ratio=3),
                C("negative-xv", exempt=((36, 37),)),
            ],
        ),
    ],
)  # fmt: skip
def test_negative_constraints_exempt_the_dotted_pairs_and_are_written_back(switches, negatives):
    data = grid_json(9, difference=WHITE, ratio=BLACK, xv=XV) | switches
    board = read(data)
    dots = [c for c in board.rules.constraints if not c.kind.startswith("negative")]
    assert len(dots) == 5
    assert sorted(set(board.rules.constraints) - set(dots), key=repr) == sorted(negatives, key=repr)
    assert canonical(fpuzzles.to_json(board)) == canonical(data)


def test_nonconsecutive_lets_a_white_dot_hold_and_forbids_every_other_consecutive_pair():
    board = read(grid_json(8, difference=[{"cells": ["R3C3", "R3C4"]}], nonconsecutive=True))
    assert C("negative-difference", exempt=((18, 19),)) in board.rules.constraints
    cells = solve(board, backend="cpsat").solution.cells  # each constraint verified
    pairs = [(a, a + 1) for a in range(64) if a % 8 < 7] + [(a, a + 8) for a in range(56)]
    assert [p for p in pairs if abs(cells[p[0]] - cells[p[1]]) == 1] == [(18, 19)]
    # without the exemption the dot could never hold
    plain = Rules(constraints=(C("difference", 18, 19), C("non-consecutive")))
    assert count_solutions(Board.empty(Shape.for_size(8), plain), 1, "cpsat") == 0


# -- refused, one line naming the key -------------------------------------------------------

JIGSAW6 = [0, 0, 0, 1, 1, 1, 0, 0, 2, 1, 1, 1, 2, 0, 2, 2, 3, 3]
JIGSAW6 += [2, 2, 2, 4, 3, 3, 5, 5, 4, 4, 4, 3, 5, 5, 5, 4, 4, 3]


def jigsaw(**keys) -> dict:
    data = grid_json(6, **keys)
    for index, region in enumerate(JIGSAW6):
        data["grid"][index // 6][index % 6]["region"] = region
    return data


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (jigsaw(disjointgroups=True), "'disjointgroups': irregular regions have no box"),
        (jigsaw(boxindexer=[{"cells": ["R1C1"]}]), "'boxindexer': irregular regions"),
        (grid_json(9, palindrome=[{"lines": [["R1C3", "R1C4", "R1C3"]]}]), "names a cell twice"),
        (grid_json(9, arrow=[{"cells": ["R1C1"], "lines": [["R2C2", "R3C3"]]}]),
         "the arrow from R2C2 starts outside its circle"),
        (grid_json(9, littlekillersum=[{"cell": "R0C2", "direction": "UP", "value": "5"}]),
         "no direction UL, UR, DL or DR"),
        (grid_json(9, littlekillersum=[{"cell": "R0C2", "direction": "UL", "value": "5"}]),
         "points away from the grid"),
        (grid_json(9, littlekillersum=[{"cell": "R0C2", "direction": "DL", "value": ""}]),
         "the clue at R0C2 has no value"),
        (grid_json(9, sandwichsum=[{"cell": "R1C1", "value": "5"}]), "'R1C1' is not a clue cell"),
        (grid_json(9, sandwichsum=[{"cell": "R0C10", "value": "5"}]), "'R0C10' is not a clue cell"),
        (grid_json(9, xsum=[{"cell": "R0C1", "value": "x5"}]), "has value 'x5', not a number"),
        (grid_json(9, skyscraper=[{"cell": "R0C1", "value": "12"}]), "total 12 is not in 1..9"),
        (grid_json(9, xv=[{"cells": ["R1C1", "R1C2"], "value": "Y"}]), "the dot at R1C1 is 'Y'"),
        (grid_json(9, xv=[{"cells": ["R1C1", "R1C3"], "value": "X"}]), "do not touch orthogonally"),
        (grid_json(9, thermometer=[{"lines": [["R1C1", "R1C3"]]}]), "r1c1 and r1c3 do not touch"),
        (grid_json(9, thermometer=[{"lines": ["R1C1"]}]), "an entry with no lines"),
        (grid_json(9, quadruple=[{"cells": ["R1C1"], "values": "12"}]), "values are not a list"),
        (grid_json(9, clone=[{"cells": ["R1C1"], "cloneCells": ["R2C2", "R3C3"]}]),
         "differ in size"),
        (grid_json(9, odd=[{"cell": "R10C1"}]), "'R10C1' is not a cell of the 9x9 grid"),
        (grid_json(9, nonconsecutive="1"), "'nonconsecutive': expected true"),
        (grid_json(9, negative="ratio"), "expected a list"),
    ],
)  # fmt: skip
def test_what_the_model_cannot_keep_is_refused_naming_the_key(data, says):
    assert says in refusal(data)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("parityline r1c1 r1c2", "parityline at r1c1 has no f-puzzles key"),
        ("littlekiller r2c2 r3c3 total=5", "does not run from a clue outside the grid"),
        ("negative-xv exempt=r1c1-r1c2", "negative-xv exempts other pairs than those with a dot"),
    ],
)
def test_what_f_puzzles_cannot_say_is_refused_when_writing(line, says, cli):
    puzzle = f"# rules: {line}\n{'.' * 81}\n"
    done = cli("convert", "--to", "fpuzzles", stdin=puzzle)
    assert done.code == 2 and says in done.err and not done.out
    assert "write it --to line, --to text or --to json" in done.err


def test_a_negative_constraint_that_f_puzzles_would_read_back_otherwise_is_refused():
    # non-consecutive forbids a 1-2 pair under a black dot too; f-puzzles' switch exempts it
    ratio = C("ratio", 0, 1)
    board = Board.empty(Shape(3, 3), Rules(constraints=(C("non-consecutive"), ratio)))
    with pytest.raises(InputError, match="would read back otherwise"):
        fpuzzles.to_json(board)


JUNK = (None, True, 5, -1, "", "X", "R99C99", "R0C0", [], [[]], {}, [{}], {"cells": []})


def mangled(value, rng: random.Random):
    """The value with one part, at any depth, replaced by junk."""
    if isinstance(value, list) and value and rng.random() < 0.7:
        index = rng.randrange(len(value))
        return [*value[:index], mangled(value[index], rng), *value[index + 1 :]]
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(sorted(value))
        return value | {key: mangled(value[key], rng)}
    return rng.choice(JUNK)


@pytest.mark.parametrize(("key", "value"), [(k, v) for k, v, _ in KEYS], ids=[k[0] for k in KEYS])
def test_a_mangled_key_is_read_or_refused_in_one_line_never_a_traceback(key, value):
    rng = random.Random(f"mangled {key}")
    for _ in range(40):
        try:
            fpuzzles.from_json(grid_json(9, **{key: mangled(value, rng)}), 2)
        except InputError as error:
            assert error.line == 2 and "\n" not in error.message


# -- a round trip per kind ------------------------------------------------------------------

NEGATIVE_DOTS = {"negative-xv": ("xv",), "negative-difference": ("difference", "ratio")}
NEGATIVE_DOTS["negative-ratio"] = ("difference", "ratio")


def writable(name: str, shape: Shape, rng: random.Random) -> tuple[Constraint, ...]:
    """Constraints of kind ``name`` (and, for a negative constraint, the dots it exempts)
    that f-puzzles can say."""
    for _ in range(200):
        if name in NEGATIVE_DOTS:
            dots = tuple(
                instance(rng.choice(NEGATIVE_DOTS[name]), shape.size, rng) for _ in range(3)
            )
            pairs = tuple({tuple(sorted(d.cells)) for d in dots})
            found = (*dots, Constraint(name, (), (("exempt", pairs),)))
        else:
            found = tuple(instance(name, shape.size, rng) for _ in range(rng.randint(1, 2)))
        if name == "killercage":  # one cage with no total: all are constraints, none killer
            found = (Constraint(name, found[0].cells), *found[1:])
        try:
            fpuzzles.to_json(Board.empty(shape, Rules(constraints=found)))
        except InputError:
            continue
        return found
    raise AssertionError(f"no writable {name} drawn")


def puzzle_with(constraints: tuple[Constraint, ...], shape: Shape, rng: random.Random):
    """A puzzle with these constraints and some givens of a grid cpsat finds that obeys them
    (None if none does)."""
    empty = Board.empty(shape, Rules(constraints=constraints))
    full = solve(empty, backend="cpsat").solution
    if full is None:
        return None
    marked = {c.cells[0] for c in constraints if c.kind == "candidates"}  # no given's marks
    return empty.with_cells(
        v if rng.random() < 0.6 and i not in marked else 0 for i, v in enumerate(full.cells)
    )


# (candidates: a grid cell's givenPencilMarks, tests/test_fpuzzles.py)
ROUND_TRIP = sorted({*NEGATIVE_DOTS, "candidates", *(n for n, k in KINDS.items() if k.fpuzzles)})


@pytest.mark.parametrize("name", ROUND_TRIP)
def test_round_trip_through_the_text_form_solves_the_same_with_the_same_constraints(name):
    # (on 6x6, no grid keeps every unmarked pair non-consecutive)
    rng, shape = random.Random(f"round trip {name}"), Shape(2, 4 if "difference" in name else 3)
    puzzles = (puzzle_with(writable(name, shape, rng), shape, rng) for _ in range(50))
    puzzle = next(p for p in puzzles if p is not None)
    link = fpuzzles.link(puzzle)
    first = fpuzzles.read(link).board
    (item,) = read_puzzles(text(first).splitlines())
    assert not isinstance(item, InputError), item
    again = fpuzzles_link.decode(fpuzzles.link(item.board))
    assert canonical(again) == canonical(fpuzzles_link.decode(link))
    solved = solve(fpuzzles.from_json(again).board, backend="cpsat")  # verified by the runner
    assert solved.solution.cells == solve(first, backend="cpsat").solution.cells
    assert all(v in (0, w) for v, w in zip(puzzle.cells, solved.solution.cells, strict=True))


# -- sizes 4 to 16 --------------------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 6, 8, 9, 10, 12, 14, 15, 16])
def test_kinds_on_every_size_f_puzzles_draws_with_boxes(size):
    shape, n = Shape.for_size(size), size
    grid = Board.pattern(shape).cells
    gap = abs(grid[n] - grid[n + 1])
    low, high = sorted((grid[:n].index(1), grid[:n].index(n)))
    diagonal = tuple(r * n + r + 1 for r in range(n - 1))  # from the clue R0C1, down and right
    constraints = (
        C("odd" if grid[0] % 2 else "even", 0),
        C("difference", n, n + 1, **({} if gap == 1 else {"difference": gap})),
        C("killercage", 2 * n, 2 * n + 1),
        C("sandwich", *range(n), total=sum(grid[low + 1 : high])),
        C("littlekiller", *diagonal, total=sum(grid[cell] for cell in diagonal)),
    )
    assert not [problem for c in constraints for problem in check(c, grid, n)]
    cells = tuple(v if i % 3 else 0 for i, v in enumerate(grid))
    puzzle = Board(shape, cells, Rules(constraints=constraints))
    back = fpuzzles.read(fpuzzles.link(puzzle)).board
    assert back == puzzle
    assert solve(back, backend="cpsat").solution is not None  # verified against each constraint
