"""The classic speed targets, measured the way they are stated, with the verdicts.

    python bench/speed.py                # every target, 5 runs each (a few minutes here)
    python bench/speed.py --runs 3 --skip compare

1. ``native`` median per puzzle on top95 in ``sudoku compare`` (timed inside a worker around
   the backend call) at most 2 x tdoku's 14.5 us. tdoku is not installed here: its figure is
   the one in ../shared/data/README.md, taken on this kind of machine (bench/tdoku.py measures
   against a tdoku built from its source, in one run).
2. ``sudoku count ../shared/data/sudoku17.txt --backend native --limit 2`` at least 50,000
   puzzles/s on one core, reading and writing included: a fresh process each run, its CPU time
   (user + system, what one core gives it) and its wall time, and the start-up alone (the same
   command on a one-puzzle file).
3. ``--jobs``: sudoku17 and sudoku17 ten times over, with 1, 2, 4, ... jobs up to the cores
   there are (16 at most), each output checked against one job's. The targets, for 16
   jobs on 16 cores on the ten-times file: at least 1,000,000 puzzles/s and 10 x one job
   (elsewhere the figures are printed without a verdict).

Runs are interleaved and medians reported: the machine is shared, wall times vary with the
load, CPU times less. The commands run as a user's would: with Python's bytecode cache (this
machine sets PYTHONDONTWRITEBYTECODE, which makes every fresh process compile the project's
modules again (docs/startup.md); it is lifted for them) and numba's compiled kernel on disk,
both made by an untimed first run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the public sets: ../shared/data beside the checkout, or the folder SUDOKU_DATA names
DATA = Path(
    os.environ.get("SUDOKU_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data"
)
TDOKU_TOP95_S = 14.5e-6  # ../shared/data/README.md
SUDOKU = [sys.executable, "-m", "solvers"]


ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def timed(args: list[str], output: Path | None = None) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of the process and its children, its standard output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, check=True, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if output is not None:
        output.write_bytes(done.stdout)
    return wall, cpu, done.stdout


def compare_target(runs: int) -> None:
    medians = []
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "compare.json"
        for _ in range(runs):
            command = ["compare", str(DATA / "top95.txt"), "--backends", "native"]
            timed([*SUDOKU, *command, "--timeout", "2", "--json", str(report)])
            result = json.loads(report.read_text())["datasets"][0]["summary"][0]
            medians.append(result["median_s"])
    median = statistics.median(medians)
    print("1. sudoku compare ../shared/data/top95.txt --backends native: median per puzzle")
    print("   runs: " + ", ".join(f"{m * 1e6:.1f} us" for m in medians))
    verdict = "met" if median <= 2 * TDOKU_TOP95_S else "MISSED"
    print(
        f"   median {median * 1e6:.1f} us = {median / TDOKU_TOP95_S:.2f} x tdoku's "
        f"{TDOKU_TOP95_S * 1e6:.1f} us (target <= 2 x): {verdict}"
    )


def count_target(runs: int) -> None:
    puzzles = DATA / "sudoku17.txt"
    total = sum(1 for _ in puzzles.open("rb"))
    args = [*SUDOKU, "count", str(puzzles), "--backend", "native", "--limit", "2"]
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "one.txt"
        one.write_bytes(puzzles.open("rb").readline())
        full, startup = [], []
        for _ in range(runs):
            full.append(timed(args))
            startup.append(timed([*args[:4], str(one), *args[5:]]))
    counts = full[-1][2].split()
    assert len(counts) == total and set(counts) == {b"1"}, "every puzzle is unique"
    wall, cpu = (statistics.median(run[k] for run in full) for k in (0, 1))
    start_wall, start_cpu = (statistics.median(run[k] for run in startup) for k in (0, 1))
    print(f"2. {' '.join(['sudoku', *args[3:]])}: {total:,} puzzles, a fresh process each run")
    print("   CPU s: " + ", ".join(f"{run[1]:.2f}" for run in full))
    print("   wall s: " + ", ".join(f"{run[0]:.2f}" for run in full))
    print(
        f"   median CPU {cpu:.2f} s = {total / cpu:,.0f} puzzles/s (target >= 50,000): "
        f"{'met' if total / cpu >= 50_000 else 'MISSED'}"
    )
    print(f"   median wall {wall:.2f} s = {total / wall:,.0f} puzzles/s (a shared machine)")
    print(
        f"   of which start-up (the same command on one puzzle): CPU {start_cpu:.2f} s, "
        f"wall {start_wall:.2f} s; without it {total / (cpu - start_cpu):,.0f} puzzles/s CPU"
    )


def jobs_target(runs: int) -> None:
    cores = os.cpu_count() or 1
    counts = [n for n in (1, 2, 4, 8, 16) if n <= cores]
    lines = (DATA / "sudoku17.txt").read_bytes()
    with tempfile.TemporaryDirectory() as folder:
        for copies in (1, 10):  # and a file ten times as long, where start-up matters less
            path = Path(folder) / f"sudoku17x{copies}.txt"
            path.write_bytes(lines * copies)
            _jobs_on(path, counts, cores, runs, verdict=copies == 10)


def _jobs_on(path: Path, counts: list[int], cores: int, runs: int, verdict: bool) -> None:
    args = [*SUDOKU, "count", str(path), "--backend", "native", "--limit", "2"]
    walls: dict[int, list[float]] = {n: [] for n in counts}
    serial = timed(args)[2]
    for _ in range(runs):
        for n in walls:
            wall, _cpu, out = timed([*args, "--jobs", str(n)])
            assert out == serial, "--jobs changes the output"
            walls[n].append(wall)
    total = len(serial.split())
    print(f"3. {path.name} ({total:,} puzzles) on {cores} cores, wall time:")
    one = statistics.median(walls[1])
    for n, times in walls.items():
        wall = statistics.median(times)
        shown = ", ".join(f"{w:.2f}" for w in times)
        print(
            f"   --jobs {n:2}: {shown}; median {wall:.2f} s = {total / wall:9,.0f}/s,"
            f" {one / wall:4.1f} x one job"
        )
    print("   outputs identical to --jobs 1")
    if verdict and 16 in walls:
        rate, speedup = total / statistics.median(walls[16]), one / statistics.median(walls[16])
        met = rate >= 1_000_000 and speedup >= 10
        print(
            f"   target (16 jobs: >= 1,000,000/s and >= 10 x one job): {'met' if met else 'MISSED'}"
        )
    elif verdict:
        print("   target (>= 1,000,000/s and 10 x one job with --jobs 16): needs 16 cores")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip", action="append", default=[], choices=["compare", "count", "jobs"])
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"no {DATA}: the public sets are needed", file=sys.stderr)
        return 2
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.runs} runs")
    timed([*SUDOKU, "count", str(DATA / "top95.txt"), "--backend", "native"])  # caches made
    targets = {"compare": compare_target, "count": count_target, "jobs": jobs_target}
    for name, target in targets.items():
        if name not in args.skip:
            target(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
