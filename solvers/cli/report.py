"""``sudoku report``: a ``sudoku compare --json`` run as one self-contained HTML file."""

from __future__ import annotations

import argparse
import os

from solvers.cli.output import Run, make_folder, writable
from solvers.cli.parser import command
from solvers.errors import UsageError


def add_to(commands) -> None:
    parser = command(
        commands,
        "report",
        "write a compare run (its --json file) as one HTML page to share",
        "sudoku compare ../shared/data/top95.txt --shuffle 2 --json run.json && "
        "sudoku report run.json -o report.html",
        statuses=False,
    )
    parser.epilog += (
        "\n\nEverything is rebuilt from the run's per-puzzle records: the machine, the command,\n"
        "a sortable table per dataset, cactus and box plots, a scatter plot of any two\n"
        "backends, and with --against the puzzles each backend lost and the backends whose\n"
        "times changed (Wilcoxon p < 0.01). The page fetches nothing when opened.\n"
        "exit status: 0 written; 2 bad input (a file that is not a compare run)."
    )
    parser.add_argument("run_file", metavar="RUN.json", help="a sudoku compare --json file")
    parser.add_argument("--against", metavar="OLD.json", help="an older run: a regression section")
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE.html", help="where to write the page"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers.tools import regression, report, results, whole

    make_folder(os.path.dirname(os.path.abspath(args.output)), "-o")
    writable(args.output, "-o")
    done = results.read(args.run_file)
    older = results.read(args.against) if args.against else None
    if older is not None and (said := regression.unlike(done, older)):
        raise UsageError(f"--against {args.against}: not a like run: {said}")
    page = report.build(done, older, args.against or "")
    with whole.written(args.output, "-o") as handle:
        handle.write(page)
    names = ", ".join(dataset.name for dataset in done.datasets) or "no puzzle was timed"
    run.emit(f"{args.output}: {len(page) // 1024} KiB; {names}")
