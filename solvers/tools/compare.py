"""``sudoku compare``: every backend on the same puzzles, with deadlines that hold.

Each backend runs in a worker process of its own (a ``Runner`` with ``isolate=True``): it is
given the deadline itself, and a puzzle that outlives it anyway has its worker killed and
replaced and counts as a timeout; a crash, even a segfault inside a C extension, counts as an
error for that puzzle, and the run goes on. Times are taken inside the worker around the solve
alone: parsing is done before, and one-time setup (importing and building the backend,
preparing a shape's persistent solver) is reported apart as ``setup_s``. Every solution is
verified."""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field

from solvers.board import Board
from solvers.errors import UsageError
from solvers.execution.answer import Answer, Status
from solvers.execution.runner import Runner
from solvers.spec import BackendSpec

# Puzzles sent to a worker in one round trip: each is still timed alone, but the worker stays
# busy between them, so its caches are as warm as when a user solves a file.
BATCH = 32
# Counters some libraries report, shown as per-puzzle means when a backend has them.
LIBRARY_STATS = ("branches", "conflicts", "decisions", "propagations")


@dataclass
class BackendRuns:
    """One backend's answers on a dataset, in order, and its setup time."""

    spec: BackendSpec
    options: dict
    answers: list[Answer] = field(default_factory=list)
    setup_s: float = 0.0

    @property
    def backend(self) -> str:
        return self.spec.label

    def summary(self) -> dict:
        """The JSON record: counts, times in seconds, and null where the backend cannot tell."""
        finished = [a for a in self.answers if a.status.finished]
        times = sorted(a.seconds for a in finished)
        count = {s: sum(a.status is s for a in self.answers) for s in Status}
        guesses = [a.stats["guesses"] for a in finished if "guesses" in a.stats]
        has_guesses = bool(finished) and len(guesses) == len(finished)
        library = {
            f"{key}_per_puzzle": statistics.mean(a.stats[key] for a in finished)
            for key in LIBRARY_STATS
            if finished and all(key in a.stats for a in finished)
        }
        return {
            "backend": self.backend,
            "options": self.options,
            "solved": count[Status.SOLVED],
            "unsolvable": count[Status.UNSOLVABLE],
            "timeouts": count[Status.TIMEOUT],
            "errors": count[Status.ERROR] + count[Status.WRONG],
            "median_s": statistics.median(times) if times else None,
            "p95_s": _percentile(times, 95) if times else None,
            "max_s": times[-1] if times else None,
            "mean_s": statistics.mean(times) if times else None,
            "puzzles_per_s": len(times) / sum(times) if times and sum(times) > 0 else None,
            "setup_s": self.setup_s,
            "guesses_per_puzzle": statistics.mean(guesses) if has_guesses else None,
            "no_guess_pct": 100 * guesses.count(0) / len(guesses) if has_guesses else None,
            "stats": library,
        }


