"""``sudoku candidates``: each cell's true candidates (the values it holds in some solution),
as a pencil-mark grid or JSON; for a puzzle with several solutions, two that differ."""

from __future__ import annotations

import argparse

from solvers.analysis.candidates import SEVERAL, UNIQUE, UNSOLVABLE, Candidates, candidates_of
from solvers.backends import choice
from solvers.backends.spec import BackendSpec
from solvers.base.errors import SudokuError, UsageError, WrongAnswer
from solvers.cli.arguments import backend_options, command, input_options
from solvers.cli.compiling import compile_first
from solvers.cli.inputs import plan_of, puzzles_of
from solvers.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_TIMEOUT,
    EXIT_UNSOLVABLE,
    EXIT_WRONG_ANSWER,
    Run,
)
from solvers.formats import variant_text
from solvers.formats.boards import Puzzle, format_board
from solvers.formats.symbols import SYMBOL_OF
from solvers.model.board import Board
from solvers.run.answer import Status


def add_to(commands) -> None:
    parser = command(
        commands,
        "candidates",
        "each cell's true candidates: the values it holds in at least one solution",
        "sudoku candidates examples/several4.txt\n  sudoku candidates thermo9 --json",
    )
    parser.epilog += (
        "\n\nA unique puzzle shows its solution (one value a cell); one with several solutions\n"
        "shows every cell's candidates, then two solutions and the cells where they differ.\n"
        "--timeout bounds each puzzle: a partial answer says so (exit status 3)."
    )
    input_options(parser)
    backend_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    # one puzzle at a time in this process (plan_of reads the scale of a run)
    parser.set_defaults(run=run, engines=True, jobs=1, scheduler=None)


def run(args: argparse.Namespace, run: Run) -> None:
    plan = plan_of(args, run, "solve")  # the backend named, checked before any input is read
    announced: set[str] = set()
    for number, item in enumerate(puzzles_of(args, run)):
        where = f"line {item.line}: " if item.format in ("line", "fpuzzles") else ""
        try:
            spec = plan.backends[0] if plan.backends else None
            spec = spec or BackendSpec(choice.default_backend(item.board))
            if spec.name not in announced:  # a first compile is said, not hidden
                compile_first([spec], run)
                announced.add(spec.name)
            found = candidates_of(item.board, spec, args.timeout)
        except WrongAnswer as error:
            run.warn(f"{where}BUG: {error}", EXIT_WRONG_ANSWER)
            if args.json:
                run.emit_json(failed(item, Status.WRONG, error))
            continue
        except SudokuError as error:  # a backend that lacks a kind, or that failed
            run.warn(f"{where}{error}", EXIT_BAD_INPUT)
            if args.json:  # still one record per puzzle, as solve's --json keeps
                unsupported = isinstance(error, UsageError)
                run.emit_json(
                    failed(item, Status.UNSUPPORTED if unsupported else Status.ERROR, error)
                )
            continue
        if args.json:
            run.emit_json(record(item, found))
        elif found.status != UNSOLVABLE:
            if number:
                run.emit("")  # a blank line between puzzles' grids
            run.emit(f"{where}{headline(found)}")
            if found.found:  # with no solution found yet, no value is confirmed anywhere
                run.emit("\n".join(pencil_marks(found.board, found.values)))
            if len(found.solutions) == 2:
                run.emit(f"two solutions differ at {', '.join(found.differing_names())}:")
                run.emit("\n".join(side_by_side(*found.solutions)))
        if found.status == UNSOLVABLE:
            run.warn(f"{where}no solution", EXIT_UNSOLVABLE)
        if not found.complete:
            said = f"timeout after {args.timeout:g} s" if args.timeout else "the engine gave up"
            run.warn(f"{where}{said}: the answer is partial", EXIT_TIMEOUT)


def headline(found: Candidates) -> str:
    """What the grid below shows, in one line."""
    open_cells = sum(len(values) > 1 for values in found.values)
    if found.status == UNIQUE:
        return "unique: its solution, each cell's one candidate"
    if found.complete:
        return f"several solutions ({found.found} found): {open_cells} cells open"
    undecided = sum(map(len, found.undecided))
    said = f"{found.found} solutions found" if found.status == SEVERAL else "unknown"
    return f"partial ({said}): candidates confirmed so far, {undecided} values undecided"


def record(item: Puzzle, found: Candidates) -> dict:
    """The puzzle's JSON record: candidates per cell (row-major), the count's bound, two
    differing solutions; with its rules and f-puzzles title, author and ruleset."""
    board = found.board
    said = {
        "index": item.line,
        "puzzle": format_board(board, "line"),
        "status": found.status,
        "complete": found.complete,
        "count": found.found,
        "count_is": "exact" if found.exact else "at least",
        "candidates": [sorted(values) for values in found.values],
        "solutions": [format_board(solution, "line") for solution in found.solutions],
        "differ": found.differing_names(),
        "backend": found.backend,
        "seconds": float(f"{found.seconds:.4g}"),
        "calls": found.calls,
    }
    if not found.complete:
        said["undecided"] = [sorted(values) for values in found.undecided]
    if found.detail:
        said["error"] = found.detail
    return said | variant_text.record(board.rules, board.size) | dict(item.meta)


def failed(item: Puzzle, status: Status, error: SudokuError) -> dict:
    """The JSON record of a puzzle no candidates were found for: its status (``unsupported``,
    ``error``, ``wrong``, as solve's records name them) and why."""
    said = {
        "index": item.line,
        "puzzle": format_board(item.board, "line"),
        "status": str(status),
        "error": str(error),
    }
    return said | variant_text.record(item.board.rules, item.board.size) | dict(item.meta)


def pencil_marks(board: Board, values: tuple[frozenset[int], ...]) -> list[str]:
    """The candidates as a pencil-mark grid: each cell's values as symbols (1-9, then A-Z),
    columns as wide as their widest cell, the boxes ruled off (not on a jigsaw, whose regions
    are no boxes); a cell with none is a dot."""
    n = board.size
    marks = ["".join(SYMBOL_OF[v] for v in sorted(values[cell])) or "." for cell in range(n * n)]
    widths = [max(len(marks[r * n + c]) for r in range(n)) for c in range(n)]
    boxed = board.rules.regions is None and board.shape.has_boxes
    across = board.shape.box_cols if boxed else n
    down = board.shape.box_rows if boxed else n
    bands = [range(c, c + across) for c in range(0, n, across)]
    rule = "+" + "+".join("-" * (sum(widths[c] for c in b) + len(b) + 1) for b in bands) + "+"
    lines = [rule]
    for r in range(n):
        cells = [" ".join(marks[r * n + c].ljust(widths[c]) for c in b) for b in bands]
        lines.append("| " + " | ".join(cells) + " |")
        if (r + 1) % down == 0:
            lines.append(rule)
    return lines


def side_by_side(first: Board, second: Board) -> list[str]:
    """Two solutions' rows next to each other, a cell's value as its symbol."""
    n = first.size
    return [
        " ".join(SYMBOL_OF[v] for v in first.cells[r * n : (r + 1) * n])
        + "   "
        + " ".join(SYMBOL_OF[v] for v in second.cells[r * n : (r + 1) * n])
        for r in range(n)
    ]
