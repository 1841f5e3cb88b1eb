"""What is particular to the engines of the further paradigms (z3, mip, choco, cms, exactcover,
cpmpy, and PySAT's further engines): options, counters, deadlines, variants, silence."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import replace

import pytest
from conftest import BACKENDS

from solvers import Board, Shape, SolveTimeout, Status, count_solutions, solve
from solvers.backends import registry
from solvers.base.deadline import Deadline
from solvers.base.errors import EngineError
from solvers.generation.generate import Request, generate

FURTHER = ["z3", "mip", "choco", "cms", "exactcover", "cpmpy"]  # the docstring's engines
# Each of those backends with each value of its options (the default one is the backend alone).
SPECS = [
    f"{name}:{key}={value}" if value != values[0] else name
    for name in FURTHER
    for key, values in (registry.backend_class(name).OPTIONS.items() or [("", ("",))])
    for value in values
]
# The default run takes each backend with its defaults; every other option value is heavy-marked
# (the cross-check already runs the defaults on the whole corpus).
CASES = [spec if spec in FURTHER else pytest.param(spec, marks=pytest.mark.heavy) for spec in SPECS]
UNSAT = ".923.........8.1.........9.1.7.4...........658.........6.5.2...4.....7.....9....."
# tdoku-style test lines, puzzle:count (counted to at most 10): none, one, several, many.
TDOKU = """\
6.71..5.42.......9...43.....2.3...7...1.....2....1.4.3.8...52611..68..977..9..3.5:0
7...4..3..49.2....6..1...7...23..61..75.6...2....5...34.....1.............3..2...:1
...8..762..3.97.8......2.9..8..76.241..2.3..9...1.....612......7..6.42.......9..8:4
......................................5.6...2....5...34.....1.............3..2...:10
"""
SEVERAL = TDOKU.splitlines()[2].split(":")[0]  # 4 solutions
STATS = {
    "z3": {"conflicts", "decisions"},
    "mip": {"nodes", "lp_iterations"},
    "choco": {"nodes", "fails", "backtracks"},
    "cms": {"encoding", "clauses"},
    "exactcover": {"rows", "columns"},
    "cpmpy": {"status", "runtime_s"},
}


@pytest.mark.parametrize("spec", CASES)
def test_every_option_solves_counts_and_finds_no_solution(puzzles, spec):
    assert solve(puzzles["9x9-minimal"], spec).status is Status.SOLVED
    assert count_solutions(SEVERAL, 3, spec) == 3
    assert solve(UNSAT, spec).status is Status.UNSOLVABLE
    assert count_solutions(UNSAT, 2, spec) == 0


@pytest.mark.parametrize("name", FURTHER)
def test_each_engine_reports_its_own_counters(puzzles, name):
    assert STATS[name] <= set(solve(puzzles["9x9-minimal"], name).stats)


@pytest.mark.parametrize("line", TDOKU.splitlines())
def test_tdoku_style_counts_agree_for_every_backend(line):
    puzzle, expected = line.split(":")
    for backend in BACKENDS:
        assert count_solutions(puzzle, 10, backend, timeout=30) == int(expected), backend


def variant_boards() -> list[Board]:
    """Small variant boards with several solutions: generated ones with their givens gone."""
    boards = []
    for rules, seed in [("killer", 1), ("killer", 2), ("x", 1), ("jigsaw", 3)]:
        board, _ = next(generate(Request(Shape(2, 3), rules=frozenset([rules])), seed=seed))
        boards.append(replace(board, cells=(0,) * 36))
    return boards


@pytest.mark.parametrize("spec", CASES)
def test_variants_are_counted_as_cpsat_counts_them(spec):
    for board in variant_boards():
        assert count_solutions(board, 6, spec) == count_solutions(board, 6, "cpsat"), board


def deadline_cases():
    specs = [
        *SPECS,
        *(f"pysat:solver={e}" for e in registry.backend_class("pysat").OPTIONS["solver"]),
    ]
    return [pytest.param(spec, marks=[pytest.mark.slow]) for spec in specs]


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
@pytest.mark.parametrize("spec", deadline_cases())
def test_deadlines_hold_on_an_empty_25x25_count_and_an_unsatisfiable_9x9(spec):
    # the library imported and any worker started first: the deadline covers the call alone,
    # model building included (a persistent solver's 25x25 rules are built under it)
    count_solutions(Board.empty(Shape(2, 2)), 2, spec, timeout=30)
    timeout, bound = 0.5, 1.5 * 0.5 + 0.2
    start = time.perf_counter()
    with pytest.raises(SolveTimeout):
        count_solutions(Board.empty(Shape(5, 5)), 10**9, spec, timeout=timeout)
    assert time.perf_counter() - start <= bound
    start = time.perf_counter()
    # slow models (Z3's integers, through CPMpy too) time out on it: the bound is what counts
    assert solve(UNSAT, spec, timeout=timeout).status in (Status.UNSOLVABLE, Status.TIMEOUT)
    assert time.perf_counter() - start <= bound


@pytest.mark.slow  # test_deadlines.py holds every backend to its deadline; this is the 9x9 form
@pytest.mark.parametrize("name", ["z3", "mip", "choco", "cms", "cpmpy"])
def test_counting_every_9x9_grid_stops_at_the_deadline(name):
    start = time.perf_counter()
    with pytest.raises(SolveTimeout):
        count_solutions(Board.empty(Shape(3, 3)), 10**9, name, timeout=0.5)
    assert time.perf_counter() - start < 3.0


@pytest.mark.heavy  # each engine loaded in a process of its own
def test_no_engine_prints_anything(tmp_path):
    # solve, count and no solution with every option, in a fresh process: nothing on its fds
    code = (
        "import sys\n"
        "from solvers import solve, count_solutions\n"
        f"for spec in {SPECS!r}:\n"
        "    solve(sys.argv[1], spec); count_solutions(sys.argv[1], 3, spec)\n"
        f"    count_solutions({UNSAT!r}, 2, spec)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, SEVERAL], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize("first, second", [("ortools", "highspy"), ("highspy", "ortools")])
def test_highspy_and_ortools_share_a_process_in_either_order(first, second):
    # both ship libhighs.so.1: only matching HiGHS versions load together (pyproject's pin)
    code = f"import {first}, {second}; import cpmpy; from ortools.sat.python import cp_model"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_missing_library_makes_only_its_backend_unavailable():
    modules = ["z3", "highspy", "pychoco", "pycryptosat", "exact_cover", "cpmpy"]
    code = (
        "import sys\n"
        f"for module in {modules!r}: sys.modules[module] = None\n"
        "from solvers import solve\nfrom solvers.backends import registry\n"
        f"for name in {FURTHER!r}: print(registry.availability(name)[1])\n"
        "print(solve('1' + '.' * 15, 'pysat').status.value)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    lines = done.stdout.splitlines()
    for name, line in zip(FURTHER, lines[: len(FURTHER)], strict=True):
        assert line.startswith(f"backend {name} is unavailable:"), line
    assert lines[-1] == "solved"


def test_mip_scip_needs_pyscipopt():
    code = (
        "import sys; sys.modules['pyscipopt'] = None\n"
        "from solvers import solve\n"
        "try: solve('1' + '.' * 15, 'mip', solver='scip')\n"
        "except Exception as error: print(type(error).__name__, error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.startswith("BackendUnavailable mip:solver=scip is unavailable")


def test_cpmpy_takes_unsatisfiable_at_its_time_limit_for_a_timeout():
    # CPMpy's Choco interface can say UNSATISFIABLE for a search stopped at its time limit, as
    # Choco's clock stops a little before it: such a status that near the limit is a timeout.
    from types import SimpleNamespace

    from cpmpy.solvers.solver_interface import ExitStatus

    from adapters.cpmpy import _finished

    unsat = ExitStatus.UNSATISFIABLE
    assert not _finished(SimpleNamespace(exitstatus=unsat, runtime=1.99), 2.0)
    assert _finished(SimpleNamespace(exitstatus=unsat, runtime=0.3), 2.0)
    assert _finished(SimpleNamespace(exitstatus=unsat, runtime=9.0), None)
    assert not _finished(SimpleNamespace(exitstatus=ExitStatus.UNKNOWN, runtime=0.1), 2.0)


# An engine's stop is named as what it is: only its time limit is a timeout.


@pytest.mark.parametrize("solver", ["highs", "scip"])
def test_a_mip_stop_other_than_its_time_limit_is_an_engine_error_naming_its_status(solver):
    backend = registry.backend_class("mip")(solver=solver)
    program = backend.program(Board.empty(Shape(3, 3)), Deadline(30))
    # the solver's own node limit, 0 on an empty 9x9: a stop of its own, far from the deadline
    if solver == "highs":
        program.highs.setOptionValue("mip_max_nodes", 0)
        said = "mip: HiGHS stopped without an answer: Solution limit reached"
    else:
        program.scip.setParam("limits/nodes", 0)
        said = "mip:solver=scip: SCIP stopped without an answer: nodelimit"
    with pytest.raises(EngineError) as stopped:
        program.run(Deadline(30))
    assert str(stopped.value) == said


def test_a_cpsat_model_it_calls_invalid_is_an_engine_error_naming_why(monkeypatch):
    from ortools.sat.python import cp_model

    backend = registry.backend_class("cpsat")(model="integer", workers="1")
    model = cp_model.CpModel()
    cell = model.new_int_var(0, 3, "cell")
    model.add(cell * 10**18 + cell * 10**18 >= 1)  # an overflow CP-SAT refuses to solve
    monkeypatch.setattr(backend, "_build", lambda board: (model, None))
    with pytest.raises(EngineError) as stopped:
        backend.search(Board.empty(Shape(2, 2)), Deadline(30), 1)
    assert str(stopped.value).startswith("cpsat stopped without an answer: MODEL_INVALID: ")
    assert "overflow" in str(stopped.value)


def test_a_z3_unknown_other_than_its_time_limit_is_an_engine_error_naming_its_reason():
    import z3

    from adapters.z3 import _check

    solver = z3.Solver()
    cells = [z3.Int(f"c{i}") for i in range(30)]
    solver.add(z3.Distinct(cells), *[z3.And(c >= 0, c < 30) for c in cells])
    solver.add(z3.Sum(cells) == 1000)
    solver.set("rlimit", 10)  # z3's resource limit: a stop of its own, far from the deadline
    with pytest.raises(EngineError) as stopped:
        _check(solver, [], Deadline(30))
    assert str(stopped.value) == "z3 stopped without an answer: max. resource limit exceeded"
