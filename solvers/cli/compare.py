"""``sudoku compare``: every backend timed on the same puzzles, each in a worker of its own."""

from __future__ import annotations

import argparse
import json
import os
from itertools import islice

from solvers.cli.check import backends_named
from solvers.cli.inputs import puzzles_of
from solvers.cli.output import EXIT_DISAGREE, EXIT_WRONG_ANSWER, Run
from solvers.cli.parser import command, scale_options, seconds, whole
from solvers.errors import UsageError
from solvers.spec import ALL, BackendSpec

DEFAULT_DATASETS = ("easy9", "hard9", "big16")
DEFAULT_LIMIT = 20
DEFAULT_TIMEOUT = 1.0


def add_to(commands) -> None:
    parser = command(
        commands,
        "compare",
        "time every backend on the same puzzles, each in its own worker process",
        "sudoku compare                    # the default job, about two minutes on 2 cores\n"
        "  sudoku compare hard9 ../shared/data/top95.txt --backends native,pysat,cpsat "
        "--timeout 5 --json out.json --plot out.png",
        statuses=False,
    )
    parser.epilog += (
        f"\n\nWith no DATASET: the shipped sets {', '.join(DEFAULT_DATASETS)}, the first "
        f"{DEFAULT_LIMIT} puzzles of each,\nwith a {DEFAULT_TIMEOUT:g} s timeout: about two "
        "minutes on a 2-core machine. Times are per puzzle,\ntaken inside the worker around "
        "the solve alone (setup is reported apart); a puzzle\nthat outlives --timeout counts "
        "as a timeout, a crash as an error, and the run goes on.\n"
        "exit status: 0 done; 4 backends disagree on a puzzle; 5 a wrong answer; 2 bad input."
    )
    parser.add_argument(
        "datasets",
        nargs="*",
        metavar="DATASET",
        help=f"shipped dataset names or files (default: {' '.join(DEFAULT_DATASETS)})",
    )
    parser.add_argument(
        "--backends",
        default=ALL,
        metavar="a,b,...|all",
        help="backends to time (default: every available one)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds,
        metavar="SECONDS",
        help=f"per puzzle (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--limit",
        type=whole(1),
        metavar="N",
        help=f"the first N puzzles of each dataset (default {DEFAULT_LIMIT} for the default "
        "sets, all for named ones)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="BACKEND:KEY=VALUE",
        help="a backend option, e.g. sat:encoding=extended (repeatable)",
    )
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    scale_options(parser)
    parser.add_argument(
        "--plot",
        metavar="FILE.png|FILE.svg",
        help="draw a cactus plot and the distribution of times",
    )
    parser.set_defaults(run=run, file=None, input_format="auto", box=None)


def specs_of(args: argparse.Namespace) -> list[BackendSpec]:
    """The backends to time, each with the options --option gives it; checked up front."""
    options: dict[str, dict[str, str]] = {}
    for text in args.option:
        name, sep, pair = text.partition(":")
        key, eq, value = pair.partition("=")
        if not sep or not eq:
            raise UsageError(f"--option {text!r} is not BACKEND:KEY=VALUE")
        options.setdefault(name, {})[key] = value
    specs = backends_named(args.backends)
    strangers = sorted(set(options) - {spec.name for spec in specs})
    if strangers:
        raise UsageError(f"--option names {', '.join(strangers)}, which is not in this run")
    specs = [spec.with_options(options.get(spec.name, {})) for spec in specs]
    return backends_named(",".join(spec.label for spec in specs))


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers.execution.parallel import jobs_for
    from solvers.tools import compare

    specs = specs_of(args)
    sources = args.datasets or list(DEFAULT_DATASETS)
    limit = args.limit if args.limit is not None else (None if args.datasets else DEFAULT_LIMIT)
    timeout = args.timeout if args.timeout is not None else DEFAULT_TIMEOUT
    if args.plot and not args.plot.lower().endswith((".png", ".svg")):
        raise UsageError(f"--plot {args.plot}: the file must end in .png or .svg")
    report = {"machine": compare.machine(), "datasets": []}
    runs = {}
    for source in sources:
        args.file = source
        boards = [puzzle.board for puzzle in islice(puzzles_of(args, run), limit)]
        if not boards:
            continue
        run.emit(f"{source}: {len(boards)} puzzles, timeout {timeout:g} s per puzzle")
        results = []
        for spec in specs:
            if args.jobs != 1 or args.scheduler:
                jobs = jobs_for(args.jobs)
                results.append(
                    compare.run_backend_spread(spec, boards, timeout, jobs, args.scheduler)
                )
            else:
                progress = run.progress(f"{source}: {spec.label}")
                results.append(compare.run_backend(spec, boards, timeout, progress))
        summaries = [r.summary() for r in results]
        run.table(compare.table(summaries))
        for text in compare.disagreements(boards, results):
            run.emit(text)
            run.end(EXIT_WRONG_ANSWER if "WRONG" in text else EXIT_DISAGREE)
        run.emit("")
        report["datasets"].append(
            {"name": source, "path": _path_of(source), "puzzles": len(boards), "results": summaries}
        )
        runs[source] = results
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)
    if args.plot:
        compare.plot(report["datasets"], runs, args.plot)


def _path_of(source: str) -> str:
    from solvers.tools.datasets import shipped

    dataset = shipped(source)
    if dataset is None:
        return os.path.abspath(source)
    return f"(shipped) solvers/tools/datasets/{dataset.filename}"
