"""Constraints as text: in a ``# rules:`` header after ``;``, in a ``constraints:`` section after
a grid, in ``--json``, in ``sudoku kinds``; and the generator's constraint puzzles."""

from __future__ import annotations

import json

import pytest

from solvers import Shape, count_solutions
from solvers.formats import variant_text
from solvers.formats.boards import parse, read_puzzles
from solvers.model.constraints.kinds import KINDS, plain
from solvers.model.constraints.text import parse_constraint

EMPTY9 = "." * 81


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_kinds_example_reads_in_a_header_and_in_a_section(name):
    example = KINDS[name].example
    assert example.split()[0] == name
    header = parse(f"# rules: {example}\n{EMPTY9}\n")
    grid = "\n".join([". " * 9] * 9) + f"\nconstraints: {example}\n"
    section = parse(grid)
    expected = (plain(parse_constraint(example, 9), 9),)  # a default parameter said or not
    assert header.rules.constraints == section.rules.constraints == expected
    assert header.rules.names == {name}


def test_a_header_mixes_variants_and_constraints_and_writes_back_the_same():
    text = f"# rules: x; thermometer r1c1 r1c2 r2c3; anti-knight\n{EMPTY9}\n"
    board = parse(text)
    names = {"diagonal+", "diagonal-", "thermometer", "anti-knight"}
    assert board.rules.names == names
    written = variant_text.header(board.rules, 9)
    assert written == "# rules: anti-knight; diagonal+; diagonal-; thermometer r1c1 r1c2 r2c3"
    assert parse(f"{written}\n{EMPTY9}\n").rules == board.rules


def test_a_bad_constraint_costs_the_puzzles_under_it_only_with_one_line_each(cli, tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text(
        f"# rules: thermometer r1c1 r1c2 r10c3\n{EMPTY9}\n# rules: classic\n"
        + "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n"
    )
    run = cli("count", str(path), "--backend", "propagate")
    assert run.code == 2
    assert run.err.splitlines() == [
        "sudoku: line 2: constraint 'thermometer r1c1 r1c2 r10c3': cell r10c3 is outside the "
        "9x9 board"
    ]
    assert run.out.splitlines() == ["1"]


def test_an_unknown_rule_word_is_named():
    header, puzzle = read_puzzles(["# rules: x; thermometr r1c1 r1c2\n", EMPTY9])
    assert str(header).startswith("line 1: unknown rule 'thermometr'; rules are x, windoku")
    assert str(puzzle) == "line 2: under the rules line 1, which cannot be read"


def test_json_records_carry_the_constraints(cli):
    text = f"# rules: thermometer r1c1 r1c2 r1c3; odd r9c9\n{EMPTY9}\n"
    run = cli("solve", "--json", "--backend", "cpsat", stdin=text)
    record = json.loads(run.out)
    assert run.code == 0 and record["status"] == "solved"
    assert record["constraints"] == ["odd r9c9", "thermometer r1c1 r1c2 r1c3"]


def test_sudoku_kinds_lists_every_kind_with_its_example(cli):
    run = cli("kinds")
    rows = run.out.splitlines()[1:]
    assert [row.split()[0] for row in rows] == list(KINDS)
    assert all(row.rstrip().endswith(KINDS[row.split()[0]].example) for row in rows)


GENERATED = ["thermometer", "arrow", "kropki", "xv", "anti-knight", "anti-king", "non-consecutive"]


@pytest.mark.parametrize(
    "size, rule",
    [(4, rule) for rule in ("thermometer", "kropki", "xv")]
    + [pytest.param(6, rule, marks=pytest.mark.heavy) for rule in GENERATED],
)
def test_the_generator_makes_unique_puzzles_with_constraints(cli, size, rule):
    args = ("generate", "--size", str(size), "--count", "2", "--seed", "4", "--rules", rule)
    run = cli(*args)
    assert run.code == 0, run.err
    boards = list(read_puzzles(run.out.splitlines()))
    assert len(boards) == 2
    for item in boards:
        assert item.board.shape == Shape.for_size(size) and item.board.rules.constraints
        assert count_solutions(item.board, 2, "dfs") == count_solutions(item.board, 2, "cpsat")
        assert count_solutions(item.board, 2, "cpsat") == 1
    assert cli(*args).out == run.out  # the same arguments give the same puzzles


def test_a_board_wide_rule_no_grid_obeys_is_said_at_once(cli):
    run = cli("generate", "--size", "4", "--rules", "anti-king", "--seed", "1")
    assert run.code == 2
    assert run.err == "sudoku: no 4x4 grid obeys anti-king: no puzzle can\n"
