"""Z3's own models of kinds (``adapters.z3_native``, ``z3:model=native``) against the shared
decomposition (``z3:model=decomposed``) and against another engine (CP-SAT's native
models, which share nothing with Z3's but the board): over Boolean cells (the default) the
models written over the literals (``LITERALS``), and (heavy) over integer and bit-vector cells
the arithmetic ones (``MODELS``). On small puzzles made for tests/test_native_choco.py
(tests/own_models.py) and four more made here, each unique only because of its rule (without
the rule it has several solutions), on the kind's hand-made board of tests/test_definitions.py
(whose count the field's meaning gives), and on random 4x4 and 6x6 boards of the vocabulary's
tests, all count alike up to a limit, and every solution any of them finds is verified against
the kind's own check."""

from __future__ import annotations

import pytest
from own_models import MADE as MADE_FOR_CHOCO
from own_models import (
    count_alike,
    example_on_empty_9x9,
    hand_made,
    open_runners,
    random_boards,
    refuses_an_unknown_model,
    unique_by_rule_alone,
)
from own_models import made as made_in

from adapters import z3_native
from solvers import Board, Status
from solvers.backends import registry

# the native models over the default Boolean cells, the decomposition over the same cells, and
# CP-SAT; heavy (tests/conftest.py): the native models over integer and bit-vector cells, and
# the decomposition over integer cells
SPECS = ("z3:model=native", "z3:model=decomposed", "cpsat")
OTHER_CELLS = (
    "z3:cells=int,model=native",
    "z3:cells=bitvec,model=native",
    "z3:cells=int,model=decomposed",
)
LIMIT = 1000

# (kind, its constraints, givens): choco's made puzzles (tests/own_models.py: each
# unique by its rule alone), and four more made for this file; the comment says how many
# solutions the givens have without the constraints
MADE = (
    *MADE_FOR_CHOCO,
    # cages whose cut of the domains leaves every value: the sum alone makes them unique
    ("killercage", "killercage r1c1 r1c2 total=5", "1............2.3"),  # 3 without
    ("killercage", "killercage r1c1 r1c2 r2c1 total=12",
     "..1...2.....14........3....1......46"),  # 21 without
    ("betweenline", "betweenline r1c1 r2c2 r3c2", ".....2.43......."),  # 3 without
    ("betweenline", "betweenline r6c1 r5c2 r5c3",
     "..5....3...43..16.....5....21.5....."),  # 4 without
)  # fmt: skip


def made(kind: str) -> list[Board]:
    return made_in(MADE, kind)


@pytest.fixture(scope="module")
def runners():
    specs = (*SPECS, *OTHER_CELLS)
    with open_runners(*specs) as opened:  # each started on first use
        yield dict(zip(specs, opened, strict=True))


def boards_of(kind: str) -> list[Board]:
    """The made puzzles of the kind, its board in tests/test_definitions.py, and random 4x4 and
    6x6 boards of the vocabulary's tests."""
    return made(kind) + hand_made(kind) + random_boards(kind, f"z3 native {kind}")


def test_every_native_kind_has_made_puzzles():
    assert {kind for kind, _, _ in MADE} == set(z3_native.MODELS)


# over Boolean cells only the kinds of LITERALS have a model of their own (the rest are the
# decomposition on both sides)
@pytest.mark.parametrize("kind", sorted(z3_native.LITERALS))
def test_each_native_model_counts_as_the_decomposition_and_cpsat_do(kind, runners):
    count_alike([runners[spec] for spec in SPECS], boards_of(kind), LIMIT)


@pytest.mark.parametrize("kind", sorted(z3_native.MODELS))
def test_each_native_model_over_integer_and_bitvector_cells_counts_alike(kind, runners):
    specs = (*OTHER_CELLS, "cpsat")
    count_alike([runners[spec] for spec in specs], boards_of(kind), LIMIT)


@pytest.mark.parametrize("kind", sorted(z3_native.LITERALS))
def test_each_made_puzzle_is_unique_by_its_rule_alone(kind, runners):
    unique_by_rule_alone(runners[SPECS[0]], made(kind), LIMIT)


@pytest.mark.parametrize("kind", sorted(z3_native.LITERALS))
def test_each_native_model_solves_the_kinds_example_on_an_empty_9x9(kind, runners):
    # over Boolean cells only: Z3 over integer cells finds no solution of an empty 9x9 within
    # a minute, with no rule beside the units (tried: z3:cells=int, 20 s)
    board = example_on_empty_9x9(kind)
    assert runners[SPECS[0]].solve(board, timeout=60).status is Status.SOLVED  # and verified


def test_the_model_is_an_option_beside_the_cells_as_every_engine_names_it():
    options = registry.backend_class("z3").OPTIONS
    assert options["cells"] == ("bool", "int", "bitvec")
    assert options["model"] == ("native", "decomposed")  # as cpsat, choco, minizinc and mip
    refuses_an_unknown_model("z3", "native, decomposed")
    z3 = registry.backend_class("z3")
    assert z3(**{"cells": "int", "model": "decomposed"}).native_kinds() == set()
    assert z3(**{"cells": "int", "model": "native"}).native_kinds() == set(z3_native.MODELS)
    # over Boolean cells, the kinds with a model over the literals; the rest decomposed
    assert z3(**{"cells": "bool", "model": "native"}).native_kinds() == set(z3_native.LITERALS)
