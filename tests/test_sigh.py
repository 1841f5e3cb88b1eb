"""The Interactive Sudoku Solver's constraint strings and links, read as the project's kinds.

Each expectation is written from ISS's own definitions (js/sudoku_constraint.js: argument
order, the cells an outside clue covers, a pill read in reading order), on strings made here.
"""

from __future__ import annotations

import re
import urllib.parse

import pytest

from solvers import InputError, count_solutions, read_puzzles, solve
from solvers.formats import sigh
from solvers.model.board import Board
from solvers.model.constraints.text import format_constraint
from solvers.model.verify import problems


def texts(source: str) -> set[str]:
    board = sigh.read(source)
    return {format_constraint(c, board.size) for c in board.rules.constraints}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (".Thermo~R1C1~R1C2~R2C3", {"thermometer r1c1 r1c2 r2c3"}),
        # a German whisper omits its difference: 5
        (".Whisper~R1C1~R1C2", {"whispers r1c1 r1c2"}),
        (".Whisper~3~R1C1~R1C2", {"whispers r1c1 r1c2 difference=3"}),
        (".Cage~10~R1C1~R1C2", {"killercage r1c1 r1c2 total=10"}),
        (".Cage~~R1C1~R1C2", {"killercage r1c1 r1c2"}),
        (".AllDifferent~R1C1~R5C5~R9C9", {"killercage r1c1 r5c5 r9c9"}),
        (".Arrow~R1C1~R1C2~R1C3", {"arrow r1c1 r1c2 r1c3"}),
        # the pill's digits read left to right, top to bottom, whatever the listed order
        (".PillArrow~2~R1C2~R1C1~R2C1~R3C1", {"arrow r1c1 r1c2 r2c1 r3c1 circle=2"}),
        # little killers: the first cell's side says the direction
        (
            ".LittleKiller~22~R1C1",
            {"littlekiller " + " ".join(f"r{i}c{i}" for i in range(1, 10)) + " total=22"},
        ),
        (".LittleKiller~12~R1C3", {"littlekiller r1c3 r2c2 r3c1 total=12"}),
        (".LittleKiller~15~R7C9", {"littlekiller r7c9 r6c8 r5c7 r4c6 r3c5 r2c4 r1c3 total=15"}),
        (".LittleKiller~9~R9C7", {"littlekiller r9c7 r8c8 r7c9 total=9"}),
        (".Sandwich~8~C1", {"sandwich " + " ".join(f"r{i}c1" for i in range(1, 10)) + " total=8"}),
        # double-line clues: the first value from the top (or left), the second from the far end
        (
            ".Skyscraper~R2~3~",
            {"skyscraper " + " ".join(f"r2c{i}" for i in range(1, 10)) + " total=3"},
        ),
        (".XSum~C4~~11", {"xsum " + " ".join(f"r{i}c4" for i in range(9, 0, -1)) + " total=11"}),
        (".WhiteDot~R1C1~R1C2.BlackDot~R2C1~R2C2", {"difference r1c1 r1c2", "ratio r2c1 r2c2"}),
        (".X~R1C1~R1C2.V~R2C1~R2C2", {"xv r1c1 r1c2 sum=10", "xv r2c1 r2c2 sum=5"}),
        (".Quad~R4C4~1~2", {"quadruple r4c4 r4c5 r5c4 r5c5 values=1,2"}),
        (".~R5C5_1_3", {"candidates r5c5 values=1,3"}),
        # ISS's 1 is the diagonal drawn as a forward slash: bottom left to top right
        (".Diagonal~1.Diagonal~-1", {"diagonal+", "diagonal-"}),
        (".AntiKnight.AntiKing.AntiConsecutive", {"anti-knight", "anti-king", "non-consecutive"}),
        (".AntiTaxicab", {"self-taxicab"}),
        (".GreaterThan~R1C1~R1C2", {"thermometer r1c2 r1c1"}),
        (".Indexing~C~R4C1", {"columnindexer r4c1"}),
    ],
)
def test_each_type_reads_as_the_kind_that_means_the_same(source, expected):
    assert texts(source) == expected


def test_a_region_sum_line_sums_each_visit_to_a_box_apart():
    # r1c3 (box 1), r1c4 r1c5 (box 2), then back into box 1 at r2c3: three stretches
    assert texts(".RegionSumLine~R1C3~R1C4~R1C5~R2C4~R2C3") == {
        "regionsumline r1c3 r1c4 r1c5 r2c4 r2c3 regions=0,1,1,1,2"
    }


def test_strict_kropki_forbids_both_dots_between_every_unmarked_pair():
    found = texts(".StrictKropki.WhiteDot~R1C1~R1C2")
    assert found >= {
        "negative-difference exempt=r1c1-r1c2",
        "negative-ratio exempt=r1c1-r1c2",
        "difference r1c1 r1c2",
    }


