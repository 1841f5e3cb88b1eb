"""Propagation strength (solvers.strength): the equivalences and the nesting theory gives, on
real benchmark puzzles; the CNF levels against PySAT's own propagation on a CNF written here;
and the strength, explain and rate commands on every shipped set.

The benchmark checks run on a sample by default and on every puzzle of top95 and the first
300 of sudoku17 under ``slow``; they skip when ../shared/data is absent.
"""

from __future__ import annotations

import json
import signal
from itertools import combinations, islice, pairwise

import pytest
from conftest import SHARED_DATA

from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.formats.boards import parse, read_puzzles
from solvers.formats.datasets import DATASETS
from solvers.model.board import Board
from solvers.strength.alldifferent import filtered
from solvers.strength.human import EXTRA
from solvers.strength.human import LEVELS as HUMAN
from solvers.strength.levels import LEVELS, levels_of, measure


def benchmark(name: str, count: int | None) -> list[Board]:
    path = SHARED_DATA / name
    if not path.is_file():
        pytest.skip(f"needs the public sets in {SHARED_DATA}")
    with open(path, encoding="utf-8") as handle:
        return [p.board for p in islice(read_puzzles(handle), count)]


def sets(sample: tuple[int, int]) -> list:
    """(top95 puzzles, sudoku17 puzzles) as parameters: a sample by default, the done-when
    sets (all of top95, the first 300 of sudoku17) under slow."""
    return [
        pytest.param(sample, id="sample"),
        pytest.param((95, 300), id="full", marks=pytest.mark.slow),
    ]


def boards(counts: tuple[int, int]) -> list[Board]:
    top, seventeen = counts
    return benchmark("top95.txt", top) + benchmark("sudoku17.txt", seventeen)


def within(stronger: tuple[int, ...], weaker: tuple[int, ...]) -> bool:
    """Every candidate the stronger level keeps, the weaker keeps too."""
    return all(s & ~w == 0 for s, w in zip(stronger, weaker, strict=True))


@pytest.mark.parametrize("counts", sets((12, 20)))
def test_unit_propagation_on_the_extended_encoding_is_naked_and_hidden_singles(counts):
    for board in boards(counts):
        up, singles = measure(board, "up:extended"), measure(board, "singles")
        assert (up.fixed, up.candidates) == (singles.fixed, singles.candidates), board


@pytest.mark.parametrize("name", ["x9", "windoku9", "jigsaw9", "big16", "six6"])
def test_the_equivalences_hold_on_the_units_of_variant_boards(name):
    """Through the compile step: diagonals, windows and jigsaw regions are units like rows."""
    with DATASETS[name].open() as handle:
        for puzzle in islice(read_puzzles(handle), 3):
            board = puzzle.board
            assert measure(board, "up:extended") == measure(board, "singles")
            assert measure(board, "up:minimal") == measure(board, "fc")


@pytest.mark.parametrize("counts", sets((12, 20)))
def test_forward_checking_is_unit_propagation_on_the_minimal_encoding(counts):
    for board in boards(counts):
        up, fc = measure(board, "up:minimal"), measure(board, "fc")
        assert (up.fixed, up.candidates) == (fc.fixed, fc.candidates), board


@pytest.mark.parametrize("counts", sets((6, 10)))
def test_each_human_level_decides_at_least_what_the_one_before_it_does(counts):
    for board in boards(counts):
        outcomes = [measure(board, level) for level in HUMAN]
        for weaker, stronger in pairwise(outcomes):
            assert within(stronger.candidates, weaker.candidates), board
            assert stronger.solved >= weaker.solved and stronger.fixed >= weaker.fixed


@pytest.mark.parametrize("counts", sets((4, 6)))
def test_singleton_arc_consistency_decides_at_least_what_gac_does(counts):
    for board in boards(counts):
        gac, sac = measure(board, "gac"), measure(board, "sac")
        assert within(sac.candidates, gac.candidates), board
        assert sac.solved >= gac.solved and sac.fixed >= gac.fixed
        assert within(gac.candidates, measure(board, "singles").candidates)


