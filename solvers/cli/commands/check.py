"""``sudoku check``: backends on every puzzle, and what they disagree on."""

from __future__ import annotations

import argparse

from solvers.backends.spec import ALL, BackendSpec
from solvers.base.errors import InputError
from solvers.cli.arguments import command, input_options, scale_options, seconds
from solvers.cli.compiling import compile_first
from solvers.cli.inputs import answers_of, backends_named, items_of, report_invalid
from solvers.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_DISAGREE,
    EXIT_TIMEOUT,
    EXIT_WRONG_ANSWER,
    Run,
    counted,
)
from solvers.formats.boards import read_puzzles
from solvers.model.verify import problems
from solvers.run import judge
from solvers.run.answer import Answer, Status
from solvers.run.pipeline import Plan, jobs_for

DEFAULT_TIMEOUT = 10.0
# A file of more than SMALL puzzles is checked, unless told otherwise, by three fast engines that
# share no code (a search of this project's, CP, SAT), with a shorter timeout: every backend at
# 10 s a puzzle would take too long.
SMALL = 10
LARGE_BACKENDS = "propagate,cpsat,pysat"
LARGE_TIMEOUT = 1.0
COLUMNS = ("solved", "unsolvable", "timeout", "wrong", "errors", "unsupported", "disputed")
# what a disputed answer costs in check's table (compare's says the same of its own columns)
DISPUTED_COST = "counted disputed, not solved or unsolvable"
UNCOUNTED = "answered, then timed out counting"  # of the timeouts: a line under the table


def add_to(commands) -> None:
    parser = command(
        commands,
        "check",
        "run backends on every puzzle and compare their answers",
        "sudoku check examples/puzzles.txt --backends dfs,sat,cpsat --timeout 10",
        statuses=False,
    )
    parser.epilog += (
        "\n\nA puzzle agrees when every backend that finished agrees on solvability, every\n"
        "solution verifies, counts up to 2 agree, and a unique puzzle's solution matches the\n"
        "file's solution field, if any; it is confirmed when two backends or more answered\n"
        "in full (a timeout or an error is no disagreement: the puzzle may be unconfirmed).\n"
        "exit status: 0 all agree; 5 a wrong answer (a BUG line); 4 any disagreement;\n"
        "3 unconfirmed but no disagreement; 2 bad input or a backend that failed (bad lines\n"
        "are reported and the other puzzles still checked)."
    )
    input_options(parser)
    scale_options(parser)
    parser.add_argument(
        "--backends",
        metavar="a,b,...|all",
        help=f"backends to compare (default: every available one; for a file of more than "
        f"{SMALL} puzzles, {LARGE_BACKENDS})",
    )
    parser.add_argument(
        "--timeout",
        type=seconds,
        metavar="SECONDS",
        help=f"per backend and puzzle, for solving and for counting each (default "
        f"{DEFAULT_TIMEOUT:g}; {LARGE_TIMEOUT:g} for a file of more than {SMALL} puzzles: a "
        "puzzle no backend finishes in time is reported unconfirmed)",
    )
    parser.set_defaults(run=run, json=False, engines=True)


def run(args: argparse.Namespace, run: Run) -> None:
    puzzles = puzzle_count(args.file, args.input_format)
    if puzzles == 0:  # an empty file: the reader's word alone, no backend started, no table
        for item in items_of(args, run):
            if isinstance(item, InputError):
                report_invalid(run, args, item)
        return
    large = puzzles is not None and puzzles > SMALL
    default = LARGE_BACKENDS if large else ALL
    backends = default if args.backends is None else args.backends
    specs = backends_named(backends)
    compile_first(specs, run)
    timeout = args.timeout or (LARGE_TIMEOUT if large else DEFAULT_TIMEOUT)
    if args.backends is None or (large and args.timeout is None):  # what a user did not choose
        run.note(_what_runs(puzzles, specs, timeout, jobs_for(args.jobs), backends))
    labels = [spec.label for spec in specs]
    totals = {label: dict.fromkeys((*COLUMNS, UNCOUNTED), 0) for label in labels}
    seen = disagreed = unconfirmed = 0
    plan = Plan("check", tuple(specs), judge.COUNT_LIMIT, timeout, args.jobs, args.scheduler)
    for item, answers in answers_of(args, run, plan):
        wrong_field = item.known_solution and problems(item.board, item.known_solution)
        if wrong_field:
            message = f"the solution field is not a solution of the puzzle: {wrong_field[0]}"
            report_invalid(run, args, InputError(message, item.line), item.board)
            continue
        # the givens break a rule: any backend that takes the rules says so (one that does
        # not take them says only that)
        invalid = next((a for a in answers if a.status is Status.INVALID), None)
        if invalid is not None:
            report_invalid(run, args, InputError(invalid.detail, item.line), item.board)
            continue
        differences = judge.disagreements(answers, item.known_solution)
        # as compare weighs them: wrong answers and failures have lines of their own
        weighed = [a for a in answers if a.status not in (Status.WRONG, Status.ERROR)]
        doubted = judge.disputed(weighed, item.known_solution)
        seen += 1
        for answer in answers:
            column = str(answer.status) if str(answer.status) in COLUMNS else "errors"
            # a puzzle solved whose count then timed out did not finish its check, as the judge
            # says: a timeout, once (each backend's row adds up to the puzzles)
            uncounted = answer.status.finished and answer.count is None
            column = "timeout" if uncounted else column
            column = "disputed" if answer.backend in doubted else column
            totals[answer.backend][column] += 1
            totals[answer.backend][UNCOUNTED] += uncounted and column == "timeout"
        for text in differences:
            run.emit(f"line {item.line}: {text}")
        for answer in answers:
            if answer.status is Status.ERROR:
                run.emit(f"line {item.line}: {answer.backend}: {answer.detail}")
        for status, code in ((Status.WRONG, EXIT_WRONG_ANSWER), (Status.ERROR, EXIT_BAD_INPUT)):
            if any(answer.status is status for answer in answers):
                run.end(code)  # the documented table's: a wrong answer 5, a failure 2
        if differences:
            disagreed += 1
            run.end(EXIT_DISAGREE)
        elif (silent := _silent(answers)) and not judge.confirmed(answers):
            unconfirmed += 1
            run.emit(f"line {item.line}: unconfirmed, {silent}")
            run.end(EXIT_TIMEOUT)
        elif all(answer.status is Status.UNSUPPORTED for answer in answers):
            unconfirmed += 1  # nothing was checked
            rules = " and ".join(sorted(item.board.rules.names))
            run.emit(f"line {item.line}: unconfirmed, no backend named encodes {rules}")
            run.end(EXIT_TIMEOUT)
    _table(run, labels, totals)
    agreed = seen - disagreed - unconfirmed
    run.emit(
        f"{counted(seen, 'puzzle')}: {agreed} agree, {disagreed} disagree, {unconfirmed} "
        f"unconfirmed (timeouts or errors); backends: {', '.join(labels)}"
    )


