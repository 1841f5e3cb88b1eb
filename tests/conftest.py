from __future__ import annotations

import io
import os
import random
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import corpus

from solvers import Board, Shape, registry
from solvers.cli import main

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
# compare's default timeout (0.5 s) is wall-clock time, which a loaded machine can miss: a test
# that expects every puzzle answered gives the run room.
ROOM = ("--timeout", "30")
SIMULATED = os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")
# Backends that need a command a pip install does not bring; without it they are left out of
# the tests of every backend, and their own tests skip naming why (tests/test_minizinc.py).
TOOLCHAINS = {"minizinc": "minizinc"}
# Backends that need a device: without it (or on numba's simulator, which would take minutes
# for the tests of every backend) they are left out of those tests, and their own tests run
# them on the simulator (tests/test_gpu.py).
DEVICES = {"gpu": "/dev/nvidiactl"}
BACKENDS = [
    name
    for name in registry.names()
    if (name not in TOOLCHAINS or shutil.which(TOOLCHAINS[name]))
    and (name not in DEVICES or (os.path.exists(DEVICES[name]) and not SIMULATED))
]

BOJ2580_IN = """\
0 6 8 0 0 0 9 3 0
0 4 2 0 0 0 6 0 0
1 9 0 0 8 0 0 4 0
0 8 5 2 0 1 0 0 7
7 0 0 8 9 0 0 0 0
2 0 9 0 0 7 5 0 3
0 2 0 1 0 0 0 5 0
8 5 0 0 4 0 7 6 0
4 7 3 0 5 2 0 0 9
"""
BOJ2580_OUT = """\
5 6 8 7 2 4 9 3 1
3 4 2 5 1 9 6 7 8
1 9 7 3 8 6 2 4 5
6 8 5 2 3 1 4 9 7
7 3 4 8 9 5 1 2 6
2 1 9 4 6 7 5 8 3
9 2 6 1 7 8 3 5 4
8 5 1 9 4 3 7 6 2
4 7 3 6 5 2 8 1 9
"""
BOJ2239_IN = " ".join(
    [
        "103000509",
        "002109400",
        "000704000",
        "300502006",
        "060000050",
        "700803004",
        "000401000",
        "009205800",
        "804000107",
    ]
)
BOJ2239_OUT = " ".join(
    [
        "143628579",
        "572139468",
        "986754231",
        "391542786",
        "468917352",
        "725863914",
        "237481695",
        "619275843",
        "854396127",
    ]
)


@dataclass
class CliRun:
    code: int
    out: str
    err: str


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): a worker per core, at most four (each worker loads
    the engines afresh; on 2 cores, 4 workers were slower than 2). ``--dist loadfile`` keeps a
    file's tests on one worker, so a module's fixture (every README block run at once, a
    compare run, the engines' runners) is made once."""
    return min(4, os.cpu_count() or 1)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The native kernels compiled once, before any test and before pytest-xdist's workers
    start (in a worker, ``workerinput`` is set: the controller has done it): a command that
    meets them uncompiled says so on stderr, which the tests comparing output must not see.
    The notice itself is tested with a cache folder of its own (tests/test_output.py)."""
    if hasattr(session.config, "workerinput"):
        return
    _compile_bytecode()
    if registry.availability("native")[0]:
        from solvers.handwritten.native.cache import compile_kernels, compiled

        if compiled() is False:
            say = _say(session)
            say("compiling the native kernel with numba, once before the tests (about 90 s of CPU)")
            start = time.perf_counter()
            compile_kernels()
            say(f"native kernel compiled in {time.perf_counter() - start:.1f} s")


def _say(session: pytest.Session) -> Callable[[str], None]:
    """A line on the terminal now, past pytest's capture (its reporter's, where it has one)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        return lambda text: (reporter.write_line(text), reporter.flush())
    return lambda text: print(text, file=sys.__stderr__, flush=True)


def _compile_bytecode() -> None:
    """The project's modules compiled to bytecode once, before the workers start. The package
    is installed editable, so pip compiled none of it, and where PYTHONDONTWRITEBYTECODE is set
    (as on the machines the project is developed on) every ``sudoku`` process a test starts
    compiled all it imports again, a cost each (docs/startup.md) that adds up over the suite.
    Python reads bytecode that is there even where it writes none."""
    import compileall

    root = Path(__file__).resolve().parents[1]
    for folder in ("solvers", "adapters", "tests"):
        compileall.compile_dir(root / folder, quiet=2)


