"""Real published variant puzzles, fetched from the Interactive Sudoku Solver at benchmark time.

sigh's Interactive Sudoku Solver (ISS, github.com/sigh/Interactive-Sudoku-Solver) keeps the
puzzles it shows and benchmarks with, each with its source and its published solution, in
``data/example_puzzles.js`` and ``data/collections.js``. They belong to their setters and to
that project: they are never copied into this one. This script fetches both files at a fixed
commit (or reads them from a checkout), keeps each puzzle given as a constraint string that
this project reads (every type of it has a kind here: ``solvers/formats/sigh_types.py``; a grid
of values 0..N-1 is read one higher, and ``--check`` takes 1 from each value of its answer), and
writes them one a line, each under a ``#`` line with its name, for ``sudoku compare``,
``pytest bench --dataset`` and the rest:

    python bench/iss.py                        # writes ../shared/data/iss.txt
    python bench/iss.py --from CHECKOUT        # the same from a clone of the repository
    python bench/iss.py --check cpsat          # and each answer against the published one
    sudoku compare ../shared/data/iss.txt --backends native,cpsat,sat --timeout 5

Without the network (and no ``--from``) it says so and exits 0 with nothing written, as the
tests that read the public sets skip without them. What it could not read is counted by the
reason, so the set's coverage is stated, not guessed.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import urllib.request
from collections import Counter
from pathlib import Path

from solvers import InputError, SolveTimeout, count_solutions, solve
from solvers.formats import sigh

COMMIT = "e373f9811c087246b097eb444d838ab492c55f35"  # 2026-08-22
RAW = "https://raw.githubusercontent.com/sigh/Interactive-Sudoku-Solver/{commit}/{path}"
FILES = ("data/example_puzzles.js", "data/collections.js")
DEFAULT_OUT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "iss.txt"
_ENTRY = re.compile(r"\{\s*name:\s*'((?:[^'\\]|\\.)*)'(.*?)\n\s*\}", re.S)
# an input is one or more quoted strings joined by +, or one template literal (`...`, no ${})
_INPUT = re.compile(r"input:\s*((?:'(?:[^'\\]|\\.)*'\s*\+?\s*)+|`[^`$]*`)")
_STRING = re.compile(r"'((?:[^'\\]|\\.)*)'|`([^`]*)`")
_SOLUTION = re.compile(r"solution:\s*'([^']*)'")


def entries(text: str) -> list[tuple[str, str, str | None]]:
    """(name, input, published solution) of each puzzle entry of an ISS data file."""
    found = []
    for entry in _ENTRY.finditer(text):
        body = entry.group(2)
        given = _INPUT.search(body)
        if given is None:
            continue
        solution = _SOLUTION.search(body)
        found.append(
            (
                entry.group(1),
                "".join(q or b for q, b in _STRING.findall(given.group(1))),
                solution.group(1) if solution else None,
            )
        )
    return found


def constraint_string(given: str) -> str:
    """``given`` as an ISS constraint string, where ISS's parser reads it as one of its other
    text forms (``js/sudoku_parser.js``): the short killer format (81 characters, a cage's sum
    in one cell as a base-62 digit, each other cell of the cage an arrow toward it), SudoCue's
    long killer format ("3x3:d:k:" and 81 numbers, each cage's sum * 256 + its number; "d" adds
    both diagonals), a jigsaw as its givens then its layout (N*N characters each), and
    pencilmarks (9 characters a cell, a digit for each value left, "." for one struck out). A
    constraint string loses its whitespace, as ISS reads it; anything else is returned as it
    is."""
    if (short := _short_killer(re.sub(r"\s+", "", given))) is not None:
        return short
    if (jigsaw := _jigsaw(re.sub(r"\s+", "", given))) is not None:
        return jigsaw
    if given.lstrip().startswith("."):
        return re.sub(r"\s+", "", given)
    parts = given.split(":")
    if given.startswith("3x3:") and len(parts) == 81 + 4 and parts[2] == "k":  # a last ":"
        cages: dict[int, tuple[int, list[str]]] = {}
        for index, word in enumerate(parts[3:84]):
            if not word.isdigit() or not (total := int(word) // 256):
                continue
            cages.setdefault(int(word) % 256, (total, []))[1].append(_cell(index))
        diagonals = ".Diagonal~1.Diagonal~-1" if parts[1] == "d" else ""
        return diagonals + "".join(f".Cage~{t}~{'~'.join(cells)}" for t, cells in cages.values())
    if len(given) == 729 and re.fullmatch(r"[0-9.]+", given):
        marks = (given[k * 9 : k * 9 + 9].replace(".", "") for k in range(81))
        return ".~" + "~".join(f"{_cell(k)}_{'_'.join(m)}" for k, m in enumerate(marks))
    return given


# each arrow of the short killer format as the step to the cell it points at, on 9x9
_ARROWS = {"v": 9, "^": -9, "<": -1, ">": 1, "`": -10, "'": -8, ",": 8, ".": 10}


def _short_killer(text: str) -> str | None:
    """The cages of the short killer format as ISS's ``_parseShortKillerFormatToAst`` reads
    them (the forum.enjoysudoku.com format it cites): each cell follows its arrows to a cell
    holding a sum (0-9, A-Z for 10-35, a-j for 36-45); a cell led off the grid is in no cage.
    None if ``text`` is not of that format (ISS needs a non-diagonal arrow or a comma in it)."""
    if len(text) != 81 or not re.search(r"[<v>^`',]", text):
        return None
    if not re.fullmatch(r"[0-9A-Za-j^<v>`',.]*", text):
        return None
    cages: dict[int, list[str]] = {}
    for index in range(81):
        end, steps = index, 0
        while 0 <= end < 81 and text[end] in _ARROWS:
            end += _ARROWS[text[end]]
            steps += 1
            if steps > 9:  # ISS: "Loop in Killer Sudoku input."
                return None
        if 0 <= end < 81 and text[end] not in _ARROWS:  # off the grid: in no cage
            cages.setdefault(end, []).append(_cell(index))
    return "".join(f".Cage~{_base62(text[end])}~{'~'.join(cells)}" for end, cells in cages.items())


def _jigsaw(text: str) -> str | None:
    """A jigsaw as ISS's ``_parseJigsawToAst`` reads it: N*N givens, then N*N region symbols
    (N different ones, N cells each); a given is a digit, or on a grid of more than 9 values a
    letter (A for 1), and every other character of the givens one and the same blank."""
    n = math.isqrt(len(text) // 2)
    if len(text) != 2 * n * n or not 1 <= n <= 16:
        return None
    givens, layout = text[: n * n], text[n * n :]
    symbols = set(layout)
    if len(symbols) != n or any(layout.count(symbol) != n for symbol in symbols):
        return None
    values = [_short_char_value(char, n) for char in givens]
    if len({char for char, value in zip(givens, values, strict=True) if value is None}) > 1:
        return None
    cells = [f"{_cell(k, n)}_{value}" for k, value in enumerate(values) if value is not None]
    return f".Shape~{n}x{n}.Jigsaw~{layout}.NoBoxes.~{'~'.join(cells)}"


def _short_char_value(char: str, n: int) -> int | None:
    """A value of 1..N written as one character (ISS's ``shortCharToValue``), else None."""
    if n < 10:
        value = int(char) if char in "0123456789" else None
    else:
        value = ord(char) - ord("A") + 1 if "A" <= char <= "Z" else None
    return value if value is not None and 1 <= value <= n else None


def _base62(char: str) -> int:
    if char.isdigit():
        return int(char)
    return ord(char) - ord("A") + 10 if char.isupper() else ord(char) - ord("a") + 36


def _cell(index: int, n: int = 9) -> str:
    """ISS's cell id: a row and a column each one digit of base 17 (R1Cb: column 11)."""
    return f"R{_DIGITS17[index // n]}C{_DIGITS17[index % n]}"


_DIGITS17 = "123456789abcdefg"


def fetch(source: str | None) -> list[str] | None:
    """The data files' texts, from a checkout or from GitHub at ``COMMIT``; None offline."""
    if source:
        return [(Path(source) / path).read_text(encoding="utf-8") for path in FILES]
    texts = []
    for path in FILES:
        url = RAW.format(commit=COMMIT, path=path)
        try:
            with urllib.request.urlopen(url, timeout=20) as reply:
                texts.append(reply.read().decode("utf-8"))
        except OSError as error:
            print(f"cannot fetch {url}: {error}; nothing written", file=sys.stderr)
            return None
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="source", metavar="CHECKOUT", help="a clone to read")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"(default {DEFAULT_OUT})")
    parser.add_argument("--check", metavar="SPEC", help="solve each with SPEC against its solution")
    parser.add_argument("--timeout", type=float, default=20.0, help="per puzzle for --check")
    args = parser.parse_args(argv)
    texts = fetch(args.source)
    if texts is None:
        return 0
    kept, left, seen = [], Counter(), set()
    for name, given, solution in (e for text in texts for e in entries(text)):
        given = constraint_string(given)
        if given in seen:  # the same puzzle, perhaps written in another of ISS's forms
            continue
        seen.add(given)
        if re.fullmatch(r"/data/scripts/\S+\.js", given):
            left["a JavaScript program ISS runs to build the puzzle: not read"] += 1
            continue
        if not sigh.looks_like(given):
            left["not a constraint string (a grid, or a form not read here)"] += 1
            continue
        try:
            board, low = sigh.read_with_least(given)
        except InputError as error:
            left[error.message] += 1
            continue
        kept.append((name, given, solution, board, low))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# ISS {COMMIT[:10]}: {name}\n{given}\n" for name, given, *_ in kept]
    args.out.write_text("".join(lines), encoding="utf-8")
    print(f"{args.out}: {len(kept)} puzzles of {len(kept) + sum(left.values())} read")
    for why, count in left.most_common():
        print(f"  left out {count}: {why}")
    if args.check:
        return _check(kept, args.check, args.timeout)
    return 0


