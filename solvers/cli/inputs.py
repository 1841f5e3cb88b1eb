"""What the commands read: the input's puzzles, the backend a user named, and results in
input order from this process or from workers."""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import chain, islice
from typing import Any, TextIO

from solvers import registry
from solvers.board import Board
from solvers.cli import progress
from solvers.cli.output import EXIT_BAD_INPUT, Run, counted
from solvers.errors import InputError, UsageError
from solvers.execution.answer import Answer, Status
from solvers.execution.judge import clash
from solvers.formats import Puzzle, format_board, read_puzzles
from solvers.spec import BackendSpec


def open_source(path: str) -> TextIO:
    """The named file, a shipped dataset by name, or standard input for '-'; undecodable bytes
    become bad cells, whatever the locale."""
    from solvers.tools.datasets import open_named

    if path != "-":
        return open_named(path)
    if sys.stdin is None or sys.stdin.closed:
        raise InputError("standard input is closed: give a FILE, or pipe puzzles in")
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # already text (a test's StringIO)
        return sys.stdin
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="replace")


def items_of(args: argparse.Namespace, run: Run) -> Iterator[Puzzle | InputError]:
    """The input's puzzles, and in their place an InputError for each unreadable one, read
    lazily. (Givens that break a rule are found by the runner, where the work is spread.)"""
    source = open_source(args.file)
    try:
        yield from _noting_drawings(read_puzzles(source, args.input_format, args.box), run)
    finally:
        if args.file != "-":
            source.close()


def _noting_drawings(
    items: Iterator[Puzzle | InputError], run: Run
) -> Iterator[Puzzle | InputError]:
    """The items, with one note for the f-puzzles drawings left out (each named once)."""
    named: set[str] = set()
    for item in items:
        drawings = [key for key in getattr(item, "ignored", ()) if key not in named]
        if drawings:
            named.update(drawings)
            run.note(f"left out the f-puzzles drawings {', '.join(drawings)}: they set no rule")
        yield item


def report_invalid(
    run: Run, args: argparse.Namespace, error: InputError, board: Board | None = None
) -> None:
    """A bad puzzle: one line on stderr, and its JSON record with --json."""
    run.warn(str(error), EXIT_BAD_INPUT)
    if getattr(args, "json", False):
        record: dict[str, Any] = {"index": error.line, "status": "invalid", "error": str(error)}
        if board is not None:
            record["puzzle"] = format_board(board, "line")
        run.emit_json(record)


def puzzles_of(args: argparse.Namespace, run: Run) -> Iterator[Puzzle]:
    """The puzzles of the command's input; each bad one (unreadable, or givens that clash, as
    the judge says) is reported (exit 2) and skipped."""
    for item in items_of(args, run):
        if isinstance(item, Puzzle) and (clashing := clash(item.board)):
            item = InputError(clashing, item.line)
        if isinstance(item, InputError):
            report_invalid(run, args, item)
        else:
            yield item


def spec_of(args: argparse.Namespace) -> BackendSpec | None:
    """The backend a user named with its --option pairs, checked before any input is read
    (an unknown backend or option fails here); None when none is named: each puzzle then goes
    to the fastest available backend that encodes its rules."""
    if args.backend is None:
        if args.option:
            raise UsageError("--option needs --backend: options belong to one backend")
        return None
    spec = BackendSpec.parse(args.backend)
    options: dict[str, str] = {}
    for key, value in args.option:
        if key in options:
            raise UsageError(f"--option {key} is given twice ({options[key]}, {value})")
        options[key] = value
    spec = spec.with_options(options) if options else spec
    registry.entry(spec.name)  # an unknown name fails here
    if options or spec.name != "native" or not _native_built_ahead():
        registry.options_for(spec)  # imports the backend: unavailable, or a bad option, fails
    return spec


def _native_built_ahead() -> bool:
    """Whether native's batch kernel is built ahead of time (so numba was there to build it):
    a line file's bulk path then runs without importing numba (0.2-0.4 s), which is imported
    only if a puzzle needs the per-puzzle kernel."""
    from solvers.handwritten.native import aot

    return bool(aot.built())


def answers_of(
    task: Callable[[Board], tuple],
    args: argparse.Namespace,
    run: Run,
    bulk: tuple[str, int] | None = None,
) -> Iterator[tuple[Puzzle, Answer]]:
    """(puzzle, its answer) in input order; an unreadable puzzle, or one whose givens break a
    rule, is reported as bad input in its place. ``bulk`` = (solve or count, limit) lets a
    line file take the fast path, which writes most answers itself (``bulk_results``). With no
    backend named, the input is read ahead: a run of few puzzles goes to the backend that
    answers it first, start-up included (``registry.default_backend``)."""
    source = items = items_of(args, run)
    try:
        if args.backend is None:
            head = list(islice(source, registry.SMALL_RUN + 1))
            few = len(head) if len(head) <= registry.SMALL_RUN else None
            task = replace(task, puzzles=few) if hasattr(task, "puzzles") else task
            items = chain(head, source)
        results = bulk_results(task, args, run, *bulk) if bulk else None
        for item, packed in results or each_result(task, args, run, items=items):
            if isinstance(item, InputError):
                report_invalid(run, args, item)
                continue
            answer = Answer.unpack(packed)
            if answer.status is Status.INVALID:
                report_invalid(run, args, InputError(answer.detail, item.line), item.board)
                continue
            yield item, answer
    finally:
        source.close()  # the input file, when the bulk path read it instead


