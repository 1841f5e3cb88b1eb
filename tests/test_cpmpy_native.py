"""CPMpy's own models of kinds (``adapters.cpmpy_native``, ``cpmpy:model=native``) against the
shared decomposition (``cpmpy:model=decomposed``) and against another engine (CP-SAT's native
models, which share nothing with CPMpy's but the board): on the small puzzles made for the
engines' own models (tests/own_models.py's MADE: each unique only because of its rule), on the
kind's hand-made board of tests/test_definitions.py and on random 4x4 and 6x6 boards, all three
count alike up to a limit, and every solution any of them finds is verified against the kind's
own check. CPMpy hands the globals to its default solver, Choco; with ``solver=ortools`` CPMpy
passes them to CP-SAT or decomposes them itself, and counts alike too."""

from __future__ import annotations

import pytest
from own_models import (
    MADE,
    count_alike,
    example_on_empty_9x9,
    hand_made,
    open_runners,
    random_boards,
    refuses_an_unknown_model,
    unique_by_rule_alone,
)
from own_models import made as made_in

from adapters import cpmpy_native
from solvers import Board, Status
from solvers.backends import registry

SPECS = ("cpmpy:model=native", "cpmpy:model=decomposed", "cpsat")
LIMIT = 200


def made(kind: str) -> list[Board]:
    return made_in(MADE, kind)


@pytest.fixture(scope="module")
def runners():
    with open_runners(*SPECS) as opened:
        yield opened


def boards_of(kind: str) -> list[Board]:
    return made(kind) + hand_made(kind) + random_boards(kind, f"cpmpy native {kind}")


def test_every_native_kind_has_made_puzzles():
    assert set(cpmpy_native.MODELS) <= {kind for kind, _, _ in MADE}


@pytest.mark.parametrize("kind", sorted(cpmpy_native.MODELS))
def test_each_native_model_counts_as_the_decomposition_and_cpsat_do(kind, runners):
    count_alike(runners, boards_of(kind), LIMIT)


@pytest.mark.parametrize("kind", sorted(cpmpy_native.MODELS))
def test_each_made_puzzle_is_unique_by_its_rule_alone(kind, runners):
    unique_by_rule_alone(runners[0], made(kind), LIMIT)


@pytest.mark.parametrize("kind", sorted(cpmpy_native.MODELS))
def test_each_native_model_solves_the_kinds_example_on_an_empty_9x9(kind, runners):
    board = example_on_empty_9x9(kind)
    assert runners[0].solve(board, timeout=60).status is Status.SOLVED  # and verified


@pytest.mark.parametrize("kind", ["skyscraper", "renban", "whispers"])
def test_the_native_models_through_another_solver_count_alike(kind):
    # CP-SAT through CPMpy: Regular, Maximum and Abs passed on or decomposed by CPMpy itself
    with open_runners("cpmpy:model=native,solver=ortools", "cpmpy:model=decomposed") as pair:
        count_alike(pair, made(kind) + hand_made(kind), LIMIT)


def test_the_model_is_an_option_named_as_the_others_are():
    cls = registry.backend_class("cpmpy")
    assert cls.OPTIONS["model"] == ("native", "decomposed")
    refuses_an_unknown_model("cpmpy", "native, decomposed")
    assert cls(**{"model": "decomposed"}).native_kinds() == set()
    assert cls(**{"model": "native"}).native_kinds() == set(cpmpy_native.MODELS)
