"""``sudoku report``: a ``sudoku compare --json`` run as one self-contained HTML file."""

from __future__ import annotations

import argparse
import os

from solvers.base.errors import UsageError
from solvers.cli.arguments import command
from solvers.cli.output import Run, writable


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
        "times changed (Wilcoxon p < 0.01). The page fetches nothing when opened. Without -o\n"
        "it is written beside the run: run.json gives run.html.\n"
        "exit status: 0 written; 2 bad input (a file that is not a compare run, -o naming\n"
        "a run the page is made from, a file that cannot be written)."
    )
    parser.add_argument("run_file", metavar="RUN.json", help="a sudoku compare --json file")
    parser.add_argument("--against", metavar="OLD.json", help="an older run: a regression section")
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE.html",
        help="where to write the page (default: RUN.html beside RUN.json; never a run it reads)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers.analysis import regression, report, results
    from solvers.formats import whole

    if args.output is None:  # an empty -o is refused as such, not taken for none
        args.output = _beside(args.run_file)
    for path in (args.run_file, args.against):
        if path is not None and _same_file(path, args.output):
            raise UsageError(
                f"-o {args.output} is the run {path} this page is made from: the page would "
                f"overwrite it (without -o the page is {_beside(args.run_file)})"
            )
    writable(args.output, "-o")  # its folder must be there, as for every FILE a command writes
    done = results.read(args.run_file)
    older = results.read(args.against) if args.against else None
    if older is not None and (said := regression.unlike(done, older)):
        raise UsageError(f"--against {args.against}: not a like run: {said}")
    page = report.build(done, older, args.against or "")
    with whole.written(args.output, "-o") as handle:
        handle.write(page)
    names = ", ".join(dataset.name for dataset in done.datasets) or "no puzzle was timed"
    run.emit(f"{args.output}: {len(page) // 1024} KiB; {names}")


def _beside(run_file: str) -> str:
    """The page's default name: the run's, ending in .html, in the run's folder."""
    stem, suffix = os.path.splitext(run_file)
    return (stem if suffix.lower() == ".json" else run_file) + ".html"


def _same_file(one: str, other: str) -> bool:
    """Whether two paths name one file (through a link, or ./ and ../ written differently)."""
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them is not there yet (or not readable: reading it will say)
        return os.path.realpath(one) == os.path.realpath(other)
