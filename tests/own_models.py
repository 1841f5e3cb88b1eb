"""What the tests of engines' own models of kinds share (tests/test_native_models.py for CP-SAT,
test_native_choco.py, test_native_mip.py, test_native_z3.py, test_native_minizinc.py): each
runs an engine's native model of a kind beside the shared decomposition and another engine,
on puzzles each unique only because of its rule, on the kind's hand-made board of
tests/test_definitions.py (whose count the rule's meaning gives) and on random boards of the
vocabulary's tests, and asks them to count alike. Every solution a runner finds is verified by
the runner against the kind's own check."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager

import pytest
from corpus import complete_board
from test_definitions import DEFINITIONS
from test_vocabulary import board_with

from solvers import Board, Shape, Status, parse
from solvers.base.errors import UsageError
from solvers.generation.layouts import random_cages
from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.text import parse_constraint
from solvers.model.variants import Rules
from solvers.run.runner import Runner

# (kind, its constraints, givens): made for Choco's native models and used by the others' tests
# too (a random solved grid, constraints that hold in it, givens removed while the puzzle stays
# unique); the comment says how many solutions the givens have without the constraints
MADE = (
    ("skyscraper", "skyscraper r4c3 r3c3 r2c3 r1c3 total=2; skyscraper r3c4 r3c3 r3c2 r3c1 "
     "total=2", "1.....3........2"),  # 3 without
    ("skyscraper", "skyscraper r5c1 r5c2 r5c3 r5c4 r5c5 r5c6 total=1; skyscraper r1c1 r2c1 "
     "r3c1 r4c1 r5c1 r6c1 total=3", "..3.26.............642...1.....4...5"),  # 13 without
    ("renban", "renban r4c1 r3c2 r4c3 r4c2", ".2..4.....2....3"),  # 2 without
    ("renban", "renban r3c5 r2c4 r1c5", ".326........1..........3.....5..532."),  # 7 without
    ("xsum", "xsum r4c2 r3c2 r2c2 r1c2 total=3; xsum r1c2 r2c2 r3c2 r4c2 total=10",
     "...2.......4...."),  # 24 without
    ("xsum", "xsum r6c1 r6c2 r6c3 r6c4 r6c5 r6c6 total=18",
     "..51......2....26......41...4....5.."),  # 12 without
    ("sandwich", "sandwich r1c1 r1c2 r1c3 r1c4 total=5; sandwich r4c1 r3c1 r2c1 r1c1 total=0",
     "...1.3.......1.3"),  # 2 without
    ("sandwich", "sandwich r1c2 r2c2 r3c2 r4c2 r5c2 r6c2 total=9; sandwich r2c1 r2c2 r2c3 r2c4 "
     "r2c5 r2c6 total=3", "..3............34........3.16......."),  # over 1,000 without
    ("thermometer", "thermometer r3c3 r4c2", ".3....1.2......."),  # 3 without
    ("slow-thermometer", "slow-thermometer r3c2 r2c3; slow-thermometer r4c1 r3c1",
     ".3..2.3...2....."),  # 4 without
    ("difference", "difference r2c4 r2c3", "1.....1....4..3."),  # 3 without
    ("ratio", "ratio r1c4 r1c3 ratio=2", "..4.........34.."),  # 6 without
    ("ratio", "ratio r3c6 r2c6", ".........65........5..26......5.13.."),  # 142 without
    ("whispers", "whispers r3c3 r2c3 r2c4 difference=2; whispers r3c2 r4c1",
     ".......4...1..4."),  # 12 without
    ("whispers", "whispers r4c2 r5c3 r4c4 difference=2; whispers r4c4 r4c5 difference=1",
     "314............6.1.4........64..2..."),  # 4 without
    ("killercage", "killercage r2c2 r2c1 r1c1; killercage r3c4 total=3",
     "1....2...1..3..."),  # 2 without
    ("killercage", "killercage r1c6 total=5", "........3.2.3......5.4..4....2..5.6."),  # 10 without
    ("multisumcage", "multisumcage r3c1 r3c2 totals=4,5; multisumcage r3c4 r2c4 totals=3",
     "..4..........3.."),  # 18 without
)  # fmt: skip

# the random boards of the vocabulary's tests each file adds: shape and share of givens
RANDOM = ((Shape(2, 2), 0.0), (Shape(2, 2), 0.2), (Shape(2, 3), 0.4))


def made(table: Iterable[tuple[str, str, str]], kind: str) -> list[Board]:
    """The puzzles of ``table`` (kind, rules, givens) made for ``kind``."""
    return [parse(f"# rules: {rules}\n{givens}") for name, rules, givens in table if name == kind]


def hand_made(kind: str) -> list[Board]:
    """The kind's boards in tests/test_definitions.py."""
    return [parse(d.board) for d in DEFINITIONS if d.kind == kind]


def random_boards(kind: str, seed: str, shapes=RANDOM) -> list[Board]:
    """Random boards of the vocabulary's tests with the kind's constraints, drawn from ``seed``."""
    rng = random.Random(seed)
    return [board_with(kind, shape, rng, givens) for shape, givens in shapes]


