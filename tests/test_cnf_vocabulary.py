"""The vocabulary in CNF (``adapters.cnf_primitives``): every model of a linear row or a table
is one assignment of its cells, so PicoSAT's model enumeration counts right; whole boards count
as dfs and cpsat do on every CNF engine and option; the shipped 9x9 variant puzzles are proved
unique (one of each in the default run, all of them under slow); and ``sudoku encode`` carries
the constraints into DIMACS with exactly the puzzle's solutions."""

from __future__ import annotations

import itertools
import random

import pycosat
import pytest
from pysat.solvers import Solver
from test_vocabulary import OVERLAPPING

from adapters import cnf
from adapters.cardinality import exactly_one
from adapters.cnf_primitives import LINEAR_ENCODINGS, primitive_clauses
from solvers import Board, Shape, Status
from solvers.formats.boards import read_puzzles
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.primitives import Linear, holds
from solvers.model.variants import Rules
from solvers.model.verify import problems
from solvers.run.runner import Runner

N = 4  # the primitives below read cells 0..3 of a 4x4 board


def models(clauses: list, cells: list[int], values: list[list[int]]) -> list[tuple[int, ...]]:
    """Every model of ``clauses`` with one value per cell (among ``values[cell]``), read as
    the cells' values: all variables enumerated, so an auxiliary left free shows twice."""
    clauses = list(clauses)
    for cell in range(N * N):
        allowed = values[cell] if cell in cells else []
        clauses += exactly_one([cnf.variable(cell, v, N) for v in allowed]) if allowed else []
    clauses = cnf.pin_unused(clauses, max([N**3, *(abs(x) for c in clauses for x in c)]))
    top = max(abs(x) for c in clauses for x in c)
    decoded = [cnf.decode(model, N) for model in pycosat.itersolve(clauses, vars=top)]
    return [tuple(found[cell] for cell in cells) for found in decoded]


def random_linear(rng: random.Random) -> tuple[Linear, list[list[int]]]:
    cells = rng.sample(range(N), rng.randint(1, 3))
    coefficients = [rng.choice([-10, -3, -2, -1, 1, 1, 2, 3, 10]) for _ in cells]
    reach = sum(abs(k) * N for k in coefficients)
    linear = Linear(
        tuple(zip(coefficients, cells, strict=True)),
        rng.choice(["==", "!=", "<=", ">="]),
        rng.randint(-reach // 2, reach // 2),
    )
    values = [sorted(rng.sample(range(1, N + 1), rng.randint(1, N))) for _ in range(N * N)]
    return linear, values


# the default and PySAT's own choice; each named encoder's clauses are checked against every
# assignment of small rows in test_sat_sums_pb.py (enumerating a totalizer's auxiliaries on
# these random rows runs for minutes)
@pytest.mark.parametrize("how", ("dp", "pb"))
def test_a_linear_row_has_the_models_its_cells_allow(how):
    rng = random.Random(f"linear {how}")
    for _ in range(60):
        linear, values = random_linear(rng)
        cells = [cell for _, cell in linear.terms]
        pool = cnf.variables(N)
        found = models(primitive_clauses(linear, N, values, pool, how), cells, values)
        wanted = [
            combo
            for combo in itertools.product(*(values[c] for c in cells))
            if holds(linear, dict(zip(cells, combo, strict=True)))
        ]
        assert sorted(set(found)) == sorted(wanted), (linear, values)
        if how == "dp":  # each auxiliary a function of the cells: one model per assignment
            assert len(found) == len(wanted), (linear, values)


def test_a_table_whose_rows_overlap_has_one_model_per_allowed_tuple():
    values = [list(range(1, N + 1))] * (N * N)
    clauses = primitive_clauses(OVERLAPPING, N, values, cnf.variables(N))
    assert sorted(models(clauses, [0, 1], values)) == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]


def test_a_sum_no_values_reach_is_unsatisfiable_in_either_form():
    values = [[1, 2]] * (N * N)
    too_big = Linear(((1, 0), (1, 1)), ">=", 5)
    for how in LINEAR_ENCODINGS:
        assert primitive_clauses(too_big, N, values, cnf.variables(N), how) == [()]


# boards whose encodings hold auxiliary variables: table rows (renban, between), partial sums
# with negative coefficients (arrow), a killer cage as a sum, and givens for the reduced form
BOARDS = {
    "renban and arrow": (
        "................",
        "renban r1c1 r2c1 r3c1; arrow r2c2 r2c3 r3c3 circle=1",
    ),
    "between and thermometer": (
        "................",
        "betweenline r1c1 r1c2 r1c3; thermometer r2c1 r3c2",
    ),
    "killer cage and givens": ("1..............2", "killercage r1c2 r1c3 r2c2 total=9"),
    "no solution": ("1...............", "arrow r1c2 r1c1 circle=1"),
}
SPECS = ["sat", "sat:encoding=extended", "sat:linear=pb", "pysat", "pysat:linear=pb", "cms"]


