"""Where the bulk path's time goes inside one process, start-up left out: the batch kernel, the
verifier's second check, and the rest (reading the file, finding and parsing its lines,
writing the answers as text).

    python bench/bulk_phases.py                       # sudoku17, count and solve, 5 runs each
    python bench/bulk_phases.py FILE --runs 9

CPU time (this process), medians of the runs; the kernel and the verifier are timed around
their calls (``aot.solve_batch``, ``verify.failing_rows``), the rest is what is left of the
whole of ``linefile.answers`` on one job. Start-up is ``bench/startup.py``'s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import solvers.run.bulk
from solvers.backends.handwritten.native import aot
from solvers.backends.spec import BackendSpec
from solvers.run import linefile
from solvers.run.pipeline import Plan, Task

DATA = Path(
    os.environ.get("SUDOKU_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data"
)


def timed_calls(spent: dict[str, float], name: str, function: Callable) -> Callable:
    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - start

    return timed


def phases(path: str, mode: str, runs: int) -> tuple[float, float, float]:
    """(whole, kernel, verifier) CPU seconds, medians of ``runs``."""
    limit = 2 if mode == "count" else 1
    job = linefile.Job(
        mode, limit, "line", None, None, Task(Plan(mode, (), limit)), BackendSpec("native")
    )
    spent = {"kernel": 0.0, "verifier": 0.0}
    kernel, verifier = aot.solve_batch, solvers.run.bulk.failing_rows
    aot.solve_batch = timed_calls(spent, "kernel", kernel)  # solve_many imports it per call
    solvers.run.bulk.failing_rows = timed_calls(spent, "verifier", verifier)
    found = []
    try:
        for _ in range(runs):
            spent.update(kernel=0.0, verifier=0.0)
            start = time.process_time()
            for _piece in linefile.answers(job, path, 0, 1):
                pass
            found.append((time.process_time() - start, spent["kernel"], spent["verifier"]))
    finally:
        aot.solve_batch, solvers.run.bulk.failing_rows = kernel, verifier
    whole, in_kernel, in_verifier = (statistics.median(run[k] for run in found) for k in range(3))
    return whole, in_kernel, in_verifier


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DATA / "sudoku17.txt"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not Path(args.file).is_file():
        print(f"no {args.file}: give a line file", file=sys.stderr)
        return 2
    if linefile.start(args.file, "auto") != 0:
        print(f"{args.file} is not a line file without a header", file=sys.stderr)
        return 2
    for mode in ("count", "solve"):
        phases(args.file, mode, 1)  # the kernel loaded, the file in the page cache
        whole, kernel, verifier = phases(args.file, mode, args.runs)
        rest = whole - kernel - verifier
        whole = max(whole, 1e-9)  # (a file of a few lines takes no measurable time)
        print(
            f"{mode} {Path(args.file).name}: {whole:.3f} s CPU; kernel {kernel:.3f} "
            f"({kernel / whole:.0%}), verifier {verifier:.3f} ({verifier / whole:.0%}), "
            f"reading, parsing and writing {rest:.3f} ({rest / whole:.0%})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
