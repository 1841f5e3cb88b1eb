"""The ``gpu`` backend's throughput: puzzles per second against batch size, sudoku17 x 100.

    python bench/gpu.py --batch 1000,10000,100000     # the figure, on a machine with a GPU
    python bench/gpu.py --limit 2                     # a count to 2 (uniqueness) instead

The 49,151 puzzles of ``sudoku17.txt`` (../shared/data, or $SUDOKU_DATA; skipped with a line
when absent), repeated ``--repeat`` times (100: 4.9 million puzzles), are solved in batches of
each size: one ``search_many`` call a batch (the backend contract's batch search), which
copies the puzzles to the device, launches the kernel until every search has ended, copies the
answers back; every solution is then verified on the host (``bulk.verified``, which flags a
failing one WRONG, as ``solve_many`` does; on a thread per core). ``--overlap`` verifies each
batch on a thread of its own while the next one is searched.
For each size the table gives puzzles per second end to end (the wall time from the first
batch's copy to the last batch's verification, the repeated puzzles already in memory) and
the kernel's alone, and the seconds of each step apart (``Gpu.timings``, summed over the
batches). Every answer is also compared with native's (``solve_many``, on the CPU) unless
``--no-native``; ``--native FILE.npz`` keeps native's answers in a file, read back when it
holds these very puzzles, so that a machine lent for its GPU need not compile native's kernel.

Where no GPU is found it says so and exits with status 0, measuring nothing. numba's simulator
(NUMBA_ENABLE_CUDASIM=1) runs it too, a thousand times slower: ``--puzzles 20 --repeat 1
--batch 10`` checks the script in seconds; its figures are the simulator's, not a GPU's.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from speed import DATA

from solvers import Board, Shape, solve_many
from solvers.backends import registry
from solvers.backends.batch import Flag
from solvers.base.deadline import Deadline
from solvers.run.bulk import verified


def puzzles_of(path: Path, first: int | None) -> np.ndarray:
    """The 81-character lines of ``path`` as a (P, 81) uint8 array of values (0 empty)."""
    lines = [line for line in path.read_bytes().split() if len(line) == 81][:first]
    values = np.frombuffer(b"".join(lines), np.uint8).reshape(-1, 81) - ord("0")
    return np.where(values > 9, 0, values).astype(np.uint8)  # '.' is below '0': wraps over 9


def measure(gpu, puzzles: np.ndarray, repeat: int, batch: int, limit: int, native, overlap: bool):
    """One batch size over ``puzzles`` x ``repeat``: the wall time from the first batch's copy
    to the last one's verification, and the totals of every call's timings. ``overlap``:
    each batch is verified on a thread of its own while the next one is searched."""
    board = Board.empty(Shape(3, 3))
    every = np.tile(puzzles, (repeat, 1))  # in memory before the clock starts; batches are views
    total = len(every)
    gpu.search_many(puzzles[: min(batch, len(puzzles))], board, limit, Deadline())  # its arrays
    sums = dict.fromkeys(("to_device", "kernel", "from_device", "verify"), 0.0)
    launches = 0
    answers = []

    def check(chunk: np.ndarray, found) -> float:
        began = time.perf_counter()
        verified(board, chunk, found)
        return time.perf_counter() - began

    with ThreadPoolExecutor(1, "bench-verify") as pool:
        began = time.perf_counter()
        for start in range(0, total, batch):
            chunk = every[start : start + batch]
            found = gpu.search_many(chunk, board, limit, Deadline())
            for key in ("to_device", "kernel", "from_device"):
                sums[key] += getattr(gpu.timings, key)
            launches += gpu.timings.launches
            job = pool.submit(check, chunk, found)
            if not overlap:
                job.result()
            answers.append((start, found, job))
        sums["verify"] = sum(job.result() for _, _, job in answers)
        wall = time.perf_counter() - began
    wrong = unequal = unsolved = 0
    for start, found, _ in answers:  # the benchmark's own checks, after the clock
        wrong += int((found.flags == Flag.WRONG).sum())
        unsolved += int((found.flags != Flag.SOLVED).sum())
        if native is not None:
            rows = np.arange(start, start + len(found.flags)) % len(puzzles)
            same = (found.solutions == native.solutions[rows]).all(axis=1)
            unequal += int((~same | (found.counts != native.counts[rows])).sum())
    return {"batch": batch, "puzzles": total, "wall": wall, "launches": launches,
            "wrong": wrong, "unsolved": unsolved, "unequal": unequal, **sums}  # fmt: skip


def native_answers(puzzles: np.ndarray, limit: int, saved: Path | None):
    """native's answers (counts and first solutions) to ``puzzles``, read from ``saved`` when
    it holds them for these very puzzles and limit, else found (``solve_many``) and written
    there: a machine lent for its GPU need not spend its time compiling native's kernel."""
    if saved is not None and saved.is_file():
        with np.load(saved) as kept:
            if np.array_equal(kept["puzzles"], puzzles) and int(kept["limit"]) == limit:
                return SimpleNamespace(counts=kept["counts"], solutions=kept["solutions"])
            print(f"gpu: {saved} holds other puzzles or another limit: native runs again")
    found = solve_many(puzzles, limit)
    if saved is not None:
        np.savez_compressed(saved, puzzles=puzzles, limit=limit, counts=found.counts,
                            solutions=found.solutions)  # fmt: skip
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", default="1000,10000,100000", help="batch sizes, with commas")
    parser.add_argument("--repeat", type=int, default=100, help="times the set is solved")
    parser.add_argument("--limit", type=int, default=1, help="1: solve; 2: prove uniqueness")
    parser.add_argument("--puzzles", type=int, default=None, help="the file's first N only")
    parser.add_argument("--data", type=Path, default=DATA / "sudoku17.txt")
    parser.add_argument("--no-native", action="store_true", help="skip the check with native")
    parser.add_argument(
        "--native",
        type=Path,
        default=None,
        help="a .npz of native's answers: read if it holds these, else written",
    )
    parser.add_argument("--threads", type=int, default=None, help="CUDA threads a block, at most")
    parser.add_argument("--kernel", choices=("band", "shared", "global"), default="band",
                        help="the gpu backend's kernel option")  # fmt: skip
    parser.add_argument("--overlap", action="store_true",
                        help="verify each batch while the next is searched")  # fmt: skip
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.batch.split(",")]
    available, why = registry.availability("gpu")
    if not available:
        print(f"gpu: nothing measured: {why}")
        return 0
    if not args.data.is_file():
        print(f"gpu: nothing measured: {args.data} is absent (README: public benchmark sets)")
        return 0
    from numba import config, cuda

    device = "numba's CUDA simulator" if config.ENABLE_CUDASIM else cuda.get_current_device().name
    device = device.decode() if isinstance(device, bytes) else device
    puzzles = puzzles_of(args.data, args.puzzles)
    native = None if args.no_native else native_answers(puzzles, args.limit, args.native)
    from adapters.gpu import band, shared
    from adapters.gpu import batch as batching

    batching.THREADS = args.threads or batching.THREADS
    shared.MOST_THREADS = args.threads or shared.MOST_THREADS
    band.THREADS = args.threads or band.THREADS
    gpu = registry.backend_class("gpu")(kernel=args.kernel)
    gpu.load()  # compile the kernel (setup, not measured)
    how = "each verified while the next runs" if args.overlap else "one batch at a time"
    most = {"band": band.THREADS, "shared": shared.MOST_THREADS, "global": batching.THREADS}
    threads = f"{args.kernel} kernel, up to {most[args.kernel]} threads a block"
    print(f"{args.data.name} x {args.repeat} ({len(puzzles) * args.repeat:,} puzzles), "
          f"limit {args.limit}, on {device}, {threads}, {how}")  # fmt: skip
    print(f"{'batch':>9} {'end to end/s':>13} {'kernel/s':>12} {'to device s':>11} "
          f"{'kernel s':>9} {'from dev s':>10} {'verify s':>9} {'launches':>8} "
          f"{'wrong':>5} {'unsolved':>8} {'!= native':>9}")  # fmt: skip
    for size in sizes:
        got = measure(gpu, puzzles, args.repeat, size, args.limit, native, args.overlap)
        print(f"{size:>9,} {got['puzzles'] / got['wall']:>13,.0f} "
              f"{got['puzzles'] / got['kernel']:>12,.0f} {got['to_device']:>11.3f} "
              f"{got['kernel']:>9.3f} {got['from_device']:>10.3f} {got['verify']:>9.3f} "
              f"{got['launches']:>8} {got['wrong']:>5} {got['unsolved']:>8} "
              f"{'-' if native is None else got['unequal']:>9}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
