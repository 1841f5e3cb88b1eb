"""``sudoku compare``: every backend on the same puzzles, with deadlines that hold.

Each backend runs in a worker process of its own (``solvers.isolation``): it is given the
deadline itself, and a puzzle that outlives it anyway has its worker killed and replaced and
counts as a timeout; a crash, even a segfault inside a C extension, counts as an error for
that puzzle, and the run goes on. Times are taken inside the worker around the solve alone:
parsing is done before, and one-time setup (importing and building the backend, preparing a
shape's persistent solver) is reported apart as ``setup_s``. Every solution is verified here.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field

from solvers import registry
from solvers.board import Board
from solvers.deadline import OutOfTime
from solvers.errors import SudokuError, UsageError
from solvers.isolation import Worker
from solvers.verify import problems

# Puzzles sent to a worker in one round trip: each is still timed alone, but the worker stays
# busy between them, so its caches are as warm as when a user solves a file.
BATCH = 32
# Counters some libraries report, shown as per-puzzle means when a backend has them.
LIBRARY_STATS = ("branches", "conflicts", "decisions", "propagations")


@dataclass
class PuzzleRun:
    status: str  # solved, unsolvable, timeout, error, wrong
    seconds: float | None = None
    stats: dict = field(default_factory=dict)
    detail: str = ""


@dataclass
class BackendRuns:
    backend: str
    options: dict
    runs: list[PuzzleRun] = field(default_factory=list)
    setup_s: float = 0.0

    def summary(self) -> dict:
        """The JSON record: counts, times in seconds, and null where the backend cannot tell."""
        finished = [r for r in self.runs if r.status in ("solved", "unsolvable")]
        times = sorted(r.seconds for r in finished)
        count = {
            s: sum(r.status == s for r in self.runs) for s in ("solved", "unsolvable", "timeout")
        }
        guesses = [r.stats["guesses"] for r in finished if "guesses" in r.stats]
        has_guesses = bool(finished) and len(guesses) == len(finished)
        library = {
            f"{key}_per_puzzle": statistics.mean(r.stats[key] for r in finished)
            for key in LIBRARY_STATS
            if finished and all(key in r.stats for r in finished)
        }
        return {
            "backend": self.backend,
            "options": self.options,
            "solved": count["solved"],
            "unsolvable": count["unsolvable"],
            "timeouts": count["timeout"],
            "errors": sum(r.status in ("error", "wrong") for r in self.runs),
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
    backend: str,
    options: dict,
    boards: list[Board],
    timeout: float,
    progress=None,
    imported_s: float = 0.0,
) -> BackendRuns:
    """Solve every board with ``backend`` in a worker; never raises for a puzzle's sake.

    Setup, timed apart: importing (``imported_s``, timed by the caller) and building the backend
    (compiling, loading a cached kernel), then in the worker, for each
    board shape, what the backend keeps per shape and one untimed solve of a complete board, so
    that first-call initialisation inside a library is not charged to the first puzzle.
    """
    start = time.perf_counter()
    registry.load(backend, **options)
    built = time.perf_counter() - start
    worker = Worker(backend, options)
    result = BackendRuns(backend, options)
    kill_after = timeout * 1.5 + 1.0  # the backend's own deadline first; the kill is a backstop
    try:
        for shape in dict.fromkeys(board.shape for board in boards):
            try:
                worker.prepare(shape)
                worker.call("solve", (Board.pattern(shape),), kill_after, inner=timeout)
                worker.setup_seconds += worker.seconds
            except (OutOfTime, SudokuError):
                pass  # the puzzles will meet the same trouble, and it is counted there
        result.setup_s = imported_s + built + worker.setup_seconds
        for start in range(0, len(boards), BATCH):
            batch = boards[start : start + BATCH]
            result.runs += _batch(worker, batch, timeout, kill_after)
            if progress:
                progress(start + len(batch), len(boards))
    finally:
        worker.stop()
    return result


def run_backend_spread(
    backend: str,
    options: dict,
    boards: list[Board],
    timeout: float,
    jobs: int,
    scheduler: str | None,
    imported_s: float = 0.0,
) -> BackendRuns:
    """``run_backend`` with the boards dealt out to ``jobs`` processes (or a Dask cluster's
    workers), each running its share in workers of its own; the runs come back in order.
    Setup is that of the slowest share. Parallel runs share the machine: their times are
    per-puzzle times under that load."""
    from solvers.parallel import Pool

    pool = Pool(jobs, scheduler)
    try:
        shares = max(1, pool.workers)
        futures = [
            pool.executor.submit(run_backend, backend, options, boards[k::shares], timeout)
            for k in range(shares)
        ]
        parts = [future.result() for future in futures]
    finally:
        pool.close()
    merged = BackendRuns(backend, options, setup_s=imported_s + max(p.setup_s for p in parts))
    for i in range(len(boards)):
        merged.runs.append(parts[i % shares].runs[i // shares])
    return merged


def _batch(worker: Worker, boards: list[Board], timeout: float, kill_after: float) -> list:
    """The boards solved in one round trip, each timed alone; if the batch has to be killed or
    its worker dies, each board again on its own, so that the timeout or crash is pinned on
    the puzzle that caused it."""
    try:
        answers = worker.call_each(
            "solve", [(b,) for b in boards], kill_after * len(boards), inner=timeout
        )
    except (OutOfTime, SudokuError):
        return [_one(worker, board, timeout, kill_after) for board in boards]
    return [
        _judge(board, kind, seconds, answer, timeout)
        for board, (kind, seconds, answer) in zip(boards, answers, strict=True)
    ]


def _one(worker: Worker, board: Board, timeout: float, kill_after: float) -> PuzzleRun:
    try:
        outcome = worker.call("solve", (board,), kill_after, inner=timeout)
    except OutOfTime as out:
        return PuzzleRun("timeout", timeout, out.stats)
    except SudokuError as error:
        return PuzzleRun("error", None, {}, str(error))
    return _judge(board, "ok", worker.seconds, outcome, timeout)


def _judge(board: Board, kind: str, seconds: float, answer, timeout: float) -> PuzzleRun:
    """What one answer means: a timeout, an error, or a solution checked by the verifier."""
    if kind == "error":
        if isinstance(answer, OutOfTime):
            return PuzzleRun("timeout", timeout, answer.stats)
        return PuzzleRun("error", None, {}, str(answer))
    if seconds > timeout:
        return PuzzleRun("timeout", timeout, answer.stats)
    if answer.solution is None:
        return PuzzleRun("unsolvable", seconds, answer.stats)
    found = problems(board, answer.solution)
    if found:
        return PuzzleRun("wrong", seconds, answer.stats, "; ".join(found[:3]))
    return PuzzleRun("solved", seconds, answer.stats)


def disagreements(boards: list[Board], results: list[BackendRuns]) -> list[str]:
    """Puzzles on whose solvability the backends that finished disagree, and wrong answers."""
    found = []
    for i, _board in enumerate(boards):
        says = {r.backend: r.runs[i].status for r in results if i < len(r.runs)}
        finished = {b: s for b, s in says.items() if s in ("solved", "unsolvable")}
        if len(set(finished.values())) > 1:
            found.append(f"puzzle {i + 1}: " + ", ".join(f"{b} {s}" for b, s in finished.items()))
        found += [
            f"puzzle {i + 1}: {r.backend} returned a WRONG solution: {r.runs[i].detail}"
            for r in results
            if i < len(r.runs) and r.runs[i].status == "wrong"
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
            times = sorted(r.seconds * 1000 for r in result.runs if r.status == "solved")
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
            [r.seconds * 1000 for r in result.runs if r.status == "solved"] or [float("nan")]
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
