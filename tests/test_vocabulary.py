"""The vocabulary on the engines: random boards with random constraints of every kind, counted
by every engine that supports the kind against dfs (which checks each kind by its own check,
never its decomposition), each answer verified. Support is opt-in: an engine that does not
declare a kind is never given it."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from conftest import BACKENDS
from corpus import complete_board
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_constraints import instance

from solvers import Board, Shape, Status
from solvers.backends import registry
from solvers.model.constraints.kinds import KINDS, check
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.primitives import Table
from solvers.model.variants import Rules
from solvers.run.runner import Runner

LIMIT = 3  # counted this far: none, one, several, or more


def board_with(name: str, shape: Shape, rng: random.Random, givens: float) -> Board:
    """A board of ``shape`` with one to three random constraints of kind ``name`` that hold in
    some random grid, and some givens of that grid: at least one solution. Where no draw holds
    in any grid tried (anti-king on 4x4), the constraints stand as drawn: likely none."""
    n = shape.size
    wanted = rng.randint(1, 3)
    drawn = tuple(instance(name, n, rng) for _ in range(wanted))
    full = complete_board(shape, rng)
    for _ in range(30):
        holding = [c for c in _draws(name, n, rng, 40) if not check(c, full.cells, n)]
        if holding:
            drawn = tuple(holding[:wanted])
            break
        full = complete_board(shape, rng)
    cells = tuple(v if rng.random() < givens else 0 for v in full.cells)
    return Board(shape, cells, Rules(constraints=drawn))


def _draws(name: str, n: int, rng: random.Random, count: int) -> list[Constraint]:
    return [instance(name, n, rng) for _ in range(1 if KINDS[name].board_wide else count)]


# each model of an engine that has several, beside the engine's default
MODELS = {
    "cpmpy": ("cpmpy:solver=ortools",),
    "choco": ("choco:model=decomposed",),
    "cpsat": ("cpsat:model=decomposed", "cpsat:model=boolean"),
    "z3": ("z3:model=decomposed", "z3:cells=int", "z3:cells=bitvec"),
    "minizinc": ("minizinc:model=decomposed",),
    "mip": ("mip:solver=scip", "mip:model=decomposed"),
    "sat": ("sat:linear=pb", "sat:encoding=extended"),
    "pysat": ("pysat:linear=pb",),
    "cms": ("cms:linear=pb", "cms:encoding=minimal"),
}


def supporting(name: str, board: Board | None = None) -> list[str]:
    """Every spec whose backend supports kind ``name`` (as ``board`` holds it, if given)."""
    names = [
        b
        for b in BACKENDS
        if registry.availability(b)[0]
        and (not registry.lacking(b, board) if board is not None else name in registry.supported(b))
    ]
    return [spec for b in names for spec in (b, *MODELS.get(b, ()))]


@pytest.fixture(scope="module")
def runners():
    """A runner per spec, kept across the kinds: a persistent solver (z3) or a worker process
    (cpmpy's choco counts) is made once, not once per board."""
    kept: dict[str, Runner] = {}
    yield lambda spec: kept.get(spec) or kept.setdefault(spec, Runner(spec).__enter__())
    for runner in kept.values():
        runner.__exit__(None, None, None)


def boards_for(name: str) -> list[Board]:
    """Two small boards with constraints of kind ``name``: 4x4 with a fifth of the cells
    given, then 6x6 with half (the one the default run counts)."""
    rng = random.Random(f"vocabulary {name}")
    shapes = [Shape(2, 2), Shape(2, 3)]
    return [board_with(name, s, rng, givens=0.2 if s.size == 4 else 0.5) for s in shapes]


# A process per call (docs/minizinc.md): in the default run MiniZinc is
# checked per primitive (tests/test_minizinc_kinds.py), here on every kind in the heavy run.
BY_PROCESS = ("minizinc",)


# the engines that support every kind: each count is checked against them
FULL_VOCABULARY = ("dfs", "cpsat", "native", "propagate")


def counted_alike(name: str, board: Board, runners, engines: list[str] | None = None) -> None:
    engines = supporting(name, board) if engines is None else engines
    assert set(FULL_VOCABULARY) <= set(engines)
    counts = {}
    for engine in engines:
        answer = runners(engine).count(board, LIMIT, timeout=30)
        assert answer.status in (Status.SOLVED, Status.UNSOLVABLE), (engine, answer.detail)
        counts[engine] = answer.count
    assert len(set(counts.values())) == 1, (name, board.rules.constraints, counts)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_engine_that_supports_a_kind_counts_as_the_reference_does(name, runners):
    board = boards_for(name)[-1]
    engines = [spec for spec in supporting(name, board) if spec not in BY_PROCESS]
    counted_alike(name, board, runners, engines)


@pytest.mark.heavy
@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_engines_run_as_a_process_count_a_kind_as_the_reference_does(name, runners):
    engines = [spec for spec in supporting(name) if spec in BY_PROCESS]
    if not engines:
        pytest.skip("no minizinc command here")
    counted_alike(name, boards_for(name)[-1], runners, [*engines, *FULL_VOCABULARY])


@pytest.mark.heavy  # every engine on the kind's further boards: about a minute in all
@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_engine_counts_the_kinds_further_boards_as_the_reference_does(name, runners):
    for board in boards_for(name)[:-1]:
        counted_alike(name, board, runners)


def test_an_engine_that_does_not_declare_a_kind_is_not_given_it(cli):
    thermometer = Constraint("thermometer", (0, 1, 2))
    board = Board.empty(Shape(2, 2), Rules(constraints=(thermometer,)))
    refused = [b for b in BACKENDS if "thermometer" not in registry.supported(b)]
    assert refused  # engines wired later declare nothing yet
    with Runner(refused[0]) as runner:
        answer = runner.count(board, 2)
    assert answer.status is Status.UNSUPPORTED
    assert answer.detail == f"{refused[0]} does not support thermometer"


def test_the_verifier_reads_each_kinds_own_check():
    from solvers.model.verify import problems

    thermometer = Constraint("thermometer", (0, 1, 2))
    puzzle = Board.empty(Shape(2, 2), Rules(constraints=(thermometer,)))
    good = puzzle.with_cells((1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))
    bad = puzzle.with_cells((2, 1, 3, 4, 3, 4, 1, 2, 1, 2, 4, 3, 4, 3, 2, 1))
    assert problems(puzzle, good) == []
    assert problems(puzzle, bad) == [
        "thermometer at r1c1: r1c2 (1) is not above r1c1 (2) on the line"
    ]


# two rows of a compressed table that both hold on (1, 1) and (1, 2): five tuples in all
OVERLAPPING = Table(
    (0, 1), ((frozenset({1, 2}), frozenset({1, 2})), (frozenset({1}), frozenset({1, 2, 3})))
)


@pytest.mark.filterwarnings("ignore:Adding constraints to solver object")
@pytest.mark.parametrize("solver", ["ortools", "choco", "pysat"])
def test_cpmpy_counts_a_large_table_once_per_solution_by_its_row_booleans(monkeypatch, solver):
    # a table too large to expand is a Boolean per row; rows that overlap both hold on some
    # tuples, and CP-SAT enumerates every variable: a row Boolean not fixed by the cells would
    # count such a tuple twice
    import cpmpy as cp

    import adapters.cpmpy

    monkeypatch.setattr(adapters.cpmpy, "SMALL_TABLE", 0)
    cells = cp.intvar(1, 4, shape=2)
    model = cp.Model(adapters.cpmpy._primitive(OVERLAPPING, cells))
    assert cp.SolverLookup.get(solver, model).solveAll() == 5  # 11 12 21 22 13


def test_choco_counts_a_large_table_once_per_solution_by_its_row_booleans(monkeypatch):
    from pychoco import Model

    import adapters.choco

    monkeypatch.setattr(adapters.choco, "SMALL_TABLE", 0)
    model = Model()
    adapters.choco._table(model, [model.intvar(1, 4) for _ in range(2)], OVERLAPPING.rows)
    solver, found = model.get_solver(), 0
    while solver.solve():
        found += 1
    assert found == 5


def test_csp_finds_no_solution_where_a_sum_fits_no_value_of_a_given():
    # python-constraint2's sum constraints raised ValueError while pre-processing such a sum
    maximum = Constraint("maximum", (0,))
    cells = (1,) + (0,) * 15  # a maximum of 1: nothing below it
    board = Board(Shape(2, 2), cells, Rules(constraints=(maximum,)))
    for solver in ("backtracking", "optimized", "recursive"):
        with Runner(f"csp:solver={solver}") as runner:
            answer = runner.count(board, 2)
        assert (answer.status, answer.count) == (Status.UNSOLVABLE, 0), answer.detail


# the full-vocabulary engines fast enough to count every example hypothesis draws
FAST = ["native", "propagate", "pysat", "cpsat"]


def kinds_on_a_board():
    return st.tuples(
        st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=3),
        st.sampled_from([Shape(2, 2), Shape(2, 3)]),
        st.integers(0, 2**32 - 1),
        st.floats(0.0, 0.6),
    )


