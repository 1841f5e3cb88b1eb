"""What is particular to each adapter: encodings, options, statistics, deadlines, reuse."""

from __future__ import annotations

import subprocess
import sys
import time

import pycosat
import pytest
from corpus import KILLER4

from adapters import cardinality, cnf
from adapters.pysat import ENGINES
from solvers import Board, Shape, SolveTimeout, Status, count_solutions, format_board, solve
from solvers.formats.boards import read_puzzles
from solvers.model.verify import problems

ALL = ["dfs", "csp", "cpsat", "sat", "pysat"]


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
@pytest.mark.parametrize(
    "name, count",
    [("9x9-easy", 1), ("several-9x9", 2), ("no-solution-9x9", 0), ("16x16", 1), ("empty-6x6", 2)],
)
def test_every_encoding_solves_and_counts(puzzles, encoding, name, count):
    board = puzzles[name]
    result = solve(board, "sat", encoding=encoding)
    assert result.status is (Status.SOLVED if count else Status.UNSOLVABLE)
    assert result.stats["encoding"] == encoding
    assert count_solutions(board, 2, "sat", encoding=encoding) == count


def test_reduced_encoding_is_smaller_and_minimal_smaller_than_extended(puzzles):
    board = puzzles["9x9-easy"]
    sizes = {e: len(cnf.encode(board, e)) for e in cnf.ENCODINGS}
    assert sizes["reduced"] < sizes["minimal"] < sizes["extended"]
    # 81 cells x (1 + 36) + 27 units x 9 values x (1 + 36), and one unit clause per given
    assert sizes["extended"] == 81 * 37 + 27 * 9 * 37 + board.givens()


def test_variable_numbering_is_documented_formula():
    assert cnf.variable(0, 1, 9) == 1
    r, c, v = 2, 5, 7
    assert cnf.variable(r * 9 + c, v, 9) == (r * 9 + c) * 9 + v
    assert cnf.decode([-1, (r * 9 + c) * 9 + v], 9) == {r * 9 + c: v}


def test_cardinality_clauses_are_pysats_pairwise_encoding():
    from pysat.card import CardEnc, EncType

    literals = [12, 5, 40, 7]
    pairwise = EncType.pairwise
    assert cardinality.exactly_one(literals) == [
        tuple(c) for c in CardEnc.equals(literals, encoding=pairwise).clauses
    ]
    assert cardinality.at_most_one(literals) == [
        tuple(c) for c in CardEnc.atmost(literals, encoding=pairwise).clauses
    ]
    assert cardinality.exactly_one([3]) == [(3,)] and cardinality.at_most_one([3]) == []
    assert cardinality.exactly_one([]) == [()]  # nothing can be the one: unsatisfiable
    assert cnf.variables(9).id() == 9**3 + 1  # auxiliary variables follow the cells'


@pytest.mark.parametrize("cages", cnf.CAGE_ENCODINGS)
@pytest.mark.parametrize("backend", ["sat", "pysat", "cms"])
def test_both_cage_forms_count_a_killer_puzzle_as_cpsat_does(backend, cages):
    (puzzle,) = read_puzzles(KILLER4.splitlines())
    assert count_solutions(puzzle.board, 10, "cpsat") == 4
    for _ in range(2):  # pysat's persistent solver: each count numbers new cage variables
        assert count_solutions(puzzle.board, 10, backend, cages=cages) == 4
        assert solve(puzzle.board, backend, cages=cages).status is Status.SOLVED


def test_encode_writes_dimacs_any_solver_reads(cli, puzzles, tmp_path):
    board = puzzles["9x9-easy"]
    run = cli("encode", "--option", "encoding=extended", stdin=format_board(board, "line"))
    assert run.code == 0
    lines = run.out.splitlines()
    header = next(line for line in lines if line.startswith("p cnf"))
    _, _, variables, count = header.split()
    clauses = [
        [int(x) for x in line.split()[:-1]] for line in lines if line and line[0] not in "cp"
    ]
    assert int(variables) == 729 and int(count) == len(clauses)
    assert all(line.endswith(" 0") for line in lines if line and line[0] not in "cp")
    model = pycosat.solve(clauses)
    assert cnf.solution_from_model(board, model) == solve(board, "sat").solution
    # several puzzles need a folder, one file each
    text = format_board(board, "line") + "\n" + format_board(puzzles["4x4"], "line") + "\n"
    assert cli("encode", stdin=text).code == 2
    assert cli("encode", "--output-dir", str(tmp_path), stdin=text).code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["line-1.cnf", "line-2.cnf"]


