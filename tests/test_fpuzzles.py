"""f-puzzles links in and out: lz-string against the JavaScript library, every form of link,
each mapped key both ways, every refusal, sizes 4 to 16, and the commands that use them."""

from __future__ import annotations

import json
import random
import string
import time
from pathlib import Path

import lzstring
import pytest
from corpus import variant

from solvers import Board, InputError, Shape, read_puzzles, solve
from solvers.formats import fpuzzles, fpuzzles_link
from solvers.formats.variant_text import region_map
from solvers.formats.writing import text
from solvers.model.constraints.model import Constraint
from solvers.model.variants import Rules

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
# compressToBase64 of lz-string 1.5.0 (the JavaScript library, run under node).
JS_VECTORS = [
    ("Hello, World!", "BIUwNmD2A0AEDqkBOYAmBCIA"),
    ('{"size":4}', "N4IgzglgXgpiBcAWAvkA"),
    ('ääé ✓ 数独 {"title":"x"}', "CfCXAJGRydAdTQbp3AbwEQBcCWqA2BTZAuZAD2QF8g=="),
    ("a" * 49 + "b", "IY18ZXWBGQ=="),
]
JIGSAW = (  # examples/variants.txt's regions
    "AABBBBBCCAADBCCCCCADDBBFCCFADDDBFFFFADDDEEEEFAGGEEIEEFAGGGEIIIFGGHHHHIIIGGHHHHHII"
)
X9 = ".4...95..9571836...8.2..........2..7..2...468....182......7.......92...58795...2."


def links() -> list[str]:
    return [
        line
        for line in (EXAMPLES / "fpuzzles.txt").read_text().splitlines()
        if not line.startswith("#")
    ]


def grid_json(size: int, **keys) -> dict:
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)]} | keys


def refusal(data: dict) -> str:
    with pytest.raises(InputError) as caught:
        fpuzzles.from_json(data, 3)
    assert caught.value.line == 3
    return caught.value.message


@pytest.mark.parametrize(("plain", "packed"), JS_VECTORS)
def test_lzstring_matches_the_javascript_library(plain, packed):
    assert lzstring.compress_to_base64(plain) == packed
    assert lzstring.decompress_from_base64(packed) == plain


def test_every_form_of_a_link_reads_the_same_puzzle():
    link = links()[0]
    payload = link.partition("?load=")[2]
    data = fpuzzles_link.decode(link)
    forms = [
        link,
        link.removeprefix("https://"),
        link.replace("?load=", "?embed=1&load=") + "&solve=1",
        payload,
        "https://sudokupad.app/fpuzzles" + payload,
        "https://sudokupad.app/?puzzleid=fpuzzles" + payload.replace("+", "%2B"),
        "https://app.crackingthecryptic.com/sudoku/fpuzzles" + payload,
        json.dumps(data),
    ]
    for form in forms:
        assert fpuzzles_link.looks_like(form), form
        assert fpuzzles_link.decode(form) == data, form
    assert fpuzzles.read(link).board.rules == variant(Shape(3, 3), "x")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("N4IgzglgXgpiBcBOANCA5gJwgEwQbT1A", "does not decompress"),  # a link cut short
        ("https://www.f-puzzles.com/?load=", "no ?load= puzzle"),
        ("https://www.f-puzzles.com/?load=N4Ig$$$", "'$', which base64 never does"),
        ("https://www.f-puzzles.com/?load=AAAA", "does not decompress"),
        ("https://f-puzzles.com/?id=abc123", "short f-puzzles link"),
        ("https://sudokupad.app/scl1234", "not an f-puzzles payload"),
        ('{"size": 9, "grid": [', "not JSON"),
        ("[1, 2]", "'[', which base64 never does"),
        ('{"size": 9} trailing', "not JSON"),
    ],
)
def test_bad_links_are_one_line_errors(text, says):
    with pytest.raises(InputError) as caught:
        fpuzzles.read(text, 7)
    assert says in str(caught.value) and "\n" not in str(caught.value)
    assert caught.value.line == 7


def test_a_json_list_is_not_a_puzzle():
    with pytest.raises(InputError, match="JSON list, not an object"):
        fpuzzles_link.decode(lzstring.compress_to_base64("[1]"))


