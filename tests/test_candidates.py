"""True candidates (``sudoku candidates``, ``solvers.candidates``) against every solution.

The oracle is the union of all the solutions of a puzzle, found two ways that share nothing
with the command's search: every grid of a 4x4 tried against the verifier (brute force), and
for larger boards an enumeration by two other engines (each counts up to two; a puzzle with
more is split on its first open cell, value by value, until each part has one solution).
"""

from __future__ import annotations

import itertools
import json
from functools import cache
from pathlib import Path

import pytest

from solvers import Board, Shape, candidates, parse, read_puzzles
from solvers.analysis.candidates import _Clashes
from solvers.backends.contract import Backend
from solvers.formats.datasets import DATASETS
from solvers.model.verify import problems
from solvers.run.answer import Status
from solvers.run.runner import shared

ORACLES = ("cpsat", "pysat")  # engines that share no code with native's or propagate's search
SAMPLE = 1  # puzzles of each shipped set in the default run; the whole set under heavy

SEVERAL4 = "12....1........4"  # examples/several4.txt: three solutions
# A 4x4 made for this test: a thermometer r1c1 -> r1c2 and a killer cage r4c3 + r4c4 = 7
# leave sixteen solutions open (the brute force below counts them).
PLAIN4 = ".........3......"
VARIANT4 = f"# rules: thermometer r1c1 r1c2; killercage r4c3 r4c4 total=7\n{PLAIN4}"


def brute_force(board: Board) -> set[tuple[int, ...]]:
    """Every solution of a 4x4 board: each grid of rows that are permutations with no value
    twice in a column, kept when it keeps the givens and the verifier finds nothing wrong."""
    return {
        cells
        for cells in _latin_squares()
        if all(g in (0, v) for g, v in zip(board.cells, cells, strict=True))
        and not problems(board, board.with_cells(cells))
    }


@cache
def _latin_squares() -> list[tuple[int, ...]]:
    grids: list[tuple[int, ...]] = [()]
    for _ in range(4):  # a row at a time, each column's values kept apart
        grids = [
            grid + row
            for grid in grids
            for row in itertools.permutations(range(1, 5))
            if all(row[c] not in grid[c::4] for c in range(4))
        ]
    return grids


def enumerated(board: Board, backend: str) -> set[tuple[int, ...]]:
    """Every solution of ``board`` by ``backend``: counted up to two, and split on the first
    open cell while there are more (every solution verified by the runner)."""
    answer = shared(backend).count(board, 2)
    if answer.status in (Status.UNSOLVABLE, Status.INVALID):
        return set()
    assert answer.status is Status.SOLVED, answer
    if answer.count == 1:
        return {answer.solution.cells}
    cell = board.cells.index(0)
    found: set[tuple[int, ...]] = set()
    for value in range(1, board.size + 1):
        placed = board.with_cells(_placed(board.cells, cell, value))
        if not placed.conflicts():
            found |= enumerated(placed, backend)
    return found


def _placed(cells: tuple[int, ...], cell: int, value: int) -> tuple[int, ...]:
    return (*cells[:cell], value, *cells[cell + 1 :])


def union(board: Board, solutions: set[tuple[int, ...]]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(s[cell] for s in solutions) for cell in range(len(board.cells)))


def agrees(board: Board, solutions: set[tuple[int, ...]], backend: str | None = None) -> None:
    """The candidates of ``board`` are the union of ``solutions``, and the rest of the answer
    says what the solutions say."""
    found = candidates(board, backend)
    assert found.complete
    assert found.values == union(board, solutions)
    assert {s.cells for s in found.solutions} <= solutions
    if len(solutions) == 0:
        assert (found.status, found.found, found.solutions) == ("unsolvable", 0, ())
    elif len(solutions) == 1:
        assert (found.status, found.found, found.calls) == ("unique", 1, 1)
    else:
        assert found.status == "several" and 2 <= found.found <= len(solutions)
        first, second = found.solutions
        assert found.differing and all(first.cells[c] != second.cells[c] for c in found.differing)


def test_a_4x4_with_several_solutions_has_every_solutions_values():
    board = parse(SEVERAL4, shape=Shape(2, 2))
    solutions = brute_force(board)
    assert len(solutions) == 3
    agrees(board, solutions)
    assert candidates(board).found == 3  # every solution met on the way


