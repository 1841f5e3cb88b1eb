"""The minizinc backend and ``encode --to minizinc``: the model written for each rule, run by
the ``minizinc`` command itself, prints the project's answer; the backend agrees with the
others. Without the toolchain these skip, naming why (``sudoku backends`` says the same)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import warnings

import pytest
from conftest import SHARED_DATA
from corpus import complete_board

from adapters import mzn
from solvers import Board, Shape, Status, count_solutions, format_board, parse, solve
from solvers.backends import registry
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout, UsageError
from solvers.formats.datasets import DATASETS
from solvers.model.verify import problems
from solvers.run.runner import Runner

AVAILABLE, WHY = registry.availability("minizinc")
needs_minizinc = pytest.mark.skipif(not AVAILABLE, reason=WHY)
KINDS = {"classic": "hard9", "x": "x9", "windoku": "windoku9", "jigsaw": "jigsaw9"}
KINDS |= {"killer": "killer9", "killer 16x16": "killer16", "classic 16x16": "big16"}


def first_puzzle(dataset: str) -> str:
    """The shipped set's first puzzle as a file's text: its rules line, then the puzzle."""
    with DATASETS[dataset].open() as handle:
        lines = [line for line in handle if line.startswith("# rules") or line[0] != "#"]
    return "".join(lines[:2] if lines[0].startswith("#") else lines[:1])


def sparse25() -> Board:
    rng = random.Random(21)
    cells = list(complete_board(Shape(5, 5), rng).cells)
    for cell in rng.sample(range(625), 300):
        cells[cell] = 0
    return Board(Shape(5, 5), tuple(cells))


def gecode(*arguments: str) -> list[str]:
    """The ``minizinc --solver gecode`` command, as the backend runs it (no flags: the model's
    older global names reach Debian's Gecode 6.2's propagators, docs/minizinc.md)."""
    return ["minizinc", "--solver", "gecode", *arguments]


def run_model(cli, text: str, folder) -> tuple[str, str]:
    """(what ``minizinc --solver gecode`` prints first for the model ``encode --to minizinc``
    writes of ``text``, what ``sudoku solve --format line`` prints)."""
    encoded = cli("encode", "--to", "minizinc", stdin=text)
    assert encoded.code == 0, encoded.err
    path = folder / "puzzle.mzn"
    path.write_text(encoded.out, encoding="utf-8")
    done = subprocess.run(gecode(str(path)), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == "----------"
    solved = cli("solve", "--format", "line", stdin=text)
    assert solved.code == 0, solved.err
    return done.stdout.splitlines()[0], solved.out.strip()


@needs_minizinc
@pytest.mark.parametrize("kind", KINDS)
def test_the_model_encode_writes_prints_the_projects_answer(cli, tmp_path, kind):
    text = first_puzzle(KINDS[kind])
    printed, expected = run_model(cli, text, tmp_path)
    assert printed == expected


@needs_minizinc
def test_a_25x25_model_prints_values_from_ten_up_as_letters(cli, tmp_path):
    board = sparse25()  # it may have several solutions: the verifier judges the one printed
    printed, _ = run_model(cli, format_board(board, "line") + "\n", tmp_path)
    assert problems(board, parse(printed)) == [] and "P" in printed  # 25 is P


@needs_minizinc
def test_a_board_with_no_given_has_a_model_too(cli, tmp_path):
    printed, _ = run_model(cli, "." * 16 + "\n", tmp_path)
    assert solve(printed, "cpsat").status is Status.SOLVED and "." not in printed


def test_encode_to_minizinc_writes_one_model_per_puzzle_and_takes_no_cnf_option(cli, tmp_path):
    text = "1" + "." * 15 + "\n" + "." * 15 + "2\n"
    run = cli("encode", "--to", "minizinc", "--output-dir", str(tmp_path), stdin=text)
    assert run.code == 0, run.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["line-1.mzn", "line-2.mzn"]
    assert mzn.SEARCH in (tmp_path / "line-2.mzn").read_text(encoding="utf-8")
    refused = cli("encode", "--to", "minizinc", "--option", "encoding=minimal", stdin=text[:17])
    assert refused.code == 2 and "takes no --option" in refused.err


@pytest.mark.parametrize("kind", KINDS)
def test_an_exported_model_includes_only_files_minizinc_has_and_searches_dom_w_deg(cli, kind):
    # the all-different and the table by the older names Gecode 6.2's library has (so the
    # export run as written reaches its propagators: tests/test_cp_models.py), which a newer
    # MiniZinc's standard library still maps to the current ones
    encoded = cli("encode", "--to", "minizinc", stdin=first_puzzle(KINDS[kind]))
    assert encoded.code == 0, encoded.err
    assert "all_different(" not in encoded.out and "all_different_int(" in encoded.out
    search = "solve :: int_search([cell[r, c] | r, c in 1..n], dom_w_deg, indomain_min) satisfy;"
    assert search in encoded.out.splitlines()
    if AVAILABLE:
        stdlib = json.loads(subprocess.check_output(["minizinc", "--config-dirs"], timeout=30))
        included = re.findall(r'^include "(.+)\.mzn";', encoded.out, re.MULTILINE)
        std = os.path.join(stdlib["mznStdlibDir"], "std")
        assert included and all(os.path.exists(os.path.join(std, f"{n}.mzn")) for n in included)


@needs_minizinc
@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is not on this machine")
def test_check_agrees_with_cpsat_and_pysat_on_top95(cli, tmp_path):
    with open(SHARED_DATA / "top95.txt", encoding="utf-8") as handle:
        first = [next(handle) for _ in range(6)]
    path = tmp_path / "top95-6.txt"
    path.write_text("".join(first), encoding="utf-8")
    run = cli("check", str(path), "--backends", "minizinc,cpsat,pysat", "--timeout", "30")
    assert run.code == 0, run.out
    assert run.out.splitlines()[-1].startswith("6 puzzles: 6 agree, 0 disagree, 0 unconfirmed")


@needs_minizinc
@pytest.mark.parametrize("dataset", ["several9", "nosolution9"])
def test_counts_match_the_other_engines_on_the_shipped_sets(dataset):
    for line in DATASETS[dataset].puzzles()[:4]:
        counts = {b: count_solutions(line, 10, b, timeout=30) for b in ("minizinc", "cpsat", "dlx")}
        assert len(set(counts.values())) == 1, (line, counts)


@needs_minizinc
@pytest.mark.parametrize("name", ["several-4x4", "empty-6x6", "no-solution-6x6", "full-9x9"])
def test_counts_match_on_the_test_corpus(puzzles, name):
    board = puzzles[name]
    assert count_solutions(board, 50, "minizinc") == count_solutions(board, 50, "dlx")


@needs_minizinc
def test_solver_offers_only_solvers_that_run_and_reports_their_counters(puzzles):
    solvers = registry.backend_class("minizinc").OPTIONS["solver"]
    assert solvers[0] == "gecode"
    for name in solvers:
        result = solve(puzzles["9x9-minimal"], "minizinc", solver=name)
        assert result.status is Status.SOLVED
        assert {"nodes", "conflicts", "solve_time_s", "flat_time_s"} <= set(result.stats)
    with pytest.raises(UsageError, match="solver=gist is not one of"):
        solve(puzzles["4x4"], "minizinc", solver="gist")  # a window: never offered


@needs_minizinc
def test_the_toolchains_warnings_stay_out_of_the_output(puzzles):
    # Debian's Gecode library draws warnings on every run
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        assert solve(puzzles["4x4"], "minizinc").status is Status.SOLVED
    assert [str(w.message) for w in said] == []


def test_without_the_minizinc_command_the_backend_is_unavailable_with_the_install_hint():
    code = "from solvers.backends import registry; print(registry.availability('minizinc')[1])"
    env = dict(os.environ, PATH="")  # no minizinc command to find
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    said = done.stdout.strip()
    assert (
        said.startswith("backend minizinc is unavailable: ") and "apt-get install minizinc" in said
    )


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
@needs_minizinc
def test_minizincs_own_time_limit_stops_a_count_with_its_statistics():
    from adapters.minizinc import MiniZincBackend

    backend = MiniZincBackend(solver="gecode")
    start = time.perf_counter()
    with pytest.raises(SolveTimeout) as stopped:
        backend.search(Board.empty(Shape(5, 5)), Deadline(0.5), 10**9)
    # a little past the limit (docs/minizinc.md); the count alone would run for ever, so any
    # bound shows the limit kept
    assert time.perf_counter() - start < 10
    assert {"nodes", "flat_time_s"} <= set(stopped.value.stats)


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
@needs_minizinc
def test_a_count_past_its_deadline_has_its_worker_killed_at_the_deadline():
    with Runner("minizinc") as runner:
        runner.warm_up(Shape(5, 5), 0.5)
        start = time.perf_counter()
        answer = runner.count(Board.empty(Shape(5, 5)), 10**9, 0.5)
        took = time.perf_counter() - start
    assert answer.status is Status.TIMEOUT and answer.stats == {"killed_after_s": 0.5}
    assert took < 10  # killed at the deadline; the count alone runs for ever; room for load


# A ``minizinc`` that answers the backend's questions about itself (its version, its solvers)
# as the real one does, then fails the puzzle's run (the one with a model and --json-stream)
# in the way given: a real failing program on PATH, as a broken toolchain would be.
FAILING = """#!/bin/sh
case " $* " in *" --json-stream "*.mzn*|*.mzn*" --json-stream "*) ;; *) exec {real} "$@" ;; esac
{failure}
"""
FAILURES = {
    "an error message": (
        'echo "Error: the solver library broke" >&2; exit 1',
        "minizinc failed: Error: the solver library broke",
    ),
    "a segfault": ("kill -SEGV $$", "minizinc failed without a message, killed by SIGSEGV"),
    "garbage on stdout": (
        "echo '@@@ not json'; exit 0",
        "minizinc failed: MiniZinc driver output a message that cannot be parsed as JSON: "
        "b'@@@ not json'",
    ),
    "a silent exit": ("exit 3", "minizinc failed without a message (exit status 3)"),
}


@needs_minizinc
@pytest.mark.parametrize(
    "failure",
    [
        "a segfault",
        *(pytest.param(name, marks=pytest.mark.slow) for name in FAILURES if name != "a segfault"),
    ],
)
def test_a_failing_minizinc_command_is_named_with_its_reason_in_one_line(tmp_path, failure):
    import shutil

    script, said = FAILURES[failure]
    fake = tmp_path / "bin" / "minizinc"
    fake.parent.mkdir()
    fake.write_text(FAILING.format(real=shutil.which("minizinc"), failure=script))
    fake.chmod(0o755)
    puzzle = tmp_path / "one.txt"
    puzzle.write_text(format_board(parse("1" + "." * 15), "line") + "\n")
    env = dict(os.environ, PATH=f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    command = [sys.executable, "-m", "solvers", "solve", str(puzzle), "--backend", "minizinc"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1] == f"sudoku: line 1: {said}", done.stderr