# The default run draws a few boards, the heavy run (CI) many more: an example is quick as a
# rule, and takes up to dfs's 10 s on a board it finds hard (the default run's 8 draws took
# 5.8 s of CPU on a loaded machine, 4 half that; the heavy run's 40 are the breadth).
RANDOM_KINDS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(RANDOM_KINDS, max_examples=4)
@given(kinds_on_a_board())
def test_random_boards_with_random_kinds_count_as_the_reference_does(runners, case):
    mixed_kinds_counted_alike(*case, runners)


@pytest.mark.heavy
@settings(RANDOM_KINDS, max_examples=40)
@given(kinds_on_a_board())
def test_many_random_boards_with_random_kinds_count_as_the_reference_does(runners, case):
    mixed_kinds_counted_alike(*case, runners)


def mixed_kinds_counted_alike(
    kinds: list[str], shape: Shape, seed: int, given: float, runners: Callable[[str], Runner]
) -> None:
    """Constraints of several kinds at once on one board, each drawn to hold in the grid the
    givens come from (when a draw does): counted by dfs and the fast full-vocabulary engines.
    dfs checks a board-wide kind only on a full board: a 6x6 board keeps at least a third of
    its cells given, and a board dfs cannot count in 10 s is no example. The runners are the
    module's (``runners``): a worker process per engine for every example, not per example."""
    rng = random.Random(seed)
    boards = [board_with(kind, shape, rng, max(given, shape.size / 18)) for kind in kinds]
    mixed = tuple(c for board in boards for c in board.rules.constraints)
    board = Board(shape, boards[0].cells, Rules(constraints=mixed))
    reference = runners("dfs").count(board, LIMIT, timeout=10)
    assume(reference.status is not Status.TIMEOUT)
    expected = 0 if reference.status is Status.INVALID else reference.count
    engines = [e for e in FAST if registry.availability(e)[0]]
    counts = {engine: count_solutions_of(runners(engine), board) for engine in engines}
    assert set(counts.values()) == {expected}, (mixed, board.cells, counts)


def count_solutions_of(runner: Runner, board: Board) -> int:
    answer = runner.count(board, LIMIT, timeout=30)
    if answer.status is Status.INVALID:  # givens that repeat in a unit (a diagonal, say)
        return 0
    assert answer.status in (Status.SOLVED, Status.UNSOLVABLE), (runner.label, answer.detail)
    return answer.count