def killer_boards(seed: int, share: float) -> list[Board]:
    """Killer boards on 4x4 and 6x6, each with cages over a random solution and ``share`` of
    its values as givens on the last (none on the first two): at least one solution, often
    several."""
    rng, boards = random.Random(seed), []
    for shape, givens in ((Shape(2, 2), 0.0), (Shape(2, 3), 0.0), (Shape(2, 3), share)):
        solution = complete_board(shape, rng)
        cells = tuple(v if rng.random() < givens else 0 for v in solution.cells)
        boards.append(Board(shape, cells, Rules(constraints=random_cages(solution, rng))))
    return boards


def example_on_empty_9x9(kind: str) -> Board:
    """The kind's example alone on an empty 9x9."""
    example = parse_constraint(KINDS[kind].example, 9)
    return Board(Shape(3, 3), (0,) * 81, Rules(constraints=(example,)))


@contextmanager
def open_runners(*specs: str) -> Iterator[tuple[Runner, ...]]:
    """A runner of each spec, all closed at the end."""
    with ExitStack() as stack:
        yield tuple(stack.enter_context(Runner(spec)) for spec in specs)


def count(runner: Runner, board: Board, limit: int, timeout: float = 60) -> int:
    """The runner's count of ``board`` up to ``limit``, which it must finish (each solution it
    found verified by the runner)."""
    counted = runner.count(board, limit, timeout=timeout)
    assert counted.status in (Status.SOLVED, Status.UNSOLVABLE), (runner, counted.detail)
    return counted.count


def count_alike(runners: Sequence[Runner], boards: Iterable[Board], limit: int) -> None:
    """Every runner counts each board alike up to ``limit``."""
    for board in boards:
        counts = [count(runner, board, limit) for runner in runners]
        assert len(set(counts)) == 1, (board.rules.constraints, runners, counts)


def unique_by_rule_alone(native: Runner, boards: Iterable[Board], limit: int) -> None:
    """Each board has one solution, and its givens without the rules at least two: so a model
    that drops the rule fails."""
    for board in boards:
        assert native.count(board, limit).count == 1, board.rules.constraints
        without = Board(board.shape, board.cells, Rules())
        assert native.count(without, 2).count == 2, board.rules.constraints


def refuses_an_unknown_model(backend: str, models: str) -> None:
    """``model=table`` is refused naming the backend's models (``models``, as the message
    lists them)."""
    with pytest.raises(UsageError, match=f"model=table is not one of {models}"):
        Runner(f"{backend}:model=table")


class OwnModelTests:
    """The tests every engine's own models of kinds share, for a test file's subclass to run
    (``class TestChocoModels(OwnModelTests)``): ``SPECS`` are the native model, the shared
    decomposition and another engine (the first is the one whose models are tested);
    ``MODELS`` the kinds that have a model of their own; ``KINDS`` those the tests below run
    over (``MODELS`` unless set); ``MADE`` the made puzzles (``MADE`` above unless set), each
    model's kind among them, and exactly the models' kinds where ``EVERY_MADE_KIND_MODELLED``;
    ``SEED`` names the random boards; ``LIMIT`` the count every runner must reach."""

    SPECS: tuple[str, ...]
    MODELS: Iterable[str]
    KINDS: Iterable[str] | None = None
    MADE: tuple[tuple[str, str, str], ...] = MADE
    EVERY_MADE_KIND_MODELLED = False
    SEED: str
    LIMIT: int

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        # a test taking ``kind`` runs once per kind, unless it parametrises ``kind`` itself
        own = any("kind" in m.args[0] for m in metafunc.definition.iter_markers("parametrize"))
        if "kind" in metafunc.fixturenames and not own:
            metafunc.parametrize("kind", sorted(self.KINDS or self.MODELS))

    @pytest.fixture(scope="class")
    @classmethod
    def runners(cls) -> Iterator[tuple[Runner, ...]]:
        """A runner of each of ``SPECS``, in order, shared by the class's tests."""
        with open_runners(*cls.SPECS) as opened:
            yield opened

    def made(self, kind: str) -> list[Board]:
        """The made puzzles of the kind."""
        return made(self.MADE, kind)

    def boards_of(self, kind: str) -> list[Board]:
        """The made puzzles of the kind, its board in tests/test_definitions.py, and random
        4x4 and 6x6 boards of the vocabulary's tests."""
        return self.made(kind) + hand_made(kind) + random_boards(kind, f"{self.SEED} {kind}")

    def test_every_native_kind_has_made_puzzles(self):
        kinds = {kind for kind, _, _ in self.MADE}
        assert set(self.MODELS) <= kinds
        if self.EVERY_MADE_KIND_MODELLED:
            assert kinds == set(self.MODELS)

    def test_each_native_model_counts_as_the_decomposition_and_cpsat_do(self, kind, runners):
        count_alike(runners, self.boards_of(kind), self.LIMIT)

    def test_each_made_puzzle_is_unique_by_its_rule_alone(self, kind, runners):
        unique_by_rule_alone(runners[0], self.made(kind), self.LIMIT)

    def example(self, kind: str, runners: Sequence[Runner]) -> Board:
        """The board of the kind's example the native model must solve: alone on an empty 9x9."""
        return example_on_empty_9x9(kind)

    def test_each_native_model_solves_the_kinds_example_on_9x9(self, kind, runners):
        board = self.example(kind, runners)
        assert runners[0].solve(board, timeout=60).status is Status.SOLVED  # and verified
