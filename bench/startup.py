"""Start-up, one-board and bulk figures, with the commands that give them.

    python bench/startup.py               # 7 runs of each command (about a minute here)
    python bench/startup.py --runs 3

Each command runs in a fresh process, as a user's would: with Python's bytecode cache and
numba's compiled kernels on disk, both made by an untimed first run (as bench/speed.py does,
PYTHONDONTWRITEBYTECODE is lifted for them). Runs are interleaved and medians reported, wall
and CPU (user + system): the machine is shared, and wall times vary with its load.

Then where the bulk path's start-up goes, timed inside one fresh process for each route: the
batch kernel built ahead of time (``native.aot``: NumPy alone) and numba's (importing numba,
the kernel modules, loading the cached kernel).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from speed import DATA, ENV, SUDOKU, timed

ROOT = Path(__file__).resolve().parents[1]
BOARD = "examples/boj2580.txt"
ONE_BOARD_TARGET_S = 0.3
BULK_TARGET = 100_000  # puzzles/s, end to end, on one core
# The bulk count runs pinned to one core, as its target says (NumPy's OpenBLAS threads would
# otherwise spin on a second one, which costs CPU there, not wall time: docs/startup.md).
ONE_CORE = (
    ["taskset", "-c", str(min(os.sched_getaffinity(0)))]
    if shutil.which("taskset") and hasattr(os, "sched_getaffinity")
    else []
)

STAGES = """
import time
start = time.perf_counter()
import numpy as np
numpy_at = time.perf_counter()
from solvers.backends.handwritten.native import aot
from solvers.backends.handwritten.native.tables import plan_for
from solvers.model.board import Board, Shape
modules_at = time.perf_counter()
plan, empty = plan_for(Board.empty(Shape(3, 3))), np.zeros((1, 81), np.uint8)
if ROUTE == "numba":
    import numba
    numba_at = time.perf_counter()
    from solvers.backends.handwritten.native.batch import solve_batch
    solve_batch(plan, empty, 2)
else:
    numba_at = time.perf_counter()
    assert aot.load() is not None, "not built ahead of time"
    aot.solve_batch(plan, empty, 2)
loaded_at = time.perf_counter()
print(numpy_at - start, modules_at - numpy_at, numba_at - modules_at, loaded_at - numba_at)
"""


def commands(folder: Path) -> dict[str, list[str]]:
    """The label shown (a user's command line) and the arguments run, in order."""
    one = folder / "one.txt"
    one.write_bytes((DATA / "sudoku17.txt").open("rb").readline())
    few = folder / "top95-first-50.txt"
    few.write_bytes(b"".join((DATA / "top95.txt").open("rb").readlines()[:50]))
    sudoku17, board = str(DATA / "sudoku17.txt"), str(ROOT / BOARD)
    shown = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "sudoku --help": [*SUDOKU, "--help"],
        f"sudoku solve {BOARD}": [*SUDOKU, "solve", board],
        f"sudoku solve {BOARD} --backend native": [*SUDOKU, "solve", board, "--backend", "native"],
        "sudoku solve top95-first-50.txt": [*SUDOKU, "solve", str(few)],
        "sudoku solve top95-first-50.txt --backend native": [
            *SUDOKU, "solve", str(few), "--backend", "native"
        ],
        "sudoku count one.txt --backend native": [
            *SUDOKU, "count", str(one), "--backend", "native"
        ],
        "sudoku count sudoku17.txt --backend native --limit 2": [
            *ONE_CORE, *SUDOKU, "count", sudoku17, "--backend", "native", "--limit", "2"
        ],
    }  # fmt: skip
    return shown


def measure(runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        shown = commands(Path(folder))
        for args in shown.values():  # untimed: the caches are made
            subprocess.run(args, capture_output=True, check=False, env=ENV)
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in shown}
        outputs = set()
        for _ in range(runs):
            for label, args in shown.items():
                wall, cpu, out = timed(args)
                times[label].append((wall, cpu))
                if label.startswith("sudoku count sudoku17"):
                    outputs.add(out)
    width = max(map(len, times)) + 2
    print(f"{'command (a fresh process each run)':{width}} wall s  CPU s   (medians)")
    for label, runs_of in times.items():
        wall, cpu = (statistics.median(run[k] for run in runs_of) for k in (0, 1))
        print(f"{label:{width}} {wall:6.3f}  {cpu:6.3f}{verdict(label, wall, cpu)}")
    (out,) = outputs  # the same bytes on every run
    counts = out.split()
    assert set(counts) == {b"1"}, "every puzzle of sudoku17 has one solution"
    print(f"   sudoku17: {len(counts):,} puzzles, every count 1, the same output on every run")
    bulk = times["sudoku count sudoku17.txt --backend native --limit 2"]
    wall, cpu = (statistics.median(run[k] for run in bulk) for k in (0, 1))
    print(
        f"   end to end: {len(counts) / wall:,.0f} puzzles/s wall, {len(counts) / cpu:,.0f} "
        f"puzzles/s CPU (target >= {BULK_TARGET:,}/s{' on one core' if ONE_CORE else ''}): "
        f"{'met' if len(counts) / wall >= BULK_TARGET else 'MISSED'}"
    )


def verdict(label: str, wall: float, cpu: float) -> str:
    if label == f"sudoku solve {BOARD}":
        met = "met" if wall <= ONE_BOARD_TARGET_S else "MISSED"
        return f"  (target <= {ONE_BOARD_TARGET_S} s wall): {met}"
    return ""


def stages(runs: int) -> None:
    """Inside one fresh process, each route of the bulk path: the kernel built ahead of time
    (NumPy alone) and numba's."""
    for route in ("aot", "numba"):
        found = []
        for _ in range(runs):
            done = subprocess.run(
                [sys.executable, "-c", f"ROUTE = {route!r}\n" + STAGES],
                capture_output=True, text=True, env=ENV, check=False,
            )  # fmt: skip
            if done.returncode != 0:
                print(f"{route}: {done.stderr.strip().splitlines()[-1]}")
                break
            found.append([float(x) for x in done.stdout.split()])
        else:
            numpy_s, modules_s, numba_s, load_s = (
                statistics.median(run[k] for run in found) for k in range(4)
            )
            numba = f"numba {numba_s:.3f} s, " if route == "numba" else ""
            print(
                f"{route} route inside one process (medians): import numpy {numpy_s:.3f} s, "
                f"aot and tables {modules_s:.3f} s, {numba}the kernel's load and first call "
                f"{load_s:.3f} s"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"no {DATA}: the public sets are needed", file=sys.stderr)
        return 2
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.runs} runs")
    measure(args.runs)
    stages(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
