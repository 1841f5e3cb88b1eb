"""What the commands read: the input's puzzles, the backend a user named, and results in
input order from this process or from workers."""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Callable, Iterator
from itertools import chain, islice
from typing import Any, TextIO

from solvers import registry
from solvers.board import Board
from solvers.cli.output import EXIT_BAD_INPUT, Run
from solvers.errors import InputError, UsageError
from solvers.execution.answer import Answer, Status
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


def items_of(args: argparse.Namespace) -> Iterator[Puzzle | InputError]:
    """The input's puzzles, and in their place an InputError for each unreadable one, read
    lazily. (Givens that break a rule are found by the runner, where the work is spread.)"""
    source = open_source(args.file)
    try:
        yield from read_puzzles(source, args.input_format, args.box)
    finally:
        if args.file != "-":
            source.close()


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
    """The puzzles of the command's input; each bad one is reported (exit 2) and skipped."""
    for item in items_of(args):
        if isinstance(item, Puzzle) and (conflicts := item.board.conflicts()):
            item = InputError(conflicts[0], item.line)
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
    registry.options_for(spec)
    return spec


def answers_of(
    task: Callable[[Board], tuple],
    args: argparse.Namespace,
    run: Run,
    bulk: tuple[str, int] | None = None,
) -> Iterator[tuple[Puzzle, Answer]]:
    """(puzzle, its answer) in input order; an unreadable puzzle, or one whose givens break a
    rule, is reported as bad input in its place. ``bulk`` = (solve or count, limit) lets a
    line file take the fast path, which writes most answers itself (``bulk_results``)."""
    results = bulk_results(task, args, run, *bulk) if bulk else None
    for item, packed in results or each_result(task, args, run):
        if isinstance(item, InputError):
            report_invalid(run, args, item)
            continue
        answer = Answer.unpack(packed)
        if answer.status is Status.INVALID:
            report_invalid(run, args, InputError(answer.detail, item.line), item.board)
            continue
        yield item, answer


def each_result(
    task: Callable[[Board], Any], args: argparse.Namespace, run: Run, progress: bool = False
) -> Iterator[tuple[Puzzle | InputError, Any]]:
    """(item, task's answer) in input order, here or on ``--jobs``/``--scheduler`` workers;
    the answer is None for an unreadable item. A progress line (on a terminal) with more than
    one job, or when asked."""
    from solvers.execution.parallel import ordered

    items, jobs = workers_for(args, run, items_of(args))
    shown = run.throughput() if (progress or jobs != 1 or args.scheduler) else None
    yield from ordered(task, items, jobs, args.scheduler, progress=shown)


def workers_for(
    args: argparse.Namespace, run: Run, items: Iterator[Puzzle | InputError]
) -> tuple[Iterator[Puzzle | InputError], int]:
    """(the items, the worker processes for them): ``--jobs``, never more than there are
    puzzles, with a note when it is fewer or more than the cores."""
    from solvers.execution.parallel import jobs_for

    jobs = jobs_for(args.jobs)
    if jobs > 1 and not args.scheduler:
        head = list(islice(items, jobs))
        if len(head) < jobs:  # never more processes than puzzles
            run.note(f"--jobs {args.jobs}: {len(head)} puzzles, so {max(1, len(head))} workers")
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
    from solvers.tools.datasets import path_of
    from solvers.tools.linefile import Job, answers, start

    if args.json or args.scheduler or args.file == "-" or args.option:
        return None
    if (args.backend or registry.default_backend()) != "native":
        return None
    path = path_of(args.file)
    if path is None or not registry.availability("native")[0]:
        return None
    skip = start(path, args.input_format)
    if skip is None:
        return None
    head = items_of(args)
    try:
        _, jobs = workers_for(args, run, head)  # the same notes as the per-puzzle path
    finally:
        head.close()
    fmt = "line" if getattr(args, "format", "auto") == "auto" else args.format
    job = Job(mode, limit, fmt, args.box, args.timeout, task)
    pieces = answers(job, path, skip, jobs, run.throughput() if jobs != 1 else None)
    return _written(pieces, run)


def _written(pieces: Iterator[Any], run: Run) -> Iterator[tuple[Puzzle | InputError, Any]]:
    for piece in pieces:
        if isinstance(piece, bytes):
            run.write(piece.decode("ascii"))
        else:
            yield piece
