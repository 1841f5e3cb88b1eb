"""``sudoku encode``: a puzzle's CNF in DIMACS, for any SAT solver."""

from __future__ import annotations

import argparse
import os

from solvers.backend import choose_options
from solvers.cli.inputs import puzzles_of
from solvers.cli.output import Run
from solvers.cli.parser import command, input_options, option
from solvers.errors import UsageError


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
        metavar="encoding=NAME",
        type=option,
        help=f"encoding: {ENCODINGS[0]} (default), {' or '.join(ENCODINGS[1:])}",
    )
    parser.add_argument(
        "--output-dir",
        metavar="DIR",
        help="for a many-puzzle file: write DIR/line-N.cnf for each puzzle",
    )
    parser.set_defaults(run=run, json=False)


def run(args: argparse.Namespace, run: Run) -> None:
    from adapters import cnf

    encoding = choose_options("encode", {"encoding": cnf.ENCODINGS}, dict(args.option))["encoding"]
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
