"""``sudoku solve``: one board, or every puzzle of a line-format file."""

from __future__ import annotations

import argparse

from solvers.base.errors import InputError
from solvers.cli.arguments import backend_options, command, input_options, scale_options
from solvers.cli.inputs import answers_of, plan_of
from solvers.cli.output import (
    EXIT_BAD_INPUT,
    Run,
    report_unsolved,
)
from solvers.formats import variant_text
from solvers.formats.boards import Puzzle, format_board
from solvers.model.board import Board
from solvers.run.answer import Answer, Status


def add_to(commands) -> None:
    parser = command(
        commands,
        "solve",
        "solve one board, or every puzzle of a line-format file",
        "sudoku solve examples/boj2580.txt --backend dfs\n"
        "  sudoku solve examples/puzzles.txt --json --timeout 5",
    )
    input_options(parser, output=True)
    backend_options(parser)
    scale_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    parser.set_defaults(run=run, engines=True)


def run(args: argparse.Namespace, run: Run) -> None:
    for item, answer in answers_of(args, run, plan_of(args, run, "solve")):
        if args.json:
            run.emit_json(record(item, answer))
        elif answer.solution is not None:
            fmt = item.format if args.format == "auto" else args.format
            try:
                if fmt == "fpuzzles":  # the puzzle with its solution filled in
                    run.emit(_link(item, answer.solution, args.format == "auto"))
                else:
                    run.emit(format_board(answer.solution, fmt))
            except InputError as error:  # a board the chosen format cannot hold
                run.warn(str(error.at_line(item.line)), EXIT_BAD_INPUT)
        if answer.status is not Status.SOLVED:
            report_unsolved(run, item, answer, args.timeout)


def _link(item: Puzzle, solution: Board, as_read: bool) -> str:
    """The f-puzzles link of the puzzle with ``solution`` filled in, ``as_read``: in the form
    of link the puzzle came as (a SudokuPad link's, its host and all)."""
    from solvers.formats import fpuzzles, fpuzzles_link  # only for f-puzzles

    start = item.link if as_read else fpuzzles_link.URL
    return fpuzzles.link(item.board, solution, item.meta, start)


def record(item: Puzzle, answer: Answer) -> dict:
    """The puzzle's JSON record, with its rules and f-puzzles title, author and ruleset."""
    solution, board = answer.solution, item.board
    rules_and_meta = variant_text.record(board.rules, board.size) | dict(item.meta)
    return {
        "index": item.line,
        "puzzle": format_board(board, "line"),
        "status": str(answer.status),
        "solution": format_board(solution, "line") if solution else None,
        "seconds": float(f"{answer.seconds:.4g}"),  # four significant digits: the rest is noise
        "backend": answer.backend,
        "stats": dict(answer.stats),
        "error": answer.detail or None,
    } | rules_and_meta