def test_the_registry_gives_each_encode_target_its_writer_and_names_them_for_another():
    from adapters import mzn
    from solvers import UsageError
    from solvers.backends import registry

    assert registry.encoder("dimacs") is cnf and registry.encoder("minizinc") is mzn
    with pytest.raises(UsageError) as refused:
        registry.encoder("opb")
    assert str(refused.value) == "unknown encode target 'opb'; choose from dimacs, minizinc"


@pytest.mark.parametrize("engine", list(ENGINES))
def test_pysat_engines_solve_and_count(puzzles, engine):
    assert solve(puzzles["9x9-minimal"], "pysat", solver=engine).status is Status.SOLVED
    assert count_solutions(puzzles["several-9x9"], 2, "pysat", solver=engine) == 2


def test_pysat_counting_does_not_pollute_the_persistent_solver(puzzles):
    several = puzzles["several-9x9"]
    for _ in range(3):  # blocking clauses of one count must not leak into the next
        assert count_solutions(several, 5, "pysat") >= 2
        assert solve(several, "pysat").status is Status.SOLVED
    assert solve(puzzles["9x9-minimal"], "pysat").status is Status.SOLVED
    full = Board(several.shape, solve(several, "pysat").solution.cells)
    assert count_solutions(full, 2, "pysat") == 1


@pytest.mark.parametrize("model", ["native", "decomposed", "boolean"])
def test_cpsat_models_solve_count_and_report_statistics(puzzles, model):
    result = solve(puzzles["9x9-minimal"], "cpsat", model=model)
    assert result.status is Status.SOLVED
    assert {"branches", "conflicts", "wall_time_s"} <= set(result.stats)
    assert count_solutions(puzzles["several-9x9"], 2, "cpsat", model=model) == 2
    assert count_solutions(puzzles["no-solution-9x9"], 2, "cpsat", model=model) == 0


@pytest.mark.parametrize("solver", ["backtracking", "optimized", "recursive"])
def test_csp_solver_choices(puzzles, solver):
    result = solve(puzzles["9x9-easy"], "csp", solver=solver)
    assert result.status is Status.SOLVED and problems(puzzles["9x9-easy"], result.solution) == []
    assert result.stats["solver"] == solver and result.stats["constraint_checks"] > 0


@pytest.mark.slow  # the default run has test_deadlines.py; this is the 9x9 form
@pytest.mark.parametrize(
    "backend, options",
    [
        ("dfs", {}),
        ("csp", {}),
        ("cpsat", {}),
        ("sat", {}),
        ("pysat", {}),
        ("pysat", {"solver": "glucose"}),
    ],
)
def test_every_backend_counting_deadline_holds(backend, options):
    # Counting every 9x9 grid (about 6.7e21 of them) cannot finish: the deadline must stop it.
    start = time.perf_counter()
    with pytest.raises(SolveTimeout):
        count_solutions(Board.empty(Shape(3, 3)), 10**9, backend, timeout=0.5, **options)
    assert time.perf_counter() - start < 3.0


@pytest.mark.slow  # the default run has test_deadlines.py; this is the command-line form
@pytest.mark.parametrize("backend", ["dfs", "csp"])
def test_solve_deadline_holds_from_the_command_line(cli, puzzles, backend):
    # Neither the reference DFS nor python-constraint can finish a minimal 16x16 puzzle in 0.5 s.
    start = time.perf_counter()
    run = cli(
        "solve",
        "--backend",
        backend,
        "--timeout",
        "0.5",
        stdin=format_board(puzzles["16x16-minimal"], "line"),
    )
    assert run.code == 3 and "timeout after 0.5 s" in run.err
    assert time.perf_counter() - start < 3.0


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
def test_sat_solve_deadline_holds_in_process():
    # The pigeonhole formula PHP(11) takes PicoSAT minutes; the adapter's propagation-limited
    # loop must give up at the deadline in-process, without a worker.
    from pysat.examples.genhard import PHP

    from adapters.sat import _solve
    from solvers.base.deadline import Deadline

    start = time.perf_counter()
    with pytest.raises(SolveTimeout):
        _solve(PHP(nof_holes=11).clauses, Deadline(0.3), {})
    assert time.perf_counter() - start < 2.0


