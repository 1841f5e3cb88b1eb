"""The ``sudoku`` command: solve, count, check, encode and list backends.

Only this module turns the library's exceptions into one-line messages and exit statuses.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TextIO

from solvers import registry
from solvers.api import REFERENCE_BACKEND, Status, count_solutions, solve
from solvers.board import Shape
from solvers.errors import (
    BackendUnavailable,
    InputError,
    SolveTimeout,
    SudokuError,
    UsageError,
    WrongAnswer,
)
from solvers.formats import FORMATS, Puzzle, format_board, read_puzzles

EXIT_OK = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2
EXIT_TIMEOUT = 3
EXIT_DISAGREE = 4
EXIT_WRONG_ANSWER = 5
# When puzzles end differently, the exit status is the most serious of them.
_SEVERITY = [
    EXIT_OK,
    EXIT_UNSOLVABLE,
    EXIT_TIMEOUT,
    EXIT_DISAGREE,
    EXIT_BAD_INPUT,
    EXIT_WRONG_ANSWER,
]

COMPARE_DEFAULT = ("easy9", "hard9", "big16")
COMPARE_LIMIT = 20
COMPARE_TIMEOUT = 1.0

EXIT_STATUSES = """\
exit status: 0 every puzzle solved; 1 at least one has no solution; 3 at least one timed out;
2 bad input or usage (2 wins over 3, which wins over 1); 5 a backend returned a wrong answer."""


def aligned(rows: list, numbers_right: bool = True) -> list[str]:
    """Rows of cells as lines of columns: the first column to the left, the others to the
    right when they hold numbers; trailing blanks trimmed."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(w) if i and numbers_right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def worst(*codes: int) -> int:
    return max(codes, key=_SEVERITY.index)


