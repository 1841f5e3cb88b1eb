"""The SAT family's own CNF of kinds (``adapters.cnf_native``, ``sat|pysat|cms:model=native``)
against the shared decomposition (``pysat:model=decomposed``) and against another engine
(CP-SAT's native models, which share nothing with the CNF but the board): on the small puzzles
made for the mip and z3 models' tests (each unique only because of its rule), the kind's
hand-made board of tests/test_definitions.py and random 4x4 and 6x6 boards (mip's
``boards_of``), every engine of the family counts as the decomposition and CP-SAT do, up to a
limit, and every solution any of them finds is verified against the kind's own check. One
kind runs by default, the others are heavy."""

from __future__ import annotations

import pytest
import test_native_mip
import test_native_z3

from adapters import cnf, cnf_native
from solvers import Board, Shape, Status, parse
from solvers.backends import registry
from solvers.base.errors import UsageError
from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.text import parse_constraint
from solvers.model.variants import Rules
from solvers.run.runner import Runner

NATIVE = ("pysat:model=native", "sat:model=native", "cms:model=native")
OTHERS = ("pysat:model=decomposed", "cpsat")
LIMIT = 300
# the mip and z3 files' made puzzles and boards (tests/own_models.py's OwnModelTests): read
# through their modules, as a test class imported here would run here too
boards_of = test_native_mip.TestMipModels().boards_of
made_for_mip = test_native_mip.TestMipModels().made
made_for_z3 = test_native_z3.TestZ3Models().made
DEFAULT_KIND = "skyscraper"  # the default run's kind: the model furthest from its decomposition
KINDS_RUN = [
    kind if kind == DEFAULT_KIND else pytest.param(kind, marks=pytest.mark.heavy)
    for kind in sorted(cnf_native.MODELS)
]


@pytest.fixture(scope="module")
def runners():
    opened = {spec: Runner(spec) for spec in (*NATIVE, *OTHERS)}  # started on first use
    yield opened
    for runner in opened.values():
        runner.close()


# made here, for kinds the mip and z3 models' tests have none of: unique by the rule alone
MADE_HERE = {
    "arrow": ["# rules: arrow r1c1 r1c2 r2c2; arrow r4c4 r4c3 r3c3\n.....3........2."],  # 18
}


def made(kind: str) -> list[Board]:
    """The puzzles made for the mip and z3 models' tests (z3's has two cages more) and here."""
    mip = made_for_mip(kind)
    here = [parse(text) for text in MADE_HERE.get(kind, ())]
    return mip + [board for board in made_for_z3(kind) if board not in mip] + here


def test_every_native_kind_has_made_puzzles():
    assert all(made(kind) for kind in cnf_native.MODELS)


@pytest.mark.parametrize("kind", KINDS_RUN)
def test_each_native_cnf_counts_as_the_decomposition_and_cpsat_do(kind, runners):
    extra = [board for board in made(kind) if board not in made_for_mip(kind)]
    for board in boards_of(kind) + extra:
        counts = []
        for spec in (*NATIVE, *OTHERS):
            counted = runners[spec].count(board, LIMIT, timeout=60)  # each answer verified
            assert counted.status in (Status.SOLVED, Status.UNSOLVABLE), (spec, counted.detail)
            counts.append(counted.count)
        assert len(set(counts)) == 1, (kind, board.rules.constraints, counts)


@pytest.mark.parametrize("kind", KINDS_RUN)
def test_each_made_puzzle_is_unique_by_its_rule_alone_natively(kind, runners):
    native = runners[NATIVE[0]]
    for board in made(kind):
        assert native.count(board, LIMIT).count == 1
        without = Board(board.shape, board.cells, Rules())
        assert native.count(without, 2).count == 2  # so a model that drops the rule fails


@pytest.mark.parametrize("kind", KINDS_RUN)
def test_each_native_cnf_solves_the_kinds_example_on_an_empty_9x9(kind, runners):
    example = parse_constraint(KINDS[kind].example, 9)
    board = Board(Shape(3, 3), (0,) * 81, Rules(constraints=(example,)))
    for spec in NATIVE:
        assert runners[spec].solve(board, timeout=60).status is Status.SOLVED  # and verified


def test_the_model_is_an_option_of_each_engine_of_the_family_named_as_the_others_are():
    for name in ("sat", "pysat", "cms"):
        cls = registry.backend_class(name)
        assert cls.OPTIONS["model"] == ("native", "decomposed")
        defaults = {key: values[0] for key, values in cls.OPTIONS.items()}
        assert cls(**defaults).native_kinds() == set(cnf_native.MODELS)
        assert cls(**{**defaults, "model": "decomposed"}).native_kinds() == set()
        # a pb option still reaches the sums it names: those kinds stay decomposed
        pb = cls(**{**defaults, "cages": "pb", "linear": "pb"}).native_kinds()
        assert pb == set(cnf_native.MODELS) - {"killercage", "xv", "arrow"}
    with pytest.raises(UsageError, match="model=table is not one of native, decomposed"):
        Runner("pysat:model=table")