def test_a_4x4_variant_with_several_solutions():
    board = parse(VARIANT4)
    solutions = brute_force(board)
    assert len(solutions) > 2  # the rules leave it open: a test of the value-by-value search
    plain = parse(PLAIN4)
    assert union(board, solutions) != union(plain, brute_force(plain))  # the rules tell
    for backend in (None, "cpsat", "dfs"):
        agrees(board, solutions, backend)


def test_a_unique_puzzle_shows_its_solution_from_one_call():
    board = parse(Path("examples/boj2580.txt").read_text())
    found = candidates(board, "propagate")
    (solution,) = found.solutions
    assert found.values == tuple(frozenset({v}) for v in solution.cells)
    assert (found.status, found.exact, found.calls, found.differing) == ("unique", True, 1, ())


def test_a_puzzle_with_no_solution_has_no_candidates():
    board = _dataset("nosolution9")[0]
    found = candidates(board)
    assert (found.status, found.exact, found.values) == ("unsolvable", True, (frozenset(),) * 81)


def test_givens_that_clash_have_no_solution_and_say_why():
    found = candidates("11" + "." * 14, "dfs")
    assert found.status == "unsolvable"
    assert "row 1 has 1 twice" in found.detail


def test_one_more_given_clashes_exactly_when_the_judge_says_the_board_does():
    # the search's shortcut for a given placed on a clash-free board must be the judge's rule
    for board in (_dataset("killer16")[0], _dataset("several9")[0], _dataset("windoku9")[0]):
        clashes = _Clashes(board)
        for cell in [c for c, v in enumerate(board.cells) if not v][:40]:
            for value in range(1, board.size + 1):
                placed = _placed(board.cells, cell, value)
                assert clashes.at(placed, cell, value) == bool(board.with_cells(placed).conflicts())


@cache
def _dataset(name: str) -> list[Board]:
    with DATASETS[name].open() as handle:
        return [item.board for item in read_puzzles(handle)]


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_a_sample_of_every_shipped_set_agrees_with_two_engines_enumerations(name):
    for board in _dataset(name)[:SAMPLE]:
        first, second = (enumerated(board, oracle) for oracle in ORACLES)
        assert first == second
        agrees(board, first)


@pytest.mark.heavy
@pytest.mark.parametrize("name", sorted(DATASETS))
def test_every_shipped_puzzle_agrees_with_two_engines_enumerations(name):
    for board in _dataset(name):
        first, second = (enumerated(board, oracle) for oracle in ORACLES)
        assert first == second
        agrees(board, first)


def test_a_named_backend_gives_the_same_candidates():
    board = _dataset("several9")[1]
    assert candidates(board, "cpsat").values == candidates(board, "native").values


class WrongWhenPlaced(Backend):
    """Counts right (tiny's search), but its solves return a grid that breaks the givens:
    wrong only on the calls that place a value."""

    def search(self, board, deadline, limit):
        from tiny_backend import Liar, Tiny

        return (Liar if limit == 1 else Tiny)().search(board, deadline, limit)


def test_every_solution_is_verified_before_it_counts(cli, registered):
    registered("wrongplaced", "test_candidates:WrongWhenPlaced")
    done = cli("candidates", "--backend", "wrongplaced", stdin=f"{SEVERAL4}\n{SEVERAL4}\n")
    assert done.code == 5
    assert done.err.count("sudoku: line ") == 2 and "BUG: " in done.err  # both puzzles told
    done = cli("candidates", "--backend", "wrongplaced", "--json", stdin=f"{SEVERAL4}\n")
    (record,) = (json.loads(line) for line in done.out.splitlines())
    assert (record["status"], record["puzzle"], done.code) == ("wrong", SEVERAL4, 5)


def test_the_command_prints_a_pencil_mark_grid_and_two_differing_solutions(cli):
    done = cli("candidates", "examples/several4.txt")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    assert lines[0] == "several solutions (3 found): 7 cells open"
    assert lines[2] == "| 1   2  | 4  3 |"
    assert lines[3] == "| 34  34 | 1  2 |"
    assert lines[8].startswith("two solutions differ at r2c1, ")


