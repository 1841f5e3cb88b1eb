"""``sudoku generate``: puzzles with exactly one solution (or several, or none)."""

from __future__ import annotations

import argparse
import secrets

from solvers.base.errors import UsageError
from solvers.cli.arguments import command, seconds, shape, whole
from solvers.cli.output import Run
from solvers.formats import variant_text
from solvers.formats.boards import format_puzzle
from solvers.formats.variant_text import RULE_NAMES
from solvers.generation.clues import GENERATED
from solvers.model.geometry import Shape
from solvers.model.variants import CLASSIC

ORDER = (*RULE_NAMES, *GENERATED)  # what --rules takes, in the order the header writes it
DEFAULT_TIMEOUT = 60.0  # seconds a puzzle may take to make (a 16x16 variant takes a few)


# A puzzle of another kind is a unique one of --clues givens twisted: for none a given is added
# to an empty cell, so one must be empty; for several one is taken away, and two solutions
# need four empty cells at least (two values swapped on the corners of a rectangle).
TWIST_ROOM = {"none": 1, "several": 3}
TWIST_WHY = {
    "none": "a puzzle with no solution is made by adding a given to an empty cell",
    "several": "two solutions need four empty cells, two values swapped on a rectangle",
}


def add_to(commands) -> None:
    parser = command(
        commands,
        "generate",
        "write puzzles with exactly one solution (or several, or none) in line format",
        "sudoku generate --count 10 --seed 7 --minimal --difficulty hard",
        statuses=False,
    )
    parser.epilog += (
        "\n\nDifficulty is measured: easy puzzles are solved by naked and hidden singles\n"
        "alone; medium ones need 1-3 guesses of a search that branches when singles stall;\n"
        "hard ones 4 or more.\n"
        "The same arguments give byte-identical output on every machine."
    )
    parser.add_argument("--size", type=whole(4, 25), metavar="N", help="board side (default 9)")
    parser.add_argument("--box", type=shape, metavar="RxC", help="box shape (default from N)")
    parser.add_argument(
        "--count", type=whole(0), default=1, metavar="K", help="puzzles (default 1)"
    )
    parser.add_argument(
        "--seed",
        type=whole(0),
        metavar="S",
        help="random seed (default: a fresh one, written in the header)",
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--clues", type=whole(0), metavar="C", help="stop removing at C givens")
    target.add_argument(
        "--minimal",
        action="store_true",
        help="remove clues until none can go (the default without --clues)",
    )
    parser.add_argument(
        "--difficulty",
        choices=["easy", "medium", "hard"],
        help="keep drawing until a puzzle is this hard: easy needs no guess beyond singles, "
        "medium 1-3 guesses, hard 4 or more (default: any)",
    )
    parser.add_argument(
        "--symmetric", action="store_true", help="remove cells in pairs under 180-degree rotation"
    )
    parser.add_argument(
        "--rules",
        type=rules_arg,
        default=frozenset(),
        metavar="x,windoku,jigsaw,killer,...",
        help="rule variants, combinable (killer,x): random regions for jigsaw, random cages "
        "over a solved grid for killer; and constraints: anti-knight, anti-king, "
        "non-consecutive (the grid obeys them), thermometer, arrow, kropki, xv (read off the "
        "solved grid; kropki and xv with their negative constraints)",
    )
    parser.add_argument(
        "--kind",
        choices=["unique", "several", "none"],
        default="unique",
        help="exactly one solution (default), two or more, or none",
    )
    parser.add_argument(
        "--timeout",
        type=seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"give up when a puzzle takes longer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.set_defaults(run=run, engines=True)


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers import __version__
    from solvers.generation.generate import Request, generate

    board_shape = args.box or Shape.for_size(args.size or 9)
    if args.size and board_shape.size != args.size:
        raise UsageError(f"box {board_shape} does not fit a {args.size}x{args.size} board")
    n = board_shape.size
    least = 0 if "killer" in args.rules else n - 1  # cages say what givens would
    if args.clues is not None and not least <= args.clues <= n * n:
        raise UsageError(
            f"--clues {args.clues}: a unique {n}x{n} puzzle needs at least {least} givens "
            f"(with fewer, two values no given holds could swap) and has at most {n * n}"
        )
    if (
        args.clues is not None
        and args.kind != "unique"
        and args.clues > n * n - TWIST_ROOM[args.kind]
    ):
        raise UsageError(
            f"--clues {args.clues} --kind {args.kind}: at most {n * n - TWIST_ROOM[args.kind]} "
            f"on a {n}x{n} board ({TWIST_WHY[args.kind]})"
        )
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    request = Request(
        board_shape,
        args.clues,
        args.clues is None,
        args.symmetric,
        args.difficulty,
        args.kind,
        args.rules,
    )
    run.emit(f"# sudoku generate {' '.join(words(args, board_shape, seed))}")
    run.emit(f"# made by sudoku-solvers {__version__}; {_bands()}")
    puzzles = generate(request, seed, args.timeout)
    header = variant_text.header(CLASSIC, board_shape.size)
    for _ in range(args.count):
        board, _guesses = next(puzzles)
        if (rules := variant_text.header(board.rules, board.size)) != header:
            run.emit(rules)  # once, or again where the constraints differ from the last
            header = rules
        run.emit(format_puzzle(board))


def words(args: argparse.Namespace, board_shape: Shape, seed: int) -> list[str]:
    """The command's arguments as the header records them, every default written out."""
    found = [f"--size {board_shape.size}"]
    found += [f"--box {board_shape}"] if board_shape != Shape.for_size(board_shape.size) else []
    found += [f"--count {args.count}", f"--seed {seed}"]
    found += [f"--clues {args.clues}"] if args.clues is not None else ["--minimal"]
    found += [f"--difficulty {args.difficulty}"] if args.difficulty else []
    found += ["--symmetric"] if args.symmetric else []
    found += [f"--rules {','.join(n for n in ORDER if n in args.rules)}"] if args.rules else []
    found += [f"--kind {args.kind}"] if args.kind != "unique" else []
    return found


def rules_arg(text: str) -> frozenset[str]:
    names = frozenset(word for word in text.replace(",", " ").lower().split())
    unknown = sorted(names - set(ORDER))
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"{text!r}: rules are {', '.join(ORDER)}, alone or together (killer,x)"
        )
    return names


def _bands() -> str:
    from solvers.generation.generate import DIFFICULTIES

    bands = ", ".join(
        f"{name} {low}{'+' if high is None else '' if high == low else f'-{high}'}"
        for name, (low, high) in DIFFICULTIES.items()
    )
    return f"difficulty by guesses of a singles-only propagating search: {bands}"
