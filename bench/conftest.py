"""Options, parametrization and the per-puzzle summary for ``pytest bench`` (pytest-benchmark).

    pytest bench                                   # every available backend x shipped sets
    pytest bench --backend native,sat:encoding=minimal --dataset ../shared/data/top95.txt
    pytest bench --benchmark-disable --bench-limit 2   # the quick correctness pass CI runs

Each test is one backend spec on one dataset; a round answers the dataset's sample (the first
``--bench-limit`` puzzles) in ``--bench-mode`` (unique: count up to two solutions, as tdoku
and ``sudoku compare`` do; first: stop at the first), and the tests are grouped by dataset, so
pytest-benchmark's own table sets the backends side by side. Its table times whole rounds;
after it, a summary gives each pairing per puzzle (a block per dataset, fastest first, its
times in one unit, ms or us, and puzzles per second) with its timeouts. pytest-benchmark's
options (--benchmark-json, --benchmark-autosave, --benchmark-compare, --benchmark-histogram,
--benchmark-disable, --benchmark-columns) work as usual.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest

from solvers.backends import registry
from solvers.backends.spec import parse_list
from solvers.formats.boards import Puzzle, read_puzzles
from solvers.formats.datasets import open_named, shipped


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """No pytest-xdist workers for benchmarks (pyproject's addopts ask ``-n auto`` for the
    tests): a timing must not share the machine with other tests."""
    return 0


DEFAULT_DATASETS = ["easy9", "hard9", "small4", "six6", "big16"]
# pytest-benchmark's columns unless --benchmark-columns says otherwise: its full set is over
# 200 characters wide, and a round's mean and deviation say little a median and IQR do not.
COLUMNS = ["min", "median", "max", "iqr", "rounds"]

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
    group.addoption(
        "--bench-mode",
        choices=("unique", "first"),
        default="unique",
        help="unique (default): find a solution and prove there is no second, as sudoku "
        "compare does; first: stop at the first solution",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "benchmark_columns", "") is None:
        config.option.benchmark_columns = COLUMNS


@dataclass(frozen=True)
class Timed:
    """One pairing's result, for the summary: its median round (None when not timed)."""

    dataset: str
    backend: str
    puzzles: int
    timeouts: int
    median_round_s: float | None


RESULTS: list[Timed] = []
# Every finished pairing's words on each puzzle, by (dataset, puzzle index): each pairing is
# judged against the ones before it on the same puzzles (``judge.disagreements``).
WORDS: dict[tuple[str, int], list] = {}


@pytest.hookimpl(trylast=True)  # after pytest-benchmark's tables
def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if not RESULTS:
        return
    mode, timeout = config.getoption("bench_mode"), config.getoption("puzzle_timeout")
    write = terminalreporter.write_line
    terminalreporter.section(f"sudoku bench: per puzzle, mode {mode}, timeout {timeout:g} s")
    for line in summary_lines(RESULTS):
        write(line)
    for done in RESULTS:
        if done.timeouts:
            write(
                f"warning: {done.backend} on {done.dataset}: {done.timeouts} of {done.puzzles} "
                f"puzzles timed out, each after {timeout:g} s (counted so in its times)"
            )


# a dataset's times in the one unit that suits its fastest pairing (the rest in the same)
UNITS = ((1e-3, "ms", 1e3), (0.0, "us", 1e6))


def summary_lines(results: list[Timed]) -> list[str]:
    """The summary's lines: a block per dataset in the order first timed, each with a header
    in one unit for all its pairings (ms, or us where the fastest takes under a millisecond),
    fastest first, the untimed (skipped, failed) last."""
    datasets = list(dict.fromkeys(done.dataset for done in results))
    lines: list[str] = []
    for dataset in datasets:
        group = [done for done in results if done.dataset == dataset]
        per = {id(done): _per_puzzle(done) for done in group}
        timed = [t for t in per.values() if t is not None]
        _, unit, scale = next(u for u in UNITS if min(timed, default=1.0) >= u[0])
        group.sort(key=lambda done: (per[id(done)] is None, per[id(done)] or 0.0))
        rows = [("dataset", "backend", "puzzles", f"{unit} per puzzle", "puzzles/s", "timeouts")]
        for done in group:
            each = per[id(done)]
            rows.append(
                (
                    os.path.basename(dataset),
                    done.backend,
                    str(done.puzzles),
                    "-" if each is None else f"{scale * each:,.1f}",
                    "-" if not each else f"{1 / each:,.0f}",
                    str(done.timeouts),
                )
            )
        if lines:
            lines.append("")
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines += [
            "  ".join(
                c.ljust(w) if i < 2 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
            for row in rows
        ]
    return lines


def _per_puzzle(done: Timed) -> float | None:
    if done.median_round_s is None or not done.puzzles:
        return None
    return done.median_round_s / done.puzzles


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
