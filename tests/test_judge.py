"""The one judge: agreement (statuses, counts, unique solutions) for check and compare, rule
support declared by each backend and refused in one place, and the bulk path's answers checked
by a verifier that shares no code with the kernel."""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest
from conftest import ROOM
from corpus import complete_board, variant

from solvers import Board, Shape, solve, solve_many
from solvers.analysis import summary
from solvers.backends import registry
from solvers.backends.contract import STATS, Backend
from solvers.backends.handwritten.native import aot, batch
from solvers.formats.boards import format_board, parse
from solvers.formats.datasets import DATASETS
from solvers.model import verify
from solvers.model.verify import failing_rows, problems
from solvers.run.answer import Answer, Status
from solvers.run.judge import disagreements, disputed

S9 = Shape(3, 3)


# Agreement ----------------------------------------------------------------------------


def test_a_miscount_is_a_disagreement_naming_the_backends_and_their_counts():
    words = [Answer(Status.SOLVED, "under", count=1), Answer(Status.SOLVED, "dfs", count=2)]
    assert disagreements(words) == ["counts: under 1, dfs 2+"]


def test_a_timeout_says_nothing_either_way():
    words = [Answer(Status.TIMEOUT, "slow"), Answer(Status.SOLVED, "dfs", count=2)]
    assert disagreements(words) == []


def test_a_unique_puzzle_has_one_solution_across_backends():
    rng = random.Random(7)
    one, two = complete_board(S9, rng), complete_board(S9, rng)
    same = [
        Answer(Status.SOLVED, "a", count=1, solution=one),
        Answer(Status.SOLVED, "b", count=1, solution=one),
    ]
    assert disagreements(same) == []
    other = [
        Answer(Status.SOLVED, "a", count=1, solution=one),
        Answer(Status.SOLVED, "b", count=1, solution=two),
    ]
    [said] = disagreements(other)
    assert said.startswith("b: unique solution differs from a's at r")
    found = disagreements(same, known=two)  # the file's solution is the one that counts
    assert [said[:49] for said in found] == [
        "a: solution differs from the file's solution at r",
        "b: solution differs from the file's solution at r",
    ]


def test_solvability_and_a_status_its_count_contradicts_are_disagreements():
    words = [Answer(Status.UNSOLVABLE, "a", count=1), Answer(Status.SOLVED, "b", count=1)]
    found = disagreements(words)
    assert "solvability: b says solved; a says unsolvable" in found
    assert "a: says unsolvable but counts 1" in found


def test_compare_catches_a_miscount_as_check_does(cli, registered):
    registered("undercounter", "tiny_backend:Undercounter", summary="counts 1 at most")
    args = ["several9", "--limit", "2", "--backends", "undercounter,propagate"]
    compared = cli("compare", *args, *ROOM)
    assert compared.code == 4
    # puzzles are named by their line in the file (two header lines come first)
    assert "puzzle 3: counts: undercounter 1, propagate 2+" in compared.out
    lines = "".join(line + "\n" for line in DATASETS["several9"].puzzles()[:2])
    checked = cli("check", "--backends", "undercounter,propagate", stdin=lines)
    assert checked.code == 4
    assert "line 1: counts: undercounter 1, propagate 2+" in checked.out


def test_the_judge_disputes_the_answers_it_can_show_wrong_and_a_minority_count():
    rng = random.Random(7)
    one, two = complete_board(S9, rng), complete_board(S9, rng)

    def said(name: str, count: int | None, solution: Board | None = one) -> Answer:
        status = Status.SOLVED if solution is not None else Status.UNSOLVABLE
        return Answer(status, name, solution=solution, count=count)

    assert disputed([said("a", 2), said("b", 2)]) == frozenset()
    assert disputed([said("a", 1), said("b", 2), said("c", 2)]) == {"a"}  # the fewer say 1
    assert disputed([said("a", 1), said("b", 2)]) == {"a", "b"}  # one against one: no word
    assert disputed([said("a", 1), said("b", 2, two)]) == {"a"}  # two solutions seen
    assert disputed([said("a", None, None), said("b", None)]) == {"a"}  # b's is verified
    assert disputed([said("a", 1, two)], known=one) == {"a"}  # unique, but not the file's
    assert disputed([said("a", 1, two), said("b", 1)]) == {"a", "b"}  # two: neither unique
    assert disputed([said("a", 0), said("b", 1)]) == {"a"}  # solved, yet counts none
    assert disputed([Answer(Status.TIMEOUT, "a"), said("b", 2)]) == frozenset()