def each_result(
    task: Callable[[Board], Any],
    args: argparse.Namespace,
    run: Run,
    items: Iterator[Puzzle | InputError] | None = None,
) -> Iterator[tuple[Puzzle | InputError, Any]]:
    """(item, task's answer) in input order (the input's ``items``, read here if not given),
    here or on ``--jobs``/``--scheduler`` workers; the answer is None for an unreadable item.
    A progress bar on a terminal, whatever the jobs."""
    from solvers.execution.parallel import ordered

    items, jobs = workers_for(args, run, items_of(args, run) if items is None else items)
    results = ordered(task, items, jobs, args.scheduler)
    bar = _bar(args, run)
    if bar is None:
        yield from results
        return
    try:
        for pair in results:
            yield pair
            bar.update()
    finally:
        run.end_progress()


def _bar(args: argparse.Namespace, run: Run):
    """A progress bar on a terminal, its total the puzzle lines of a line-format file (unknown
    on standard input); None elsewhere, and for a file of boards (one board, or a few)."""
    if not progress.wanted(run.err):
        return None
    from solvers.cli.progress import puzzle_lines
    from solvers.tools.datasets import path_of
    from solvers.tools.linefile import start  # NumPy: only with a bar to show

    path = path_of(args.file)
    if path is None:
        return run.progress_bar(None)
    skip = start(path, args.input_format)
    return None if skip is None else run.progress_bar(puzzle_lines(path, skip))


def workers_for(
    args: argparse.Namespace, run: Run, items: Iterator[Puzzle | InputError]
) -> tuple[Iterator[Puzzle | InputError], int]:
    """(the items, the worker processes for them): ``--jobs``, never more than there are
    puzzles, with a note when it is fewer or more than the cores."""
    from solvers.execution.calls import jobs_for

    jobs = jobs_for(args.jobs)
    if jobs > 1 and not args.scheduler:
        head = list(islice(items, jobs))
        if len(head) < jobs:  # never more processes than puzzles
            found = counted(len(head), "puzzle")
            run.note(f"--jobs {args.jobs}: {found}, so {counted(max(1, len(head)), 'worker')}")
            jobs = max(1, len(head))
        cores = os.cpu_count() or 1
        if jobs > cores:
            run.note(f"--jobs {jobs} on {cores} cores: the workers share them")
        items = chain(head, items)
    return items, jobs


def bulk_results(
    task: Callable[[Board], tuple], args: argparse.Namespace, run: Run, mode: str, limit: int
) -> Iterator[tuple[Puzzle | InputError, Any]] | None:
    """The fast path for a line file (``solvers.tools.linefile``): the answers it wrote as
    text go straight to the output, and the rest come back as ``each_result``'s do; None
    where it would not print exactly what the per-puzzle path prints (JSON records, a
    cluster, standard input, a backend other than native, a file not in the line format)."""
    if args.json or args.scheduler or args.file == "-" or args.option:
        return None
    if getattr(args, "format", "auto") == "fpuzzles":  # links are written one by one
        return None
    few = getattr(task, "puzzles", None)
    if (args.backend or registry.default_backend(puzzles=few)) != "native":
        return None
    from solvers.tools.datasets import path_of
    from solvers.tools.linefile import Job, answers, start  # NumPy: only for this path

    path = path_of(args.file)
    if path is None or not (_native_built_ahead() or registry.availability("native")[0]):
        return None
    skip = start(path, args.input_format)
    if skip is None:
        return None
    head = items_of(args, run)
    try:
        _, jobs = workers_for(args, run, head)  # the same notes as the per-puzzle path
    finally:
        head.close()
    fmt = "line" if getattr(args, "format", "auto") == "auto" else args.format
    job = Job(mode, limit, fmt, args.box, args.timeout, task)
    from solvers.cli.progress import puzzle_lines

    bar = run.progress_bar(puzzle_lines(path, skip)) if progress.wanted(run.err) else None
    errors = [0]  # bad lines so far: the ranges' counts hold the puzzles alone

    def done(puzzles: int, _seconds: float) -> None:
        if bar is not None:
            bar.update(puzzles + errors[0] - bar.n)

    pieces = answers(job, path, skip, jobs, done)
    return _written(pieces, run, errors)


def _written(
    pieces: Iterator[Any], run: Run, errors: list[int]
) -> Iterator[tuple[Puzzle | InputError, Any]]:
    try:
        for piece in pieces:
            if isinstance(piece, bytes):
                run.write(piece.decode("ascii"))
            else:
                yield piece
                errors[0] += isinstance(piece[0], InputError)
    finally:
        run.end_progress()