def _percentile(ordered: list[float], pct: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, -(-len(ordered) * pct // 100))
    return ordered[int(rank) - 1]


def run_backend(
    spec: BackendSpec, boards: list[Board], timeout: float, progress=None
) -> BackendRuns:
    """Solve every board with ``spec``'s backend in a worker process; never raises for a
    puzzle's sake (a timeout or a crash is that puzzle's answer).

    Setup is everything before the first timed puzzle: importing and building the backend,
    starting its worker, and per board shape what the backend keeps and one untimed solve of
    a complete board (``Runner.warm_up``).
    """
    start = time.perf_counter()
    with Runner(spec, isolate=True) as runner:
        for shape in dict.fromkeys(board.shape for board in boards):
            runner.warm_up(shape, timeout)
        result = BackendRuns(spec, runner.options, setup_s=time.perf_counter() - start)
        for first in range(0, len(boards), BATCH):
            batch = boards[first : first + BATCH]
            result.answers += runner.solve_each(batch, timeout)
            if progress:
                progress(first + len(batch), len(boards))
    return result


def run_backend_spread(
    spec: BackendSpec,
    boards: list[Board],
    timeout: float,
    jobs: int,
    scheduler: str | None,
) -> BackendRuns:
    """``run_backend`` with the boards dealt out to ``jobs`` processes (or a Dask cluster's
    workers), each running its share in workers of its own; the answers come back in order.
    Setup is that of the slowest share. Parallel runs share the machine: their times are
    per-puzzle times under that load."""
    from solvers.execution.parallel import Pool

    pool = Pool(jobs, scheduler)
    try:
        shares = max(1, pool.workers)
        futures = [
            pool.executor.submit(run_backend, spec, boards[k::shares], timeout)
            for k in range(shares)
        ]
        parts = [future.result() for future in futures]
    finally:
        pool.close()
    merged = BackendRuns(spec, parts[0].options, setup_s=max(p.setup_s for p in parts))
    for i in range(len(boards)):
        merged.answers.append(parts[i % shares].answers[i // shares])
    return merged


def disagreements(boards: list[Board], results: list[BackendRuns]) -> list[str]:
    """Puzzles on whose solvability the backends that finished disagree, and wrong answers."""
    found = []
    for i, _board in enumerate(boards):
        says = {r.backend: r.answers[i].status for r in results}
        finished = {b: s for b, s in says.items() if s.finished}
        if len(set(finished.values())) > 1:
            found.append(f"puzzle {i + 1}: " + ", ".join(f"{b} {s}" for b, s in finished.items()))
        found += [
            f"puzzle {i + 1}: {r.backend} returned a WRONG solution: {r.answers[i].detail}"
            for r in results
            if r.answers[i].status is Status.WRONG
        ]
    return found


def machine() -> dict:
    """Where the numbers were taken."""
    model = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            model = next(
                (line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")),
                model,
            )
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "processor": model,
        "argv": sys.argv[1:],
    }


COLUMNS = (
    ("backend", "backend", "{}"),
    ("solved", "solved", "{}"),
    ("unsolv", "unsolvable", "{}"),
    ("timeouts", "timeouts", "{}"),
    ("errors", "errors", "{}"),
    ("puzzles/s", "puzzles_per_s", "{:.0f}"),
    ("median ms", "median_s", "{:.3f}"),
    ("p95 ms", "p95_s", "{:.3f}"),
    ("max ms", "max_s", "{:.1f}"),
    ("guesses", "guesses_per_puzzle", "{:.1f}"),
    ("no-guess %", "no_guess_pct", "{:.0f}"),
    ("conflicts", "conflicts_per_puzzle", "{:.0f}"),
    ("branches", "branches_per_puzzle", "{:.0f}"),
    ("setup s", "setup_s", "{:.2f}"),
)


def table(summaries: list[dict]) -> list[list[str]]:
    """Rows of text, a header then one per backend, times in milliseconds; '-' where unknown."""
    rows = [[title for title, _, _ in COLUMNS]]
    for summary in summaries:
        row = []
        for _, key, fmt in COLUMNS:
            value = summary.get(key, summary["stats"].get(key))
            if value is not None and key in ("median_s", "p95_s", "max_s"):
                value *= 1000
            row.append("-" if value is None else fmt.format(value))
        rows.append(row)
    return rows


def plot(datasets: list[dict], runs: dict[str, list[BackendRuns]], path: str) -> None:
    """A cactus plot and the distribution of times per backend, one row per dataset."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'sudoku-solvers[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(datasets), 2, figsize=(13, 4.5 * len(datasets)), squeeze=False)
    for (cactus, spread), dataset in zip(axes, datasets, strict=True):
        results = runs[dataset["name"]]
        for i, result in enumerate(results):
            times = sorted(a.seconds * 1000 for a in result.answers if a.status is Status.SOLVED)
            if times:
                # ten colours, then the same ten dashed: every backend keeps a line of its own
                style = {
                    "color": f"C{i % 10}",
                    "linestyle": "-" if i < 10 else "--",
                    "marker": "." if i < 10 else "x",
                }
                cactus.plot(range(1, len(times) + 1), times, label=result.backend, **style)
        cactus.set_yscale("log")
        cactus.set_xlabel("puzzles solved")
        cactus.set_ylabel("time per puzzle (ms, log scale)")
        cactus.set_title(f"{dataset['name']}: puzzles solved within a time (cactus plot)")
        if cactus.lines:
            cactus.legend(fontsize="small", ncol=2)
        cactus.grid(True, which="both", alpha=0.3)
        data = [
            [a.seconds * 1000 for a in result.answers if a.status is Status.SOLVED]
            or [float("nan")]
            for result in results
        ]
        spread.boxplot(data, orientation="horizontal", tick_labels=[r.backend for r in results])
        spread.set_xscale("log")
        spread.set_xlabel("time per solved puzzle (ms, log scale)")
        spread.set_title(f"{dataset['name']}: distribution of times per backend")
        spread.grid(True, which="both", axis="x", alpha=0.3)
    fig.suptitle(f"sudoku compare on {machine()['processor']}, {os.cpu_count()} cores")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