def test_the_native_cnf_differs_from_the_decomposition_where_a_kind_is_native():
    # a skyscraper clue of 4: its table (2,306 selectors over the 729 cell variables) against
    # its visibility and order literals (98)
    board = parse(
        "# rules: skyscraper r3c1 r3c2 r3c3 r3c4 r3c5 r3c6 r3c7 r3c8 r3c9 total=4\n" + "." * 81
    )
    native = cnf.encode(board, "extended", model="native")
    decomposed = cnf.encode(board, "extended", model="decomposed")
    assert cnf.variable_count(native, board) < cnf.variable_count(decomposed, board) - 2000


@pytest.mark.parametrize("kind", sorted(cnf_native.MODELS))
def test_every_auxiliary_variable_is_a_function_of_the_cells(kind, runners):
    # PicoSAT's enumeration (sat) and a model counter reading `sudoku encode`'s file count
    # models: one per solution only if every visibility, order, counter and set literal follows
    # from the cells
    import pycosat

    for board in boards_of(kind)[:4]:
        found = cnf.formula(board, "reduced", model="native")
        clauses = cnf.pin_unused([list(c) for c in found.clauses], found.nv)
        models = list(pycosat.itersolve(clauses, vars=found.nv))
        assert len(models) == runners["cpsat"].count(board, LIMIT, timeout=60).count


# Boards made for the sum models (adapters.cnf_sum): several solutions and none on 4x4, and a
# 9x9 pill of three cells whose shaft runs through rows 2 to 4 (27 cells adding up to 135)
SHAFT = " ".join(
    [f"r2c{c}" for c in range(1, 10)]
    + [f"r3c{c}" for c in range(9, 0, -1)]
    + [f"r4c{c}" for c in range(1, 10)]
)
PILL_GIVENS = "...489276" + "." * 27 + "796528413358914762483172695612895347579643128"
SUM_BOARDS = {
    "sandwich, several": "sandwich r1c1 r1c2 r1c3 r1c4 total=3; "
    "sandwich r4c1 r3c1 r2c1 r1c1 total=2",
    "sandwich, none": "sandwich r1c1 r1c2 r1c3 r1c4 total=5; sandwich r2c1 r2c2 r2c3 r2c4 total=5; "
    "sandwich r1c1 r2c1 r3c1 r4c1 total=5",
    "xsum, several": "xsum r1c1 r1c2 r1c3 r1c4 total=6; xsum r1c1 r2c1 r3c1 r4c1 total=9",
    "xsum, none": "xsum r1c1 r1c2 r1c3 r1c4 total=1; xsum r1c4 r1c3 r1c2 r1c1 total=1",
    "arrow, several": "arrow r1c1 r1c2 r2c2; arrow r4c4 r4c3 r3c3",
    "arrow, none": "arrow r1c1 r1c2 r2c2; arrow r1c4 r1c3 r2c3; arrow r4c1 r4c2 r3c2; "
    "arrow r4c4 r4c3 r3c3",
    "pill, several": f"arrow r1c1 r1c2 r1c3 {SHAFT} circle=3",
    "pill, none": f"arrow r1c3 r1c2 r1c1 {SHAFT} circle=3",  # it would read 531
}


def sum_board(name: str) -> Board:
    cells = PILL_GIVENS if name.startswith("pill") else "." * 16
    return parse(f"# rules: {SUM_BOARDS[name]}\n{cells}")


@pytest.mark.parametrize("name", sorted(SUM_BOARDS))
def test_the_sum_models_count_as_the_decomposition_and_cpsat_do(name, runners):
    board = sum_board(name)
    assert {c.kind for c in board.rules.constraints} <= set(cnf_native.MODELS)
    counts = {spec: runners[spec].count(board, LIMIT, timeout=60) for spec in (*NATIVE, *OTHERS)}
    assert all(c.status in (Status.SOLVED, Status.UNSOLVABLE) for c in counts.values()), counts
    found = {spec: c.count for spec, c in counts.items()}  # each solution verified
    assert len(set(found.values())) == 1, found
    assert (found["cpsat"] > 1) if name.endswith("several") else found["cpsat"] == 0


@pytest.mark.parametrize("name", ["sandwich, several", "xsum, several", "pill, several"])
def test_the_sum_models_are_the_cnf_model_native_gives(name):
    # the board's CNF holds the kind's own clauses (its between, order or state literals
    # numbered from the same pool) with model=native, and not with model=decomposed (its
    # table selectors, or its automaton starting from the circle's number)
    board = sum_board(name)
    n, masks = board.size, cnf.open_values(board)
    values = [[v for v in range(1, n + 1) if masks[cell] >> v & 1] for cell in range(n * n)]
    pool = cnf.variables(n)
    own = set()
    for constraint in board.rules.constraints:
        own |= set(cnf_native.clauses(constraint, n, values, pool, "dp"))
    native = set(cnf.encode(board, "extended", model="native"))
    decomposed = set(cnf.encode(board, "extended", model="decomposed"))
    assert own <= native
    assert len(own - decomposed) > len(own) // 2
