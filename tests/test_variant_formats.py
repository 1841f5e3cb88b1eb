"""Rules as text: the rules header, region maps, the classic variants' names and cage maps,
and their errors."""

from __future__ import annotations

import pytest
from corpus import KILLER4, variant

from solvers import Board, InputError, Shape, parse, read_puzzles
from solvers.formats import variant_text
from solvers.formats.boards import Puzzle, format_puzzle
from solvers.formats.variant_text import RULE_NAMES, build_rules
from solvers.model.constraints.model import Constraint

EMPTY9 = "." * 81
# Boxes, with r3c3/r4c1 swapped between A and D, and r6c6/r4c7 between E and F.
JIGSAW = [
    "AAABBBCCC",
    "AAABBBCCC",
    "AADBBBCCC",
    "ADDEEEEFF",
    "DDDEEEFFF",
    "DDDEEFFFF",
    "GGGHHHIII",
    "GGGHHHIII",
    "GGGHHHIII",
]


def only(text: str) -> Puzzle:
    (item,) = list(read_puzzles(text.splitlines()))
    if isinstance(item, InputError):
        raise item
    return item


def error_of(text: str) -> str:
    items = list(read_puzzles(text.splitlines()))
    errors = [str(item) for item in items if isinstance(item, InputError)]
    assert errors, items
    return errors[0]


def test_a_rules_header_gives_the_puzzles_after_it_their_rules():
    text = f"{EMPTY9}\n# rules: x windoku\n{EMPTY9}\n# rules: classic\n{EMPTY9}\n"
    boards = [item.board for item in read_puzzles(text.splitlines())]
    labels = ["classic", "diagonal+ diagonal- extraregion", "classic"]
    assert [b.rules.label for b in boards] == labels
    x_windoku = boards[1].geometry
    assert len(x_windoku.units) == 27 + 2 + 4
    assert x_windoku.units[28] == tuple(range(0, 81, 10))  # the main diagonal (diagonal-)


def test_a_killer_grid_without_givens_reads_its_cages_in_reading_order():
    board = only(KILLER4).board
    assert board.cells == (0,) * 16 and board.rules.label == "killercage"
    cages = [(c.cells, c.param("total")) for c in board.rules.constraints]
    assert cages[:3] == [((0, 1), 3), ((2, 3, 7), 8), ((4, 5), 7)]
    assert sum(total for _, total in cages) == 4 * (1 + 2 + 3 + 4)


def test_a_jigsaw_line_carries_its_region_map_and_writes_back_the_same():
    regions = "".join(JIGSAW)
    board = only(f"{EMPTY9} regions={regions}").board
    assert board.rules.label == "jigsaw"
    assert board.geometry.unit_names[18] == "region A"
    assert board.geometry.units[18] == (0, 1, 2, 9, 10, 11, 18, 19, 27)
    again = only(format_puzzle(board)).board
    assert again == board


def test_killer_and_x_combine_and_round_trip_through_a_line():
    board = only(KILLER4.replace("killer", "killer x")).board
    assert board.rules.names == {"killercage", "diagonal+", "diagonal-"}
    header = variant_text.header(board.rules, 4)
    assert header.startswith("# rules: diagonal+; diagonal-; killercage r1c1 r1c2 total=3; ")
    assert format_puzzle(board) == "." * 16
    assert only(f"{header}\n{format_puzzle(board)}").board == board


def test_grid_sections_after_a_spaced_board():
    text = "# rules: jigsaw\n" + "\n".join(" ".join("0" * 9) for _ in range(9))
    text += "\nregions:\n" + "\n".join(JIGSAW) + "\n"
    assert only(text).board.rules.regions is not None


