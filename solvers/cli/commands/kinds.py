"""``sudoku kinds``: the constraint kinds a puzzle's rules may use, each with an example."""

from __future__ import annotations

import argparse

from solvers.cli.arguments import command
from solvers.cli.output import Run


def add_to(commands) -> None:
    parser = command(
        commands,
        "kinds",
        "list the constraint kinds a puzzle's rules may use, with an example line of each",
        "sudoku kinds\n  sudoku solve examples/vocabulary.txt",
        statuses=False,
    )
    parser.set_defaults(run=list_kinds)


def list_kinds(args: argparse.Namespace, run: Run) -> None:
    from solvers.model.constraints.kinds import KINDS

    rows = [("kind", "meaning", "definition", "example (9x9)")]
    rows += [(name, kind.meaning, kind.source, kind.example) for name, kind in KINDS.items()]
    run.table(rows, numbers_right=False)