@pytest.fixture(scope="module")
def counts():
    """Each board's count (all of its solutions) by dfs and cpsat, which must agree."""
    found = {}
    for name, (cells, rules) in BOARDS.items():
        board = board_of(cells, rules)
        with Runner("dfs") as dfs, Runner("cpsat") as cpsat:
            reference = {e.count(board, 1000, timeout=30).count for e in (dfs, cpsat)}
        assert len(reference) == 1, name
        found[name] = reference.pop()
    assert found["no solution"] == 0 and all(found[name] > 1 for name in list(BOARDS)[:3])
    return found


def board_of(cells: str, rules: str) -> Board:
    (puzzle,) = read_puzzles([f"# rules: {rules}", cells])
    return puzzle.board


@pytest.mark.parametrize("spec", SPECS)
def test_every_cnf_form_counts_all_solutions_once(spec, counts):
    with Runner(spec) as runner:
        for name, (cells, rules) in BOARDS.items():
            answer = runner.count(board_of(cells, rules), 1000, timeout=30)
            assert answer.status in (Status.SOLVED, Status.UNSOLVABLE), (name, answer.detail)
            assert answer.count == counts[name], name


THERMO = "# rules: thermometer r1c1 r2c1 r2c2\n....3...........\n"


@pytest.mark.parametrize(
    "options", [[], ["--option", "encoding=extended", "--option", "linear=pb"]]
)
def test_encode_writes_a_thermo_puzzles_dimacs_with_exactly_its_solutions(cli, options):
    run = cli("encode", *options, stdin=THERMO)
    assert run.code == 0, run.err
    assert "c constraints' sums as" in run.out
    clauses = [
        [int(x) for x in line.split()[:-1]] for line in run.out.splitlines() if line[:1] not in "cp"
    ]
    (puzzle,) = read_puzzles(THERMO.splitlines())
    board, seen = puzzle.board, set()
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            solution = cnf.solution_from_model(board, model)
            assert problems(board, solution) == []
            assert solution.cells not in seen
            seen.add(solution.cells)
            solver.add_clause([-x for x in model if 0 < x <= board.size**3])
    with Runner("dfs") as dfs:
        assert len(seen) == dfs.count(board, 1000, timeout=30).count > 1
    if not options:  # partial sums are functions of the cells: one model per solution
        assert len(list(pycosat.itersolve(clauses))) == len(seen)


def test_the_cnf_engines_take_every_kind():
    from solvers.backends import registry
    from solvers.model.constraints.kinds import KINDS

    for backend in ("sat", "pysat", "cms"):
        assert set(KINDS) <= registry.supported(backend)
    thermometer = Constraint("thermometer", (0, 1, 2))
    board = Board.empty(Shape(2, 2), Rules(constraints=(thermometer,)))
    with Runner("sat") as runner:
        assert runner.solve(board).status is Status.SOLVED


def shipped_puzzles(name: str) -> list[Board]:
    from solvers.formats.datasets import open_named

    with open_named(name) as handle:
        return [puzzle.board for puzzle in read_puzzles(handle.read().splitlines())]


@pytest.mark.parametrize("dataset", ["thermo9", "arrow9"])
def test_the_cnf_engines_prove_a_shipped_variant_puzzle_unique(dataset):
    board = shipped_puzzles(dataset)[0]
    for spec in ("sat", "pysat", "cms"):
        with Runner(spec) as runner:
            answer = runner.count(board, 2, timeout=30)
        assert (answer.status, answer.count) == (Status.SOLVED, 1), (spec, answer.detail)


VARIANT_SETS = [
    "antiknight9",
    "antiking9",
    "nonconsecutive9",
    "thermo9",
    "arrow9",
    "kropki9",
    "xv9",
]


@pytest.mark.slow  # a 60 s timeout per count: a loaded machine can miss it
@pytest.mark.parametrize(
    "spec", [f"{e}{o}" for e in ("sat", "pysat", "cms") for o in ("", ":linear=pb")]
)
def test_every_shipped_variant_puzzle_is_unique_in_every_cnf_form(spec):
    with Runner(spec) as runner:
        for dataset in VARIANT_SETS:
            for board in shipped_puzzles(dataset):
                answer = runner.count(board, 2, timeout=60)
                assert (answer.status, answer.count) == (Status.SOLVED, 1), (dataset, answer.detail)


def test_pysat_rebuilds_a_solver_worn_by_switched_off_variables_and_counts_the_same():
    # each count numbers an activation literal and the constraints' variables, switched off
    # afterwards but still costing every call: past a bound the solver is built afresh
    from adapters.pysat import RETIRE_AFTER, IncrementalBackend
    from solvers.base.deadline import Deadline

    board = board_of(*BOARDS["renban and arrow"])
    backend = IncrementalBackend(solver="cadical", cages="combinations", linear="dp")
    solvers, counts = [], set()  # every solver used, kept so that their ids stay distinct
    try:
        for _ in range(40):
            counts.add(backend.search(board, Deadline(None), 1000).count)
            loaded = backend._kept.peek(board.geometry)
            assert loaded is None or loaded.pool.top <= (1 + RETIRE_AFTER) * board.size**3
            solvers.append(backend._kept.get(board.geometry))
    finally:
        backend.close()
    assert len(counts) == 1 and len({id(loaded) for loaded in solvers}) > 1
