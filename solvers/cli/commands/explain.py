"""``sudoku explain``: the human techniques' steps on one puzzle, easiest first, each with
what it places or eliminates, then the grid they reach."""

from __future__ import annotations

import argparse
from itertools import islice

from solvers.base.errors import InputError
from solvers.cli.arguments import command, input_options, whole
from solvers.cli.inputs import items_of, report_invalid
from solvers.cli.output import EXIT_BAD_INPUT, EXIT_UNSOLVABLE, Run
from solvers.formats.boards import Puzzle, format_board
from solvers.model.cells import cell_name


def add_to(commands) -> None:
    parser = command(
        commands,
        "explain",
        "explain one puzzle step by step with a player's techniques, easiest first",
        "sudoku explain easy9 --puzzle 3",
        statuses=False,
    )
    parser.epilog += (
        "\n\ntechniques, in Sudoku Explainer's order (docs/strength.md): full house, hidden and\n"
        "naked singles, each constraint's own steps (a killer cage's combinations, a\n"
        "thermometer's bounds, a dot's partners, ...), pointing and claiming; on variants a\n"
        "unit's value claimed by a constraint, two constraints read together, and a\n"
        "constraint that fills a house but a few cells; naked and hidden pairs, triples and\n"
        "quads, X-wing, swordfish and jellyfish, strong-link chains (skyscraper, 2-string\n"
        "kite, turbot fish, ...), XY-, XYZ-, WXYZ-, VWXYZ- and\n"
        "UVWXYZ-wings, unique rectangles (types 1-4), BUG (types 1, 2 and 4), aligned pair\n"
        "exclusion, X-, Y- and XY-cycles, forcing X-chains and forcing chains, Nishio,\n"
        "multiple and dynamic forcing chains; then, where those stall on a variant, the same\n"
        "chains along each constraint's links too.\n"
        "exit status: 0 solved by the techniques; 1 they stall (search is needed) or find a\n"
        "contradiction; 2 bad input or usage."
    )
    input_options(parser)
    parser.add_argument(
        "--puzzle",
        type=whole(1),
        default=1,
        metavar="N",
        help="the N-th puzzle of FILE (default 1)",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per step, then the end"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, run: Run) -> None:
    # the techniques: only when a puzzle is explained (the command line builds without them)
    from solvers.strength import human
    from solvers.strength.grid import grid as grid_of
    from solvers.strength.grid import outcome as outcome_of
    from solvers.strength.rating import graded, prepared
    from solvers.strength.techniques import Contradiction

    # the N-th puzzle of the file, a bad one counted in its place: never a later one instead
    item = next(islice(items_of(args, run), args.puzzle - 1, None), None)
    if isinstance(item, Puzzle) and (clashing := item.board.conflicts()):
        item = InputError(clashing[0], item.line)
    if item is None:
        source = "standard input" if args.file == "-" else args.file
        run.warn(f"{source} has no puzzle {args.puzzle}", EXIT_BAD_INPUT)
        return
    if isinstance(item, InputError):
        report_invalid(run, args, item)
        return
    board, n = item.board, item.board.size
    # as rate prepares it: the uniqueness techniques where the puzzle has one solution, so
    # that the steps shown are the ones the rating printed below grades
    grid, taken = prepared(board), []
    contradiction: str | None = None
    try:
        for step in human.steps(grid):
            taken.append(step)
            count = len(taken)
            if args.json:
                run.emit_json(
                    {"step": count, "technique": step.technique, "rating": step.rating,
                     "where": step.where, **({"reason": step.reason} if step.reason else {}),
                     "placed": [[cell_name(c, n), v] for c, v in step.placed],
                     "eliminated": [[cell_name(c, n), v] for c, v in step.eliminated]}
                )  # fmt: skip
            else:
                run.emit(f"{count}. {step.describe(n)}")
    except Contradiction as error:
        contradiction = str(error)
    cells = grid_of(grid.candidates)
    open_cells = cells.count(0)
    rating = graded(board, grid, taken, contradiction)  # the steps shown, not run again
    solved = contradiction is None and outcome_of(board, grid.candidates).solved
    end = (
        f"contradiction: {contradiction}" if contradiction is not None
        else "solved" if solved
        else f"stalled with {open_cells} cells open: search is needed" if open_cells
        else "filled, but the grid breaks a rule the techniques do not read"
    )  # fmt: skip
    shown = format_board(board.with_cells(cells), "spaced") if contradiction is None else ""
    if args.json:
        run.emit_json(
            {"index": item.line, "steps": len(taken), "end": end, "open": open_cells,
             "grid": format_board(board.with_cells(cells), "line").splitlines()[-1],
             "level": rating.level, "difficulty": rating.difficulty}
        )  # fmt: skip
    else:
        run.emit(f"{end}; rating {rating}")
        if shown:
            run.emit(shown.rstrip("\n"))
    if not solved:
        run.end(EXIT_UNSOLVABLE)