@pytest.mark.parametrize(
    "text, message",
    [
        ("# rules: sandwhich\n" + EMPTY9, "line 1: unknown rule 'sandwhich'"),
        (
            "# rules: sandwich\n" + EMPTY9,
            "line 2: constraint 'sandwich': sandwich: has 0 cell(s), expected 1 or more",
        ),
        ("# rules: jigsaw\n" + EMPTY9, "line 2: the rules say jigsaw but no region map is given"),
        (
            EMPTY9 + " regions=" + "".join(JIGSAW[:6]) + "GGGHHHHII" + "".join(JIGSAW[7:]),
            "line 1: region H has 10 cells, expected 9",
        ),
        (
            EMPTY9 + " regions=" + "".join(JIGSAW).replace("F", "E"),
            "line 1: the region map has 8 regions, expected 9",
        ),
        (
            EMPTY9 + " regions=" + "".join(JIGSAW).replace("ADDEEEEFF", "ADDEEEEFI")[:-1] + "F",
            "line 1: region F is not connected",
        ),
        (KILLER4.replace("ggdf", "gg.f"), "r4c3 is in no cage: killer cages every cell"),
        (KILLER4.replace("3 8 7", "3 8"), "7 cages in the map but 6 sums"),
        (
            KILLER4.replace("sums: 3 8", "sums: 30 8"),
            "the cage at r1c1 (total 30): no 2 distinct values",
        ),
        ("# rules: windoku\n" + "." * 36, "line 2: windoku needs square boxes, not 2x3"),
        (
            EMPTY9 + " colour=red",
            "line 1, column 83: unexpected 'colour=red' after the puzzle (fields are regions=, "
            "cages=, sums=)",
        ),
    ],
)
def test_a_bad_variant_is_one_error_naming_the_place(text, message):
    assert message in error_of(text)


def test_givens_that_break_a_cage_are_conflicts():
    rules = variant(Shape(2, 2), cages=((3, (0, 1)),))
    assert (
        Board(Shape(2, 2), (2, 2) + (0,) * 14, rules).conflicts()[0].startswith("row 1 has 2 twice")
    )
    over = Board(Shape(2, 2), (4, 0) + (0,) * 14, rules).conflicts()
    assert over == ["killercage at r1c1 (total 3) holds givens adding up to 4"]


BOJ = "0 6 8 0 0 0 9 3 0\n" + "0 0 0 0 0 0 0 0 0\n" * 8


@pytest.mark.parametrize(
    "text, message, good",
    [
        ("\ufeff" + EMPTY9, None, 1),  # a byte-order mark is accepted
        (BOJ.replace("3 0", "3 \u00b2", 1), "line 1, column 17: '²' (U+00B2) is not a digit", 0),
        ("\uff10" * 4 + "\n0000" * 3, "line 1, column 1: '\uff10' (U+FF10) is not a digit", 0),
        ("\u0663" + "0" * 80, "line 1, column 1: '٣' (U+0663) is not a digit", 0),
        (EMPTY9[:80] + "\ufb01", "line 1, column 81: 'ﬁ' (U+FB01) is not a digit", 0),
        ("x" * 80 + "\n" + EMPTY9, "line 1: 80 cells", 1),  # not a CSV header
        (EMPTY9 + " foo\n" + EMPTY9, "line 1, column 83: unexpected 'foo'", 1),
        (EMPTY9[:40] + "\n" + EMPTY9, "line 1: 40 cells", 1),
        ("1" * 20_000 + "\n" + EMPTY9, "line 1: 20,000 characters: no line puzzle is longer", 1),
        ("\ufffd\ufffd4\x00.\x00", "line 1: this is a UTF-16 file; save it as UTF-8", 0),
        (EMPTY9 + "\nab\x00c\n" + EMPTY9, "line 2: a NUL byte", 2),
    ],
)
def test_hostile_text_is_one_error_naming_the_place_and_the_rest_is_read(text, message, good):
    items = list(read_puzzles(text.splitlines()))
    errors = [str(item) for item in items if isinstance(item, InputError)]
    if message is None:
        assert not errors
    else:
        assert len(errors) == 1 and errors[0].startswith(message), errors
    assert sum(isinstance(item, Puzzle) for item in items) == good


def test_an_extra_cell_on_row_one_blames_row_one():
    rows = ["0 " * 9] * 9
    rows[0] += "0"
    with pytest.raises(InputError, match="line 1: row 1 has 10 cells, expected 9"):
        parse("\n".join(rows))


def test_an_unreadable_rules_line_costs_the_puzzles_under_it_alone(cli, tmp_path):
    import random

    from corpus import complete_board

    from solvers import Shape, format_board

    full = complete_board(Shape(2, 2), random.Random(3))
    line = format_board(full, "line")[:-1] + "."
    path = tmp_path / "rules.txt"
    path.write_text(f"{line}\n# rules: bogus\n{line}\n{line}\n# rules: classic\n{line}\n")
    for backend in ("propagate", "native"):  # the per-puzzle path and the file fast path
        run = cli("solve", str(path), "--backend", backend)
        assert run.code == 2
        assert run.out == (format_board(full, "line") + "\n") * 2  # lines 1 and 6
        assert run.err.splitlines() == [
            "sudoku: line 2: unknown rule 'bogus'; rules are x, windoku, jigsaw, killer "
            "(or classic), and constraint kinds (sudoku kinds lists them)",
            "sudoku: line 3: under the rules line 2, which cannot be read",
            "sudoku: line 4: under the rules line 2, which cannot be read",
        ]


