"""The puzzle sets the project ships, made by ``sudoku generate`` (each file starts with the
command that made it); a name can be given wherever the ``sudoku`` command takes a file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TextIO


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
    """A shipped dataset by name, or the file at that path in the encoding its byte-order mark
    says (``formats.textfile``); undecodable bytes become U+FFFD (a bad cell of that puzzle
    alone)."""
    dataset = shipped(name_or_path)
    if dataset is not None:
        return dataset.open()
    from solvers.formats.textfile import as_text

    return as_text(open(name_or_path, "rb"))


def _packaged(filename: str):
    """The shipped file, wherever the package is installed (importlib.resources: an import at
    start-up, docs/startup.md, which a run on a file of the user's own never needs)."""
    from importlib import resources

    return resources.files(__package__).joinpath(filename)
