"""The CNF levels build their clauses inside their deadline (docs/reliability.md, "Deadlines"):
a 25x25's build took 0.36-0.60 s, and up:minimal or up:extended given 0.01 s was reported
finished. In a fresh process, so that no earlier test has built that geometry's clauses."""

from __future__ import annotations

import json
import subprocess

import pytest
from test_interrupts import SUDOKU


@pytest.mark.parametrize("level", ["up:minimal", "up:extended"])
def test_a_cnf_level_that_cannot_build_its_clauses_in_time_is_timed_out(level):
    args = [SUDOKU, "strength", "--levels", level, "--timeout", "0.01", "--json"]
    done = subprocess.run(args, input="." * 625 + "\n", capture_output=True, text=True)
    assert done.returncode == 3, done.stderr  # a puzzle timed out, as solve says it
    record = json.loads(done.stdout)
    assert record["timed_out"] and not record["solved"]
    assert record["seconds"] < 0.3  # the clock looked at as the clauses are built