def test_a_truncated_real_link_is_refused_at_every_cut():
    link = links()[3]
    for cut in range(40, len(link), 97):
        with pytest.raises(InputError):
            fpuzzles.read(link[:cut])


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        variant(Shape(3, 3), "x"),
        variant(Shape(3, 3), "windoku"),
        Rules(regions=region_map([JIGSAW], 9, 1)),
        variant(Shape(3, 3), "x", regions=region_map([JIGSAW], 9, 1)),
        variant(Shape(3, 3), cages=((3, (0, 1)), (17, (79, 80)))),
        variant(Shape(3, 3), "x", "windoku", cages=((10, (40, 41, 49)),)),
    ],
)
def test_each_mapped_rule_round_trips(rules):
    board = Board(Shape(3, 3), tuple(int(c) if c != "." else 0 for c in X9), rules)
    back = fpuzzles.from_json(json.loads(json.dumps(fpuzzles.to_json(board))))
    assert back.board == board


def test_each_key_is_written_as_f_puzzles_writes_it():
    cages = ((3, (0, 1)), (17, (79, 80)))
    board = Board.empty(Shape(3, 3), variant(Shape(3, 3), "x", "windoku", cages=cages))
    data = fpuzzles.to_json(board.with_cells((5,) + (0,) * 80), meta=(("title", "T"),))
    assert data["diagonal+"] is data["diagonal-"] is True
    assert data["title"] == "T" and data["grid"][0][0] == {"value": 5, "given": True}
    assert data["killercage"] == [
        {"cells": ["R1C1", "R1C2"], "value": "3"},
        {"cells": ["R9C8", "R9C9"], "value": "17"},
    ]
    assert {frozenset(part["cells"]) for part in data["extraregion"]} == {
        frozenset(f"R{r}C{c}" for r in rows for c in cols)
        for rows in ((2, 3, 4), (6, 7, 8))
        for cols in ((2, 3, 4), (6, 7, 8))
    }
    assert "region" not in json.dumps(data["grid"])  # the default boxes need none


def test_jigsaw_regions_read_from_the_grid_and_written_back():
    data = grid_json(4)
    swapped = {(0, 2): 0, (1, 1): 1}  # r1c3 and r2c2 change boxes
    for (r, c), region in swapped.items():
        data["grid"][r][c]["region"] = region
    board = fpuzzles.from_json(data).board
    assert board.rules.regions == (0, 0, 0, 1, 0, 1, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)
    written = fpuzzles.to_json(board)["grid"]
    assert [(r, c) for r in range(4) for c in range(4) if "region" in written[r][c]] == [
        (0, 2),
        (1, 1),
    ]
    assert fpuzzles.from_json(fpuzzles.to_json(board)).board == board


def test_metadata_solution_and_drawings():
    solution = [int(v) for v in "1234341221434321"]
    data = grid_json(4, title="Mine", author="Me", ruleset="Normal", solution=solution)
    data |= {"line": [{"lines": [["R1C1", "R1C2"]]}], "text": [], "cage": [{"cells": ["R1C1"]}]}
    data |= {"highlightConflicts": True, "antiknight": False}  # settings, and a rule left off
    found = fpuzzles.from_json(data)
    assert found.meta == (("title", "Mine"), ("author", "Me"), ("ruleset", "Normal"))
    assert found.ignored == ("line", "cage")
    assert found.solution.cells == tuple(solution)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"fogofwar": ["R1C1"]}, "'fogofwar': no rule"),
        ({"negative": ["sum"]}, "'negative': 'sum' is no negative constraint"),
        ({"antiknight": "yes"}, "'antiknight': expected true"),
        ({"diagonal+": 1}, "'diagonal+': expected true"),
        ({"killercage": [{"cells": ["R1C1"], "value": "x"}]}, "has value 'x', not a number"),
        ({"killercage": [{"cells": ["R1C1", "R10C1"], "value": "5"}]}, "'R10C1' is not a cell"),
        ({"killercage": {"cells": []}}, "expected a list of objects"),
        ({"size": 7}, "grid has 9 rows, expected 7"),
        ({"size": 17}, "outside 4..16"),
        ({"size": "9"}, "not a number"),
        ({"grid": []}, "grid has 0 rows"),
    ],
)
def test_every_key_no_rule_reads_is_refused(change, says):
    # (each kind's own refusals: tests/test_fpuzzles_kinds.py)
    assert says in refusal(grid_json(9) | change)


