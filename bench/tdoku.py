"""native against tdoku, the fastest known solver, in one run: the ratios its targets set.

    python bench/tdoku.py --tdoku /tmp/tdoku     # a tdoku checkout built with its BUILD.sh
    python bench/tdoku.py                        # tdoku's published figures, marked as such

tdoku (https://github.com/t-dillon/tdoku) is built apart from the project and never part of
it: ``./BUILD.sh tdoku_shared run_benchmark`` (cmake and a C++ compiler) leaves
``build/libtdoku_shared.so``, called here through ctypes, and ``build/run_benchmark``, its own
benchmark program, run on the same files as a cross-check in pure C.

Rounds alternate tdoku and native in this one process, and each figure is the median of the
rounds, CPU time (what the process got of a core) beside wall time (which a shared machine
inflates). Two modes on both sides, as ``sudoku compare`` times them: the first solution (a
solve, limit 1) and unique (a solution and the proof that there is no second: a count up to 2).

1. Per top95 puzzle, in each mode: native as ``sudoku compare`` times it (the runner's
   attempt around the backend's call, in process) against tdoku's call through ctypes, timed
   the same way; and native's search alone (``Solver.search``), to tell the kernel's call
   from what is around it.
2. Bulk, ``sudoku17.txt``: ``sudoku count ... --backend native --limit 2`` end to end (a fresh
   process pinned to one core) and the kernel alone (``solve_many`` on the parsed array),
   against tdoku's puzzles/s on the same puzzles (a ctypes loop, and ``run_benchmark``).

Targets: native's median per top95 puzzle at most 1.0 x tdoku's mean for the first solution
and 1.2 x for unique; bulk sudoku17 end to end at least 0.5 x tdoku's rate.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from speed import DATA, SUDOKU, timed
from startup import ONE_CORE

# ../shared/data/README.md, "measured on this kind of machine": not a measurement of this run
PUBLISHED_S = {"top95.txt": 14.5e-6, "sudoku17.txt": 4.8e-6}
# native's median / tdoku's mean, at most, by the count asked for (1: first solution, 2: unique)
PER_PUZZLE_TARGET = {1: 1.0, 2: 1.2}
MODES = {1: "first solution", 2: "unique"}
BULK_TARGET = 0.5  # native's end-to-end rate / tdoku's, at least


def puzzle_lines(path: Path) -> list[bytes]:
    """The 81-character puzzles of a line file, empty cells as '.' (tdoku reads no '0')."""
    lines = path.read_bytes().split()
    return [line.replace(b"0", b".") for line in lines if len(line) == 81]


class Tdoku:
    """tdoku's library and benchmark program in a built checkout."""

    def __init__(self, checkout: Path) -> None:
        build = checkout / "build"
        library = ctypes.CDLL(str(build / "libtdoku_shared.so"))
        self.solve = library.TdokuSolverDpllTriadSimd
        self.solve.restype = ctypes.c_size_t
        self.solve.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_uint32,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_size_t),
        ]
        self.program = build / "run_benchmark"
        self._solution = ctypes.create_string_buffer(81)
        self._guesses = ctypes.c_size_t()

    def count(self, puzzle: bytes) -> int:
        return self.solve(puzzle, 2, 0, self._solution, ctypes.byref(self._guesses))

    def each(self, puzzles: list[bytes], limit: int) -> list[tuple[float, float]]:
        """(wall, CPU) seconds of each puzzle's count up to ``limit``, each timed alone."""
        times = []
        solve, solution, guesses = self.solve, self._solution, ctypes.byref(self._guesses)
        for puzzle in puzzles:
            start, cpu = time.perf_counter(), time.process_time()
            found = solve(puzzle, limit, 0, solution, guesses)
            times.append((time.perf_counter() - start, time.process_time() - cpu))
            assert found == 1, "every puzzle of the public sets is unique"
        return times

    def bulk(self, puzzles: list[bytes]) -> tuple[float, float]:
        """(wall, CPU) seconds of one loop counting every puzzle up to 2."""
        solve, solution, guesses = self.solve, self._solution, ctypes.byref(self._guesses)
        start, cpu = time.perf_counter(), time.process_time()
        for puzzle in puzzles:
            solve(puzzle, 2, 0, solution, guesses)
        return time.perf_counter() - start, time.process_time() - cpu

    def program_rate(self, puzzles: list[bytes], seconds: int) -> float:
        """run_benchmark's own puzzles/s (wall) on the puzzles, in their order, count to 2."""
        args = [str(self.program), "-c", "1", "-r", "0", "-n", str(len(puzzles)), "-w", "1"]
        with tempfile.NamedTemporaryFile(suffix=".txt") as file:  # '.' for empty: no '0'
            file.write(b"\n".join(puzzles) + b"\n")
            file.flush()
            done = subprocess.run(
                [*args, "-t", str(seconds), "-s", "tdoku", file.name],
                capture_output=True,
                check=True,
                text=True,
            )
        # GNU,12.2.0, -O3 -march=native,FILE,tdoku,puzzles/s,us/puzzle,%no_guess,guesses/puzzle
        return float(done.stdout.strip().splitlines()[-1].split(",")[-4])