class Run:
    """What one command has seen so far: its exit status, and where messages go."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err, self.status = out, err, EXIT_OK

    def emit(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def warn(self, text: str, status: int) -> None:
        print(f"sudoku: {text}", file=self.err, flush=True)
        self.status = worst(self.status, status)

    def end(self, status: int) -> None:
        self.status = worst(self.status, status)


def main(
    argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its own one-line usage error
        return EXIT_BAD_INPUT if exit_.code else EXIT_OK
    run = Run(out, err)
    try:
        args.command(args, run)
    except WrongAnswer as error:
        run.warn(f"BUG: {error}", EXIT_WRONG_ANSWER)
    except SudokuError as error:
        run.warn(str(error), EXIT_BAD_INPUT)
    except OSError as error:
        run.warn(f"cannot read {error.filename or 'input'}: {error.strerror}", EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        return 130
    return run.status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku",
        description="Solve, count and cross-check Sudoku puzzles with interchangeable backends.",
        epilog="Run 'sudoku COMMAND --help' for each command, with an example.",
    )
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    solve_ = _command(
        commands,
        "solve",
        "solve one board, or every puzzle of a line-format file",
        "sudoku solve board.txt --backend dfs\n  sudoku solve puzzles.txt --json --timeout 5",
    )
    _input_options(solve_)
    _backend_options(solve_)
    _scale_options(solve_)
    solve_.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    solve_.set_defaults(command=solve_command)

    count = _command(
        commands,
        "count",
        "count solutions, stopping at --limit",
        "sudoku count puzzles.txt --limit 2  # prints 0, 1 or 2 (2 = 2 or more)",
    )
    _input_options(count)
    _backend_options(count)
    _scale_options(count)
    count.add_argument(
        "--limit",
        type=int,
        default=2,
        metavar="K",
        help="stop counting at K; K means 'K or more' (default 2)",
    )
    count.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    count.set_defaults(command=count_command)

    check = _command(
        commands,
        "check",
        "run every backend on every puzzle and compare answers",
        "sudoku check puzzles.txt --backends dfs,sat,cpsat --timeout 10",
        statuses=False,
    )
    check.epilog += (
        "\n\nA puzzle agrees when every backend that finished agrees on solvability, every\n"
        "solution verifies, counts up to 2 agree, and a unique puzzle's solution matches the\n"
        "file's solution field, if any.\n"
        "exit status: 0 all agree; 4 any disagreement; 3 timeouts but no disagreement;\n"
        "2 bad input (bad lines are reported and the other puzzles still checked)."
    )
    _input_options(check)
    _scale_options(check)
    check.add_argument(
        "--backends",
        default="all",
        metavar="a,b,...|all",
        help="backends to compare (default: every available one)",
    )
    check.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="per backend and puzzle, for solving and for counting each",
    )
    check.set_defaults(command=check_command, json=False)

    encode = _command(
        commands,
        "encode",
        "write a puzzle's CNF in DIMACS for any SAT solver",
        "sudoku encode board.txt --option encoding=extended > board.cnf",
        statuses=False,
    )
    _input_options(encode)
    encode.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="encoding=NAME",
        type=_option,
        help="encoding: reduced (default), extended or minimal",
    )
    encode.add_argument(
        "--output-dir",
        metavar="DIR",
        help="for a many-puzzle file: write DIR/line-N.cnf for each puzzle",
    )
    encode.set_defaults(command=encode_command, json=False)

    generate = _command(
        commands,
        "generate",
        "write puzzles with exactly one solution (or several, or none) in line format",
        "sudoku generate --count 10 --seed 7 --minimal --difficulty hard",
        statuses=False,
    )
    generate.epilog += (
        "\n\nDifficulty is measured: easy puzzles are solved by naked and hidden singles\n"
        "alone; medium ones need 1-3 guesses of the propagate backend; hard ones 4 or more.\n"
        "The same arguments give byte-identical output on every machine."
    )
    generate.add_argument("--size", type=int, metavar="N", help="board side (default 9)")
    generate.add_argument("--box", type=_shape, metavar="RxC", help="box shape (default from N)")
    generate.add_argument("--count", type=int, default=1, metavar="K", help="puzzles (default 1)")
    generate.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="random seed (default: a fresh one, written in the header)",
    )
    target = generate.add_mutually_exclusive_group()
    target.add_argument("--clues", type=int, metavar="C", help="stop removing at C givens")
    target.add_argument(
        "--minimal",
        action="store_true",
        help="remove clues until none can go (the default without --clues)",
    )
    generate.add_argument("--difficulty", choices=["easy", "medium", "hard"])
    generate.add_argument(
        "--symmetric", action="store_true", help="remove cells in pairs under 180-degree rotation"
    )
    generate.add_argument(
        "--kind",
        choices=["unique", "several", "none"],
        default="unique",
        help="exactly one solution (default), two or more, or none",
    )
    generate.set_defaults(command=generate_command)

    compare = _command(
        commands,
        "compare",
        "time every backend on the same puzzles, each in its own worker process",
        "sudoku compare                    # the default job, about two minutes on 2 cores\n"
        "  sudoku compare hard9 ../shared/data/top95.txt --backends native,pysat,cpsat "
        "--timeout 5 --json out.json --plot out.png",
        statuses=False,
    )
    compare.epilog += (
        f"\n\nWith no DATASET: the shipped sets {', '.join(COMPARE_DEFAULT)}, the first "
        f"{COMPARE_LIMIT} puzzles of each,\nwith a {COMPARE_TIMEOUT:g} s timeout: about two "
        "minutes on a 2-core machine. Times are per puzzle,\ntaken inside the worker around "
        "the solve alone (setup is reported apart); a puzzle\nthat outlives --timeout counts "
        "as a timeout, a crash as an error, and the run goes on.\n"
        "exit status: 0 done; 4 backends disagree on a puzzle; 5 a wrong answer; 2 bad input."
    )
    compare.add_argument(
        "datasets",
        nargs="*",
        metavar="DATASET",
        help=f"shipped dataset names or files (default: {' '.join(COMPARE_DEFAULT)})",
    )
    compare.add_argument(
        "--backends",
        default="all",
        metavar="a,b,...|all",
        help="backends to time (default: every available one)",
    )
    compare.add_argument(
        "--timeout", type=float, metavar="SECONDS", help=f"per puzzle (default {COMPARE_TIMEOUT:g})"
    )
    compare.add_argument(
        "--limit",
        type=int,
        metavar="N",
        help=f"the first N puzzles of each dataset (default {COMPARE_LIMIT} for the default "
        "sets, all for named ones)",
    )
    compare.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="BACKEND:KEY=VALUE",
        help="a backend option, e.g. sat:encoding=extended (repeatable)",
    )
    compare.add_argument("--json", metavar="FILE", help="write the results as JSON")
    _scale_options(compare)
    compare.add_argument(
        "--plot",
        metavar="FILE.png|FILE.svg",
        help="draw a cactus plot and the distribution of times",
    )
    compare.set_defaults(command=compare_command, file=None, input_format="auto", box=None)

    datasets = _command(
        commands,
        "datasets",
        "list the puzzle sets shipped with the project",
        "sudoku datasets\n  sudoku check hard9",
        statuses=False,
    )
    datasets.set_defaults(command=datasets_command)

    backends = _command(
        commands,
        "backends",
        "list every backend and whether it can be used",
        "sudoku backends",
        statuses=False,
    )
    backends.set_defaults(command=backends_command)
    return parser


def _command(commands, name: str, summary: str, example: str, statuses: bool = True):
    epilog = f"example:\n  {example}" + (f"\n\n{EXIT_STATUSES}" if statuses else "")
    return commands.add_parser(
        name,
        help=summary,
        description=summary[0].upper() + summary[1:] + ".",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="a board or a line-format file; '-' or nothing reads standard input",
    )
    parser.add_argument(
        "--format",
        choices=["auto", *FORMATS],
        default="auto",
        help="output form (default: the input's form; line for many puzzles)",
    )
    parser.add_argument(
        "--input-format",
        choices=["auto", *FORMATS],
        default="auto",
        help="read the input as this format instead of detecting it",
    )
    parser.add_argument(
        "--box",
        type=_shape,
        metavar="RxC",
        help="box shape, e.g. 2x3 for a 6x6 board with 2-row, 3-column boxes",
    )


def _scale_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="worker processes (default 1: this process; 0: every core)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 (needs the [dask] extra)",
    )


def _backend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        default=None,
        metavar="NAME",
        help=f"one of {', '.join(registry.names())} (default: the fastest available, see "
        f"'sudoku backends'; {REFERENCE_BACKEND} is the reference)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="give up on a puzzle after this many seconds",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        type=_option,
        help="a backend option, e.g. encoding=minimal (repeatable)",
    )


def _shape(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key.strip(), value.strip()


def options_of(args: argparse.Namespace) -> dict[str, str]:
    return dict(args.option)


@contextlib.contextmanager
def open_source(path: str) -> Iterator[TextIO]:
    """The named file, a shipped dataset by name, or standard input for '-'; undecodable bytes
    become bad cells."""
    from solvers.datasets import open_named

    if path == "-":
        yield sys.stdin
    else:
        with open_named(path) as handle:
            yield handle


def items_of(args: argparse.Namespace) -> Iterator[Puzzle | InputError]:
    """The input's puzzles, and in their place an InputError for each unreadable one, read
    lazily. (Givens that break a rule are found by the tasks, where the work is spread.)"""
    with open_source(args.file) as source:
        yield from read_puzzles(source, args.input_format, args.box)


class Conflict(str):
    """A task's answer for a puzzle whose givens break a rule: the rule, as text."""