def test_a_jigsaw_replaces_the_boxes_only_with_no_boxes():
    # the 3x3 boxes with r1c4 given to the first region and r3c3 to the second
    cells = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    cells[3], cells[20] = 0, 1
    layout = "".join(map(str, cells))
    board = sigh.read(f".NoBoxes.Jigsaw~{layout}")
    assert board.rules.regions is not None
    extra = sigh.read(f".Jigsaw~{layout}")
    assert extra.rules.regions is None
    assert {c.kind for c in extra.rules.constraints} == {"extraregion"}


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (".ChaosConstruction", "'ChaosConstruction': no rule of the project reads it"),
        (".Shape~9x9~0-9", "only square grids of N values, 1..N or 0..N-1"),
        (".Shape~9x9~0-8.~R1C1_9", "'R1C1_9': value 9 is outside 0..8"),
        # ISS: "0-valued cells do not count as skyscrapers", which no kind here says
        (".Shape~9x9~0-8.Skyscraper~R1~3~", "'Skyscraper' on values from 0: not read"),
        (".Lockout~3~R1C1~R1C2~R1C3", "lockout with difference 3"),
        (".Thermo~R1C1~R10C1", "'R10C1' is not on the 9x9 grid"),
        ("Thermo~R1C1", "starts with '.'"),
        (".Sandwich~8", "'Sandwich': missing arguments"),
        (".Quad", "'Quad': missing arguments"),
    ],
)
def test_what_the_project_cannot_keep_is_refused_naming_it(source, says):
    with pytest.raises(InputError, match=says.replace("(", r"\(").replace(".", r"\.")):
        sigh.read(source)


def _iss(board_line: str) -> str:
    """A line puzzle's givens written as ISS writes them."""
    givens = [
        f"R{i // 9 + 1}C{i % 9 + 1}_{ch}" for i, ch in enumerate(board_line) if ch not in ".0"
    ]
    return ".~" + "~".join(givens)


# Made for this test (the project's generator, seed 11: examples/vocabulary.txt's first puzzle)
THERMO_GRID = "..9...5.......1..2.41..86.9..8.16.....49.........7........8................3..725"
THERMOS = (
    ".Thermo~R2C3~R1C2~R2C1.Thermo~R3C1~R2C2~R1C3.Thermo~R6C6~R7C7~R8C8~R7C8.Thermo~R9C5~R8C5~R8C4"
)


def test_a_file_and_a_link_of_iss_puzzles_are_solved_as_the_same_puzzle_in_text(cli, tmp_path):
    source = _iss(THERMO_GRID) + THERMOS
    text_form = solve(
        next(
            iter(read_puzzles(["# rules: " + "; ".join(sorted(texts(THERMOS))), THERMO_GRID]))
        ).board,
        backend="cpsat",
    )
    link = "https://sigh.github.io/Interactive-Sudoku-Solver/?q=" + urllib.parse.quote(source)
    path = tmp_path / "iss.txt"
    path.write_text(f"{source}\n.Nonsense~R1C1\n{link}\n")
    run = cli("solve", str(path), "--backend", "cpsat")
    expected = "".join(map(str, text_form.solution.cells))
    assert run.out.split() == [expected, expected]
    assert run.code == 2
    assert run.err.strip().splitlines() == [
        "sudoku: line 2: ISS constraint 'Nonsense': no rule of the project reads it"
    ]


def test_an_iss_puzzle_counts_as_its_text_form_does():
    board = sigh.read(_iss(THERMO_GRID) + THERMOS)
    assert count_solutions(board, limit=2, backend="cpsat") == 1
    loose = sigh.read(_iss(THERMO_GRID[:40] + "." * 41) + THERMOS)
    assert count_solutions(loose, limit=2, backend="cpsat") == 2


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (".~R\uff11C1_5", "'R\uff11C1_5' is not of the form R1C1_5"),  # a fullwidth 1
        (".~R1C1_\uff15", "'R1C1_\uff15' is not of the form R1C1_5"),
        (".Whisper~\uff13~R1C1~R1C2", "cell '\uff13' is not on the 9x9 grid"),
        (".Cage~\uff11\uff10~R1C1~R1C2", "cage sum: '\uff11\uff10' is not a whole number"),
        (".Shape~\uff19x\uff19", "only square grids of N values"),
        (".~R1C1_0", "'R1C1_0': value 0 is outside 1..9"),
        (".~R1C1_5.~R1C1_6", "givens leave r1c1 no value"),
    ],
)
def test_only_ascii_digits_1_to_n_are_values_and_clashing_givens_are_refused(source, says):
    # before: a fullwidth digit read as its ASCII one, a given 0 read as an empty cell and
    # a second given at a cell replacing the first (a solution where ISS finds none)
    with pytest.raises(InputError, match=says.replace(".", r"\.")):
        sigh.read(source)