@pytest.mark.parametrize(
    ("cell", "says"),
    [
        ({"region": None}, "R1C1 of the f-puzzles grid is in no region"),
        ({"givenPencilMarks": [1, 10]}, "candidates at r1c1: values (1, 10) are not all in 1..9"),
        ({"givenPencilMarks": "12"}, "the marks of R1C1 are not a list of values"),
        ({"value": 10, "given": True}, "the given '10' is not a value 1..9"),
        ({"region": "A"}, "region 'A' is not a number"),
        ({"parity": "grey"}, "f-puzzles key 'parity': R1C1 has parity 'grey', not Odd or Even"),
        ({"parity": 1}, "f-puzzles key 'parity': R1C1 has parity '1', not Odd or Even"),
    ],
)
def test_cells_that_carry_a_rule_the_model_lacks_are_refused(cell, says):
    data = grid_json(9)
    data["grid"][0][0] = cell
    assert says in refusal(data)


def test_given_pencil_marks_restrict_their_cell_and_are_written_back():
    # the setter's marks are rules (dclamage/SudokuSolver keeps only them in the cell); the
    # solver's centre marks and a given's marks are not
    data = grid_json(4)
    data["grid"][0][0] = {"givenPencilMarks": [1, 3]}
    data["grid"][0][1] = {"centerPencilMarks": [2]}
    data["grid"][0][2] = {"value": 4, "given": True, "givenPencilMarks": [1, 2]}
    board = fpuzzles.from_json(data).board
    assert board.rules.constraints == (Constraint("candidates", (0,), (("values", (1, 3)),)),)
    assert fpuzzles.to_json(board)["grid"][0][0] == {"givenPencilMarks": [1, 3]}
    assert {solve(board, backend="cpsat").solution.cells[0]} <= {1, 3}
    twice = Rules(
        constraints=(
            board.rules.constraints[0],
            Constraint("candidates", (0,), (("values", (1,)),)),
        )
    )
    with pytest.raises(InputError, match="candidates at r1c1 is a second set"):
        fpuzzles.to_json(Board.empty(Shape(2, 2), twice))


def test_values_the_solver_typed_are_not_givens():
    data = grid_json(4)
    data["grid"][0][0] = {"value": 3, "centerPencilMarks": [1, 3], "c": "#ff0000"}
    assert fpuzzles.from_json(data).board.cells[0] == 0


@pytest.mark.parametrize("size", [4, 6, 8, 9, 10, 12, 14, 15, 16])
def test_sizes_4_to_16_with_f_puzzles_default_boxes(size):
    shape = Shape.for_size(size)
    full = Board.pattern(shape)
    puzzle = full.with_cells(v if i % 3 else 0 for i, v in enumerate(full.cells))
    found = fpuzzles.read(fpuzzles.link(puzzle))
    assert found.board == puzzle and found.board.shape == shape
    solved = solve(found.board, backend="cpsat").solution  # verified against the givens
    assert all(v == 0 or v == w for v, w in zip(puzzle.cells, solved.cells, strict=True))


def test_round_trip_through_the_text_form_keeps_solution_and_constraints():
    for link in links():
        first = fpuzzles.read(link)
        again = fpuzzles.read(fpuzzles.link(_from_text(text(first.board))))
        assert solve(again.board).solution.cells == solve(first.board).solution.cells
        assert _constraints(fpuzzles_link.decode(link)) == _constraints(
            json.loads(json.dumps(fpuzzles.to_json(again.board)))
        )


def _from_text(written: str) -> Board:
    (item,) = read_puzzles(written.splitlines())
    assert not isinstance(item, InputError), item
    return item.board


def _constraints(data: dict) -> dict:
    """The rules of an f-puzzles JSON, order aside (regions as a partition of the cells)."""
    n, found = data["size"], {}
    for key in ("diagonal+", "diagonal-"):
        found[key] = data.get(key, False)
    for key in ("extraregion", "killercage"):
        found[key] = sorted(
            (sorted(part["cells"]), part.get("value")) for part in data.get(key, [])
        )
    board = fpuzzles.from_json(data).board
    found["regions"] = sorted(map(sorted, board.geometry.boxes))
    found["givens"] = [
        (r, c, cell["value"])
        for r, row in enumerate(data["grid"])
        for c, cell in enumerate(row)
        if cell.get("given")
    ]
    assert len(found["givens"]) <= n * n
    return found


