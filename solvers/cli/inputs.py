"""What the commands read (the input's puzzles, the plan a user asked for), and the
pipeline's answers in input order, bad input reported in its place."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Mapping
from typing import Any

from solvers.backends import registry
from solvers.backends.spec import ALL, BackendSpec, parse_list
from solvers.base.errors import InputError, UsageError
from solvers.cli.arguments import options_given
from solvers.cli.compiling import compile_first, default_compiled
from solvers.cli.output import EXIT_BAD_INPUT, Run, progress_wanted
from solvers.formats.boards import Puzzle, format_board
from solvers.formats.datasets import read_named
from solvers.model.board import Board
from solvers.run.answer import Answer, Status
from solvers.run.pipeline import LineFile, Plan
from solvers.run.pipeline import run as run_plan


def items_of(args: argparse.Namespace, run: Run) -> Iterator[Puzzle | InputError]:
    """The input's puzzles, read lazily, an InputError in the place of each unreadable one,
    each one's notes said as it is read (``_say_notes``)."""
    if args.file == "-":
        _reading_stdin(run)
    named: set[str] = set()
    for item in read_named(args.file, args.input_format, args.box):
        if getattr(item, "notes", ()) or getattr(item, "ignored", ()):
            _say_notes(run, item, named)
        yield item


def _reading_stdin(run: Run) -> None:
    """Standard input on a terminal is said to be read, so a bare command does not wait
    silently."""
    if sys.stdin is not None and not sys.stdin.closed and sys.stdin.isatty():
        run.note(
            "reading puzzles from standard input (Ctrl-D ends; give a FILE, a board or a link)"
        )


def _say_notes(run: Run, item: Puzzle, named: set[str]) -> None:
    """The puzzle's notes, each said once a run (``named``: those said): one for the
    f-puzzles drawings left out (each key named once), and each note a puzzle carries (an
    ISS grid of values from 0 answered one higher)."""
    for note in item.notes:
        if note not in named:
            named.add(note)
            run.note(note)
    drawings = [key for key in item.ignored if key not in named]
    if drawings:
        named.update(drawings)
        run.note(_drawings_left_out(drawings))


def _drawings_left_out(keys: list[str]) -> str:
    """The note for f-puzzles drawing keys left out, each quoted as the key it is (``line``
    and ``text`` read as English words otherwise)."""
    quoted = ", ".join(f'"{key}"' for key in keys)
    if len(keys) == 1:
        return f"left out the f-puzzles key {quoted}: a drawing, which sets no rule"
    return f"left out the f-puzzles keys {quoted}: drawings, which set no rule"


def report_invalid(
    run: Run, args: argparse.Namespace, error: InputError, board: Board | None = None
) -> None:
    """A bad puzzle: one line on stderr, and its JSON record with the --json of the commands
    that write their answers as JSON lines (compare's --json names a file instead)."""
    run.warn(str(error), EXIT_BAD_INPUT)
    if getattr(args, "json", None) is True:
        record: dict[str, Any] = {"index": error.line, "status": "invalid", "error": str(error)}
        if board is not None:
            record["puzzle"] = format_board(board, "line")
        run.emit_json(record)


def puzzles_of(args: argparse.Namespace, run: Run) -> Iterator[Puzzle]:
    """The input's puzzles; each bad one (unreadable, or givens that clash) is reported (exit
    2) and skipped."""
    for item in items_of(args, run):
        if isinstance(item, Puzzle) and (clashing := item.board.conflicts()):
            # its record names the puzzle, as the other commands' records of clashing givens do
            report_invalid(run, args, InputError(clashing[0], item.line), item.board)
        elif isinstance(item, InputError):
            report_invalid(run, args, item)
        else:
            yield item