def conflict_of(board) -> Conflict | None:
    conflicts = board.conflicts()
    return Conflict(conflicts[0]) if conflicts else None


def invalid(item: Puzzle, conflict: Conflict) -> InputError:
    error = InputError(str(conflict), item.line)
    error.board = item.board
    return error


def report_invalid(error: InputError, args: argparse.Namespace, run: Run) -> None:
    run.warn(str(error), EXIT_BAD_INPUT)
    if getattr(args, "json", False):
        record = {"index": error.line, "status": "invalid", "error": str(error)}
        board = getattr(error, "board", None)
        if board is not None:
            record["puzzle"] = format_board(board, "line")
        run.emit(json.dumps(record))


def puzzles_of(args: argparse.Namespace, run: Run) -> Iterator[Puzzle]:
    """The puzzles of the command's input; each bad one is reported (exit 2) and skipped."""
    for item in items_of(args):
        if isinstance(item, Puzzle) and (conflict := conflict_of(item.board)):
            item = invalid(item, conflict)
        if isinstance(item, InputError):
            report_invalid(item, args, run)
        else:
            yield item


def _check_backend(args: argparse.Namespace) -> None:
    """Fail early, before reading any input, on an unknown or unusable backend or option."""
    args.backend = args.backend or registry.default_backend()
    registry.load(args.backend, **options_of(args))


def each_result(task, args: argparse.Namespace, run: Run):
    """(item, task's answer) in input order, here or on ``--jobs``/``--scheduler`` workers."""
    from solvers.parallel import jobs_for, ordered

    progress = _throughput(run) if (args.jobs != 1 or args.scheduler) else None
    yield from ordered(task, items_of(args), jobs_for(args.jobs), args.scheduler, progress=progress)