def test_values_given_twice_to_a_cell_are_intersected_as_iss_does():
    board = sigh.read(".~R1C1_5_6.~R1C1_6_7")
    assert solve(board, backend="cpsat").solution.cells[0] == 6
    assert sigh.read(".~R1C1_4.~R1C1_4").cells[0] == 4


@pytest.mark.parametrize(
    "link",
    [
        "https://sigh.github.io/Interactive-Sudoku-Solver/?q=",
        "https://sigh.github.io/Interactive-Sudoku-Solver/",
    ],
)
def test_an_iss_link_with_no_puzzle_is_refused_as_cut_short(cli, link):
    # before: an empty q= answered an empty grid, and a link with no q= was 'No such file'
    done = cli("solve", link)
    assert (done.code, done.out) == (2, "")
    assert done.err == "sudoku: line 1: an ISS link with no ?q= puzzle (cut short?)\n"


@pytest.mark.parametrize(
    "source",
    [
        ".AntiTaxicab",
        ".DisjointSets",
        ".StrictKropki.WhiteDot~R1C1~R1C2",
        ".StrictXV",
        ".DutchFlatmates.~R5C5_1",
    ],
)
def test_a_string_that_starts_with_a_type_of_no_arguments_is_read_as_iss(cli, source):
    # before: these alone were no ISS string: 'No such file' as FILE, a short line puzzle in a file
    assert sigh.looks_like(source)
    done = cli("solve", source, "--backend", "cpsat")
    assert done.code == 0 and len(done.out.strip()) == 81


@pytest.mark.parametrize("source", [".Or.~R1C1_1.End", ".ChaosConstruction.NoBoxes"])
def test_a_string_that_starts_with_a_type_not_read_is_refused_naming_it(cli, source):
    # before: 'cannot read .Or.~R1C1_1.End: No such file or directory', as if a file name
    assert sigh.looks_like(source)
    done = cli("solve", source, "--backend", "cpsat")
    kind = source[1:].split(".")[0]
    assert done.code == 2
    said = f"sudoku: line 1: ISS constraint {kind!r}: no rule of the project reads it ("
    assert done.err.startswith(said) and done.err.count("\n") == 1


def test_iss_cell_ids_past_9_are_one_base_17_digit_as_iss_writes_them():
    # ISS's parseCellId: R1Cb is row 1, column 11; RgCg the last cell of 16x16 (either case)
    board = sigh.read(".Shape~16x16.~R1Cb_2~rgcg_16~RaC1_3")
    assert board.cells[10] == 2 and board.cells[255] == 16 and board.cells[9 * 16] == 3
    with pytest.raises(InputError, match="'R10C1' is not on the 16x16 grid"):
        sigh.read(".Shape~16x16.Thermo~R10C1~R1C1")  # no cell of ISS: two digits


def test_windoku_on_16x16_has_nine_4x4_windows_as_iss_draws_them():
    board = sigh.read(".Shape~16x16.Windoku")
    windows = sorted(c.cells for c in board.rules.constraints if c.kind == "extraregion")
    # rows and columns 2-5, 7-10 and 12-15
    tops = [(r - 1) * 16 + c - 1 for r in (2, 7, 12) for c in (2, 7, 12)]
    assert [w[0] for w in windows] == tops and all(len(w) == 16 for w in windows)
    assert windows[-1][-1] == 14 * 16 + 14  # r15c15


@pytest.mark.parametrize("source", [".NoBoxes.~R1C1_1~R2C2_1", ".Shape~7x7.~R1C1_1~R2C2_1"])
def test_a_grid_with_no_boxes_and_no_jigsaw_is_rows_and_columns_only_as_iss_reads_it(source):
    # before: 'ISS NoBoxes without a Jigsaw: a grid with no boxes'; ISS's 7x7 has no boxes
    board = sigh.read(source)
    cells = solve(board, backend="cpsat").solution.cells
    n = board.size
    assert cells[0] == cells[n + 1] == 1  # two 1s a box would hold together
    assert all(sorted(cells[r * n : r * n + n]) == list(range(1, n + 1)) for r in range(n))
    assert all(sorted(cells[c::n]) == list(range(1, n + 1)) for c in range(n))


