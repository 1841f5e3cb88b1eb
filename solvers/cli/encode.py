"""``sudoku encode``: a puzzle's CNF in DIMACS, for any SAT solver."""

from __future__ import annotations

import argparse
import os
from itertools import chain, islice

from solvers.backend import choose_options
from solvers.cli.inputs import puzzles_of
from solvers.cli.output import Run
from solvers.cli.parser import command, input_options, option
from solvers.errors import UsageError
from solvers.formats import format_puzzle


def add_to(commands) -> None:
    from adapters.cnf import ENCODINGS

    parser = command(
        commands,
        "encode",
        "write a puzzle's CNF in DIMACS for any SAT solver",
        "sudoku encode board.txt --option encoding=extended > board.cnf",
        statuses=False,
    )
    input_options(parser)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        type=option,
        help=f"encoding: {ENCODINGS[0]} (default), {' or '.join(ENCODINGS[1:])}; "
        "cages (killer): combinations (default) or pb",
    )
    parser.add_argument(
        "--output-dir",
        metavar="DIR",
        help="for a many-puzzle file: write DIR/line-N.cnf for each puzzle",
    )
    parser.set_defaults(run=run, json=False)


def run(args: argparse.Namespace, run: Run) -> None:
    from adapters import cnf

    allowed = {"encoding": cnf.ENCODINGS, "cages": cnf.CAGE_ENCODINGS}
    chosen = choose_options("encode", allowed, dict(args.option))
    encoding, cages = chosen["encoding"], chosen["cages"]
    puzzles = puzzles_of(args, run)
    first = list(islice(puzzles, 2))
    if len(first) > 1 and not args.output_dir:
        raise UsageError("the input holds several puzzles; use --output-dir DIR for them")
    if args.output_dir:
        _make_folder(args.output_dir)
    for puzzle in chain(first, puzzles):
        board = puzzle.board
        text = cnf.dimacs(cnf.formula(board, encoding, cages), _comments(puzzle, chosen))
        if not args.output_dir:
            run.write(text)
            continue
        path = os.path.join(args.output_dir, f"line-{puzzle.line}.cnf")
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror}") from None


def _make_folder(path: str) -> None:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot create --output-dir {path}: {error.strerror}") from None


def _comments(puzzle, chosen: dict[str, str]) -> list[str]:
    board = puzzle.board
    found = [
        f"sudoku {board.size}x{board.size} (box {board.shape}), encoding {chosen['encoding']}, "
        f"line {puzzle.line}",
        "variable (r*N + c)*N + v is true when row r, column c (from 0) holds v (from 1)",
    ]
    if not board.rules.is_classic:
        found.append(f"rules: {board.rules.label}; puzzle: {format_puzzle(board)}")
    if board.rules.cages:
        found.append(
            f"cages as {chosen['cages']}; variables above {board.size**3} are auxiliary "
            "(a cage's set of values, or the sum encoder's own)"
        )
    return found