def test_solve_reads_links_and_writes_the_solved_link(cli):
    done = cli("solve", str(EXAMPLES / "fpuzzles.txt"), "--format", "fpuzzles")
    assert done.code == 0, done.err
    written = done.out.splitlines()
    assert len(written) == 4
    for link, solved in zip(links(), written, strict=True):
        puzzle, data = fpuzzles.read(link).board, fpuzzles_link.decode(solved)
        values = [cell["value"] for row in data["grid"] for cell in row]
        assert tuple(values) == solve(puzzle).solution.cells
        assert fpuzzles.read(solved).board == puzzle  # the solution is no given


def test_killer9_as_f_puzzles_decodes_to_its_cages_and_totals(cli):
    done = cli("convert", "killer9", "--to", "fpuzzles")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    source = [item.board for item in read_puzzles(_dataset("killer9"))]
    assert len(lines) == len(source) > 0
    for link, board in zip(lines, source, strict=True):
        data = json.loads(lzstring.decompress_from_base64(link.partition("?load=")[2]))
        cages = sorted((int(c["value"]), sorted(c["cells"])) for c in data["killercage"])
        n = board.size
        want = sorted(
            (cage.param("total"), sorted(f"R{c // n + 1}C{c % n + 1}" for c in cage.cells))
            for cage in board.rules.constraints
        )
        assert cages == want


def _dataset(name: str) -> list[str]:
    from solvers.formats.datasets import open_named

    with open_named(name) as handle:
        return handle.read().splitlines()


def test_json_file_with_metadata_and_a_drawing_note(cli):
    done = cli("solve", str(EXAMPLES / "fpuzzles.json"), "--json")
    assert done.code == 0, done.err
    record = json.loads(done.out)
    assert record["title"] == "Six by six" and record["status"] == "solved"
    assert done.err.count('left out the f-puzzles key "text": a drawing, which sets no') == 1


def test_drawings_left_out_are_named_as_keys(cli, tmp_path):
    # "line" and "text" are keys, quoted as such: never "the drawings line" read as English
    document = json.loads((EXAMPLES / "fpuzzles.json").read_text())
    document["line"] = [{"lines": [["R1C1", "R1C2"]], "outlineC": "#000000", "width": 0.1}]
    path = tmp_path / "drawn.json"
    path.write_text(json.dumps(document))
    done = cli("solve", str(path))
    assert done.code == 0, done.err
    said = 'sudoku: left out the f-puzzles keys "text", "line": drawings, which set no rule\n'
    assert done.err in (said, said.replace('"text", "line"', '"line", "text"'))


def test_an_unknown_key_is_exit_2_naming_it_and_the_others_still_solve(cli):
    bad = fpuzzles_link.encode(grid_json(9, fogofwar=["R1C1"]))
    lines = [links()[0], "", bad, links()[1], "N4IgzglgXgpiBcBOAN"]
    done = cli("count", "--input-format", "fpuzzles", stdin="\n".join(lines) + "\n")
    assert done.code == 2
    assert done.out.split() == ["1", "1"]
    assert "line 3: f-puzzles key 'fogofwar'" in done.err
    assert "line 5: " in done.err and "Traceback" not in done.err


@pytest.mark.parametrize("form", ["line", "text", "json", "fpuzzles"])
def test_convert_writes_what_the_readers_read_back(form, tmp_path, cli):
    source = EXAMPLES / ("fpuzzles.txt" if form != "text" else "fpuzzles.json")
    done = cli("convert", str(source), "--to", form)
    assert done.code == 0, done.err
    if form == "json":
        records = [json.loads(line) for line in done.out.splitlines()]
        labels = ["diagonal+ diagonal-", "extraregion", "jigsaw", "killercage"]
        assert [r["rules"] for r in records] == labels
        return
    written = tmp_path / "puzzles.txt"
    written.write_text(done.out)
    again = [item.board for item in read_puzzles(written.read_text().splitlines())]
    first = [item.board for item in read_puzzles(source.read_text().splitlines())]
    assert [solve(b).solution.cells for b in again] == [solve(b).solution.cells for b in first]


