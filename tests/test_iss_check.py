"""bench/iss.py --check: an answer that differs from ISS's published solution is counted to 2
before it is called a difference, so a puzzle with two solutions is said to be not unique."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

# a 4x4 grid made here; r1c1 r1c2 r3c1 r3c2 (1 2 / 2 1) swap into a second solution
GRID = ["1234", "3412", "2143", "4321"]
SWAPPED = ["2134", "3412", "1243", "4321"]
RECTANGLE = {(0, 0), (0, 1), (2, 0), (2, 1)}


def _bench_iss():
    path = Path(__file__).resolve().parents[1] / "bench" / "iss.py"
    spec = importlib.util.spec_from_file_location("bench_iss_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _input(blank: set[tuple[int, int]]) -> str:
    givens = (
        f"R{r + 1}C{c + 1}_{GRID[r][c]}" for r in range(4) for c in range(4) if (r, c) not in blank
    )
    return ".Shape~4x4.~" + "~".join(givens)


def _check(tmp_path, name: str, given: str, published: list[str], spec: str):
    (tmp_path / "data").mkdir()
    entry = f"{{\n  name: '{name}',\n  input: '{given}',\n  solution: '{''.join(published)}',\n}},"
    (tmp_path / "data" / "example_puzzles.js").write_text(f"const P = [\n{entry}\n];\n")
    (tmp_path / "data" / "collections.js").write_text("const C = [];\n")
    out = tmp_path / "iss.txt"
    return _bench_iss().main(["--from", str(tmp_path), "--out", str(out), "--check", spec])


@pytest.mark.parametrize("spec", ["dfs", "cpsat"])
def test_a_puzzle_with_two_solutions_answered_with_the_other_is_not_unique_not_different(
    tmp_path, capsys, spec
):
    # dfs tries 1 first in r1c1 (GRID's solution); whichever one the engine answers, the
    # published one is made the other, so the answer differs and the count must be asked
    from solvers import count_solutions, solve
    from solvers.formats import sigh

    given = _input(RECTANGLE)
    board = sigh.read(given)
    assert count_solutions(board, 3, backend="cpsat") == 2
    got = solve(board, backend=spec).solution.cells[0]
    published = SWAPPED if got == 1 else GRID
    code = _check(tmp_path, "two ways", given, published, spec)
    said = capsys.readouterr().out
    assert code == 0
    assert "not unique (2 solutions) two ways" in said and "DIFFERENT" not in said
    assert "1 not unique, 0 differ from the published solution" in said


def test_a_unique_puzzle_answered_otherwise_than_published_is_still_different(tmp_path, capsys):
    # r1c1 given: one solution (GRID); the published SWAPPED is not it, and the check says so
    given = _input(RECTANGLE - {(0, 0)})
    code = _check(tmp_path, "one way", given, SWAPPED, "cpsat")
    said = capsys.readouterr().out
    assert code == 1
    assert "DIFFERENT one way" in said and "not unique (2" not in said
    assert "0 not unique, 1 differ from the published solution" in said


def test_a_puzzle_answered_as_published_agrees_without_a_count(tmp_path, capsys):
    given = _input(RECTANGLE - {(0, 0)})
    code = _check(tmp_path, "as published", given, GRID, "cpsat")
    said = capsys.readouterr().out
    assert code == 0 and "1 agree or are unanswered, 0 not unique, 0 differ" in said