def _silent(answers: list[Answer]) -> str:
    """Who said nothing on a puzzle: "timed out: a, b; failed: c", or ""."""
    said = [("timed out", judge.timed_out(answers)), ("failed", judge.failed(answers))]
    return "; ".join(f"{what}: {', '.join(names)}" for what, names in said if names)


def _table(run: Run, labels: list[str], totals: dict[str, dict[str, int]]) -> None:
    """The counts per backend; the ``disputed`` column, a backend's mark and its line under the
    table (compare's: ``summary.DISPUTED``) only where the judge disputed an answer."""
    from solvers.analysis import summary

    doubted = [{"backend": b, "disputed": totals[b]["disputed"]} for b in labels]
    shown = [c for c in COLUMNS if c != "disputed" or any(row["disputed"] for row in doubted)]
    rows = [
        (
            b + (summary.DISPUTED if totals[b]["disputed"] else ""),
            *(str(totals[b][c]) for c in shown),
        )
        for b in labels
    ]
    run.table([("backend", *shown), *rows])
    for line in summary.disputed_lines(doubted, DISPUTED_COST):
        run.emit(line)
    for b in labels:
        if late := totals[b][UNCOUNTED]:
            run.emit(
                f"{b}: {late} of its {counted(totals[b]['timeout'], 'timeout')} answered the "
                f"puzzle, then ran out of time counting its solutions (up to {judge.COUNT_LIMIT})"
            )


def puzzle_count(path: str, fmt: str) -> int | None:
    """How many puzzles a file holds, bad ones too (not an error about the whole input, such as
    "empty input"); None for standard input."""
    from solvers.formats.datasets import open_named, path_of

    if path == "-" or path_of(path) is None:
        return None
    from solvers.run.linefile import puzzle_lines, start

    skip = start(path_of(path), fmt)
    if skip is not None:
        return puzzle_lines(path_of(path), skip)
    with open_named(path) as handle:
        return sum(
            1
            for item in read_puzzles(handle, fmt)
            if not (isinstance(item, InputError) and item.line is None)
        )


def _what_runs(
    puzzles: int | None, specs: list[BackendSpec], timeout: float, jobs: int, backends: str
) -> str:
    """The line before a check on defaults: what runs, and the longest it may take."""
    if backends == ALL:
        named = f"every available backend ({len(specs)}; --backends chooses)"
    elif backends == LARGE_BACKENDS:
        named = f"{LARGE_BACKENDS.replace(',', ', ')} (for more than {SMALL} puzzles; --backends)"
    else:
        named = ", ".join(spec.label for spec in specs)
    calls = 2 * len(specs)  # a solve and a count each
    if puzzles is None:
        what, bound = "each puzzle", f"at most {_duration(calls * timeout)} a puzzle"
    else:
        what = counted(puzzles, "puzzle")
        bound = f"at most {_duration(puzzles * calls * timeout / min(jobs, puzzles or 1))}"
    return (
        f"checking {what} with {named}, each solving and counting within {timeout:g} s "
        f"(--timeout): {bound}"
    )


def _duration(seconds: float) -> str:
    """Seconds as a person reads a wait: '40 s', '9 min 30 s', '3 h 10 min'."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"
