"""``pytest bench``'s closing summary reads as a table per dataset: its pairings fastest first,
their times in one unit (ms, or us where the fastest takes under a millisecond)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def bench_conftest():
    spec = importlib.util.spec_from_file_location("bench_conftest", ROOT / "bench" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up by name
    spec.loader.exec_module(module)
    return module


def test_the_summary_is_a_block_per_dataset_fastest_first_in_one_unit():
    bench = bench_conftest()
    timed = [
        bench.Timed("hard9", "dfs", 10, 0, None),  # skipped: untimed, last
        bench.Timed("hard9", "sat", 10, 0, 0.2),  # 20 ms a puzzle
        bench.Timed("easy9", "sat", 10, 0, 0.05),
        bench.Timed("hard9", "native", 10, 0, 0.004),  # 400 us: the fastest sets the unit
        bench.Timed("easy9", "native", 10, 0, 0.02),
    ]
    lines = bench.summary_lines(timed)
    blocks = [block.splitlines() for block in "\n".join(lines).split("\n\n")]
    assert [[line.split()[:2] for line in block] for block in blocks] == [
        [["dataset", "backend"], ["hard9", "native"], ["hard9", "sat"], ["hard9", "dfs"]],
        [["dataset", "backend"], ["easy9", "native"], ["easy9", "sat"]],
    ]
    assert "us per puzzle" in blocks[0][0] and "ms per puzzle" in blocks[1][0]
    assert [line.split()[3] for line in blocks[0][1:]] == ["400.0", "20,000.0", "-"]
    assert [line.split()[3] for line in blocks[1][1:]] == ["2.0", "5.0"]


@pytest.mark.slow
def test_pytest_bench_ends_with_that_summary(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "bench/test_solve.py", "-p", "no:cacheprovider",
         "--backend", "sat,propagate", "--dataset", "small4", "--dataset", "easy9",
         "--bench-limit", "3", "--bench-rounds", "1", "-q"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    summary = done.stdout.split("sudoku bench: per puzzle")[1].split("\n", 1)[1]
    blocks = [
        [line for line in b.splitlines() if line.split()[0] in ("dataset", "small4", "easy9")]
        for b in summary.split("\n\n")
        if b.strip().startswith("dataset")
    ]
    assert [block[1].split()[0] for block in blocks] == ["small4", "easy9"]
    for block in blocks:
        assert " per puzzle" in block[0] and len(block) == 3
        times = [float(line.split()[3].replace(",", "")) for line in block[1:]]
        assert times == sorted(times)
