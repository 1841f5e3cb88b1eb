"""MiniZinc's model of a killer cage and of the 45 rule's implied sum groups
(``minizinc:cages=``: a ``table`` of the fillings, or a sum beside an all-different), counted
against CP-SAT on killer boards made here; and the export as a user runs it, with no flag of
the backend's: its search annotation, its globals reaching Gecode's own propagators, and the
answer Gecode prints being the project's."""

from __future__ import annotations

import subprocess

import pytest
from own_models import count_alike, open_runners
from test_cage_models import BOARDS, LIMIT
from test_minizinc import first_puzzle

from adapters import mzn
from solvers.backends import registry

AVAILABLE, WHY = registry.availability("minizinc")
pytestmark = pytest.mark.skipif(not AVAILABLE, reason=WHY)


@pytest.mark.heavy  # two minizinc calls a board, 4 s in all under load
def test_minizincs_cage_models_count_every_killer_board_as_cpsat_does():
    assert "table_int(" in mzn.model(BOARDS[2]) and "table_int(" not in mzn.model(
        BOARDS[2], cages="sum"
    )
    with open_runners("cpsat", "minizinc", "minizinc:cages=sum") as runners:
        count_alike(runners, BOARDS, LIMIT)


def test_the_export_is_solved_by_gecode_as_written_with_its_search_and_globals(cli, tmp_path):
    text = first_puzzle("killer9")
    encoded = cli("encode", "--to", "minizinc", stdin=text)
    assert encoded.code == 0, encoded.err
    assert "int_search([cell[r, c] | r, c in 1..n], dom_w_deg, indomain_min)" in encoded.out
    path = tmp_path / "puzzle.mzn"
    path.write_text(encoded.out, encoding="utf-8")
    # the FlatZinc Gecode reads: the all-differents and the cages' tables as its own
    # propagators, not decomposed into pairwise disequalities and element constraints
    flat = tmp_path / "puzzle.fzn"
    compiled = subprocess.run(
        ["minizinc", "--solver", "gecode", "-c", "--fzn", str(flat), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert compiled.returncode == 0, compiled.stderr
    fzn = flat.read_text(encoding="utf-8")
    assert "all_different_int(" in fzn and "gecode_table_int(" in fzn
    assert "int_lin_ne(" not in fzn and "array_int_element(" not in fzn
    run = subprocess.run(
        ["minizinc", "--solver", "gecode", "-n", "2", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[1:] == ["----------", "=========="]  # one solution, and the search complete
    solved = cli("solve", "--format", "line", stdin=text)
    assert lines[0] == solved.out.strip()
