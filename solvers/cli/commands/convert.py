"""``sudoku convert``: puzzles from any form the readers know into another."""

from __future__ import annotations

import argparse
from itertools import chain, islice

from solvers.base.errors import InputError, UsageError
from solvers.cli.arguments import command, input_options
from solvers.cli.inputs import puzzles_of, report_invalid
from solvers.cli.output import Run


def add_to(commands) -> None:
    from solvers.formats.writing import FORMS

    parser = command(
        commands,
        "convert",
        "convert puzzles between f-puzzles links and the project's forms",
        "sudoku convert examples/fpuzzles.txt --to line\n"
        "  sudoku convert examples/killer.txt --to fpuzzles",
        statuses=False,
    )
    input_options(parser)
    parser.add_argument(
        "--to", choices=FORMS, required=True, help="the form to write each puzzle in"
    )
    parser.set_defaults(run=run, json=False)


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers.formats import variant_text
    from solvers.formats.writing import in_form, left_out, written

    puzzles = puzzles_of(args, run)
    first = list(islice(puzzles, 2))
    if args.to == "text" and len(first) > 1:
        raise UsageError("--to text writes one board; the input holds several (use --to line)")
    header = "# rules: classic"
    noted: set[str] = set()
    for puzzle in chain(first, puzzles):
        try:
            puzzle = in_form(puzzle, args.to)
            text = written(puzzle, args.to)
        except InputError as error:
            report_invalid(run, args, error if error.line else error.at_line(puzzle.line))
            continue
        missing = [what for what in left_out(puzzle, args.to) if what not in noted]
        if missing:  # each named once, as the drawings a reader leaves out are
            noted.update(missing)
            run.note(
                f"left out the {', '.join(missing)}: the {args.to} form has no place for "
                f"{'it' if len(missing) == 1 else 'them'} (--to json keeps every part)"
            )
        if (
            args.to == "line"
            and variant_text.header(puzzle.board.rules, puzzle.board.size) != header
        ):
            header = variant_text.header(puzzle.board.rules, puzzle.board.size)
            run.emit(header)
        run.emit(text)
