"""``sudoku backends`` and ``sudoku datasets``: what can be used here."""

from __future__ import annotations

import argparse

from solvers import registry
from solvers.cli.output import Run
from solvers.cli.parser import command
from solvers.formats import Puzzle, read_puzzles


def add_to(commands) -> None:
    datasets = command(
        commands,
        "datasets",
        "list the puzzle sets shipped with the project",
        "sudoku datasets\n  sudoku check hard9",
        statuses=False,
    )
    datasets.set_defaults(run=list_datasets)
    backends = command(
        commands,
        "backends",
        "list every backend and whether it can be used",
        "sudoku backends",
        statuses=False,
    )
    backends.set_defaults(run=list_backends)


def list_backends(args: argparse.Namespace, run: Run) -> None:
    fastest = registry.default_backend()
    rows = []
    for name in registry.names():
        ok, reason = registry.availability(name)
        marks = {fastest: " (default)", registry.REFERENCE: " (reference)"}
        rows.append(
            (
                name + marks.get(name, ""),
                registry.version(name),
                "available" if ok else reason,
                registry.entry(name).summary,
            )
        )
    run.table(rows, numbers_right=False)
    run.emit(default_rule(fastest))


def default_rule(many: str) -> str:
    """The rule that picks the default backend, in one line."""
    few = registry.default_backend(puzzles=1)
    if few == many:
        return f"default: {many}, whatever the number of puzzles"
    return (
        f"default: {few} for up to {registry.SMALL_RUN} puzzles (it answers before {many} has "
        f"loaded its compiled kernel), {many} for more (docs/startup.md)"
    )


def list_datasets(args: argparse.Namespace, run: Run) -> None:
    from solvers.tools.datasets import DATASETS

    rows = [("name", "size", "count", "description")]
    for dataset in DATASETS.values():
        with dataset.open() as handle:
            boards = [p.board for p in read_puzzles(handle) if isinstance(p, Puzzle)]
        size = f"{boards[0].size}x{boards[0].size}" if boards else "-"
        rows.append((dataset.name, size, str(len(boards)), dataset.description))
    run.table(rows, numbers_right=False)