def test_unknown_option_is_a_usage_error():
    from solvers import UsageError

    with pytest.raises(UsageError, match="backend cpsat has no option 'encoding'"):
        solve("." * 16, "cpsat", encoding="reduced")


@pytest.mark.parametrize("solver", ["backtracking", "optimized", "recursive"])
def test_csp_cage_sums_prune_no_valid_value(cli, solver):
    # python-constraint PR #108: VariableExactSumConstraint's forward check counted the
    # variable being pruned twice and hid valid values. csp encodes cages with
    # ExactSumConstraint; the same shape of problem must keep both of its solutions.
    from constraint import ExactSumConstraint, Problem

    from solvers.formats.boards import read_puzzles

    problem = Problem()
    problem.addVariables(["a", "b"], [1, 2])
    problem.addVariable("c", [3])
    problem.addConstraint(ExactSumConstraint(6), ["a", "b", "c"])
    found = sorted((s["a"], s["b"]) for s in problem.getSolutions())
    assert found == [(1, 2), (2, 1)]
    # and killer boards with no givens, unique by their cages, keep their one solution
    made = cli(
        "generate",
        "--size",
        "6",
        "--rules",
        "killer",
        "--clues",
        "0",
        "--count",
        "3",
        "--seed",
        "5",
    )
    boards = [p.board for p in read_puzzles(made.out.splitlines(keepends=True))]
    for board in boards:
        expected = count_solutions(board, limit=2, backend="pysat")
        answer = count_solutions(board, limit=2, backend=f"csp:solver={solver}", timeout=20)
        assert expected == answer == 1


# A 9x9 of Kropki and XV dots made here (no givens; two solutions and more) on which HiGHS
# 1.12's presolve handed back points that broke the model's rows once undone, the path that
# ends in "Solve error" (adapters/mip.py): HiGHS then printed its repair attempts on the
# process's standard output, whatever its log options, in the user's output.
MIP_DOTS = (
    "# rules: "
    "xv r1c8 r1c9 sum=5; xv r3c6 r3c7 sum=5; difference r6c7 r6c8; difference r9c6 r9c7; "
    "difference r1c1 r2c1; ratio r1c5 r2c5; ratio r2c2 r3c2; ratio r2c7 r3c7; "
    "xv r3c1 r4c1 sum=5; ratio r4c9 r5c9; ratio r5c1 r6c1; xv r5c2 r6c2 sum=10; "
    "difference r6c7 r7c7; xv r6c7 r7c7 sum=5; difference r7c6 r8c6; ratio r8c3 r9c3"
    "\n" + "." * 81 + "\n"
)


@pytest.mark.parametrize("model", ["decomposed", "native"])  # the bug's model, and mip's own
def test_mip_counts_a_board_of_dots_with_no_presolved_point_breaking_its_rows(model):
    # the backend in a process of its own: HiGHS writes those lines with C's buffered stdout,
    # seen at exit (the runner would call it in a worker whose output is not the user's)
    code = (
        "import sys; from adapters.mip import MipBackend; from solvers.base.deadline import "
        "Deadline; from solvers.formats.boards import read_puzzles; "
        "from solvers.model.verify import problems; "
        "board = next(read_puzzles(sys.stdin.read().splitlines())).board; "
        f"found = MipBackend(solver='highs', model='{model}').search(board, Deadline(None), 2); "
        "print(found.count, problems(board, found.solution))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=MIP_DOTS, capture_output=True, text=True, timeout=300
    )
    assert (done.stdout, done.stderr) == ("2 []\n", "")