def test_a_region_sum_line_on_a_grid_with_no_regions_holds_as_iss_builds_it():
    # ISS's builder: "There are no regions, so the constraint is trivially satisfied"
    assert texts(".NoBoxes.RegionSumLine~R1C1~R1C2~R2C2") == set()


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # targets "G": bits 1 and 2, the cells 1 and 2 after the origin R1C1: the group shifted
        # one and two columns right (the template itself is not among the targets)
        (
            ".Replicate~G.Thermo~R1C1~R2C1.End",
            {"thermometer r1c2 r2c2", "thermometer r1c3 r2c3"},
        ),
        # "AI": bit 9 (3 of the second digit, I = 8), from the origin R2C2 R3C2: a row down
        (".Replicate~AI~R2C2.Cage~7~R2C2~R2C3.End", {"killercage r3c2 r3c3 total=7"}),
        (".Replicate~B.SameValues~2~R1C1~R3C3.End", {"clone r1c1 r3c3"}),
    ],
)
def test_a_replicate_group_is_shifted_onto_each_target_as_iss_builds_it(source, expected):
    assert texts(source) == expected


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (".Replicate~C.Thermo~R1C8~R1C9.End", "ISS Replicate shifts R1C9 off the 9x9 grid"),
        (".Replicate~B.Whisper~R1C1~R1C2.End", "ISS Replicate of 'Whisper': not read"),
        (".Replicate~B.Thermo~R1C1~R1C2", "ISS Replicate with no .End"),
        (".Replicate~*.Thermo~R1C1~R1C2.End", "ISS Replicate targets '*' are not base64url"),
    ],
)
def test_a_replicate_the_project_cannot_keep_is_refused_naming_it(source, says):
    with pytest.raises(InputError, match=re.escape(says)):
        sigh.read(source)


def test_dutch_flatmates_puts_a_9_under_a_5_on_the_top_row_and_a_1_over_one_on_the_last():
    # the top row's 5 has no cell above: only a 9 below it can be its flatmate, and so on
    board = sigh.read(".DutchFlatmates.~R1C1_5~R9C9_5")
    cells = solve(board, backend="cpsat").solution.cells
    assert cells[9] == 9 and cells[71] == 1
    assert all(
        (i >= 9 and cells[i - 9] == 1) or (i < 72 and cells[i + 9] == 9)
        for i, value in enumerate(cells)
        if value == 5
    )
    with pytest.raises(InputError, match="'DutchFlatmates' on values from 0: not read"):
        sigh.read(".Shape~9x9~0-8.DutchFlatmates")


def test_an_empty_item_before_the_first_constraint_is_skipped_as_iss_does(cli):
    # before: "..Cage~..." (ISS skips the empty item) was no ISS string, 'No such file' as FILE
    source = "..Cage~3~R1C1~R1C2..~R1C3_3"
    assert sigh.looks_like(source)
    assert texts(source) == {"killercage r1c1 r1c2 total=3"}
    done = cli("solve", source, "--backend", "cpsat")
    assert done.code == 0 and sorted(done.out[:2]) == ["1", "2"] and done.out[2] == "3"


def _bench_iss():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "iss.py"
    spec = importlib.util.spec_from_file_location("bench_iss", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_reads_sudocues_killer_format_and_pencilmarks_as_iss_does():
    # ISS's js/sudoku_parser.js: "3x3:d:k:" and 81 numbers, sum * 256 + cage number (0: no
    # cage), and a last ":"; pencilmarks are 9 characters a cell, "." for a value struck out
    iss = _bench_iss()
    numbers = [0] * 81
    numbers[0] = numbers[1] = 3 * 256 + 1  # r1c1 r1c2 sum 3
    numbers[80] = 9 * 256 + 2  # r9c9 alone, sum 9
    killer = "3x3:d:k:" + ":".join(map(str, numbers)) + ":"
    board = sigh.read(iss.constraint_string(killer))
    assert {format_constraint(c, 9) for c in board.rules.constraints} == {
        "diagonal+",
        "diagonal-",
        "killercage r1c1 r1c2 total=3",
        "killercage r9c9 total=9",
    }
    marks = "12......." + "123456789" * 80  # r1c1 is 1 or 2, the rest open
    board = sigh.read(iss.constraint_string(marks))
    assert solve(board, backend="cpsat").solution.cells[0] in (1, 2)
    assert count_solutions(sigh.read(iss.constraint_string("1........" * 81)), 2) == 0
    assert iss.constraint_string(".Thermo~R1C1~R1C2") == ".Thermo~R1C1~R1C2"


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (".~R1C1_" + "1" * 5000, "ISS given 'R1C1_11111111111'... is not of the form R1C1_5"),
        (".~R" + "1" * 5000 + "C1_5", "ISS given 'R111111111111111'... is not of the form"),
        (".Shape~" + "9" * 5000, "ISS shape '9999999999999999'...: only square grids"),
        (".Whisper~" + "5" * 5000 + "~R1C1~R1C2", "ISS cell '5555555555555555'... is not on"),
        (".Cage~" + "1" * 5000 + "~R1C1", "ISS cage sum: '1111111111111111'... is a number larger"),
        (".Cage~-" + "1" * 5000 + "~R1C1", "ISS cage sum: '-111111111111111'... is a number"),
        (".Sandwich~5~R" + "1" * 5000, "ISS outside clue at 'R111111111111111'...: no such row"),
    ],
)
def test_a_number_of_thousands_of_digits_is_refused_in_one_short_line(cli, tmp_path, source, says):
    # before: int() refused the digits with a ValueError: a traceback, exit 1, and the good
    # puzzle after the line lost; the other refusals echoed all 5,000 characters
    path = tmp_path / "iss.txt"
    path.write_text(f"{source}\n.~R1C1_5\n")
    done = cli("solve", str(path), "--backend", "cpsat")
    assert done.code == 2
    assert done.err.startswith(f"sudoku: line 1: {says}") and len(done.err) < 120
    assert done.out.startswith("5") and len(done.out.strip()) == 81


