"""The puzzle sets the project ships, made by ``sudoku generate`` (each file starts with the
command that made it); a name can be given wherever the ``sudoku`` command takes a file, and
``open_named`` opens whatever such an argument names (``read_named`` reads its puzzles)."""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from solvers.formats.textfile import as_text

if TYPE_CHECKING:
    from solvers.base.errors import InputError
    from solvers.formats.boards import Puzzle
    from solvers.model.geometry import Shape


@dataclass(frozen=True)
class Dataset:
    name: str
    filename: str
    description: str

    def open(self) -> TextIO:
        return _packaged(self.filename).open(encoding="utf-8")

    def command(self) -> str:
        with self.open() as handle:
            return handle.readline().removeprefix("#").strip()

    def puzzles(self) -> list[str]:
        with self.open() as handle:
            return [line.strip() for line in handle if line.strip() and line[0] != "#"]


DATASETS = {
    d.name: d
    for d in (
        Dataset("easy9", "easy9.txt", "9x9, easy: naked and hidden singles solve them"),
        Dataset("hard9", "hard9.txt", "9x9, hard (4+ guesses beyond singles) and minimal"),
        Dataset("small4", "small4.txt", "4x4 (2x2 boxes), minimal"),
        Dataset("six6", "six6.txt", "6x6 (2x3 boxes), minimal"),
        Dataset("big16", "big16.txt", "16x16 (4x4 boxes), 120 clues"),
        Dataset("several9", "several9.txt", "9x9 with two or more solutions"),
        Dataset("nosolution9", "nosolution9.txt", "9x9 with no solution, givens in no conflict"),
        Dataset("x9", "x9.txt", "9x9 X-sudoku (both diagonals are units), minimal"),
        Dataset("windoku9", "windoku9.txt", "9x9 windoku (four extra windows), minimal"),
        Dataset("jigsaw9", "jigsaw9.txt", "9x9 jigsaw (random irregular regions), minimal"),
        Dataset("killer9", "killer9.txt", "9x9 killer, no givens: the cages alone"),
        Dataset("killer16", "killer16.txt", "16x16 killer with 120 givens"),
        Dataset("antiknight9", "antiknight9.txt", "9x9 anti-knight, minimal"),
        Dataset("antiking9", "antiking9.txt", "9x9 anti-king, minimal"),
        Dataset("nonconsecutive9", "nonconsecutive9.txt", "9x9 non-consecutive, minimal"),
        Dataset("thermo9", "thermo9.txt", "9x9 with thermometers read off the grid, minimal"),
        Dataset("arrow9", "arrow9.txt", "9x9 with arrows read off the grid, minimal"),
        Dataset("kropki9", "kropki9.txt", "9x9 with every Kropki dot (negative constraint)"),
        Dataset("xv9", "xv9.txt", "9x9 with every X and V (negative constraint)"),
    )
}


def shipped(name: str) -> Dataset | None:
    """The shipped dataset ``name`` means, or None; a file of that name, if one exists, wins."""
    return None if os.path.exists(name) else DATASETS.get(name)


def path_of(name_or_path: str) -> str | None:
    """The file a dataset name or a path stands for, when it is a file on disk; else None."""
    dataset = shipped(name_or_path)
    if dataset is None:
        return name_or_path if os.path.isfile(name_or_path) else None
    found = _packaged(dataset.filename)
    return os.fspath(found) if isinstance(found, os.PathLike) else None


def open_named(name_or_path: str) -> TextIO:
    """What a command's FILE argument names, as text: a shipped dataset by name, standard
    input for '-', the file at that path, or, for an argument that is no file or dataset but
    reads as a board or a link, that text itself (a path that exists wins). A file (or
    standard input) is read in the encoding its byte-order mark says, else UTF-8
    (``formats.textfile``), undecodable bytes named as bytes whatever the locale. InputError
    when standard input is closed."""
    if name_or_path == "-":
        return _standard_input()
    if (dataset := shipped(name_or_path)) is not None:
        return dataset.open()
    if not os.path.exists(name_or_path) and _is_puzzle_text(name_or_path):
        return io.StringIO(name_or_path if name_or_path.endswith("\n") else name_or_path + "\n")
    return as_text(open(name_or_path, "rb"))


def read_named(
    name_or_path: str, fmt: str = "auto", shape: Shape | None = None
) -> Iterator[Puzzle | InputError]:
    """The puzzles of what a command's FILE argument names (``open_named``), read as
    ``boards.read_puzzles`` reads them: opened as the first is asked for, closed (but standard
    input) when reading ends or stops."""
    from solvers.formats.boards import read_puzzles

    source = open_named(name_or_path)
    try:
        yield from read_puzzles(source, fmt, shape)
    finally:
        if name_or_path != "-":
            source.close()


def _standard_input() -> TextIO:
    if sys.stdin is None or sys.stdin.closed:
        from solvers.base.errors import InputError

        raise InputError("standard input is closed: give a FILE, or pipe puzzles in")
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # already text (a test's StringIO)
        return sys.stdin
    return as_text(buffer)


def _is_puzzle_text(argument: str) -> bool:
    """Whether a command-line argument is a puzzle itself: a link, a board over several lines,
    or a line puzzle (N*N symbols, its fields after it)."""
    from solvers.formats import fpuzzles_link
    from solvers.formats.lines import SQUARES
    from solvers.formats.symbols import VALUE_OF

    text = argument.strip()
    if "\n" in text or fpuzzles_link.looks_like(text):
        return True
    cells = re.split(r"[:,\s]", text, maxsplit=1)[0]
    return len(cells) in SQUARES and all(symbol in VALUE_OF for symbol in cells)


def _packaged(filename: str):
    """The shipped file, wherever the package is installed (importlib.resources: an import at
    start-up, docs/startup.md, which a run on a file of the user's own never needs)."""
    from importlib import resources

    return resources.files(__package__).joinpath(filename)
