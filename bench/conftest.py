"""Options and parametrization for ``pytest bench`` (pytest-benchmark).

    pytest bench                                   # every available backend x shipped sets
    pytest bench --backend native,pysat --dataset ../shared/data/top95.txt --bench-limit 95
    pytest bench --benchmark-disable --bench-limit 2   # the quick correctness pass CI runs

Each test is one backend on one dataset; a round solves the dataset's sample (the first
``--bench-limit`` puzzles), and the tests are grouped by dataset, so pytest-benchmark's own
table sets the backends side by side. pytest-benchmark's options (--benchmark-json,
--benchmark-autosave, --benchmark-compare, --benchmark-histogram, --benchmark-disable) work
as usual.
"""

from __future__ import annotations

import os

import pytest

from solvers import registry
from solvers.formats import Puzzle, read_puzzles
from solvers.spec import parse_list
from solvers.tools.datasets import open_named, shipped

DEFAULT_DATASETS = ["easy9", "hard9", "small4", "six6", "big16"]

# Pairings that cannot finish in reasonable time, skipped with the reason shown. Any file
# named with --dataset counts as hard: the public sets are.
HARD = {"hard9", "big16"}
TOO_SLOW = {
    "dfs": ("hard", "the row-major reference DFS takes seconds to minutes per hard puzzle"),
    "bitmask": ("hard", "the reference's search order takes seconds per hard puzzle"),
    "csp": ("big16", "python-constraint takes seconds to minutes on 16x16 puzzles"),
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sudoku bench")
    group.addoption(
        "--backend",
        action="append",
        default=[],
        metavar="SPEC",
        help="backend(s) to time, such as sat:encoding=minimal, repeatable or comma-separated "
        "(default: every available one)",
    )
    group.addoption(
        "--dataset",
        action="append",
        default=[],
        metavar="NAME|PATH",
        help="a shipped dataset or any puzzle file, repeatable (default: "
        f"{', '.join(DEFAULT_DATASETS)})",
    )
    group.addoption(
        "--bench-limit",
        type=int,
        default=20,
        metavar="N",
        help="puzzles per dataset in a round (default 20)",
    )
    group.addoption(
        "--puzzle-timeout",
        type=float,
        default=2.0,
        metavar="S",
        help="per puzzle, kept for every backend by its runner; a timeout is counted, never a "
        "hang (default 2)",
    )
    group.addoption(
        "--bench-rounds", type=int, default=5, metavar="R", help="rounds per benchmark (default 5)"
    )


def _split(values: list[str]) -> list[str]:
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def available() -> list[str]:
    """Every backend that can be used here (a newly registered one included)."""
    return [name for name in registry.names() if registry.availability(name)[0]]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    config = metafunc.config
    if "bulk_dataset" in metafunc.fixturenames:
        datasets = _split(config.getoption("dataset")) or DEFAULT_DATASETS
        labels = [os.path.basename(d).removesuffix(".txt") for d in datasets]
        metafunc.parametrize("bulk_dataset", datasets, ids=labels)
    if "pairing" not in metafunc.fixturenames:
        return
    named = ",".join(config.getoption("backend"))
    specs = parse_list(named) if named.strip() else None
    backends = [s.label for s in specs] if specs else available()
    datasets = _split(config.getoption("dataset")) or DEFAULT_DATASETS
    params = []
    for dataset in datasets:
        label = os.path.basename(dataset).removesuffix(".txt")
        for backend in backends:
            marks = []
            slow = TOO_SLOW.get(backend.partition(":")[0])
            hard = dataset in HARD or shipped(dataset) is None
            if slow and (slow[0] == dataset or (slow[0] == "hard" and hard)):
                marks.append(pytest.mark.skip(reason=f"{backend} on {label}: {slow[1]}"))
            params.append(pytest.param((dataset, backend), id=f"{label}-{backend}", marks=marks))
    metafunc.parametrize("pairing", params)


_cache: dict[tuple[str, int], list] = {}


def load_boards(dataset: str, limit: int) -> list:
    """The dataset's first ``limit`` boards, parsed once (parsing is never timed)."""
    if (dataset, limit) not in _cache:
        with open_named(dataset) as handle:
            boards = []
            for item in read_puzzles(handle):
                if isinstance(item, Puzzle):
                    boards.append(item.board)
                if len(boards) >= limit:
                    break
        _cache[(dataset, limit)] = boards
    return _cache[(dataset, limit)]
