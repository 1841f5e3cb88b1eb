"""``sudoku rate``: each puzzle's weakest human level that solves it (or ``search``) and a
difficulty on Sudoku Explainer's scale."""

from __future__ import annotations

import argparse

from solvers.base.errors import InputError
from solvers.cli.arguments import command, input_options
from solvers.cli.inputs import items_of, report_invalid
from solvers.cli.output import EXIT_UNSOLVABLE, Run


def add_to(commands) -> None:
    parser = command(
        commands,
        "rate",
        "grade each puzzle by the weakest technique level that solves it, and its SE difficulty",
        "sudoku rate hard9",
        statuses=False,
    )
    parser.epilog += (
        "\n\nlevels: singles, locked, subsets, fish, wings, strong-links, uniqueness, wxyz-wing,\n"
        "exclusion, chains, or search when none solves it.\n"
        "difficulty: the hardest step's Sudoku Explainer rating (1.0 full house ... 8.5+ dynamic\n"
        "forcing chains), SE's easiest step always taken first; '>=' marks a puzzle that needs\n"
        "more than the techniques here: at least SE's next rating (9.0; 6.2 beyond 9x9).\n"
        "puzzle: its number in the input, a bad one counted in its place, as explain --puzzle\n"
        "takes it; line: the line it starts on (the JSON's index, as in solve's).\n"
        "exit status: 0 rated; 1 a puzzle has no solution; 2 bad input or usage."
    )
    input_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers.strength.rating import NO_SOLUTION, rate  # the levels: when a puzzle is rated

    rows = [("puzzle", "line", "level", "difficulty", "hardest step")]
    # numbered as explain --puzzle numbers them: a bad puzzle counted in its place
    for number, item in enumerate(items_of(args, run), 1):
        if not isinstance(item, InputError) and (clashing := item.board.conflicts()):
            item = InputError(clashing[0], item.line)
        if isinstance(item, InputError):
            report_invalid(run, args, item)
            continue
        rating = rate(item.board)
        if rating.level == NO_SOLUTION:
            run.end(EXIT_UNSOLVABLE)
        if args.json:
            run.emit_json(
                {"index": item.line, "puzzle": number, "level": rating.level,
                 "difficulty": rating.difficulty, "bound": rating.bound,
                 "hardest": rating.hardest}
            )  # fmt: skip
        else:
            shown = f"{'>=' if rating.bound else ''}{rating.difficulty:.1f}"
            rows.append((str(number), str(item.line), rating.level, shown, rating.hardest or "-"))
    if not args.json and len(rows) > 1:
        run.table(rows)
