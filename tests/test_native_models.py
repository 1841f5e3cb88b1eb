"""An engine's own model of a kind against the shared decomposition
(``solvers.model.compile.handed``):
``cpsat:model=native`` posts CP-SAT's models (``adapters.cpsat_native``) where
``cpsat:model=decomposed`` posts the vocabulary's decomposition. On the kind's hand-made board
(tests/test_definitions.py, whose count the field's meaning gives), its example on 9x9, and
random boards of the vocabulary's tests, the two count alike up to a limit, and every solution
either finds is verified against the kind's own check."""

from __future__ import annotations

import pytest
from own_models import (
    count,
    example_on_empty_9x9,
    hand_made,
    open_runners,
    random_boards,
    refuses_an_unknown_model,
)
from test_definitions import DEFINITIONS

from adapters import cpsat_native
from solvers import Board, Shape, Status, parse
from solvers.backends import registry
from solvers.model.compile import handed

NATIVE = sorted(cpsat_native.MODELS)
SPECS = ("cpsat:model=native", "cpsat:model=decomposed")


@pytest.fixture(scope="module")
def runners():
    with open_runners(*SPECS) as opened:
        yield opened


def boards_of(kind: str) -> list[Board]:
    """The kind's board in tests/test_definitions.py, its example alone on an empty 9x9, and
    random 4x4 and 6x6 boards of the vocabulary's tests."""
    shapes = ((Shape(2, 2), 0.0), (Shape(2, 2), 0.2), (Shape(2, 3), 0.3), (Shape(2, 3), 0.5))
    random = random_boards(kind, f"native {kind}", shapes)
    return [*hand_made(kind), example_on_empty_9x9(kind), *random]


@pytest.mark.parametrize("kind", NATIVE)
def test_each_native_model_counts_as_the_decomposition_does_and_is_verified(kind, runners):
    native = runners[0]
    for board in boards_of(kind):
        if board.size > 6:  # the example on an empty 9x9: its count is too large to take, and
            # the decomposition of a skyscraper clue (a table of 3,136 rows) takes CP-SAT
            # past a minute on a loaded machine before its search begins
            assert native.solve(board, timeout=60).status is Status.SOLVED  # and verified
            continue
        counts = []
        for runner in runners:
            solved = runner.solve(board, timeout=60)  # the runner verifies what it is given
            counts.append(count(runner, board, 1000))
            assert solved.status is (Status.SOLVED if counts[-1] else Status.UNSOLVABLE)
        assert counts[0] == counts[1], (kind, board.rules.constraints, counts)
    for definition in (d for d in DEFINITIONS if d.kind == kind):
        assert native.count(parse(definition.board), 1000).count == definition.count


def test_a_native_kind_reaches_the_engine_unflattened_and_nothing_of_it_is_decomposed():
    board = parse("# rules: skyscraper r1c1 r1c2 r1c3 r1c4 total=3; odd r2c2\n" + "." * 16)
    flat, own = handed(board, frozenset({"skyscraper"}))
    assert [c.kind for c in own] == ["skyscraper"]
    assert flat.primitive_kinds == {"odd"}  # no table of the skyscraper among the primitives
    whole, none = handed(board, frozenset())
    assert none == () and whole.primitive_kinds == {"odd", "skyscraper"}


def test_the_model_is_an_option_named_as_the_others_are():
    assert registry.backend_class("cpsat").OPTIONS["model"][0] == "native"  # the default
    refuses_an_unknown_model("cpsat", "native, decomposed, boolean")


def test_a_backend_naming_a_native_kind_that_is_no_kind_or_without_primitives_is_refused():
    from solvers.backends.contract import Backend, contract_fault
    from solvers.model.compile import PRIMITIVES

    class Misnamed(Backend):
        ENCODES = frozenset({PRIMITIVES})
        NATIVE = frozenset({"skyscrapers"})

    class Unsupported(Backend):
        NATIVE = frozenset({"skyscraper"})

    assert contract_fault(Misnamed) == (
        "NATIVE holds 'skyscrapers': no such kind (sudoku kinds lists them)"
    )
    assert "ENCODES lacks 'primitives'" in contract_fault(Unsupported)
    assert contract_fault(registry.backend_class("cpsat")) is None