@dataclass(frozen=True)
class SolveTask:
    """One puzzle's solve, runnable in any process; answers a compact, picklable record."""

    backend: str
    timeout: float | None
    options: tuple[tuple[str, str], ...]

    def __call__(self, board):
        from solvers.parallel import pack

        if conflict := conflict_of(board):
            return conflict
        try:
            result = solve(board, self.backend, timeout=self.timeout, **dict(self.options))
        except SudokuError as error:
            return error
        solution = pack(result.solution) if result.solution is not None else None
        return str(result.status), solution, result.seconds, result.stats


def solve_command(args: argparse.Namespace, run: Run) -> None:
    from solvers.parallel import unpack

    _check_backend(args)
    task = SolveTask(args.backend, args.timeout, tuple(sorted(options_of(args).items())))
    for item, answer in each_result(task, args, run):
        if isinstance(answer, Conflict):
            item = invalid(item, answer)
        if isinstance(item, InputError):
            report_invalid(item, args, run)
            continue
        if isinstance(answer, Exception):
            raise answer
        status, packed, seconds, stats = answer
        solution = unpack(packed) if packed is not None else None
        if args.json:
            run.emit(
                json.dumps(
                    {
                        "index": item.line,
                        "puzzle": format_board(item.board, "line"),
                        "status": status,
                        "solution": format_board(solution, "line") if solution else None,
                        "seconds": seconds,
                        "backend": args.backend,
                        "stats": stats,
                        "error": None,
                    }
                )
            )
        elif solution is not None:
            fmt = item.format if args.format == "auto" else args.format
            run.emit(format_board(solution, fmt))
        where = "" if item.format != "line" else f"line {item.line}: "
        if status == Status.UNSOLVABLE:
            run.warn(f"{where}no solution", EXIT_UNSOLVABLE)
        elif status == Status.TIMEOUT:
            run.warn(f"{where}timeout after {args.timeout:g} s", EXIT_TIMEOUT)


@dataclass(frozen=True)
class CountTask:
    backend: str
    limit: int
    timeout: float | None
    options: tuple[tuple[str, str], ...]

    def __call__(self, board):
        if conflict := conflict_of(board):
            return conflict
        try:
            return count_solutions(
                board, self.limit, self.backend, timeout=self.timeout, **dict(self.options)
            )
        except SudokuError as error:
            return error


def count_command(args: argparse.Namespace, run: Run) -> None:
    _check_backend(args)
    if args.limit < 1:
        raise UsageError(f"--limit must be at least 1, not {args.limit}")
    task = CountTask(
        args.backend, args.limit, args.timeout, tuple(sorted(options_of(args).items()))
    )
    for item, count in each_result(task, args, run):
        if isinstance(count, Conflict):
            item = invalid(item, count)
        if isinstance(item, InputError):
            report_invalid(item, args, run)
            continue
        if isinstance(count, SolveTimeout):
            run.warn(f"line {item.line}: timeout after {args.timeout:g} s", EXIT_TIMEOUT)
            if args.json:
                run.emit(json.dumps({"index": item.line, "count": None, "status": "timeout"}))
            continue
        if isinstance(count, Exception):
            raise count
        if args.json:
            run.emit(
                json.dumps(
                    {
                        "index": item.line,
                        "count": count,
                        "limit": args.limit,
                        "status": "counted",
                        "backend": args.backend,
                    }
                )
            )
        else:
            run.emit(str(count))
        if count == 0:
            run.end(EXIT_UNSOLVABLE)


def backends_command(args: argparse.Namespace, run: Run) -> None:
    fastest = registry.default_backend()
    rows = []
    for name in registry.names():
        ok, reason = registry.availability(name)
        default = {fastest: " (default)", REFERENCE_BACKEND: " (reference)"}.get(name, "")
        rows.append(
            (
                name + default,
                registry.version(name),
                reason if not ok else "available",
                registry.info(name).summary,
            )
        )
    for line in aligned(rows, numbers_right=False):
        run.emit(line)


def backends_to_compare(spec: str) -> dict[str, float]:
    """Named backends (each must be importable), or every available one for 'all', with the
    seconds each import took (part of a backend's setup, which compare reports)."""
    every = spec == "all"
    names = registry.names() if every else [n.strip() for n in spec.split(",") if n.strip()]
    imported = {}
    for name in names:
        start = time.perf_counter()
        try:
            registry.backend_class(name)
        except BackendUnavailable:
            if every:
                continue  # "all" means every available one
            raise
        imported[name] = time.perf_counter() - start
    return imported


