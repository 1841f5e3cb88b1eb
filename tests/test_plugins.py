"""An outside package adds a backend through the ``sudoku_solvers.backends`` entry-point group,
with no edit here: the example of CONTRIBUTING.md (tests/plugin_example) is installed for real
by pip beside the project, and the commands are run as a user runs them. Its backend declares
no variant and undercounts on purpose: the judge must catch it everywhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOM

from solvers.tools.datasets import DATASETS

EXAMPLE = Path(__file__).parent / "plugin_example"
SEVERAL = "".join(line + "\n" for line in DATASETS["several9"].puzzles()[:3])
KILLER = Path("examples/killer.txt").read_text(encoding="utf-8")
STDIN = {"check": SEVERAL, "solve killer": KILLER}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder where pip installed the example package (a copy: a build writes beside it)."""
    where = tmp_path_factory.mktemp("plugin")
    source = shutil.copytree(EXAMPLE, where / "source")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    target = ["--no-build-isolation", "--target", str(where / "site"), str(source)]
    subprocess.run([*pip, *target], check=True, capture_output=True)
    return where / "site"


def sudoku(site: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """The installed ``sudoku`` command with the example package importable, as it would be
    after ``pip install`` into the same environment."""
    env = dict(os.environ, PYTHONPATH=str(site))
    command = [sys.executable, "-m", "solvers", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, env=env)


def test_an_installed_package_adds_a_backend_that_works_everywhere(site):
    calls = {
        "backends": ("backends",),
        "compare": ("compare", "several9", "--limit", "3", "--backends", "undercount,cpsat", *ROOM),
        "check": ("check", "-", "--backends", "undercount,cpsat"),
        "solve killer": ("solve", "-", "--backend", "undercount"),
        "compare killer": (
            "compare",
            "killer9",
            "--limit",
            "2",
            "--backends",
            "undercount,cpsat",
            *ROOM,
        ),
    }
    with ThreadPoolExecutor(len(calls)) as pool:
        runs = {
            name: pool.submit(sudoku, site, *args, stdin=STDIN.get(name, ""))
            for name, args in calls.items()
        }
        done = {name: future.result() for name, future in runs.items()}

    lines = done["backends"].stdout.splitlines()
    listed = [line for line in lines if line.startswith("undercount")]
    assert listed and "sudoku-undercount 0.1.0" in listed[0] and "available" in listed[0]

    compare = done["compare"]
    assert compare.returncode == 4, compare.stdout + compare.stderr
    assert "counts: undercount 1, cpsat 2+" in compare.stdout

    check = done["check"]
    assert check.returncode == 4, check.stdout + check.stderr
    assert "counts: undercount 1, cpsat 2+" in check.stdout

    solve = done["solve killer"]
    assert solve.returncode == 2
    assert solve.stderr.strip().endswith("undercount does not support killercage")

    left_out = done["compare killer"]
    assert left_out.returncode == 0, left_out.stdout + left_out.stderr
    assert "undercount left out: it does not support killercage" in left_out.stdout
