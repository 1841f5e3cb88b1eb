"""The one run pipeline: puzzles and a ``Plan`` in, judged answers out, in input order.

``sudoku solve``, ``count`` and ``check`` hand their input's puzzles to ``run``, and the
library's ``solve`` and ``count_solutions`` a run of one puzzle (so the default choice for one
puzzle is the same in both); ``run`` asks its ``Task`` for each puzzle; ``sudoku compare``
(``tools.compare``) times each spec with ``timed``. Every answer comes from the process's
``Runner`` for its spec, judged there (``execution.judge``), and crosses a process only when a
worker answered it (answers pickle themselves compactly).

What ``run`` decides once, for the whole run:

- the backend: the plan's, resolved once where it was read (``BackendSpec.resolve``: its
  class and checked options travel with the spec), or, when none is named, the fastest here
  that encodes each puzzle's rules, start-up included for a run of at most
  ``choice.SMALL_RUN`` puzzles (the input is read that far ahead to tell);
- the bulk path: a line file answered range by range by a backend that ``BATCHES`` (its own
  ``search_many``: ``linefile``), which writes most answers as text itself, byte for byte
  what the per-puzzle path prints;
- the workers: ``jobs`` processes (never more than there are puzzles) or a Dask cluster, by the
  one spreading mechanism (``execution.parallel.spread``); with one job and no cluster, none:
  the puzzles are answered here, in turn.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import chain
from typing import Any

from solvers.backends import choice
from solvers.backends.contract import Operation
from solvers.backends.spec import BackendSpec
from solvers.formats.boards import Puzzle
from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.run.answer import Answer
from solvers.run.judge import paired

BATCH = 32  # puzzles a timed run sends its worker at once: each still timed alone


@dataclass(frozen=True)
class Plan:
    """How to answer: ``mode`` solve, count (up to ``limit``), or check (every backend's solve
    and count up to ``limit``, one answer each, ``judge.paired``); ``backends`` the one
    to use (none: the default choice) or check's every one, resolved where they were read
    (``BackendSpec.resolve``: the command line's, the library's); ``timeout`` seconds per call;
    ``jobs`` processes (0: every core) or the Dask cluster at ``scheduler``; ``isolate``, for
    timed runs, as ``Runner`` takes it."""

    mode: str = "solve"
    backends: tuple[BackendSpec, ...] = ()
    limit: int = 1
    timeout: float | None = None
    jobs: int = 1
    scheduler: str | None = None
    isolate: bool | None = None


@dataclass(frozen=True)
class LineFile:
    """A file the bulk path may answer, as a user named it (a path, or a shipped dataset's
    name; the path only if it is a file on disk): read as ``input_format`` (boards of
    ``shape`` if given), solutions written as ``written`` (line, compact or spaced)."""

    name: str
    input_format: str
    shape: Shape | None
    written: str


def jobs_for(jobs: int) -> int:
    """``--jobs``: 0 means every core."""
    return (os.cpu_count() or 1) if jobs == 0 else jobs


def resolved_here(spec: BackendSpec) -> BackendSpec:
    """``spec`` resolved as this process's runner for it holds it: resolved once per process,
    where a call of one puzzle (the library's) would otherwise resolve it again each time."""
    from solvers.run.runner import shared  # multiprocessing: not on importing solvers

    return shared(spec).spec


@dataclass(frozen=True)
class Task:
    """The plan's per-puzzle task, picklable, for whichever process runs it. ``few``: the
    run's puzzles, when at most ``choice.SMALL_RUN`` (for the default choice)."""

    plan: Plan
    few: int | None = None

    def __call__(self, board: Board) -> Any:
        """The plan's judged answer for one board, from this process's runner: an ``Answer``,
        or for a check a tuple of them, one per backend."""
        from solvers.run.runner import borrowed  # multiprocessing: not on importing solvers

        plan, timeout = self.plan, self.plan.timeout
        if plan.mode == "check":
            found = []
            for spec in plan.backends:
                with borrowed(spec) as runner:
                    solved = runner.solve(board, timeout)
                    found.append(paired(solved, runner.count(board, plan.limit, timeout)))
            return tuple(found)
        if plan.backends:
            spec = plan.backends[0]
        else:
            spec = BackendSpec(choice.default_backend(board, self.few))
        solving = plan.mode == "solve"
        operation, limit = (Operation.SOLVE, 1) if solving else (Operation.COUNT, plan.limit)
        with borrowed(spec) as runner:
            return runner.each(operation, [board], limit, timeout)[0]


def run(
    items: Iterable[Any],
    plan: Plan,
    *,
    line_file: LineFile | None = None,
    note: Callable[[str], None] = lambda text: None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[Any]:
    """Each item's answer in input order, as (item, answer): a Puzzle's (its ``Task``'s), None
    for any other item (an InputError, which keeps its place). From the bulk path of
    ``line_file`` (when given and it applies), runs of answers come as bytes instead, the
    command's output ready to write. ``note`` is told what a user should know of the run (the
    workers), ``progress`` the items done so far."""
    from solvers.run.parallel import read_ahead

    items = iter(items)
    head: list[Any] = []
    few, cut = None, False  # cut: reading ahead stopped at a line past every limit
    if plan.mode != "check" and not plan.backends:
        head, cut = read_ahead(items, choice.SMALL_RUN + 1)
        few = len(head) if len(head) <= choice.SMALL_RUN and not cut else None
    jobs = jobs_for(plan.jobs)
    if jobs > 1 and not plan.scheduler:
        if not cut:
            more, cut = read_ahead(items, max(0, jobs - len(head)))
            head += more
        if len(head) < jobs and not cut:  # never more processes than puzzles
            found = _counted(len(head), "puzzle")
            note(f"--jobs {plan.jobs}: {found}, so {_counted(max(1, len(head)), 'worker')}")
            jobs = max(1, len(head))
        cores = os.cpu_count() or 1
        if jobs > cores:
            note(f"--jobs {jobs} on {cores} cores: the workers share them")
    if line_file is not None and (route := _bulk_route(plan, line_file, few)) is not None:
        if hasattr(items, "close"):
            items.close()  # the bulk path reads the file itself
        yield from _bulk(Task(plan, few), *route, line_file, jobs, progress)
        return
    task = Task(plan, few)
    if jobs == 1 and plan.scheduler is None:  # here, each puzzle in turn
        pairs: Iterator[Any] = (
            (item, task(item.board) if isinstance(item, Puzzle) else None)
            for item in chain(head, items)
        )
    else:
        from solvers.run.parallel import ordered

        pairs = ordered(task, chain(head, items), jobs, plan.scheduler)
    for done, pair in enumerate(pairs, 1):
        yield pair
        if progress:
            progress(done)


def _bulk_route(plan: Plan, line_file: LineFile, few: int | None) -> tuple[BackendSpec, str] | None:
    """The backend and the file on disk the bulk path answers this run with, or None where it
    does not apply: a backend with a batch search of its own (``Backend.BATCHES``: the plan's,
    or the default choice for the run), here or on local workers, on a file in the line
    format."""
    if plan.mode == "check" or plan.scheduler:
        return None
    spec = plan.backends[0] if plan.backends else _default(few)
    if not spec.cls.BATCHES:
        return None
    from solvers.formats.datasets import path_of
    from solvers.run.linefile import start  # NumPy: only for this path

    path = path_of(line_file.name)
    if path is None or start(path, line_file.input_format) is None:
        return None
    return spec, path


def _default(few: int | None) -> BackendSpec:
    """The default choice for a run of classic puzzles (the bulk path's, whose puzzles are
    classic: a line file's others take the per-puzzle path)."""
    return BackendSpec(choice.default_backend(puzzles=few))


def _bulk(
    task: Task,
    spec: BackendSpec,
    path: str,
    line_file: LineFile,
    jobs: int,
    progress: Callable[[int], None] | None,
) -> Iterator[Any]:
    """The bulk path's pieces, answered by ``spec``: bytes of answers, and (item, answer) for
    the rest."""
    from solvers.run.linefile import Job, answers, start

    plan = task.plan
    skip = start(path, line_file.input_format)
    job = Job(plan.mode, plan.limit, line_file.written, line_file.shape, plan.timeout, task, spec)
    errors = [0]  # bad lines so far: the ranges' counts hold the puzzles alone
    told = (lambda puzzles: progress(puzzles + errors[0])) if progress else None
    for piece in answers(job, path, skip, jobs, told):
        yield piece
        if not isinstance(piece, bytes):
            errors[0] += piece[1] is None


def timed(
    spec: BackendSpec, boards: list[Board], plan: Plan, progress: Callable | None = None
) -> tuple[list[Answer], float, int]:
    """Compare's run of one spec: every board's answer in order, the setup seconds and the
    peak memory (KiB) of its worker; never raises for a puzzle's sake (a timeout or a crash is
    that puzzle's answer). Serial, each board timed in the spec's own worker process, told to
    ``progress(done, total)``; with ``jobs`` or a cluster, the boards dealt out in one share
    per worker, each running its share in workers of its own (setup and memory are then the
    largest share's, and the times per-puzzle times under that load)."""
    from solvers.run.parallel import spread, workers

    pool = workers(jobs_for(plan.jobs), plan.scheduler)
    if pool is None:
        return _time_share(spec, plan, boards, progress)
    shares = max(1, pool.workers)
    calls = ((k, boards[k::shares]) for k in range(shares))
    parts = [part for _, part in spread(partial(_time_share, spec, plan), calls, pool)]
    answers = [parts[i % shares][0][i // shares] for i in range(len(boards))]
    return answers, max(p[1] for p in parts), max(p[2] for p in parts)


def _time_share(
    spec: BackendSpec, plan: Plan, boards: list[Board], progress: Callable | None = None
) -> tuple[list[Answer], float, int]:
    """Setup is everything before the first timed puzzle: building the backend, starting its
    worker, and per board shape what the backend keeps and one untimed solve of a complete
    board (``Runner.warm_up``). The peak memory is the worker's, read after each batch (a
    worker killed at a deadline takes its own peak with it)."""
    import time

    from solvers.run.runner import Runner

    operation = Operation.COUNT if plan.mode == "count" else Operation.SOLVE
    limit = plan.limit if plan.mode == "count" else 1
    answers: list[Answer] = []
    peak = 0
    start = time.perf_counter()
    with Runner(spec, isolate=plan.isolate) as runner:
        for shape in dict.fromkeys(board.shape for board in boards):
            runner.warm_up(shape, plan.timeout)
        setup = time.perf_counter() - start
        for first in range(0, len(boards), BATCH):
            batch = boards[first : first + BATCH]
            answers += runner.each(operation, batch, limit, plan.timeout)
            peak = max(peak, runner.peak_rss_kb())
            if progress:
                progress(first + len(batch), len(boards))
    return answers, setup, peak


def _counted(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
