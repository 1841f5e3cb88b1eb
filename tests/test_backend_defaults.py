"""A backend built by hand (``CpSatBackend()``, as the library's docs allow) holds every
option's default, as one built from a spec does: each built-in backend with options, built
with none, answers a classic 4x4 board with a verified solution, and its options are the
spec's configuration."""

from __future__ import annotations

import pytest

from solvers import parse
from solvers.backends import registry
from solvers.backends.spec import BackendSpec
from solvers.base.deadline import Deadline
from solvers.model.verify import problems

BOARD = parse("1 0 0 0\n0 0 1 0\n0 1 0 0\n0 0 0 1\n")
WITH_OPTIONS = [
    name
    for name in registry.built_in()
    if registry.availability(name)[0] and registry.backend_class(name).OPTIONS
]


def test_some_backends_have_options():
    assert {"cpsat", "choco", "cpmpy", "mip", "minizinc", "pysat"} <= set(WITH_OPTIONS)


@pytest.mark.parametrize("name", WITH_OPTIONS)
def test_a_backend_built_by_hand_holds_the_defaults_and_answers(name):
    cls = registry.backend_class(name)
    backend = cls()
    assert backend.options == dict(BackendSpec(name).resolve().configuration)
    found = backend.search(BOARD, Deadline(None), 2)
    assert found.count >= 1 and not problems(BOARD, found.solution)