def test_the_command_writes_one_json_record_per_puzzle(cli):
    several, unique = SEVERAL4, "1.....3..4.....2"
    done = cli("candidates", "--json", "--backend", "cpsat", stdin=f"{several}\n{unique}\n")
    first, second = (json.loads(line) for line in done.out.splitlines())
    assert done.code == 0
    assert (first["status"], first["count_is"], first["count"]) == ("several", "at least", 3)
    assert first["candidates"][4] == [3, 4] and len(first["solutions"]) == 2
    assert first["differ"][0] == "r2c1"
    assert (second["status"], second["count_is"], second["count"]) == ("unique", "exact", 1)
    assert all(len(values) == 1 for values in second["candidates"])


def test_givens_that_clash_have_a_json_record_naming_the_puzzle(cli):
    clashing = "11" + "." * 14
    done = cli("candidates", "--json", stdin=f"{clashing}\n")
    (record,) = (json.loads(line) for line in done.out.splitlines())
    assert (record["status"], record["puzzle"], done.code) == ("invalid", clashing, 2)


def test_no_solution_is_exit_status_1_and_bad_lines_keep_their_place(cli):
    stdin = f"{_line(_dataset('nosolution9')[0])}\n{'1' * 5}\n{SEVERAL4}\n"
    done = cli("candidates", stdin=stdin)
    assert done.code == 2  # bad input wins over no solution
    assert done.err.startswith("sudoku: line 1: no solution\nsudoku: line 2: ")
    assert "line 3: several solutions (3 found)" in done.out


def test_a_timeout_gives_a_partial_answer_that_says_so(cli):
    board = Board.empty(Shape(4, 4))  # 16x16: thousands of pairs, most of them to be found
    found = candidates(board, "dfs", timeout=0.2)
    assert not found.complete and found.status in ("several", "unknown")
    every = frozenset(range(1, 17))
    assert any(found.undecided)
    # every value is a candidate everywhere here: each is confirmed or undecided, none lost
    for values, undecided in zip(found.values, found.undecided, strict=True):
        assert values | undecided == every and not values & undecided
    done = cli("candidates", "--backend", "dfs", "--timeout", "0.2", stdin=_line(board) + "\n")
    assert done.code == 3
    assert done.err == "sudoku: line 1: timeout after 0.2 s: the answer is partial\n"
    assert done.out.startswith("line 1: partial (")


def test_a_partial_answer_rules_out_only_values_no_solution_holds(registered):
    registered("tiny", "tiny_backend:Tiny")  # a slow search: the deadlines fall mid-way
    board = _dataset("several9")[0]
    truth = union(board, enumerated(board, "cpsat"))
    for timeout in (0.02, 0.05, 1.0):
        found = candidates(board, "tiny", timeout=timeout)
        undecided = found.undecided or (frozenset(),) * 81
        for cell in range(81):
            assert found.values[cell] <= truth[cell]
            assert truth[cell] <= found.values[cell] | undecided[cell]


def test_f_puzzles_links_of_every_drawn_kind_are_read_as_solve_reads_them(cli):
    with open("examples/fpuzzles-kinds.txt", encoding="utf-8") as handle:
        boards = {item.line: item.board for item in read_puzzles(handle)}
    done = cli("candidates", "examples/fpuzzles-kinds.txt", "--json")
    assert done.code == 0, done.err
    records = [json.loads(line) for line in done.out.splitlines()]
    assert [record["index"] for record in records] == sorted(boards)
    for record in records:
        board = boards[record["index"]]
        truth = union(board, enumerated(board, "cpsat"))
        assert record["candidates"] == [sorted(values) for values in truth]


def test_a_backend_that_lacks_a_kind_is_told_per_puzzle(cli):
    done = cli("candidates", "thermo9", "--backend", "dlx")
    assert done.code == 2
    assert done.err.count("dlx does not support thermometer") == 10
    # --json still writes one record per puzzle, saying why, as solve --json does
    done = cli("candidates", "thermo9", "--backend", "dlx", "--json")
    records = [json.loads(line) for line in done.out.splitlines()]
    assert [record["status"] for record in records] == ["unsupported"] * 10
    assert "dlx does not support thermometer" in records[0]["error"]
    assert done.code == 2


def _line(board: Board) -> str:
    return "".join(".123456789ABCDEFG"[v] for v in board.cells)