def test_a_shape_off_the_sizes_read_is_refused_naming_its_line(cli, tmp_path):
    # before: 'sudoku: size 3 is outside 4..25', naming no line of the file
    path = tmp_path / "iss.txt"
    path.write_text(".~R1C1_5\n.Shape~3x3\n.Shape~99x99\n")
    done = cli("solve", str(path), "--backend", "cpsat")
    assert done.code == 2 and len(done.out.split()) == 1
    assert done.err == (
        "sudoku: line 2: size 3 is outside 4..25\nsudoku: line 3: size 99 is outside 4..25\n"
    )


# the sum family (solvers/model/constraints/sums.py): ISS's Sum, EqualSum, Lunchbox, RellikCage
# and SumLine, each as js/sudoku_constraint.js gives its arguments
@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (".Sum~12~R1C1~R5C5", {"sum r1c1 r5c5 total=12"}),
        # "total_=_coefficients": a weight per cell
        (".Sum~0_=_1_-2~R1C1~R1C2", {"sum r1c1 r1c2 total=0 weights=1,-2"}),
        # each segment's sum against the next one's; a cell in both weighs 1 - 1: left out
        (
            ".EqualSum~R1C1~R1C2~-~R1C2~R2C2~-~R3C3",
            {"sum r1c1 r2c2 total=0 weights=1,-1", "sum r1c2 r2c2 r3c3 total=0 weights=1,1,-1"},
        ),
        (".Lunchbox~7~R1C1~R1C2~R1C3", {"lunchbox r1c1 r1c2 r1c3 total=7"}),
        (".RellikCage~5~R1C1~R1C2", {"rellikcage r1c1 r1c2 total=5"}),
        (".SumLine~10~R1C1~R1C2~R1C3", {"sumline r1c1 r1c2 r1c3 total=10"}),
        # a last LOOP closes the line
        (".SumLine~10~R1C1~R1C2~R2C2~R2C1~LOOP", {"sumline r1c1 r1c2 r2c2 r2c1 loop=1 total=10"}),
        (".CountingCircles~R1C1~R5C5~R9C9", {"countingcircles r1c1 r5c5 r9c9"}),
    ],
)
def test_each_sum_type_reads_as_the_kind_that_means_the_same(source, expected):
    assert texts(source) == expected


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (".Sum~x~R1C1", "ISS sum: 'x' is not a whole number"),
        (".Lunchbox~99~R1C1~R1C2", "total 99 is not in 0..35"),
        (".SumLine~10~R1C1~R1C2~R1C4", "r1c2 and r1c4 do not touch"),
        (".SumLine~10" + "".join(f"~R1C{c}" for c in range(1, 10)), "needs a table of about"),
    ],
)
def test_a_sum_type_the_project_cannot_keep_is_refused_naming_it(source, says):
    with pytest.raises(InputError, match=says):
        sigh.read(source)


def test_the_benchmark_reads_the_short_killer_format_as_iss_does():
    # ISS's js/sudoku_parser.js (_parseShortKillerFormatToAst): 81 characters, a cage's sum as
    # one base-62 character ("0" none, A = 10, a = 36), each other cell an arrow (<>^v, and
    # `',. for the diagonals) to the next cell on its way to the sum; a way off the grid: no cage
    iss = _bench_iss()
    rows = ["0<<<<<<<<"] * 9
    rows[0] = "A<0<<<<<<"  # r1c1 r1c2 (and r2c1, pointing up) sum 10
    rows[1] = "^0<<<<<<<"
    rows[4] = "0<<<<<<<,"  # r5c9 points down-left, into the cage of r6c5
    rows[5] = "0<<<0<<<<"
    rows[8] = "b<<<<<0<."  # sum 37 (b); r9c9 points off the grid
    found = {
        format_constraint(c, 9)
        for c in sigh.read(iss.constraint_string("".join(rows))).rules.constraints
    }
    assert {
        "killercage r1c1 r1c2 r2c1 total=10",
        "killercage r5c9 r6c5 r6c6 r6c7 r6c8 r6c9",
        "killercage r9c1 r9c2 r9c3 r9c4 r9c5 r9c6 total=37",
        "killercage r9c7 r9c8",
    } <= found
    assert len(found) == 12 and not any("r9c9" in text for text in found)
    assert iss.constraint_string("." * 81) == "." * 81  # no arrow but the diagonal: a grid


