"""``sudoku datasets``: the puzzle sets shipped with the project."""

from __future__ import annotations

import argparse

from solvers.cli.arguments import command
from solvers.cli.output import Run
from solvers.formats.boards import Puzzle, read_puzzles


def add_to(commands) -> None:
    parser = command(
        commands,
        "datasets",
        "list the puzzle sets shipped with the project",
        "sudoku datasets\n  sudoku check hard9",
        statuses=False,
    )
    parser.set_defaults(run=list_datasets)


def list_datasets(args: argparse.Namespace, run: Run) -> None:
    from solvers.formats.datasets import DATASETS

    rows = [("name", "size", "count", "description")]
    for dataset in DATASETS.values():
        with dataset.open() as handle:
            boards = [p.board for p in read_puzzles(handle) if isinstance(p, Puzzle)]
        size = f"{boards[0].size}x{boards[0].size}" if boards else "-"
        rows.append((dataset.name, size, str(len(boards)), dataset.description))
    run.table(rows, numbers_right=False)
