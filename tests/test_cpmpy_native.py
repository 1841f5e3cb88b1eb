"""CPMpy's own models of kinds (``adapters.cpmpy_native``, ``cpmpy:model=native``) against the
shared decomposition (``cpmpy:model=decomposed``) and against another engine (CP-SAT's native
models, which share nothing with CPMpy's but the board): on the small puzzles made for the
engines' own models (tests/own_models.py's MADE: each unique only because of its rule), on the
kind's hand-made board of tests/test_definitions.py and on random 4x4 and 6x6 boards, all three
count alike up to a limit, and every solution any of them finds is verified against the kind's
own check (the tests of tests/own_models.py's OwnModelTests). CPMpy hands the globals to its
default solver, Choco; with ``solver=ortools`` CPMpy passes them to CP-SAT or decomposes them
itself, and counts alike too."""

from __future__ import annotations

import pytest
from own_models import (
    MADE,
    OwnModelTests,
    count_alike,
    hand_made,
    made,
    open_runners,
    refuses_an_unknown_model,
)

from adapters import cpmpy_native
from solvers.backends import registry

LIMIT = 200


class TestCpmpyModels(OwnModelTests):
    SPECS = ("cpmpy:model=native", "cpmpy:model=decomposed", "cpsat")
    MODELS = cpmpy_native.MODELS
    SEED = "cpmpy native"
    LIMIT = LIMIT


@pytest.mark.parametrize("kind", ["skyscraper", "renban", "whispers"])
def test_the_native_models_through_another_solver_count_alike(kind):
    # CP-SAT through CPMpy: Regular, Maximum and Abs passed on or decomposed by CPMpy itself
    with open_runners("cpmpy:model=native,solver=ortools", "cpmpy:model=decomposed") as pair:
        count_alike(pair, made(MADE, kind) + hand_made(kind), LIMIT)


def test_the_model_is_an_option_named_as_the_others_are():
    cls = registry.backend_class("cpmpy")
    assert cls.OPTIONS["model"] == ("native", "decomposed")
    refuses_an_unknown_model("cpmpy", "native, decomposed")
    assert cls(**{"model": "decomposed"}).native_kinds() == set()
    assert cls(**{"model": "native"}).native_kinds() == set(cpmpy_native.MODELS)