@dataclass(frozen=True)
class CheckTask:
    backends: tuple[str, ...]
    timeout: float | None

    def __call__(self, board):
        from solvers.check import ask_all

        return conflict_of(board) or ask_all(board, list(self.backends), self.timeout)


def check_command(args: argparse.Namespace, run: Run) -> None:
    from solvers.check import verdict_for

    backends = list(backends_to_compare(args.backends))
    totals = {name: dict.fromkeys(CHECK_COLUMNS, 0) for name in backends}
    seen = disagreed = timed_out = 0
    for item, answers in each_result(CheckTask(tuple(backends), args.timeout), args, run):
        if isinstance(answers, Conflict):
            item = invalid(item, answers)
        if isinstance(item, InputError):
            report_invalid(item, args, run)
            continue
        verdict = verdict_for(item, answers)
        seen += 1
        for answer in verdict.answers:
            column = answer.status if answer.status in CHECK_COLUMNS else "errors"
            totals[answer.backend][column] += 1
            totals[answer.backend]["timeout"] += answer.status != "timeout" and answer.count is None
        for text in verdict.disagreements:
            run.emit(f"line {item.line}: {text}")
        if verdict.disagreements:
            disagreed += 1
            run.end(EXIT_DISAGREE)
        elif verdict.timed_out:
            timed_out += 1
            run.emit(f"line {item.line}: unconfirmed, timed out: {', '.join(verdict.timed_out)}")
            run.end(EXIT_TIMEOUT)
    header = ("backend", *CHECK_COLUMNS)
    rows = [header, *((name, *(str(totals[name][c]) for c in CHECK_COLUMNS)) for name in backends)]
    for line in aligned(rows):
        run.emit(line)
    agreed = seen - disagreed - timed_out
    run.emit(
        f"{seen} puzzles: {agreed} agree, {disagreed} disagree, {timed_out} unconfirmed "
        f"(timeouts); backends: {', '.join(backends)}"
    )


CHECK_COLUMNS = ("solved", "unsolvable", "timeout", "wrong", "errors")


def encode_command(args: argparse.Namespace, run: Run) -> None:
    from adapters import cnf
    from solvers.backend import choose_options

    encoding = choose_options(
        "encode", {"encoding": ("reduced", "extended", "minimal")}, options_of(args)
    )["encoding"]
    for written, puzzle in enumerate(puzzles_of(args, run)):
        board = puzzle.board
        text = cnf.dimacs(
            cnf.encode(board, encoding),
            board.size**3,
            [
                f"sudoku {board.size}x{board.size} (box {board.shape}), encoding {encoding}, "
                f"line {puzzle.line}",
                "variable (r*N + c)*N + v is true when row r, column c (from 0) holds v (from 1)",
            ],
        )
        if args.output_dir:
            path = os.path.join(args.output_dir, f"line-{puzzle.line}.cnf")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        elif written:
            raise UsageError("the input holds several puzzles; use --output-dir DIR for them")
        else:
            run.out.write(text)


def generate_command(args: argparse.Namespace, run: Run) -> None:
    import secrets

    from solvers.generate import DIFFICULTIES, Request, generate

    shape = args.box or Shape.for_size(args.size or 9)
    if args.size and shape.size != args.size:
        raise UsageError(f"box {shape} does not fit a {args.size}x{args.size} board")
    if args.count < 0:
        raise UsageError(f"--count must be at least 0, not {args.count}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    request = Request(
        shape, args.clues, args.clues is None, args.symmetric, args.difficulty, args.kind
    )
    words = [f"--size {shape.size}"]
    words += [f"--box {shape}"] if shape != Shape.for_size(shape.size) else []
    words += [f"--count {args.count}", f"--seed {seed}"]
    words += [f"--clues {args.clues}"] if args.clues is not None else ["--minimal"]
    words += [f"--difficulty {args.difficulty}"] if args.difficulty else []
    words += ["--symmetric"] if args.symmetric else []
    words += [f"--kind {args.kind}"] if args.kind != "unique" else []
    bands = ", ".join(
        f"{name} {low}{'+' if high is None else '' if high == low else f'-{high}'}"
        for name, (low, high) in DIFFICULTIES.items()
    )
    run.emit(f"# sudoku generate {' '.join(words)}")
    run.emit(
        f"# made by sudoku-solvers {_version()}; difficulty by guesses of the propagate "
        f"backend: {bands}"
    )
    puzzles = generate(request, seed)
    for _ in range(args.count):
        board, _guesses = next(puzzles)
        run.emit(format_board(board, "line"))


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("sudoku-solvers")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def datasets_command(args: argparse.Namespace, run: Run) -> None:
    from solvers.datasets import DATASETS
    from solvers.formats import read_puzzles

    rows = [("name", "size", "count", "description")]
    for dataset in DATASETS.values():
        with dataset.open() as handle:
            boards = [p.board for p in read_puzzles(handle) if isinstance(p, Puzzle)]
        size = f"{boards[0].size}x{boards[0].size}" if boards else "-"
        rows.append((dataset.name, size, str(len(boards)), dataset.description))
    for line in aligned(rows, numbers_right=False):
        run.emit(line)


