"""``sudoku count``: how many solutions each puzzle has, up to a limit."""

from __future__ import annotations

import argparse

from solvers.cli.arguments import backend_options, command, input_options, scale_options, whole
from solvers.cli.inputs import answers_of, plan_of
from solvers.cli.output import EXIT_UNSOLVABLE, Run, report_unsolved


def add_to(commands) -> None:
    parser = command(
        commands,
        "count",
        "count solutions, stopping at --limit",
        "sudoku count examples/puzzles.txt --limit 2  # prints 0, 1 or 2 (2 = 2 or more)",
    )
    input_options(parser)
    backend_options(parser)
    scale_options(parser)
    parser.add_argument(
        "--limit",
        type=whole(1),
        default=2,
        metavar="K",
        help="stop counting at K; K means 'K or more' (default 2)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    parser.set_defaults(run=run, engines=True)


def run(args: argparse.Namespace, run: Run) -> None:
    for item, answer in answers_of(args, run, plan_of(args, run, "count", args.limit)):
        if not answer.status.finished:
            report_unsolved(run, item, answer, args.timeout)
            if args.json:
                run.emit_json({"index": item.line, "count": None, "status": str(answer.status)})
            continue
        if args.json:
            run.emit_json(
                {
                    "index": item.line,
                    "count": answer.count,
                    "limit": args.limit,
                    "status": "counted",
                    "backend": answer.backend,
                }
                | dict(item.meta)
            )
        else:
            run.emit(str(answer.count))
        if answer.count == 0:
            run.end(EXIT_UNSOLVABLE)
