"""Choco's own models of kinds (``adapters.choco_native``, ``choco:model=native``) against the
shared decomposition (``choco:model=decomposed``) and against another engine (CP-SAT's native
models, which share nothing with Choco's but the board): on small puzzles made for it,
each unique only because of its rule (without the rule it has several solutions), on the kind's
hand-made board of tests/test_definitions.py (whose count the field's meaning gives), and on
random 4x4 and 6x6 boards of the vocabulary's tests, all three count alike up to a limit, and
every solution any of them finds is verified against the kind's own check."""

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

from adapters import choco_native
from solvers import Board, Status
from solvers.backends import registry

SPECS = ("choco:model=native", "choco:model=decomposed", "cpsat")
LIMIT = 1000


def made(kind: str) -> list[Board]:
    """The puzzles made for the kind (tests/own_models.py's MADE: made for this file)."""
    return made_in(MADE, kind)


@pytest.fixture(scope="module")
def runners():
    with open_runners(*SPECS) as opened:
        yield opened


def boards_of(kind: str) -> list[Board]:
    """The made puzzles of the kind, its board in tests/test_definitions.py, and random 4x4 and
    6x6 boards of the vocabulary's tests."""
    return made(kind) + hand_made(kind) + random_boards(kind, f"choco native {kind}")


def test_every_native_kind_has_made_puzzles():
    assert {kind for kind, _, _ in MADE} == set(choco_native.MODELS)


@pytest.mark.parametrize("kind", sorted(choco_native.MODELS))
def test_each_native_model_counts_as_the_decomposition_and_cpsat_do(kind, runners):
    count_alike(runners, boards_of(kind), LIMIT)


@pytest.mark.parametrize("kind", sorted(choco_native.MODELS))
def test_each_made_puzzle_is_unique_by_its_rule_alone(kind, runners):
    unique_by_rule_alone(runners[0], made(kind), LIMIT)


@pytest.mark.parametrize("kind", sorted(choco_native.MODELS))
def test_each_native_model_solves_the_kinds_example_on_an_empty_9x9(kind, runners):
    board = example_on_empty_9x9(kind)
    assert runners[0].solve(board, timeout=60).status is Status.SOLVED  # and verified


def test_the_model_and_the_search_are_options_named_as_the_others_are():
    options = registry.backend_class("choco").OPTIONS
    assert options["model"] == ("native", "decomposed")
    assert "domwdeg" in options["search"]
    refuses_an_unknown_model("choco", "native, decomposed")
    assert registry.backend_class("choco")(**{"model": "decomposed"}).native_kinds() == set()
