"""cpmpy's native model per solver: with z3, a sandwich is decomposed (measured slower as
CPMpy's decomposition of Regular, docs/models.md), the other native kinds stay native; every
count checked against cpsat on boards made here."""

from __future__ import annotations

import pytest
from own_models import MADE, count_alike, made, open_runners

from adapters.cpmpy import CpmpyBackend


def test_z3_gets_a_sandwich_decomposed_and_keeps_the_other_native_kinds():
    z3, choco = CpmpyBackend(solver="z3"), CpmpyBackend()
    assert "sandwich" not in z3.native_kinds() and "sandwich" in choco.native_kinds()
    assert z3.native_kinds() == choco.native_kinds() - {"sandwich"}
    assert {"skyscraper", "renban", "thermometer"} <= z3.native_kinds()
    assert CpmpyBackend(solver="z3", model="decomposed").native_kinds() == frozenset()


@pytest.mark.parametrize("kind", ["sandwich", "skyscraper"])
def test_z3_counts_each_kind_as_cpsat_does(kind):
    with open_runners("cpmpy:solver=z3", "cpmpy", "cpsat") as runners:
        count_alike(runners, made(MADE, kind), 3)