def test_compare_marks_a_disputed_backend_and_leaves_it_out_of_best_and_the_vbs(
    cli, registered, tmp_path
):
    registered("undercounter", "tiny_backend:Undercounter", summary="counts 1 at most")
    run_json, page = tmp_path / "run.json", tmp_path / "report.html"
    args = ["several9", "--limit", "3", "--backends", "undercounter,propagate,dlx"]
    compared = cli("compare", *args, *ROOM, "--json", str(run_json))
    assert compared.code == 4
    rows = {line.split()[0]: line.split() for line in compared.out.splitlines()[2:6]}
    assert rows["undercounter"][1:3] == ["!", "0"]  # marked, and nothing counted solved
    assert rows["undercounter"][-2] == "0"  # never best
    assert rows["propagate"][1] == "3" and rows["VBS"][1] == "3"
    assert "! undercounter: the judge disputes 3 of its answers" in compared.out
    written = json.loads(run_json.read_text())["datasets"][0]["summary"]
    by_name = {row["backend"]: row for row in written}
    assert by_name["undercounter"]["disputed"] == 3 and by_name["undercounter"]["best_pct"] == 0
    assert by_name["VBS"]["median_s"] == pytest.approx(
        min(by_name["propagate"]["median_s"], by_name["dlx"]["median_s"]), rel=0.5
    )
    assert cli("report", str(run_json), "-o", str(page)).code == 0
    text = page.read_text()
    assert '<tr><td>undercounter !</td><td data-v="0">0</td>' in text
    body, foot = text.split("<tfoot>")
    assert "<tr><td>VBS</td>" not in body and "<tr><td>VBS</td>" in foot.split("</tfoot>")[0]


SEVERAL_TWO = "".join(line + "\n" for line in DATASETS["several9"].puzzles()[:2])


def test_a_backend_that_fails_leaves_a_puzzle_unconfirmed_never_in_disagreement(cli, registered):
    registered("raises", "tiny_backend:Raises", summary="fails on every puzzle")
    alone = cli("check", "--backends", "raises,propagate", stdin=SEVERAL_TWO)
    assert alone.code == 2, alone.out + alone.err  # a failed backend: 2, as solve exits
    assert "line 1: raises: backend raised RuntimeError: the glue broke" in alone.out
    assert "line 1: unconfirmed, failed: raises" in alone.out
    assert alone.out.splitlines()[-1].startswith(
        "2 puzzles: 0 agree, 0 disagree, 2 unconfirmed (timeouts or errors)"
    )
    confirmed = cli("check", "--backends", "raises,propagate,dlx", stdin=SEVERAL_TWO)
    assert confirmed.code == 2
    assert confirmed.out.splitlines()[-1].startswith("2 puzzles: 2 agree, 0 disagree, 0 unconf")


def test_an_answer_a_worker_cannot_send_is_one_short_error_line(cli, registered):
    registered("unpicklable", "tiny_backend:Unpicklable", summary="stats pickle cannot send")
    run = cli("compare", "several9", "--limit", "1", "--backends", "unpicklable", *ROOM)
    assert run.code == 2, run.out + run.err
    [said] = [line for line in run.out.splitlines() if line.startswith("unpicklable: 1 errors")]
    assert said == (
        "unpicklable: 1 errors; the first, puzzle 3: worker could not send its reply: Can't "
        "pickle local object 'Unpicklable.search.<locals>.<lambda>'"
    )


@pytest.mark.parametrize(
    "name, target, disputed",
    [
        ("overcounter", "tiny_backend:Overcounter", 1),
        ("nosolution", "tiny_backend:SaysUnsolvable", 2),
    ],
)
def test_check_marks_a_backend_the_judge_disputes_as_compare_does(
    cli, puzzles, registered, name, target, disputed
):
    registered(name, target, summary="a bug on purpose")
    unique_then_several = [puzzles["9x9-easy"], puzzles["several-9x9"]]
    text = "".join(format_board(board, "line") + "\n" for board in unique_then_several)
    run = cli("check", "--backends", f"{name},propagate,dlx", stdin=text)
    assert run.code == 4, run.out + run.err
    table = [line.split() for line in run.out.splitlines() if not line.startswith("line")]
    header, *rows = table[:4]
    assert header[-1] == "disputed"
    by_name = {row[0]: row for row in rows}
    assert by_name[name][1] == "!" and by_name[name][-1] == str(disputed)
    # the puzzles not disputed only are counted solved (neither is unsolvable)
    assert by_name[name][2:4] == [str(2 - disputed), "0"]
    assert by_name["propagate"][1:3] == ["2", "0"] and by_name["propagate"][-1] == "0"
    assert (
        f"! {name}: the judge disputes {disputed} of its answers (the notes say why): counted "
        "disputed, not solved or unsolvable"
    ) in run.out