ROW2 = " ".join(f"r2c{i}" for i in range(1, 10))


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # double-line clues: the first value from the left (or top), the second from the far end
        (".NumberedRoom~R2~6~", {f"numberedroom {ROW2} value=6"}),
        (
            ".HiddenSkyscraper~C3~~4",
            {"hiddenskyscraper " + " ".join(f"r{i}c3" for i in range(9, 0, -1)) + " value=4"},
        ),
        (".Modular~2~R1C1~R1C2~R1C3", {"modularline r1c1 r1c2 r1c3 modulus=2"}),
        (".Modular~3~R1C1~R1C2", {"modularline r1c1 r1c2"}),  # mod 3 is the kind's own
        (".GlobalEntropy.GlobalMod", {"globalentropy", "globalmod"}),
        # ISS's DutchFlatmates: every 5 with a 1 directly above it or a 9 directly below it
        (".DutchFlatmates", {"dutchflatmates"}),
        # ISS's Windoku.regions: windows of a box's shape, one cell in and one apart
        (".Shape~6x6.Windoku", {"extraregion r2c2 r2c3 r2c4 r3c2 r3c3 r3c4"}),
        # (count, value) pairs: two 3s and no 1
        (".LookAndSay~2301~R1C1~R2C2~R3C3", {"lookandsay r1c1 r2c2 r3c3 counts=2,0 values=3,1"}),
        (".EqualityCage~R1C1~R1C2", {"equalitycage r1c1 r1c2"}),
        # three sets of one cell: the same value in each
        (".SameValues~3~R1C1~R5C5~R9C9", {"clone r1c1 r5c5", "clone r1c1 r9c9"}),
        # the same on values from 0: equal values are equal one higher
        (".Shape~4x4~0-3.SameValues~2~R1C1~R2C3", {"clone r1c1 r2c3"}),
        # the key's bit (a-1)*4 + (b-1) allows (a, b): "E" (4) is bit 2, (1, 3); "C" (2) in the
        # second digit is bit 7, (2, 4); groups apart at an empty item, "_" names one
        (
            ".Shape~4x4.Pair~EC~_name~R1C1~R1C2~~R2C1~R2C2",
            {"pairline r1c1 r1c2 pairs=1,3,2,4", "pairline r2c1 r2c2 pairs=1,3,2,4"},
        ),
        # a legacy key swaps "-" and "_": "-" is 63 there, bits 0-5, (1, 1) to (2, 2); then
        # (3, 1) and (4, 1): the same both ways
        (
            ".Shape~4x4.BinaryX~-EB~R1C1~R2C2",
            {"pairgroup r1c1 r2c2 pairs=1,1,1,2,1,3,1,4,2,1,2,2,3,1,4,1"},
        ),
    ],
)
def test_the_global_and_counting_types_read_as_the_kinds_that_mean_the_same(source, expected):
    assert texts(source) == expected


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (".SameValues~2~R1C1~R1C2~R2C1~R2C2", "sets of several cells holding the same values"),
        (".LookAndSay~123~R1C1", "'123' is not (count, value) digit pairs"),
        (".Modular~1~R1C1~R1C2", "modulus 1 is not in 2..9"),
        (".FullRank~R1~5~", "'FullRank': no rule of the project reads it"),
        (".Shape~4x4.PairX~E~R1C1~R1C2", "not the same both ways"),  # (1, 3) but not (3, 1)
        (".Pair~E*~R1C1~R1C2", "is not base64url"),
    ],
)
def test_what_the_global_and_counting_types_cannot_keep_is_refused(source, says):
    with pytest.raises(InputError, match=re.escape(says)):
        sigh.read(source)


def test_a_string_that_starts_with_global_entropy_is_read_as_iss(cli):
    # before: ".GlobalEntropy" alone was no ISS string, 'No such file' as FILE
    assert sigh.looks_like(".GlobalEntropy.~R1C1_1") and sigh.looks_like(".GlobalMod")
    # propagate: the reading is the point, and CP-SAT's threads took 5-7 s here on a loaded machine
    done = cli("solve", ".GlobalEntropy.~R1C1_1", "--backend", "propagate")
    assert done.code == 0 and done.out.startswith("1") and len(done.out.strip()) == 81