def compare_command(args: argparse.Namespace, run: Run) -> None:
    from solvers import compare
    from solvers.backend import choose_options
    from solvers.parallel import jobs_for

    options: dict[str, dict[str, str]] = {}
    for spec in args.option:
        backend, sep, pair = spec.partition(":")
        key, eq, value = pair.partition("=")
        if not sep or not eq:
            raise UsageError(f"--option {spec!r} is not BACKEND:KEY=VALUE")
        options.setdefault(backend, {})[key] = value
    imported = backends_to_compare(args.backends)
    for name in imported:  # check options before any work, without building
        choose_options(name, registry.backend_class(name).OPTIONS, options.get(name, {}))
    backends = list(imported)
    sources = args.datasets or list(COMPARE_DEFAULT)
    limit = args.limit if args.limit is not None else (None if args.datasets else COMPARE_LIMIT)
    timeout = args.timeout if args.timeout is not None else COMPARE_TIMEOUT
    if args.plot and not args.plot.lower().endswith((".png", ".svg")):
        raise UsageError(f"--plot {args.plot}: the file must end in .png or .svg")
    report = {"machine": compare.machine(), "datasets": []}
    runs = {}
    for source in sources:
        boards = []
        args.file = source
        for puzzle in puzzles_of(args, run):
            if limit is not None and len(boards) >= limit:
                break
            boards.append(puzzle.board)
        if not boards:
            continue
        run.emit(f"{source}: {len(boards)} puzzles, timeout {timeout:g} s per puzzle")
        results = []
        for name in backends:
            progress = _progress(run, f"{source}: {name}")
            if args.jobs != 1 or args.scheduler:
                results.append(
                    compare.run_backend_spread(
                        name,
                        options.get(name, {}),
                        boards,
                        timeout,
                        jobs_for(args.jobs),
                        args.scheduler,
                        imported.pop(name, 0.0),
                    )
                )
            else:
                results.append(
                    compare.run_backend(
                        name,
                        options.get(name, {}),
                        boards,
                        timeout,
                        progress,
                        imported.pop(name, 0.0),
                    )
                )
        summaries = [r.summary() for r in results]
        for line in aligned(compare.table(summaries)):
            run.emit(line)
        for text in compare.disagreements(boards, results):
            run.emit(text)
            run.end(EXIT_WRONG_ANSWER if "WRONG" in text else EXIT_DISAGREE)
        run.emit("")
        report["datasets"].append(
            {"name": source, "path": _path_of(source), "puzzles": len(boards), "results": summaries}
        )
        runs[source] = results
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)
    if args.plot:
        compare.plot(report["datasets"], runs, args.plot)


def _path_of(source: str) -> str:
    from solvers.datasets import shipped

    dataset = shipped(source)
    return f"(shipped) solvers/datasets/{dataset.filename}" if dataset else os.path.abspath(source)


def _throughput(run: Run):
    """A progress line with throughput on a terminal; nothing when the output is not one."""
    if not run.err.isatty():
        return None

    def show(done: int, seconds: float) -> None:
        rate = done / seconds if seconds > 0 else 0.0
        print(f"\r{done} puzzles, {rate:,.0f} per second", end="", file=run.err, flush=True)

    return show


def _progress(run: Run, label: str):
    """A progress line on a terminal; nothing when the output is not one."""
    if not run.err.isatty():
        return None

    def show(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\r{label} {done}/{total}", end=end, file=run.err, flush=True)

    return show