def native_each(runner, boards, limit: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each board's count up to ``limit`` (1: a solve), as ``sudoku
    compare`` times it."""
    from solvers.backends.contract import Operation

    operation = Operation.SOLVE if limit == 1 else Operation.COUNT
    found = runner.attempt_each(boards, 2.0, operation, limit)
    assert all(a.error is None and a.found.count == 1 for a in found), "native answers"
    return [(a.seconds, a.cpu_seconds) for a in found]


def search_each(boards, limit: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each board's count up to ``limit`` by native's search alone
    (``Solver.search``: the compiled kernel's call, no backend or runner around it)."""
    from solvers.backends.handwritten.native.solver import Solver
    from solvers.backends.handwritten.native.tables import plan_for

    solver, times = Solver(), []
    calls = [(plan_for(board), bytes(board.cells)) for board in boards]
    for plan, cells in calls:
        start, cpu = time.perf_counter(), time.process_time()
        found, _, _ = solver.search(plan, cells, limit, None)
        times.append((time.perf_counter() - start, time.process_time() - cpu))
        assert found == 1, "every puzzle of the public sets is unique"
    return times


def per_puzzle(tdoku: Tdoku, rounds: int) -> None:
    from solvers.formats.boards import parse
    from solvers.model.board import Board
    from solvers.run.runner import Runner

    lines = puzzle_lines(DATA / "top95.txt")
    boards = [parse(line.decode()) for line in lines]
    with Runner("native", isolate=False) as runner:
        runner.warm_up(boards[0].shape)
        judged = runner.count_each(boards, 2, 2.0)  # the judge's word, once, untimed
        assert all(a.count == 1 and isinstance(a.solution, Board) for a in judged)
        for limit in MODES:
            tdoku.each(lines, limit)  # warm
            search_each(boards, limit)
            tdoku_rounds, native_rounds, search_rounds = [], [], []
            for _ in range(rounds):
                tdoku_rounds.append(tdoku.each(lines, limit))
                native_rounds.append(native_each(runner, boards, limit))
                search_rounds.append(search_each(boards, limit))
            report(limit, len(lines), tdoku_rounds, native_rounds, search_rounds)
    rate = tdoku.program_rate(lines, 2)
    print(f"   tdoku's run_benchmark (C, wall, unique): {1e6 / rate:.1f} us per puzzle")


def report(limit: int, count: int, tdoku_rounds, native_rounds, search_rounds) -> None:
    """The medians of one mode's rounds, per puzzle, and the verdict (CPU)."""
    mode = MODES[limit]
    print(f"1. top95.txt ({count} puzzles), {mode} (count to {limit}), {len(tdoku_rounds)} rounds:")
    ratios = {}
    for clock, k in (("CPU", 1), ("wall", 0)):
        t_each = [statistics.median(r[i][k] for r in tdoku_rounds) for i in range(count)]
        n_each = [statistics.median(r[i][k] for r in native_rounds) for i in range(count)]
        s_each = [statistics.median(r[i][k] for r in search_rounds) for i in range(count)]
        t_mean, t_median = statistics.fmean(t_each), statistics.median(t_each)
        n_mean, n_median = statistics.fmean(n_each), statistics.median(n_each)
        ratios[clock] = n_median / t_mean
        print(
            f"   {clock:4}: tdoku mean {t_mean * 1e6:5.1f} us, median {t_median * 1e6:5.1f} us;"
            f" native median {n_median * 1e6:5.1f} us, mean {n_mean * 1e6:5.1f} us;"
            f" native median / tdoku mean {ratios[clock]:.2f}"
        )
        s_median = statistics.median(s_each)
        print(
            f"         native's search alone (Solver.search) median {s_median * 1e6:5.1f} us;"
            f" the medians' difference, the backend and runner around it: "
            f"{(n_median - s_median) * 1e6:4.1f} us"
        )
    target = PER_PUZZLE_TARGET[limit]
    met = ratios["CPU"] <= target
    print(f"   target, {mode}: at most {target} x (CPU): {'met' if met else 'NOT met'}")


def bulk(tdoku: Tdoku, rounds: int) -> None:
    import numpy as np

    from solvers import solve_many

    path = DATA / "sudoku17.txt"
    lines = puzzle_lines(path)
    total = len(lines)
    grid = np.frombuffer(b"".join(lines), np.uint8).reshape(total, 81)
    puzzles = np.where(grid == ord("."), 0, grid - ord("0")).astype(np.uint8)
    command = [*ONE_CORE, *SUDOKU, "count", str(path), "--backend", "native", "--limit", "2"]
    timed(command)  # caches made
    solve_many(puzzles[:100], limit=2)  # the kernel loaded
    runs: dict[str, list[tuple[float, float]]] = {"tdoku": [], "end": [], "kernel": []}
    for _ in range(rounds):
        runs["tdoku"].append(tdoku.bulk(lines))
        wall, cpu, out = timed(command)
        assert out.split() == [b"1"] * total, "every sudoku17 puzzle is unique"
        runs["end"].append((wall, cpu))
        start, cpu = time.perf_counter(), time.process_time()
        found = solve_many(puzzles, limit=2)
        runs["kernel"].append((time.perf_counter() - start, time.process_time() - cpu))
        assert (found.counts == 1).all() and (found.flags == 0).all()
    program = tdoku.program_rate(lines, 3)
    print(f"2. sudoku17.txt ({total:,} puzzles), count to 2, {rounds} alternating rounds:")
    shown = " ".join(["sudoku", *command[len(ONE_CORE) + len(SUDOKU) :]])
    print(f"   native end to end: {shown} (a fresh process on one core)")
    rate = {}
    for name, label in (
        ("tdoku", "tdoku, ctypes loop"),
        ("end", "native end to end"),
        ("kernel", "native solve_many"),
    ):
        wall, cpu = (statistics.median(run[k] for run in runs[name]) for k in (0, 1))
        rate[name] = total / cpu
        print(
            f"   {label:19}: CPU {cpu:.2f} s = {total / cpu:9,.0f}/s;"
            f" wall {wall:.2f} s = {total / wall:9,.0f}/s"
        )
    print(f"   tdoku's run_benchmark (C, wall): {program:,.0f}/s")
    end, kernel = rate["end"] / rate["tdoku"], rate["kernel"] / rate["tdoku"]
    print(f"   ratios to tdoku (CPU): end to end {end:.2f}, kernel alone {kernel:.2f}")
    verdict = "met" if end >= BULK_TARGET else "NOT met"
    print(f"   target: end to end at least {BULK_TARGET} x (CPU): {verdict}")


def published() -> None:
    print("no --tdoku: tdoku's PUBLISHED figures (../shared/data/README.md), not measured here:")
    for name, seconds in PUBLISHED_S.items():
        print(f"   {name}: {seconds * 1e6:.1f} us per puzzle = {1 / seconds:,.0f} puzzles/s")
    print("   build tdoku from its public source and pass --tdoku for the ratios in one run")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tdoku", type=Path, help="a tdoku checkout, built (build/)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip", action="append", default=[], choices=["top95", "bulk"])
    args = parser.parse_args()
    if args.tdoku is None:
        published()
        return 0
    if not DATA.is_dir():
        print(f"no {DATA}: the public sets are needed; nothing measured")
        return 0
    tdoku = Tdoku(args.tdoku)
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")
    if "top95" not in args.skip:
        per_puzzle(tdoku, args.rounds)
    if "bulk" not in args.skip:
        bulk(tdoku, args.rounds)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