def test_a_wrong_answer_is_a_bug_line_in_check_and_compare_and_wrong_in_both_tables(
    cli, registered, tmp_path
):
    registered("liar", "tiny_backend:Liar", summary="a wrong grid on purpose")
    checked = cli("check", "--backends", "liar,propagate", stdin=SEVERAL_TWO)
    assert checked.code == 5
    bug = "BUG: backend liar returned a wrong solution: "
    assert checked.out.startswith(f"line 1: {bug}")
    run_json, page = tmp_path / "run.json", tmp_path / "report.html"
    args = ["several9", "--limit", "3", "--backends", "liar,propagate", *ROOM]
    compared = cli("compare", *args, "--json", str(run_json))
    assert compared.code == 5
    lines = compared.out.splitlines()
    assert next(line for line in lines if bug in line).startswith(f"puzzle 3: {bug}")
    header, liar = lines[1].split(), lines[2].split()
    assert header[1:5] == ["solved", "t/o", "err", "wrong"] and liar[1:5] == ["0", "0", "0", "3"]
    assert cli("report", str(run_json), "-o", str(page)).code == 0
    text = page.read_text()
    titles = re.findall(r"<th[^>]*>([^<]*)</th>", text)[:6]
    liar_cells = re.findall(r"<td[^>]*>([^<]*)</td>", text.split("<tr><td>liar</td>")[1])[:5]
    assert titles[4:6] == ["errors", "wrong"] and liar_cells[3:5] == ["0", "3"]


def test_compare_agrees_when_the_backends_do(cli):
    run = cli("compare", "several9", "--limit", "2", "--backends", "dlx,propagate", *ROOM)
    assert run.code == 0 and "disagree" not in run.out and "counts:" not in run.out


# Support -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", registry.built_in())
def test_every_backend_declares_what_it_encodes_itself(name):
    available, why = registry.availability(name)
    if not available:
        pytest.skip(why)
    declared = registry.backend_class(name).ENCODES
    assert frozenset() == Backend.ENCODES  # units alone unless declared
    assert "ENCODES" in vars(registry.backend_class(name)) or declared == Backend.ENCODES


def test_a_backend_that_declares_nothing_is_asked_units_only(cli, registered):
    registered("tiny", "tiny_backend:Tiny", summary="declares no rule")
    x9 = parse("# rules: x\n" + DATASETS["x9"].puzzles()[0])
    solved = "".join(map(str, solve(x9, backend="propagate").solution.cells))
    x_line = "# rules: x\n" + "." * 20 + solved[20:] + "\n"  # a few blanks: tiny is naive
    assert cli("solve", "--backend", "tiny", stdin=x_line).out.strip() == solved  # units
    killer = cli("solve", "examples/killer.txt", "--backend", "tiny")
    assert killer.code == 2 and killer.err.strip().endswith("tiny does not support killercage")
    row = " ".join(f"r2c{c}" for c in range(1, 10))
    x_and_row_cage = parse(f"# rules: x; killercage {row} total=45\n" + "." * 81)
    assert registry.lacking("tiny", x_and_row_cage) == frozenset()  # a cage of N cells: a unit
    thermo = parse("# rules: thermometer r1c1 r1c2; killercage r2c1 r2c2 total=3\n" + "." * 81)
    assert registry.lacking("tiny", thermo) == {"thermometer", "killercage"}
    assert registry.lacking("propagate", thermo) == frozenset()


# Statistics ---------------------------------------------------------------------------


def test_the_counters_summaries_read_are_declared_with_their_meaning():
    read = {"guesses", *summary.LIBRARY_STATS}
    assert read <= set(STATS) and all(STATS[key] for key in read)


# The bulk path's own verifier ----------------------------------------------------------


def test_the_bulk_verifier_finds_what_the_verifier_finds():
    rng = random.Random(3)
    boards, solutions, expected = [], [], []
    for _ in range(40):
        full = complete_board(S9, rng)
        puzzle = full.with_cells(v if rng.random() < 0.3 else 0 for v in full.cells)
        cells = list(full.cells)
        fault = rng.randrange(4)
        if fault == 1:  # a value changed: a unit lacks one, and perhaps a given is broken
            cells[rng.randrange(81)] = rng.randrange(1, 10)
        elif fault == 2:  # out of range
            cells[rng.randrange(81)] = rng.choice([0, 10, 255])
        elif fault == 3:  # two cells of a row swapped: rows hold, columns do not
            row = rng.randrange(9) * 9
            cells[row], cells[row + 1] = cells[row + 1], cells[row]
        boards.append(puzzle.cells)
        solutions.append(cells)
        candidate = Board.unchecked(S9, tuple(cells))
        expected.append(bool(problems(puzzle, candidate)))
    found = failing_rows(Board.empty(S9), np.array(boards), np.array(solutions, np.uint8))
    assert found.tolist() == expected and any(expected) and not all(expected)