def plan_of(args: argparse.Namespace, run: Run, mode: str, limit: int = 1) -> Plan:
    """The plan of a solve or count: the backend a user named with its --option pairs, checked
    before any input is read, or none (the fastest available that encodes each puzzle's
    rules). The backend the run will use compiles first, said (``compiling``): the one named,
    or the default of a file of more puzzles than a small run."""
    backends: tuple[Any, ...] = ()
    if args.backend is None:
        if args.option:
            raise UsageError("--option needs --backend: options belong to one backend")
        compile_first(default_compiled(args.file), run)
    else:
        spec = BackendSpec.parse(args.backend)
        if args.option:
            spec = spec.with_options(options_given(args.option))
        backends = (spec.resolve(),)  # an unknown name, an unavailable backend, a bad option
        compile_first(backends, run)
    return Plan(mode, backends, limit, args.timeout, args.jobs, args.scheduler)


def answers_of(args: argparse.Namespace, run: Run, plan: Plan) -> Iterator[tuple[Puzzle, Any]]:
    """(puzzle, its answer) in input order, from the pipeline; a bad puzzle is reported in its
    place. A named line file may take the bulk path, whose text goes straight to the output
    (not with --json or f-puzzles links, which it would not print as the per-puzzle path
    does)."""
    # the formats' reader, which the pipeline pulls: each puzzle's notes are said here, as
    # its answer comes back (a reader of this layer's would have the way climb back up to it)
    if args.file == "-":
        _reading_stdin(run)
    items = read_named(args.file, args.input_format, args.box)
    named: set[str] = set()
    line_file = None
    written = getattr(args, "format", "auto")
    if not (getattr(args, "json", False) or args.file == "-" or written == "fpuzzles"):
        fmt = "line" if written == "auto" else written
        line_file = LineFile(args.file, args.input_format, args.box, fmt)
    bar = _bar(args, run) if progress_wanted(run.err) else None  # on a terminal alone
    told = (lambda done: bar.update(done - bar.n)) if bar is not None else None
    try:
        for piece in run_plan(items, plan, line_file=line_file, note=run.note, progress=told):
            if isinstance(piece, bytes):
                run.write(piece.decode("ascii"))
                continue
            item, answer = piece
            if getattr(item, "notes", ()) or getattr(item, "ignored", ()):
                _say_notes(run, item, named)
            if isinstance(item, InputError):
                report_invalid(run, args, item)
                continue
            if isinstance(answer, Answer) and answer.status is Status.INVALID:
                report_invalid(run, args, InputError(answer.detail, item.line), item.board)
                continue
            yield item, answer
    finally:
        items.close()
        run.end_progress()


def _bar(args: argparse.Namespace, run: Run):
    """The progress bar, its total the puzzle lines of a line-format file (unknown on standard
    input); None for a file of boards."""
    from solvers.formats.datasets import path_of
    from solvers.run.linefile import puzzle_lines, start  # NumPy: only with a bar to show

    path = path_of(args.file)
    if path is None:
        return run.progress_bar(None)
    skip = start(path, args.input_format)
    return None if skip is None else run.progress_bar(puzzle_lines(path, skip))


def backends_named(text: str, options: Mapping[str, Mapping[str, str]] = {}) -> list[BackendSpec]:
    """The specs of ``--backends`` (``all``: every available one), each with the ``options``
    given for its backend, resolved once before any work, a default restated left out.
    UsageError for two specs of one configuration: the run would time it once, in one row."""
    if text.strip() == ALL:
        registry.probe_imports(registry.names())  # outside packages' modules, at once
        specs = [BackendSpec(name) for name in registry.names() if registry.availability(name)[0]]
    else:
        specs = parse_list(text)
    found: dict[BackendSpec, BackendSpec] = {}
    for spec in specs:
        given = options.get(spec.name)
        resolved = (spec.with_options(given) if given else spec).resolve().plain()
        if resolved in found:
            raise UsageError(_same_configuration(found[resolved], spec, resolved))
        found[resolved] = spec
    return list(found)


def _same_configuration(first: BackendSpec, second: BackendSpec, resolved: BackendSpec) -> str:
    """Why two specs that parse apart name one configuration: the options one of them restates
    at their default."""
    restated = sorted(set(first.options) ^ set(second.options))
    said = ", ".join(f"{key}={value}" for key, value in restated)
    verb, defaults = ("is", "default") if len(restated) == 1 else ("are", "defaults")
    return (
        f"{first.label} and {second.label} are one configuration ({said} {verb}"
        f" {resolved.name}'s {defaults}): name each backend once"
    )