@pytest.mark.slow  # 20 s of commands
def test_the_docs_page_prints_what_it_shows(tmp_path):
    # test_readme's runner, on docs/fpuzzles.md (until test_readme reads docs/*.md itself)
    from test_readme import commands, masked, reader_checkout, run_block

    lines = (ROOT / "docs" / "fpuzzles.md").read_text().splitlines()
    fences = [i for i, line in enumerate(lines) if line.startswith("```")]
    blocks = [lines[a + 1 : b] for a, b in zip(fences[::2], fences[1::2], strict=True)]
    blocks = [body for body in blocks if any(line.startswith("$ ") for line in body)]
    assert len(blocks) == 6
    for body in blocks:
        pairs = commands(body)
        outputs = run_block(pairs, False, reader_checkout(tmp_path / str(len(body))))
        for (command, shown), printed in zip(pairs, outputs, strict=True):
            assert masked(printed) == masked(shown), command


def test_cages_need_not_cover_the_grid_and_the_text_forms_say_so(cli):
    data = grid_json(4, killercage=[{"cells": ["R1C1", "R1C2"], "value": "3"}])
    data["grid"][3][3] = {"value": 4, "given": True}
    board = fpuzzles.from_json(data).board
    assert board.rules.constraints == (Constraint("killercage", (0, 1), (("total", 3),)),)
    answer = solve(board, backend="cpsat")  # verified against the cage by the runner
    assert sorted(answer.solution.cells[:2]) == [1, 2]
    done = cli("convert", "--to", "line", stdin=fpuzzles_link.encode(data) + "\n")
    assert done.code == 0 and done.out.splitlines()[0] == "# rules: killercage r1c1 r1c2 total=3"
    back = cli("count", "-", "--backend", "cpsat", stdin=done.out)
    assert (
        back.code == 0
        and back.out
        == cli("count", "--backend", "cpsat", stdin=fpuzzles_link.encode(data) + "\n").out
    )


def test_a_rules_header_is_refused_and_a_bad_json_document_is_one_error():
    items = list(read_puzzles(["# rules: x", links()[1]]))
    assert "its rules are its own" in str(items[0])
    (item,) = read_puzzles(["{", '  "size": 4,', '  "grid": [', "}"])
    assert isinstance(item, InputError) and "not JSON" in str(item) and item.line == 1
    (item,) = read_puzzles(json.dumps(grid_json(4), indent=1).splitlines())
    assert item.board.size == 4 and item.format == "fpuzzles"


def test_check_compares_with_the_solution_the_puzzle_gives(tmp_path, cli):
    board = fpuzzles.read(links()[0]).board
    solution = list(solve(board).solution.cells)
    data = fpuzzles.to_json(board) | {"solution": solution}
    good = cli("check", "--backends", "cpsat", stdin=fpuzzles_link.encode(data) + "\n")
    assert good.code == 0, good.err
    solution[0], solution[1] = solution[1], solution[0]
    data["solution"] = solution
    bad = cli("check", "--backends", "cpsat", stdin=fpuzzles_link.encode(data) + "\n")
    assert bad.code == 2 and "not a solution of the puzzle" in bad.err


def test_mangled_links_are_input_errors_every_time():
    rng, alphabet = random.Random(20), string.ascii_letters + string.digits + "+/="
    for link in links():
        payload = link.partition("?load=")[2]
        for _ in range(100):
            chars = list(payload)
            for _ in range(rng.randint(1, 3)):
                chars[rng.randrange(len(chars))] = rng.choice(alphabet)
            try:
                fpuzzles.read("".join(chars[: rng.randint(1, len(chars))]))
            except InputError as error:
                assert "\n" not in str(error)


def test_text_is_one_board(cli):
    done = cli("convert", str(EXAMPLES / "fpuzzles.txt"), "--to", "text")
    assert done.code == 2 and "--to text writes one board" in done.err and not done.out


def test_a_given_flag_that_is_no_boolean_is_one_error_naming_the_cell(cli):
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]}
    data["grid"][0][0] = {"value": 1, "given": "false"}
    done = cli("count", stdin=json.dumps(data) + "\n")
    assert done.code == 2
    assert "given is 'false', not true or false" in done.err