@pytest.mark.parametrize("name", ["easy9", "hard9", "x9", "jigsaw9", "six6"])
def test_every_level_keeps_the_solution(name):
    """Sound: no level removes a value the puzzle's solution holds (``propagate`` solves)."""
    from solvers.api import solve

    with DATASETS[name].open() as handle:
        for puzzle in islice(read_puzzles(handle), 2):
            solution = solve(puzzle.board, "propagate").solution.cells
            for level in LEVELS:
                if level in ("sac", "fl:extended") and name != "hard9":
                    continue  # seconds on a minimal variant puzzle; hard9 has them
                kept = measure(puzzle.board, level).candidates
                assert all(mask >> v & 1 for mask, v in zip(kept, solution, strict=True)), level


@pytest.mark.parametrize("name", ["killer9", "thermo9", "kropki9", "xv9", "arrow9", "antiking9"])
def test_gac_and_sac_read_the_constraints_and_keep_the_solution(name):
    """On boards whose rules are more than units, gac and sac read the cages, relations,
    linear rows and small all-different groups of the compile step: sound, and (sac) strong
    enough to solve the first puzzle of these sets, which no level reading units alone does
    (the CNF levels; the human levels read every kind's own steps: ``kinds``)."""
    from solvers.api import solve

    with DATASETS[name].open() as handle:
        for number, puzzle in enumerate(islice(read_puzzles(handle), 2)):
            solution = solve(puzzle.board).solution.cells
            levels = ("gac", "sac") if number == 0 else ("gac",)
            for level in levels:
                found = measure(puzzle.board, level)
                kept = found.candidates
                assert all(mask >> v & 1 for mask, v in zip(kept, solution, strict=True)), level
            assert not measure(puzzle.board, "fl:extended").solved
            if number == 0 and name != "antiking9":
                assert found.solved


# -- the CNF levels against PySAT's propagate() on a CNF written here, apart from the code


def x(r: int, c: int, v: int) -> int:
    return 81 * r + 9 * c + v