# -- grids of values 0..N-1 (ISS's shape 9x9~0-8): read one higher, each clue translated ---------


def _grids_4x4() -> list[list[int]]:
    """Every 4x4 Sudoku grid, row-major, of values 0..3 (288 of them)."""
    found: list[list[int]] = []

    def fill(grid: list[int]) -> None:
        if len(grid) == 16:
            found.append(grid)
            return
        cell = len(grid)
        row, col = divmod(cell, 4)
        for value in range(4):
            clash = any(
                grid[other] == value
                for other in range(cell)
                if other // 4 == row
                or other % 4 == col
                or (other // 8, other % 4 // 2) == (row // 2, col // 2)
            )
            if not clash:
                fill([*grid, value])

    fill([])
    return found


_NEIGHBOURS = [
    (a, b) for a in range(16) for b in (a + 1, a + 4) if b < 16 and (b > a + 1 or a % 4 < 3)
]


def _first_hidden(values: list[int]) -> int | None:
    tallest = -1
    for value in values:
        if value < tallest:
            return value
        tallest = value
    return None


# each clue on a 4x4 grid of 0..3, with ISS's meaning of it (js/sudoku_constraint.js and
# js/solver/sudoku_builder.js) written on the grid's own values
FROM_ZERO = [
    (".~R1C1_0", lambda g: g[0] == 0),
    (".Cage~3~R1C1~R1C2", lambda g: g[0] + g[1] == 3),
    # "A sum of 0 means any sum is ok": the cells different only
    (".Cage~0~R1C1~R3C2", lambda g: g[0] != g[9]),
    # a cell named twice is summed twice (ISS's Sum merges it into a weight of 2)
    (".Cage~4~R1C1~R2C2~R2C2", lambda g: g[0] + 2 * g[5] == 4 and g[0] != g[5]),
    (".Sum~2~R1C1~R1C1~R2C2", lambda g: 2 * g[0] + g[5] == 2),
    (".Sum~1_=_2_-1~R1C1~R2C2", lambda g: 2 * g[0] - g[5] == 1),
    (".V~R1C1~R2C1", lambda g: g[0] + g[4] == 5),
    (".Arrow~R1C1~R2C2~R3C3", lambda g: g[0] == g[5] + g[10]),
    (".BlackDot~R1C1~R1C2", lambda g: g[0] == 2 * g[1] or g[1] == 2 * g[0]),
    (".WhiteDot~R1C1~R1C2", lambda g: abs(g[0] - g[1]) == 1),
    # r1c2 in the first box, r1c3 r1c4 in the second: two stretches of equal sums
    (".RegionSumLine~R1C2~R1C3~R1C4", lambda g: g[1] == g[2] + g[3]),
    (".Quad~R2C2~0~3", lambda g: {0, 3} <= {g[5], g[6], g[9], g[10]}),
    # "1001": one 0 and no 1
    (".LookAndSay~1001~R1C1~R2C2~R3C3", lambda g: [g[0], g[5], g[10]].count(0) == 1
     and 1 not in (g[0], g[5], g[10])),
    (".HiddenSkyscraper~R1~1~", lambda g: _first_hidden(g[:4]) == 1),
    # as many even as odd, as many low (0, 1) as high (2, 3)
    (".EqualityCage~R1C1~R1C2", lambda g: (g[0] + g[1]) % 2 == 1 and (g[0] < 2) != (g[1] < 2)),
    (".Whisper~2~R1C1~R1C2", lambda g: abs(g[0] - g[1]) >= 2),
    # no neighbours add up to 5 (or 10)
    (".StrictXV", lambda g: all(g[a] + g[b] not in (5, 10) for a, b in _NEIGHBOURS)),
]  # fmt: skip


@pytest.mark.parametrize(("clue", "holds"), FROM_ZERO, ids=[clue for clue, _ in FROM_ZERO])
def test_a_clue_on_values_from_0_allows_exactly_the_grids_iss_does(clue, holds):
    # every 4x4 grid, its values one higher, against the verifier: the translated clue keeps
    # exactly the grids whose own values (0..3) keep ISS's clue
    board = sigh.read(".Shape~4x4~0-3" + clue)
    kept = [g for g in _grids_4x4() if holds(g)]
    assert 0 < len(kept) < 288  # the clue decides something on these grids
    for grid in _grids_4x4():
        shown = Board(board.shape, tuple(v + 1 for v in grid), board.rules)
        assert (not problems(board, shown)) == holds(grid), (clue, grid)


# made for this test: the 4x4 grid 0123/2301/1032/3210, four givens, a cage and a V
FROM_ZERO_PUZZLE = ".Shape~4x4~0-3.~R2C1_2~R2C4_1~R3C2_0~R4C3_1.Cage~3~R2C3~R3C3.V~R1C3~R1C4"


def test_strict_xv_on_values_from_0_forbids_7_and_12_between_unmarked_neighbours_only():
    found = texts(".Shape~4x4~0-3.StrictXV.V~R1C1~R1C2")
    assert "sum r1c1 r1c2 total=7" in found
    lines = {text.split(" pairs=")[0] for text in found if text.startswith("pairline")}
    assert len(lines) == 23 and "pairline r1c1 r1c2" not in lines  # 24 neighbours, one marked
    (pairs,) = {text.split(" pairs=")[1] for text in found if text.startswith("pairline")}
    allowed = list(map(int, pairs.split(",")))
    assert set(zip(allowed[::2], allowed[1::2], strict=True)) == {
        (a, b) for a in range(1, 5) for b in range(1, 5) if a + b != 7
    }


def test_a_grid_of_values_from_0_is_answered_one_higher_and_said_so(cli, tmp_path):
    link = "https://sigh.github.io/Interactive-Sudoku-Solver/?q=" + urllib.parse.quote(
        FROM_ZERO_PUZZLE
    )
    assert sigh.read_with_least(FROM_ZERO_PUZZLE)[1] == sigh.read_with_least(link)[1] == 0
    assert sigh.read_with_least(".Shape~4x4")[1] == 1
    assert count_solutions(sigh.read(FROM_ZERO_PUZZLE), limit=2, backend="cpsat") == 1
    path = tmp_path / "iss.txt"
    path.write_text(f"{FROM_ZERO_PUZZLE}\n{FROM_ZERO_PUZZLE}\n")
    done = cli("solve", str(path), "--backend", "cpsat")
    # ISS's answer 0123 2301 1032 3210, each value shown one higher, and said once
    assert (done.code, done.out.split()) == (0, ["1234341221434321"] * 2)
    assert done.err == f"sudoku: {sigh.FROM_ZERO_NOTE}\n"


def _data_files(tmp_path, entries: str) -> str:
    """A checkout holding ISS's two data files, with the entries made here in the first."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "example_puzzles.js").write_text(f"const P = [\n{entries}\n];\n")
    (tmp_path / "data" / "collections.js").write_text("const C = [];\n")
    return str(tmp_path)


def _pattern_16() -> list[int]:
    """A 16x16 Sudoku grid made here: each row the one above shifted by a box's width."""
    return [(4 * (r % 4) + r // 4 + c) % 16 + 1 for r in range(16) for c in range(16)]


@pytest.mark.parametrize("wrong", [False, True])
def test_the_benchmark_reads_iss_jigsaw_text_and_template_inputs_and_checks_letters(
    tmp_path, capsys, wrong
):
    # ISS's _parseJigsawToAst: N*N givens (a letter for a value past 9) then N*N region
    # symbols; an input may be a template literal; a script path is a program, said apart
    iss, grid = _bench_iss(), _pattern_16()
    givens = "".join("." if k in (0, 17, 255) else chr(64 + v) for k, v in enumerate(grid))
    layout = "".join("ABCDEFGHIJKLMNOP"[(k // 64) * 4 + (k % 16) // 4] for k in range(256))
    solution = "".join(chr(64 + v) for v in grid)
    if wrong:  # the published solution with r1c1 and r1c2 swapped: the check must say so
        solution = solution[1] + solution[0] + solution[2:]
    entries = (
        f"{{\n  name: 'jigsaw',\n  input: '{givens} {layout}',\n  solution: '{solution}',\n}},\n"
        "{\n  name: 'template',\n  input: `\n    .Shape~4x4\n    .~R1C1_1`,\n},\n"
        "{\n  name: 'script',\n  input: '/data/scripts/made_here.js',\n},"
    )
    out = tmp_path / "iss.txt"
    code = iss.main(
        ["--from", _data_files(tmp_path, entries), "--out", str(out), "--check", "cpsat"]
    )
    said = capsys.readouterr().out
    assert f"{out}: 2 puzzles of 3 read" in said
    assert "left out 1: a JavaScript program ISS runs to build the puzzle: not read" in said
    lines = out.read_text().splitlines()
    assert lines[1].startswith(".Shape~16x16.Jigsaw~") and lines[3] == ".Shape~4x4.~R1C1_1"
    assert code == (1 if wrong else 0)
    assert ("DIFFERENT jigsaw" in said) == wrong
    assert f"{1 if wrong else 0} differ from the published solution" in said