def test_a_json_line_left_open_is_its_own_error_and_the_lines_after_it_are_answered(cli):
    whole = json.dumps(fpuzzles.to_json(fpuzzles.read(links()[0]).board))
    lines = [whole, whole[:40], whole, links()[1], whole]
    done = cli("count", "--input-format", "fpuzzles", stdin="\n".join(lines) + "\n")
    assert done.code == 2
    assert done.out.split() == ["1", "1", "1", "1"]
    (error,) = done.err.splitlines()
    assert error.startswith("sudoku: line 2: the f-puzzles puzzle is not JSON")
    assert " at at " not in error


def test_two_json_documents_in_one_file_are_two_puzzles(tmp_path, cli):
    document = (EXAMPLES / "fpuzzles.json").read_text()
    path = tmp_path / "two.json"
    path.write_text(document.rstrip() + "\n" + document)
    lines = document.rstrip().count("\n") + 1
    done = cli("solve", str(path), "--json")
    assert done.code == 0, done.err
    records = [json.loads(line) for line in done.out.splitlines()]
    assert [record["index"] for record in records] == [1, lines + 1]
    assert all(record["status"] == "solved" for record in records)


def test_a_link_that_decompresses_past_the_cap_is_one_error_and_the_next_line_is_read(cli):
    title = "a" * (fpuzzles_link.MAX_JSON + 1)  # lz-string packs a run into a few KB
    bomb = fpuzzles_link.encode(grid_json(4, title=title))
    assert len(bomb) < 16_384  # a line the reader takes
    pad = bomb.replace(fpuzzles_link.URL, "https://sudokupad.app/fpuzzles")
    done = cli("count", "--input-format", "fpuzzles", stdin=f"{bomb}\n{pad}\n{links()[0]}\n")
    assert done.code == 2 and done.out.split() == ["1"]
    size = f"{len(json.dumps(grid_json(4, title=title), separators=(',', ':'))):,}"
    for line in (1, 2):
        assert (
            f"line {line}: the f-puzzles puzzle decompresses to {size} characters of JSON: "
            "no puzzle is longer than 1,000,000" in done.err
        )


def test_a_json_document_over_the_cap_is_one_error(tmp_path, cli):
    long_line = '"author": "' + "a" * 16_000 + '",'
    lines = ["{", *[long_line] * 70, '"size": 4,', f'"grid": {json.dumps(grid_json(4)["grid"])}']
    path = tmp_path / "long.json"
    path.write_text("\n".join([*lines, "}", links()[0]]) + "\n")
    done = cli("count", str(path))
    assert done.code == 2 and done.out.split() == ["1"]
    assert "line 1: the f-puzzles puzzle is over 1,000,000 characters of JSON" in done.err


def test_a_json_document_left_open_over_many_short_lines_is_answered_at_once(tmp_path, cli):
    # 200,000 lines of "[": reading them took minutes when each line re-measured the document
    path = tmp_path / "open.json"
    path.write_text('{"size": 4, "grid":\n' + "[\n" * 200_000 + links()[0] + "\n")
    started = time.monotonic()
    done = cli("count", str(path))
    assert time.monotonic() - started < 30
    assert done.code == 2 and done.out.split() == ["1"]
    assert done.err.startswith("sudoku: line 1: the f-puzzles puzzle ")


def test_two_json_documents_on_one_line_name_where_the_second_starts(cli):
    whole = json.dumps(fpuzzles.to_json(fpuzzles.read(links()[0]).board))
    done = cli("count", stdin=f"{whole}{whole}\n{whole}\n")
    assert done.code == 2 and done.out.split() == ["1"]
    assert done.err == (
        f"sudoku: line 1: a second JSON document starts at character {len(whole) + 1}: put each "
        "puzzle on a line of its own\n"
    )


