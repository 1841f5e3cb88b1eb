"""sigh's Interactive Sudoku Solver's published puzzles for the tests that read them: from
``$ISS_PUZZLES``, else ``../shared/data/iss.txt`` (what ``python bench/iss.py`` writes), else
built at test time by ``bench/iss.py`` from GitHub at its fixed commit into pytest's cache. They
belong to their setters and to ISS, so they are never copied into the project; without any of
the three the tests that need them skip, saying so.

>>> def test_it(iss):               # the fixture (conftest.py): skips without the puzzles
...     board = iss("Killer sudoku [0 cage]")
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import SHARED_DATA

from solvers.formats.boards import read_puzzles
from solvers.model.board import Board

BENCH = Path(__file__).resolve().parents[1] / "bench" / "iss.py"


def located(cache: Path | None) -> Path | None:
    """The puzzles' file: the variable's, the shared folder's, or one built into ``cache``
    (None when none is there and GitHub cannot be reached)."""
    given = os.environ.get("ISS_PUZZLES")
    if given:
        return Path(given) if Path(given).is_file() else None
    shared = SHARED_DATA / "iss.txt"
    if shared.is_file():
        return shared
    if cache is None:
        return None
    built = cache / "iss.txt"
    if not built.is_file():  # each test worker writes its own, then puts it in place whole
        part = cache / f"iss.{os.getpid()}.part"
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [sys.executable, str(BENCH), "--out", str(part)],
                capture_output=True,
                timeout=60,
                check=False,
            )
            os.replace(part, built)
    return built if built.is_file() and built.stat().st_size else None


def reader(path: Path) -> Callable[[str], Board]:
    """The board of the puzzle named ``name`` in ``path`` (its ``#`` line ends ``: name``)."""
    lines = path.read_text(encoding="utf-8").splitlines()

    def board(name: str) -> Board:
        at = next(k for k, line in enumerate(lines) if line.endswith(f": {name}"))
        (puzzle,) = read_puzzles(io.StringIO("\n".join(lines[at : at + 2]) + "\n"))
        return puzzle.board

    return board


def fixture(request: pytest.FixtureRequest) -> Callable[[str], Board]:
    """The ``iss`` fixture's body: the reader, or the test skipped saying what is missing."""
    cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
    path = located(cache.mkdir("iss") if cache else None)
    if path is None:
        pytest.skip("ISS's puzzles: not in $ISS_PUZZLES or ../shared/data, GitHub unreachable")
    return reader(path)
