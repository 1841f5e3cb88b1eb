"""Where a ``--jobs N`` bulk run's wall time goes, inside one process: the fixed costs (the
kernel loaded before the workers fork, the pool's start) against the work spread over them.

    python bench/jobs_phases.py FILE --jobs 16          # 3 runs, medians
    python bench/jobs_phases.py FILE --jobs 1 2 4 8 16 --runs 5

For each job count, a timeline of ``linefile.answers`` as ``sudoku count FILE --backend native
--limit 2 --jobs N`` runs it (start-up and writing the output left out: ``bench/startup.py``
has start-up): the pool alone (N workers forked and a call answered by each, the same pool
type, on a side), then the run: the first range back, then every range. The work left for N
jobs if it spread evenly is one job's time over N; what is over it is the fixed cost and the
uneven end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from solvers.backends.spec import BackendSpec
from solvers.run import linefile
from solvers.run.parallel import Pool
from solvers.run.pipeline import Plan, Task


def _nothing(_: int) -> int:
    return os.getpid()


def pool_start(jobs: int) -> float:
    """Seconds to fork ``jobs`` workers and have each answer a call, then close them."""
    start = time.perf_counter()
    pool = Pool(jobs, None)
    seen: set[int] = set()
    while len(seen) < jobs:  # each worker answers at least one of the calls
        seen.update(f.result() for f in [pool.executor.submit(_nothing, i) for i in range(jobs)])
    took = time.perf_counter() - start
    pool.close()
    return took


def timeline(path: str, jobs: int) -> tuple[float, float]:
    """(first range back, all ranges back) seconds of one run on ``jobs`` jobs."""
    job = linefile.Job(
        "count", 2, "line", None, None, Task(Plan("count", (), 2)), BackendSpec("native")
    )
    start = time.perf_counter()
    first = None
    for _piece in linefile.answers(job, path, 0, jobs):
        if first is None:
            first = time.perf_counter() - start
    return first or 0.0, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--jobs", type=int, nargs="+", default=[os.cpu_count() or 1])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not Path(args.file).is_file() or linefile.start(args.file, "auto") != 0:
        print(f"{args.file}: give a line file without a header", file=sys.stderr)
        return 2
    linefile._load(BackendSpec("native"))
    timeline(args.file, 1)  # the file in the page cache
    print(f"{Path(args.file).name}, count to 2, {os.cpu_count()} cores, medians of {args.runs}")
    one = statistics.median(timeline(args.file, 1)[1] for _ in range(args.runs))
    print(f"   1 job: {one:.3f} s")
    for jobs in (n for n in args.jobs if n > 1):
        runs = [(pool_start(jobs), *timeline(args.file, jobs)) for _ in range(args.runs)]
        pool, first, whole = (statistics.median(run[k] for run in runs) for k in range(3))
        even = one / jobs
        print(
            f"   {jobs:2} jobs: {whole:.3f} s ({one / whole:.1f} x one job); pool alone"
            f" {pool:.3f} s; first range back {first:.3f} s; one job's work / {jobs}"
            f" {even:.3f} s; over it {whole - even:.3f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