def pretty_documents(cut: int, mid_line: bool = False) -> tuple[list[str], int]:
    """Three pretty-printed documents, the first cut short after its line ``cut`` (halfway
    through it with ``mid_line``): the lines, and the number of the second's first line."""
    whole = json.dumps(fpuzzles.to_json(fpuzzles.read(links()[0]).board), indent=1).splitlines()
    head = whole[:cut]
    if mid_line:
        head[-1] = head[-1][: len(head[-1]) // 2]
    return [*head, *whole, *whole], len(head) + 1


def test_a_pretty_printed_document_cut_short_is_one_error_and_the_documents_after_it_are_read():
    size = len(pretty_documents(0)[0]) // 2
    for cut in range(1, size):
        for mid_line in (False, True)[:cut]:  # half of the first line "{" is no document
            lines, second = pretty_documents(cut, mid_line)
            items = list(read_puzzles(lines))
            assert [item.line for item in items] == [1, second, second + size], (cut, mid_line)
            assert isinstance(items[0], InputError) and "not JSON" in str(items[0])
            assert [item.board.size for item in items[1:]] == [9, 9]


def test_documents_indented_as_a_whole_recover_at_the_first_documents_margin():
    lines, second = pretty_documents(30)
    items = list(read_puzzles(["    " + line for line in lines]))
    assert [item.line for item in items] == [1, second, second + (len(lines) - 30) // 2]
    assert isinstance(items[0], InputError) and [item.board.size for item in items[1:]] == [9, 9]


def test_a_document_cut_short_is_one_error_and_the_commands_answer_the_rest(tmp_path, cli):
    path = tmp_path / "cut.json"
    path.write_text("\n".join(pretty_documents(30)[0]) + "\n")
    error = (
        "sudoku: line 1: the f-puzzles puzzle is not JSON: it ends at its line 30 before its "
        "braces close (cut short?)\n"
    )
    count = cli("count", str(path))
    assert count.code == 2 and count.out.split() == ["1", "1"] and count.err == error
    solved = cli("solve", str(path), "--format", "line")
    assert solved.code == 2 and len(solved.out.split()) == 2 and solved.err == error
    converted = cli("convert", str(path), "--to", "line")
    assert converted.code == 2 and converted.err == error
    assert len([line for line in converted.out.splitlines() if not line.startswith("#")]) == 2


def test_a_hand_written_document_with_objects_at_its_margin_is_one_puzzle():
    data = fpuzzles.to_json(fpuzzles.read(links()[0]).board)
    rows = [",\n".join(json.dumps(cell) for cell in row) for row in data.pop("grid")]
    body = json.dumps(data)[:-1] + ', "grid": [[\n' + "\n], [\n".join(rows) + "\n]]}"
    assert any(line.startswith("{") for line in body.splitlines()[1:])
    (item,) = read_puzzles(body.splitlines())
    assert item.board == fpuzzles.read(links()[0]).board


SUDOKUPAD_FORMS = (
    "https://sudokupad.app/fpuzzles",
    "https://sudokupad.app/?puzzleid=fpuzzles",
    "sudokupad.app/fpuzzles",
    "https://app.crackingthecryptic.com/sudoku/fpuzzles",
)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_sudokupad_link_is_answered_with_a_sudokupad_link_of_its_own_form(cli, jobs):
    # docs/fpuzzles.md: a SudokuPad link's answer is a link of the form it came in (its host,
    # path or ?puzzleid=), whose payload is the puzzle with its solution filled in
    payload = links()[0].removeprefix(fpuzzles_link.URL)
    pads = [
        start + payload.replace("+", "%2B" if "?" in start else "+") for start in SUDOKUPAD_FORMS
    ]
    done = cli("solve", "--jobs", jobs, stdin="\n".join([*pads, links()[0]]) + "\n")
    assert done.code == 0, done.err
    answers = done.out.split()
    assert len(answers) == 5
    for answer, start in zip(answers, SUDOKUPAD_FORMS, strict=False):
        assert answer.startswith(start + "N4Ig"), answer[:60]
    assert answers[4].startswith(fpuzzles_link.URL)  # an f-puzzles link stays one
    for answer in answers:
        solved = fpuzzles_link.decode(answer)
        assert "solution" not in solved
        values = [cell["value"] for row in solved["grid"] for cell in row]  # every cell filled
        assert tuple(values) == solve(links()[0]).solution.cells
        assert fpuzzles.read(answer).board.rules == fpuzzles.read(links()[0]).board.rules
    # --format fpuzzles asks for f-puzzles' own link, whatever the input's
    done = cli("solve", "--format", "fpuzzles", stdin=pads[0] + "\n")
    assert done.out.startswith(fpuzzles_link.URL)
