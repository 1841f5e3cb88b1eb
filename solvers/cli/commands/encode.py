"""``sudoku encode``: a puzzle's CNF in DIMACS, for any SAT solver, or its MiniZinc model, for
any solver MiniZinc drives (``--to minizinc``)."""

from __future__ import annotations

import argparse
import os
from itertools import chain, islice

from solvers.backends import registry
from solvers.backends.contract import choose_options
from solvers.base.errors import UsageError
from solvers.cli.arguments import command, input_options, option_argument, options_given
from solvers.cli.inputs import puzzles_of
from solvers.cli.output import Run, make_folder
from solvers.formats import whole
from solvers.formats.boards import format_puzzle

TARGETS = tuple(registry.ENCODERS)
SUFFIX = {"dimacs": "cnf", "minizinc": "mzn"}
# the CNF options, as comments say
FORMS = {"cages": "cages", "linear": "constraints' sums", "model": "the kinds' model"}


def add_to(commands) -> None:
    encodings = registry.encoder("dimacs").ENCODINGS
    parser = command(
        commands,
        "encode",
        "write a puzzle's CNF in DIMACS for any SAT solver, or its MiniZinc model",
        "sudoku encode examples/boj2239.txt --option encoding=extended > board.cnf\n"
        "  sudoku encode examples/puzzles.txt --to minizinc --output-dir models",
        statuses=False,
    )
    input_options(parser)
    parser.add_argument(
        "--to",
        choices=TARGETS,
        default=TARGETS[0],
        help="dimacs: the CNF (default); minizinc: a self-contained .mzn model whose output "
        "is the solved grid as one line",
    )
    option_argument(
        parser,
        f"encoding: {encodings[0]} (default), {' or '.join(encodings[1:])}; "
        "cages (killer): combinations (default) or pb; linear (the constraints' sums): dp "
        "(default) or pb (dimacs only); model (minizinc only): native (default: MiniZinc's own "
        "models of some kinds) or decomposed",
    )
    parser.add_argument(
        "--output-dir",
        metavar="DIR",
        help="for a many-puzzle file: write DIR/line-N.cnf (or .mzn) for each puzzle",
    )
    parser.set_defaults(run=run, json=False)


def run(args: argparse.Namespace, run: Run) -> None:
    write = _target(args.to, options_given(args.option))
    puzzles = puzzles_of(args, run)
    first = list(islice(puzzles, 2))
    if len(first) > 1 and not args.output_dir:
        raise UsageError("the input holds several puzzles; use --output-dir DIR for them")
    if args.output_dir:
        make_folder(args.output_dir, "--output-dir")
    for puzzle in chain(first, puzzles):
        text = write(puzzle)
        if not args.output_dir:
            run.write(text)
            continue
        path = os.path.join(args.output_dir, f"line-{puzzle.line}.{SUFFIX[args.to]}")
        with whole.written(path, "--output-dir") as handle:
            handle.write(text)


def _target(to: str, given: dict[str, str]):
    if to == "minizinc":
        mzn = registry.encoder("minizinc")
        if other := sorted(set(given) - set(mzn.OPTIONS)):
            raise UsageError(
                f"encode --to minizinc takes no --option {other[0]} (the CNF's); its one "
                f"option: model={'|'.join(mzn.OPTIONS['model'])}"
            )
        model = given.get("model", mzn.OPTIONS["model"][0])
        if model not in mzn.OPTIONS["model"]:
            allowed = ", ".join(mzn.OPTIONS["model"])
            raise UsageError(f"encode --to minizinc: model={model} is not one of {allowed}")
        native = frozenset() if model == "decomposed" else mzn.NATIVE
        return lambda puzzle: mzn.model(puzzle.board, _model_comments(puzzle), native=native)
    cnf = registry.encoder("dimacs")
    chosen = choose_options("encode", cnf.OPTIONS, given)

    def dimacs(puzzle) -> str:
        board = puzzle.board
        forms = (chosen[key] for key in ("encoding", "cages", "linear", "model"))
        formula = cnf.formula(board, *forms)
        return cnf.dimacs(formula, _comments(puzzle, chosen))

    return dimacs


def _comments(puzzle, chosen: dict[str, str]) -> list[str]:
    board = puzzle.board
    found = [
        f"sudoku {board.size}x{board.size} (box {board.shape}), encoding {chosen['encoding']}, "
        f"line {puzzle.line}",
        "variable (r*N + c)*N + v is true when row r, column c (from 0) holds v (from 1)",
    ]
    if not board.rules.is_classic:
        found.append(f"rules: {board.rules.label}; puzzle: {format_puzzle(board)}")
    used = registry.encoder("dimacs").settings(board, chosen)
    if len(used) > 1:  # more than units: their forms, and what the auxiliary variables are
        forms = "; ".join(f"{FORMS[key]} as {value}" for key, value in used.items() if key in FORMS)
        found.append(
            f"{forms}; variables above {board.size**3} are auxiliary (a set of values, "
            "a table row, a partial sum, an order, visibility or counter literal, or the sum "
            "encoder's own)"
        )
    return found


def _model_comments(puzzle) -> list[str]:
    from solvers.formats.variant_text import header

    board = puzzle.board
    return [
        f"sudoku {board.size}x{board.size} (box {board.shape}), line {puzzle.line}",
        header(board.rules, board.size).removeprefix("# "),
        f"puzzle: {format_puzzle(board)}",
        "run: minizinc --solver gecode FILE (prints the solved grid as one line)",
    ]