# The files whose tests take longest, handed out first (pyproject's --no-loadscope-reorder:
# pytest-xdist would otherwise hand out the files with the most tests first, and these few-test,
# long files came last, one worker running them alone while the other sat idle).
HEAVY_FIRST = (
    "test_readme.py",
    "test_crosscheck.py",
    "test_signals.py",
    "test_vocabulary.py",
    "test_output.py",
    "test_generate.py",
    "test_specs.py",
    "test_parallel.py",
    "test_compare.py",
    "test_failures.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture
def registered() -> Iterator[Callable[..., str]]:
    """``registered(name, "module:Class", **details)`` makes a backend of the tests' own for
    the test: every backend it registers is gone after the test, whatever happened."""
    names: list[str] = []

    def register(name: str, target: str, **details: str) -> str:
        registry.register(name, target, **details)
        names.append(name)
        return name

    yield register
    for name in names:
        registry.unregister(name)


@pytest.fixture
def crasher(registered):
    """A backend that segfaults or hangs, registered for the test as ``crasher``."""
    return registered("crasher", "crashing_backend:Crasher", summary="crashes on purpose")


@pytest.fixture
def unsure(registered):
    """A backend that wrongly says a board with an empty first cell has no solution."""
    return registered("unsure", "tiny_backend:Unsure", summary="unsure of empty corners")


@pytest.fixture(scope="session")
def compare_run(tmp_path_factory) -> tuple[CliRun, Path]:
    """One small ``sudoku compare`` run, shared by the tests that read its output, its JSON
    (the path returned; the plot beside it, ``run.png``) and the report made from it: two
    option sets of one backend side by side with a third backend, unique mode, one shuffled
    copy per puzzle, a baseline."""
    folder = tmp_path_factory.mktemp("compare")
    args = ["compare", "small4", "several9", "--limit", "4", "--shuffle", "1", "--seed", "1"]
    args += ["--backends", "propagate,sat:encoding=minimal,sat:encoding=extended"]
    args += ["--baseline", "sat:encoding=extended", "--json", str(folder / "run.json")]
    args += ["--plot", str(folder / "run.png"), *ROOM]
    out, err = io.StringIO(), io.StringIO()
    code = main(args, out, err)
    return CliRun(code, out.getvalue(), err.getvalue()), folder / "run.json"


@pytest.fixture
def cli(monkeypatch):
    """Run the sudoku command in-process: cli(args..., stdin=text) -> CliRun."""

    def run(*args: str, stdin: str = "") -> CliRun:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        out, err = io.StringIO(), io.StringIO()
        code = main(list(args), out, err)
        return CliRun(code, out.getvalue(), err.getvalue())

    return run


def as_lines(text: str) -> str:
    return "\n".join(text.split()) + "\n"


@pytest.fixture(scope="session")
def puzzles() -> dict[str, Board]:
    """The project's own corpus, built once per run from fixed seeds."""
    rng = random.Random(2580)
    s4, s6, s9, s16 = (Shape.parse(t) for t in ("2x2", "2x3", "3x3", "4x4"))
    hard9 = corpus.unique_puzzle(s9, rng)
    easy9 = corpus.unique_puzzle(s9, rng, keep=36)
    built = {
        "4x4": corpus.unique_puzzle(s4, rng),
        "6x6": corpus.unique_puzzle(s6, rng),
        "9x9-easy": easy9,
        "9x9-minimal": hard9,
        "16x16": corpus.unique_puzzle(s16, rng, keep=150),
        "16x16-minimal": corpus.unique_puzzle(s16, random.Random(16)),
        "several-9x9": corpus.several_solutions(easy9, rng),
        "several-4x4": Board(s4, (1, 0, 0, 0) + (0,) * 12),
        "no-solution-9x9": corpus.no_solution(easy9, rng),
        "no-solution-6x6": corpus.no_solution(corpus.unique_puzzle(s6, rng), rng),
        "empty-9x9": Board.empty(s9),
        "empty-6x6": Board.empty(s6),
        "full-9x9": corpus.complete_board(s9, rng),
    }
    full = list(built["full-9x9"].cells)
    full[40] = full[40] % 9 + 1
    built["full-9x9-one-wrong"] = Board(s9, tuple(full))
    full[40] = 0
    built["full-9x9-one-empty"] = Board(s9, tuple(full))  # one cell left, one value fits
    built["no-solution-4x4"] = corpus.no_solution(built["4x4"], rng)
    conflicting = list(easy9.cells)
    row0 = [v for v in conflicting[:9] if v]
    conflicting[conflicting[:9].index(0)] = row0[0]
    built["conflicting-givens"] = Board(s9, tuple(conflicting))
    return built