def _check(kept: list, spec: str, timeout: float) -> int:
    """Each puzzle solved with ``spec`` against the solution ISS publishes for it. An answer
    that differs is counted to 2 with ``spec`` before it is called a difference: a puzzle with
    two solutions (a snipe with no givens, symmetric under 1<->9) may be answered with the
    other one, and is said to be not unique instead."""
    wrong = not_unique = 0
    for name, _, solution, board, low in kept:  # a grid of 0..N-1 is read one higher
        answer = solve(board, backend=spec, timeout=timeout)
        got = None
        if answer.solution is not None:
            high = board.shape.size - 1 + low
            got = "".join(_short_char(value - 1 + low, high) for value in answer.solution.cells)
        if solution and got and got != solution:
            try:
                solutions = count_solutions(board, 2, backend=spec, timeout=timeout)
            except SolveTimeout:
                solutions = None
            if solutions is not None and solutions >= 2:
                not_unique += 1
                print(f"not unique (2 solutions) {name}: {got} (published {solution})")
                continue
            wrong += 1
            unknown = " (not counted to 2 in time)" if solutions is None else ""
            print(f"DIFFERENT {name}: {got} (published {solution}){unknown}")
        elif got is None:
            print(f"{answer.status.value} {name}")
    print(
        f"{len(kept) - wrong - not_unique} agree or are unanswered, {not_unique} not unique,"
        f" {wrong} differ from the published solution"
    )
    return 1 if wrong else 0


def _short_char(value: int, high: int) -> str:
    """A value as ISS writes a solution (``valueToShortChar``): a digit on a grid of values up
    to 9, else a letter (A for 1), 0 as 0."""
    return str(value) if value == 0 or high < 10 else chr(ord("A") + value - 1)


if __name__ == "__main__":
    sys.exit(main())