@pytest.mark.parametrize(
    "names",
    [set(), {"x"}, {"windoku"}, {"x", "windoku", "jigsaw"}, {"killer", "x"}, set(RULE_NAMES)],
)
def test_the_variants_a_header_names_are_read_as_their_constraints(names):
    fields = {}
    if "jigsaw" in names:
        fields["regions"] = ["AABB", "AABB", "CCDD", "CCDD"]
    if "killer" in names:
        fields |= {"cages": ["abcc", "dbee", "fghh", "fgii"], "sums": ["1 3 7 4 5 3 4 6 7"]}
    shape = Shape(2, 2)
    rules = build_rules(frozenset(names), shape, fields, 1)
    kinds = {
        "x": {"diagonal+", "diagonal-"},
        "windoku": {"extraregion"},
        "killer": {"killercage"},
        "jigsaw": {"jigsaw"},
    }
    assert rules.names == set().union(*(kinds[name] for name in names))
    assert (rules.regions is not None) == ("jigsaw" in names)
    if "windoku" in names:
        assert Constraint("extraregion", (5, 6, 9, 10)) in rules.constraints


def test_a_cage_map_cages_every_cell_with_a_total_distinct_values_reach():
    with pytest.raises(InputError, match="r1c3 is in no cage"):
        build_rules(frozenset(), Shape(2, 2), {"cages": ["ab..", "abcc", "ddee", "ffgg"]}, 1)
    fields = {"cages": ["aabb", "ccdd", "eeff", "gghh"], "sums": [" ".join(["8"] * 8)]}
    with pytest.raises(InputError, match=r"no 2 distinct values from 1\.\.4 add up to 8"):
        build_rules(frozenset(), Shape(2, 2), fields, 1)


@pytest.mark.parametrize(
    ("header", "rules"),
    [
        ("# rule: x", "x"),
        ("# rules x", "x"),
        ("#Rule:x", "x"),
        ("# RULES = x", "x"),
        ("# rule x; anti-knight", "x; anti-knight"),
    ],
)
def test_a_misspelled_rules_header_costs_the_puzzles_under_it_alone(cli, tmp_path, header, rules):
    path = tmp_path / "rules.txt"
    path.write_text(f"{'.' * 16}\n{header}\n{'.' * 16}\n{'.' * 16}\n# rules: x\n{'.' * 16}\n")
    for backend in ("propagate", "native"):  # the per-puzzle path and the file fast path
        run = cli("count", str(path), "--backend", backend, "--limit", "1000")
        assert run.code == 2
        assert run.out.split() == ["288", "48"]  # lines 1 (classic) and 6 (x)
        assert run.err.splitlines() == [
            f"sudoku: line 2: {header!r} looks like a rules header: write '# rules: {rules}'",
            "sudoku: line 3: under the rules line 2, which cannot be read",
            "sudoku: line 4: under the rules line 2, which cannot be read",
        ]


@pytest.mark.parametrize(
    ("header", "count"),
    [
        ("# rules: x", "48"),
        ("#rules:x", "48"),
        ("# Rules: x", "48"),
        ("# RULES : x", "48"),
        ("# rules of thumb: one puzzle a line", "288"),
        ("# Rule: one puzzle per line", "288"),
        ("# ruleset: x", "288"),
        ("# rules", "288"),
    ],
)
def test_rules_headers_are_read_and_comments_about_rules_stay_comments(cli, header, count):
    run = cli("count", "--limit", "1000", stdin=f"{header}\n{'.' * 16}\n")
    assert (run.code, run.out, run.err) == (0, count + "\n", "")


def test_a_misspelled_rules_header_above_a_grid_is_named(cli):
    run = cli("solve", stdin="# rule: x\n1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n")
    assert run.code == 2 and not run.out
    assert run.err.splitlines() == [
        "sudoku: line 1: '# rule: x' looks like a rules header: write '# rules: x'",
        "sudoku: line 2: under the rules line 1, which cannot be read",
    ]
