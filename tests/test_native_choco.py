"""Choco's own models of kinds (``adapters.choco_native``, ``choco:model=native``) against the
shared decomposition (``choco:model=decomposed``) and against another engine (CP-SAT's native
models, which share nothing with Choco's but the board): on small puzzles made for it,
each unique only because of its rule (without the rule it has several solutions), on the kind's
hand-made board of tests/test_definitions.py (whose count the field's meaning gives), and on
random 4x4 and 6x6 boards of the vocabulary's tests, all three count alike up to a limit, and
every solution any of them finds is verified against the kind's own check (the tests of
tests/own_models.py's OwnModelTests)."""

from __future__ import annotations

from own_models import OwnModelTests, refuses_an_unknown_model

from adapters import choco_native
from solvers.backends import registry


class TestChocoModels(OwnModelTests):
    SPECS = ("choco:model=native", "choco:model=decomposed", "cpsat")
    MODELS = choco_native.MODELS
    EVERY_MADE_KIND_MODELLED = True  # tests/own_models.py's MADE was made for this file
    SEED = "choco native"
    LIMIT = 1000


def test_the_model_and_the_search_are_options_named_as_the_others_are():
    options = registry.backend_class("choco").OPTIONS
    assert options["model"] == ("native", "decomposed")
    assert "domwdeg" in options["search"]
    refuses_an_unknown_model("choco", "native, decomposed")
    assert registry.backend_class("choco")(**{"model": "decomposed"}).native_kinds() == set()