def independent_cnf(extended: bool) -> list[list[int]]:
    """Lynce and Ouaknine's encodings of classic 9x9 rules, written from their paper."""
    units = [[(r, c) for c in range(9)] for r in range(9)]
    units += [[(r, c) for r in range(9)] for c in range(9)]
    units += [
        [(3 * (b // 3) + i, 3 * (b % 3) + j) for i in range(3) for j in range(3)] for b in range(9)
    ]
    cnf = [[x(r, c, v) for v in range(1, 10)] for r in range(9) for c in range(9)]
    for unit in units:
        for v in range(1, 10):
            cnf += [[-x(*a, v), -x(*b, v)] for a, b in combinations(unit, 2)]
            if extended:
                cnf.append([x(*cell, v) for cell in unit])
    if extended:
        for r in range(9):
            for c in range(9):
                cnf += [[-x(r, c, v), -x(r, c, w)] for v, w in combinations(range(1, 10), 2)]
    return cnf


def pysat_candidates(implied: list[int]) -> tuple[int, ...]:
    """Each cell's values that propagation left open (the true one alone, once one is)."""
    true = {lit for lit in implied if lit > 0}
    false = {-lit for lit in implied if lit < 0}
    found = []
    for cell in range(81):
        held = [v for v in range(1, 10) if cell * 9 + v in true]
        open_ = [v for v in range(1, 10) if cell * 9 + v not in false]
        found.append(sum(1 << v for v in (held or open_)))
    return tuple(found)


def pysat_failed_literals(solver, givens: list[int]) -> list[int]:
    """Failed-literal probing to the fixpoint with PySAT's propagation: what it implies."""
    known = list(givens)
    while True:
        ok, implied = solver.propagate(assumptions=known)
        assert ok
        assigned = {abs(lit) for lit in implied}
        failed = next(
            (
                literal
                for var in range(1, 730)
                if var not in assigned
                for literal in (var, -var)
                if not solver.propagate(assumptions=[*known, literal])[0]
            ),
            None,
        )
        if failed is None:
            return implied
        known.append(-failed)


@pytest.mark.parametrize("counts", sets((6, 6)))
@pytest.mark.parametrize("level", ["up:minimal", "up:extended", "fl:extended"])
def test_the_cnf_levels_agree_with_pysat_propagation(level, counts):
    solvers = pytest.importorskip("pysat.solvers")
    for board in boards(counts):
        cnf = independent_cnf(extended=level != "up:minimal")
        givens = [x(i // 9, i % 9, v) for i, v in enumerate(board.cells) if v]
        with solvers.Solver(name="m22", bootstrap_with=cnf) as solver:
            if level == "fl:extended":
                implied = pysat_failed_literals(solver, givens)
            else:
                ok, implied = solver.propagate(assumptions=givens)
                assert ok
        assert measure(board, level).candidates == pysat_candidates(implied), board


def test_gac_keeps_exactly_the_values_some_assignment_uses():
    bits = lambda *vs: sum(1 << v for v in vs)  # noqa: E731
    assert filtered([bits(1, 2), bits(1, 2), bits(1, 2, 3)]) == [bits(1, 2), bits(1, 2), bits(3)]
    assert filtered([bits(1), bits(1)]) is None
    # fewer cells than values: a free value keeps its alternatives
    assert filtered([bits(1, 2), bits(2, 3)]) == [bits(1, 2), bits(2, 3)]
    assert filtered([bits(1), bits(1, 2), bits(1, 2, 3, 4)]) == [bits(1), bits(2), bits(3, 4)]


def test_level_names():
    assert levels_of("all") == list(LEVELS)
    assert levels_of("gac, fc") == ["gac", "fc"]
    with pytest.raises(Exception, match="unknown level nope"):
        levels_of("gac,nope")


# -- the commands


def test_strength_prints_a_table_and_json_records(cli):
    done = cli("strength", "easy9", "--levels", "fc,singles")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    assert lines[0].split()[:3] == ["level", "solved", "%"]
    # easy9 is made so that naked and hidden singles solve every puzzle
    assert lines[2].split()[:3] == ["singles", str(len(DATASETS["easy9"].puzzles())), "100.0"]
    done = cli("strength", "small4", "--levels", "sac", "--json")
    records = [json.loads(line) for line in done.out.splitlines()]
    fields = ("index", "level", "solved", "refuted", "timed_out", "fixed", "seconds")
    assert {tuple(r) for r in records} == {fields}
    assert all(r["level"] == "sac" for r in records)
    assert cli("strength", "easy9", "--levels", "nope").code == 2


def test_strength_counts_the_puzzles_a_level_refutes_apart_from_solved(cli):
    """Every puzzle of nosolution9 has no solution, and singles and gac prove it with a
    contradiction: a decision, counted as refuted, never as solved nor as "nothing fixed"
    (the mean cells decided is over the puzzles left, none here). up:minimal refutes only
    some: its mean is over the others."""
    count = len(DATASETS["nosolution9"].puzzles())
    done = cli("strength", "nosolution9", "--levels", "singles,gac,up:minimal")
    assert done.code == 0, done.err
    header, *rows = [line.split() for line in done.out.splitlines()]
    assert header[:4] == ["level", "solved", "%", "refuted"]
    assert rows[0][:5] == ["singles", "0", "0.0", str(count), "-"]
    assert rows[1][:5] == ["gac", "0", "0.0", str(count), "-"]
    refuted = int(rows[2][3])
    assert 0 < refuted < count and float(rows[2][4]) > 17  # the givens at least
    done = cli("strength", "nosolution9", "--levels", "singles", "--json")
    records = [json.loads(line) for line in done.out.splitlines()]
    assert len(records) == count
    assert all(r["refuted"] and not r["solved"] and not r["timed_out"] for r in records)
    done = cli("strength", "easy9", "--levels", "singles", "--json")
    assert not any(json.loads(line)["refuted"] for line in done.out.splitlines())


def test_a_grid_a_level_fills_that_breaks_a_rule_it_does_not_read_is_refuted(cli):
    """Singles read units only; the grid they fill breaks the thermometer, so the puzzle has
    no solution (every solution would be that grid): refuted, as rate says no solution."""
    solved = "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
    stdin = f"# rules: thermometer r1c2 r1c1\n{solved[:-1]}.\n"
    done = cli("strength", "--levels", "singles,sac", "--json", stdin=stdin)
    singles, sac = (json.loads(line) for line in done.out.splitlines())
    assert (singles["solved"], singles["refuted"]) == (False, True)
    assert (sac["solved"], sac["refuted"]) == (False, True)  # gac reads it: a contradiction


EMPTY25 = "." * 625


def test_a_level_out_of_time_is_reported_timed_out_and_the_rest_answered(cli):
    """fl:extended on an empty 25x25 runs for minutes; with --timeout it is reported as
    timed out on that puzzle (never as deciding nothing), and every other level and puzzle
    of the file is still measured. (No upper bound on the time here: the slow test has it.)"""
    stdin = f"{EMPTY25}\n{DATASETS['easy9'].puzzles()[0]}\n"
    args = ("strength", "--levels", "fl:extended,singles", "--timeout", "1")
    done = cli(*args, "--json", stdin=stdin)
    assert done.code == 3, done.err  # as solve's: a puzzle timed out
    records = {(r["index"], r["level"]): r for r in map(json.loads, done.out.splitlines())}
    assert len(records) == 4
    empty = records[1, "fl:extended"]
    assert empty["timed_out"] and not empty["solved"] and not empty["refuted"]
    assert empty["seconds"] >= 1
    assert not records[1, "singles"]["timed_out"]
    assert records[2, "fl:extended"]["solved"] and records[2, "singles"]["solved"]
    done = cli(*args, stdin=stdin)
    assert done.code == 3
    header, *rows = [line.split() for line in done.out.splitlines()]
    assert header[:5] == ["level", "solved", "%", "refuted", "t/o"]
    assert rows[0][:6] == ["fl:extended", "1", "50.0", "0", "1", "81.0"]  # over the one done
    assert rows[1][:5] == ["singles", "1", "50.0", "0", "0"]
    assert "t/o" not in cli("strength", "easy9", "--levels", "fc").out  # only with --timeout


@pytest.mark.parametrize("value", ["0", "-1", "nan", "soon"])
def test_a_bad_timeout_is_refused_in_one_line(cli, capsys, value):
    done = cli("strength", "easy9", "--timeout", value)
    err = done.err + capsys.readouterr().err  # argparse writes to sys.stderr itself
    assert done.code == 2 and done.out == "" and err.count("\n") == 1, err
    assert f"argument --timeout: {value!r} is not a number of seconds" in err


def test_measure_raises_solve_timeout_past_its_deadline():
    board = parse("." * 256)
    for level in ("sac", "fl:extended"):
        with pytest.raises(SolveTimeout):
            measure(board, level, Deadline(0.01))


@pytest.mark.slow  # wall-clock bounds
@pytest.mark.parametrize("level, size", [("sac", 16), ("fl:extended", 25), ("sac", 25)])
@pytest.mark.parametrize("timeout", [0.2, 1.0])
def test_a_slow_level_on_an_empty_board_keeps_its_timeout(level, size, timeout):
    """In a fresh process, so that what a level builds once per shape before its clock is
    first read (the CNF levels' clauses) is inside its time, with room for that build on a
    loaded machine; unbounded, each of these runs for minutes."""
    import subprocess

    from test_interrupts import SUDOKU

    args = [SUDOKU, "strength", "--levels", level, "--timeout", str(timeout), "--json"]
    done = subprocess.run(args, input="." * size**2 + "\n", capture_output=True, text=True)
    assert done.returncode == 3, done.stderr
    record = json.loads(done.stdout)
    assert record["timed_out"]
    assert timeout <= record["seconds"] <= 2 * timeout + 1.5


def test_ctrl_c_ends_a_strength_run_with_130_and_no_traceback():
    """As every command (docs/reliability.md, "Signals"): a long level, with and without
    --timeout, ends at Ctrl-C with exit 130 and nothing but what was measured before."""
    from test_interrupts import SUDOKU, interrupted

    command = [SUDOKU, "strength", "--levels", "sac"]
    for extra in ([], ["--timeout", "600"]):
        code, _, out, err, left = interrupted(
            [*command, *extra], "." * 256 + "\n", signal.SIGINT, within=60
        )
        assert code == 130 and "Traceback" not in err and out == "" and not left, err


def test_explain_names_each_step_and_ends_with_the_grid(cli):
    done = cli("explain", "easy9", "--puzzle", "2")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    assert lines[0].startswith("1. ") and " single in " in lines[0]
    assert lines[-10].startswith("solved; rating singles")
    assert all(len(row.split()) == 9 and "0" not in row.split() for row in lines[-9:])
    done = cli("explain", "hard9", "--json")
    records = [json.loads(line) for line in done.out.splitlines()]
    assert all({"technique", "rating", "placed", "eliminated"} <= set(r) for r in records[:-1])
    assert records[-1]["steps"] == len(records) - 1
    assert cli("explain", "easy9", "--puzzle", "999").code == 2


@pytest.mark.parametrize("puzzle", ["1", "3"])
def test_explain_runs_the_steps_once_and_rates_them_as_rate_does(cli, monkeypatch, puzzle):
    # before: explain ran every step, then rate ran them all again (minutes on a hard variant)
    from solvers.formats.datasets import open_named
    from solvers.strength import human, rating

    with open_named("hard9") as handle:
        board = list(islice(read_puzzles(handle), int(puzzle)))[-1].board
    expected = str(rating.rate(board))
    runs, steps = [], human.steps

    def counted(grid, *level, **named):  # every technique: no level named (``human.level``)
        runs.extend([] if level or named else [grid])
        return steps(grid, *level, **named)

    monkeypatch.setattr(human, "steps", counted)
    done = cli("explain", "hard9", "--puzzle", puzzle)
    assert len(runs) == 1, done.err
    assert f"; rating {expected}" in done.out


BAD_FIRST = [  # a bad line, a good puzzle, givens that clash, another good puzzle
    "x.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7",
    "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7",
    "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.1",
    "574............9.6..2....4.....4..682......7..9...6...7.91..3..3..2...8..1.......",
]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_explain_takes_the_puzzle_asked_for_past_bad_ones(cli, n):
    """--puzzle N is the file's N-th puzzle, a bad one counted in its place: a bad puzzle is
    its own one-line error (exit 2), never a reason to explain a later puzzle instead."""
    done = cli("explain", "--puzzle", str(n), "--json", stdin="\n".join(BAD_FIRST) + "\n")
    if n in (2, 4):
        assert (done.code, done.err) in ((0, ""), (1, "")), done.err
        assert json.loads(done.out.splitlines()[-1])["index"] == n
        return
    assert done.code == 2 and len(done.err.splitlines()) == 1
    said = {1: "line 1, column 1: ", 3: "line 3: row 9 has 1 twice", 5: "standard input has no"}
    assert done.err.startswith(f"sudoku: {said[n]}"), done.err


def shipped(count: int, slow: bool) -> list:
    """Each shipped set with how many of its first puzzles to rate and explain. A 9x9 variant
    puzzle takes 1-16 s when it needs SE's dynamic forcing chains, so the whole of every set
    (about 30 min) is bench/se_rating.py's work; 16x16 ones take seconds each: one."""
    return [
        pytest.param(
            name, count if "16" not in name else 1, marks=[pytest.mark.slow] if slow else []
        )
        for name in DATASETS
    ]


def head(name: str, count: int) -> str:
    """The set's file up to its ``count``-th puzzle: every header (a rules line may stand
    before each puzzle) and those puzzles, as a file's text."""
    kept, seen = [], 0
    with DATASETS[name].open() as handle:
        for line in handle:
            seen += bool(line.strip()) and not line.startswith("#")
            if seen > count:
                break
            kept.append(line)
    return "".join(kept)


# three a set under slow: a variant puzzle whose unit chains stall takes chains across its
# constraints' links (3-20 s each, rate and explain both), and six a set ran past CI's time
@pytest.mark.parametrize("name, count", shipped(1, slow=False) + shipped(3, slow=True))
def test_rate_and_explain_on_every_shipped_set(name, count, cli):
    """Classic and variant sets alike: a rating for every puzzle, and an explanation that
    ends in a grid, or in a contradiction (the set with no solution)."""
    text = head(name, count)
    unsolvable = name == "nosolution9"
    done = cli("rate", "--json", stdin=text)
    assert done.code == (1 if unsolvable else 0), done.err
    ratings = [json.loads(line) for line in done.out.splitlines()]
    assert len(ratings) == count
    for rating in ratings:
        assert rating["level"] in (("no solution",) if unsolvable else (*HUMAN, *EXTRA, "search"))
        assert rating["bound"] == (rating["level"] == "search") and rating["difficulty"] >= 0
    done = cli("explain", stdin=text)
    assert done.code in (0, 1), done.err
    assert done.out.splitlines()[-1]


def test_rate_says_no_solution_where_the_techniques_meet_a_contradiction(cli):
    """Every puzzle of nosolution9 has no solution, and the singles prove it: rate says so
    (exit 1, as explain), never grades it as a puzzle that needs search."""
    done = cli("rate", "nosolution9", "--json")
    ratings = [json.loads(line) for line in done.out.splitlines()]
    assert done.code == 1 and len(ratings) == len(DATASETS["nosolution9"].puzzles())
    for rating in ratings:
        assert rating["level"] == "no solution" and not rating["bound"]
        assert rating["hardest"].startswith("contradiction: ")
    assert cli("rate", "six6").code == 0


def test_rate_says_no_solution_for_a_filled_grid_that_breaks_a_rule(cli):
    """The techniques read units only; a grid they fill that breaks another rule (a
    thermometer here) has no solution, since every solution would be that grid: no search
    can help, so the rating is never ``search``."""
    solved = "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
    done = cli("rate", "--json", stdin=f"# rules: thermometer r1c2 r1c1\n{solved}\n")
    rating = json.loads(done.out)
    assert done.code == 1 and rating["level"] == "no solution" and not rating["bound"]
    assert rating["hardest"] == (
        "the filled grid breaks a rule: thermometer at r1c2: r1c1 (1) is not above r1c2 (4) "
        "on the line"
    )
    assert cli("count", stdin=f"# rules: thermometer r1c2 r1c1\n{solved}\n").out == "0\n"


def test_the_command_line_names_every_level_and_builds_without_them():
    import subprocess
    import sys

    from solvers.cli.levels import LEVEL_NAMES
    from solvers.strength.levels import LEVELS

    assert tuple(LEVELS) == LEVEL_NAMES
    code = "import sys; from solvers.cli import parser; parser.build_parser(None)"
    code += "; print('solvers.strength' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


def test_the_help_says_what_each_level_does_and_what_the_mean_counts(cli, capsys):
    from solvers.cli.levels import LEVEL_NAMES

    assert cli("strength", "--help").code == 0
    shown = capsys.readouterr().out
    said = {line.split()[0]: line for line in shown.splitlines() if line.startswith("  ")}
    for level in LEVEL_NAMES:  # each named at the start of its own line, with what it does
        assert len(said.get(level, "").split()) > 2, level
    assert "mean known: the\ncells left with one value, givens included" in shown


LINE = "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7"


def test_the_table_says_its_mean_counts_the_givens(cli):
    run = cli("strength", "--levels", "singles", stdin=LINE + "\n")
    assert run.code == 0, run.err
    assert run.out.splitlines()[0].split() == [
        "level", "solved", "%", "refuted", "mean", "known", "median", "ms", "total", "s"
    ]  # fmt: skip


def test_rate_numbers_each_puzzle_as_explain_takes_it(cli, tmp_path):
    # a comment, a blank line and a bad puzzle before the second good one: its line is 5, its
    # number 3, and explain --puzzle 3 explains the puzzle rate rated as 3
    path = tmp_path / "three.txt"
    path.write_text(f"# made for the test\n{LINE}\n\n{'1' * 81}\n{LINE.replace('1', '.', 1)}\n")
    run = cli("rate", str(path))
    assert run.code == 2
    rows = [line.split() for line in run.out.splitlines()]
    assert rows[0][:3] == ["puzzle", "line", "level"]
    assert [row[:2] for row in rows[1:]] == [["1", "2"], ["3", "5"]]
    records = [json.loads(line) for line in cli("rate", str(path), "--json").out.splitlines()]
    assert [(r["puzzle"], r["index"]) for r in records if "level" in r] == [(1, 2), (3, 5)]
    explained = cli("explain", str(path), "--puzzle", "3", "--json").out.splitlines()
    assert json.loads(explained[-1])["index"] == 5