def test_the_bulk_verifier_checks_many_rows_in_chunks_on_threads():
    """Past ``verify.CHUNK`` rows the rows are checked a chunk at a time on threads: each
    fault is found in whichever chunk it falls, and no other row is flagged."""
    full = np.array(complete_board(S9, random.Random(5)).cells, np.uint8)
    rows = 3 * verify.CHUNK + 17  # four chunks, the last a short one
    relabel = np.array([np.r_[0, np.random.default_rng(r).permutation(9) + 1] for r in range(50)])
    solutions = relabel[np.arange(rows) % 50][np.arange(rows)[:, None], full[None, :]]
    solutions = solutions.astype(np.uint8)  # valid grids: the digits renamed
    puzzles = np.where(np.arange(81) % 4 == 0, solutions, 0).astype(np.uint8)
    bad = {5: (3, 0), verify.CHUNK: (40, 10), 2 * verify.CHUNK + 1: (80, 255), rows - 1: (1, 0)}
    for row, (cell, value) in bad.items():
        solutions[row, cell] = value  # out of range
    puzzles[verify.CHUNK - 1, 4] = solutions[verify.CHUNK - 1, 4] % 9 + 1  # a given broken
    swapped = verify.CHUNK + 3  # two cells of a row swapped: the columns break
    solutions[swapped, [0, 1]] = solutions[swapped, [1, 0]]
    puzzles[swapped] = 0
    found = failing_rows(Board.empty(S9), puzzles, solutions)
    assert sorted(np.flatnonzero(found).tolist()) == sorted([*bad, verify.CHUNK - 1, swapped])


def test_the_bulk_verifier_reads_cages():
    shape = Shape(2, 2)
    full = Board.pattern(shape)
    total = full.cells[0] + full.cells[1]
    rules = variant(full.shape, cages=((total, (0, 1)),))
    good = np.array([full.cells])
    swapped = list(full.cells)
    wrong_total = variant(full.shape, cages=((total + 1, (0, 1)),))
    assert not failing_rows(Board.empty(shape, rules), np.zeros_like(good), good).any()
    assert failing_rows(Board.empty(shape, wrong_total), np.zeros_like(good), good).all()
    swapped[0] = swapped[1]  # a repeat inside the cage (and a unit)
    repeat = np.array([swapped])
    assert failing_rows(Board.empty(shape, rules), np.zeros_like(repeat), repeat).all()


@pytest.fixture
def lying_kernel(monkeypatch):
    """The kernel's batch call (whichever copy of the kernel runs: ``aot.solve_batch``), made
    to return a wrong first grid (its own check passed before the grid was spoiled): only the
    independent verifier can catch it."""
    real = aot.solve_batch

    def spoiled(*args, **kwargs):
        found = real(*args, **kwargs)
        solved = np.flatnonzero(found.flags == batch.Flag.SOLVED)
        if len(solved):
            row = found.solutions[solved[0]]
            row[0], row[1] = row[1], row[0]  # the row still holds 1..9; columns do not
        return found

    monkeypatch.setattr(aot, "solve_batch", spoiled)


def test_solve_many_flags_a_wrong_grid_from_the_kernel(lying_kernel):
    puzzles = np.array([[0] * 81, [0] * 81], np.uint8)
    found = solve_many(puzzles, 1)
    assert found.flags.tolist() == [batch.Flag.WRONG, batch.Flag.SOLVED]


@pytest.mark.parametrize("command", ["solve", "count"])
def test_a_wrong_grid_on_the_file_fast_path_is_reported_wrong(cli, tmp_path, lying_kernel, command):
    lines = DATASETS["hard9"].puzzles()[:3]
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(line + "\n" for line in lines))
    run = cli(command, str(path), "--backend", "native")
    assert run.code == 5
    assert run.err.startswith("sudoku: line 1: BUG: backend native returned a wrong solution: ")
    assert len(run.out.splitlines()) == 2  # the other puzzles answered as ever


def test_check_reports_clashing_givens_as_bad_input_not_a_crash(cli, puzzles):
    # The judge refuses the board before any backend; check says so in one line (exit 2).
    line = "".join(str(v) if v else "." for v in puzzles["conflicting-givens"].cells) + "\n"
    run = cli("check", "--backends", "propagate,cpsat", stdin=line)
    assert run.code == 2
    assert run.err.startswith("sudoku: line 1: row 1 has ")


def test_check_reports_clashing_givens_whichever_backend_comes_first(cli, tmp_path):
    # norvig takes no killer cages: its answer is 'unsupported', and the clash is dlx's to say
    path = tmp_path / "killer.txt"
    path.write_text(f"# rules: killercage r9c1 r9c2 total=3\n22{'.' * 79}\n{'.' * 81}\n")
    for backends in ("norvig,dlx", "dlx,norvig"):
        run = cli("check", str(path), "--backends", backends, "--timeout", "5")
        assert run.code == 2, run.err
        assert run.err.startswith("sudoku: line 2: row 1 has 2 twice"), run.err
        assert "1 puzzle: 1 agree" in run.out
