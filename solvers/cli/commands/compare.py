"""``sudoku compare``: every backend spec timed on the same puzzles, each in a worker of its
own; the statistics, the JSON, the plot and the regression check come from ``solvers.analysis``."""

from __future__ import annotations

import argparse
import os
import shlex
import time
from dataclasses import replace
from itertools import islice
from typing import TYPE_CHECKING

from solvers.analysis.results import Settings
from solvers.analysis.run_fields import MODES
from solvers.backends.spec import ALL, BackendSpec
from solvers.base.errors import InputError, UsageError
from solvers.cli.arguments import command, scale_options, seconds, whole
from solvers.cli.compiling import compile_first
from solvers.cli.inputs import backends_named, puzzles_of
from solvers.cli.levels import DEFAULT_LEVELS, LEVEL_NAMES
from solvers.cli.levels import table as strength_table
from solvers.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_DISAGREE,
    EXIT_OK,
    EXIT_REGRESSION,
    EXIT_TIMEOUT,
    EXIT_WRONG_ANSWER,
    Run,
    counted,
    writable,
)

if TYPE_CHECKING:
    from solvers.formats.boards import Puzzle
    from solvers.strength.tally import Measured

DEFAULT_DATASETS = ("easy9", "hard9", "big16")
DEFAULT_LIMIT = 20
DEFAULT_TIMEOUT = 0.5
# the documented table: a wrong answer 5, a backend that failed on a puzzle 2, disagreement 4
EXIT_OF_NOTE = {
    "wrong": EXIT_WRONG_ANSWER,
    "error": EXIT_BAD_INPUT,
    "disagree": EXIT_DISAGREE,
    "unproved": EXIT_TIMEOUT,
}


def add_to(commands) -> None:
    parser = command(
        commands,
        "compare",
        "time backends on the same puzzles, each in its own worker process",
        "sudoku compare                    # the default job, about a minute on 2 cores\n"
        "  sudoku compare ../shared/data/top95.txt --backends sat:encoding=minimal,"
        "sat:encoding=extended,pysat\n"
        "      --baseline sat:encoding=extended --shuffle 2 --seed 1 --json run.json\n"
        "  sudoku compare ../shared/data/top95.txt --backends pysat --against run.json"
        "   # exit 6 if slower",
        statuses=False,
    )
    parser.epilog += (
        f"\n\nWith no DATASET: the shipped sets {', '.join(DEFAULT_DATASETS)}, the first "
        f"{DEFAULT_LIMIT} puzzles of each,\nwith a {DEFAULT_TIMEOUT:g} s timeout. Times are per "
        "puzzle, taken inside the worker around the call\nalone (setup is reported apart); a "
        "puzzle that outlives --timeout counts as a timeout,\na crash as an error, and the run "
        "goes on. An unfinished puzzle scores twice the timeout\nin every time statistic "
        "(PAR-2). Only classic puzzles are shuffled: variants (x, windoku,\njigsaw, killer) "
        "run as given, and the run says how many.\n"
        "exit status: 0 done; 4 backends disagree on a puzzle (solvability, a count, a unique\n"
        "puzzle's solution); 5 a wrong answer (a shuffled copy's that does not map back to the\n"
        "puzzle's included); 6 with --against, a backend significantly slower (its puzzles'\n"
        "CPU times 1.75x then's or more at the median, Wilcoxon p < 0.01, once divided by the\n"
        "machine factor: a fixed calibration workload's CPU time now to then) or that lost\n"
        "puzzles (solved before; a timeout, error or wrong answer now); 2 bad input."
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
        metavar="SPEC,SPEC,...|all",
        help="backend specs to time, such as sat:encoding=minimal,sat:encoding=reduced,pysat "
        "(default: every available backend)",
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
        "--mode",
        choices=MODES,
        default="unique",
        help="unique (default, as tdoku): find a solution and prove there is no second; "
        "first: stop at the first solution",
    )
    parser.add_argument(
        "--shuffle",
        type=whole(0, 1000),
        default=0,
        metavar="K",
        help="also run each classic puzzle as K shuffled copies (digits relabelled, rows, "
        "columns, bands and stacks permuted, transposed); each answer is mapped back and must "
        "agree with the puzzle's",
    )
    parser.add_argument("--seed", type=whole(0), help="the shuffles' seed (default 0)")
    parser.add_argument(
        "--baseline",
        metavar="SPEC",
        help="one of --backends: each backend's median time ratio to it, puzzle by puzzle",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="BACKEND:KEY=VALUE",
        help="a backend option for every spec of that backend, e.g. sat:encoding=extended",
    )
    parser.add_argument(
        "--strength",
        nargs="?",
        const=DEFAULT_LEVELS,
        metavar="L1,L2",
        help="also measure what each level of inference decides on each puzzle with no search, "
        "as sudoku strength does: a table per dataset, kept in --json and shown by sudoku "
        f"report (levels: {', '.join(LEVEL_NAMES)} or all; with no value, all but the slow "
        "fl:extended and sac)",
    )
    parser.add_argument("--json", metavar="FILE", help="write every answer and table as JSON")
    parser.add_argument(
        "--against",
        metavar="OLD.json",
        help="compare with an older run's --json: print what changed; exit 6 on a regression",
    )
    scale_options(parser)
    parser.add_argument(
        "--plot", metavar="FILE.png|FILE.svg", help="draw cactus plots and box plots of times"
    )
    parser.set_defaults(run=run, file=None, input_format="auto", box=None, engines=True)


def specs_of(args: argparse.Namespace) -> list[BackendSpec]:
    """The specs to time, each with the options --option gives its backend, resolved once up
    front."""
    options: dict[str, dict[str, str]] = {}
    for text in args.option:
        name, sep, pair = text.partition(":")
        key, eq, value = pair.partition("=")
        if not sep or not eq:
            raise UsageError(f"--option {text!r} is not BACKEND:KEY=VALUE")
        given = options.setdefault(name, {})
        if key in given:
            raise UsageError(f"--option {name}:{key} is given twice ({given[key]}, {value})")
        given[key] = value
    specs = backends_named(args.backends, options)
    strangers = sorted(set(options) - {spec.name for spec in specs})
    if strangers:
        raise UsageError(f"--option names {', '.join(strangers)}, which is not in this run")
    return specs


def _baseline(text: str, specs: list[BackendSpec]) -> str:
    """The label of ``--baseline``, which must be one of the specs."""
    baseline = BackendSpec.parse(text).resolve().plain().label
    labels = [spec.label for spec in specs]
    if baseline not in labels:
        raise UsageError(f"--baseline {baseline} is not one of the backends: {', '.join(labels)}")
    return baseline


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers.analysis import calibration, compare, plots, results, summary

    # the cheap checks first: the datasets, and a run to be compared with, before the
    # backends load (seconds, for every backend)
    sources = args.datasets or list(DEFAULT_DATASETS)
    paths = _paths_of(sources)
    # the settings that make runs alike, known before any backend loads
    timeout = args.timeout if args.timeout is not None else DEFAULT_TIMEOUT
    timing = Settings(args.mode, timeout, args.shuffle, args.seed or 0)
    older = results.read(args.against) if args.against else None
    if older is not None:
        _like(timing, sources, older, args.against)
    specs = specs_of(args)
    compile_first(specs, run)
    settings = (
        replace(timing, baseline=_baseline(args.baseline, specs)) if args.baseline else timing
    )
    if older is not None:
        _like(settings, sources, older, args.against, [spec.label for spec in specs])
    levels = _levels(args.strength) if args.strength is not None else []
    if args.plot is not None and not args.plot.lower().endswith((".png", ".svg")):
        raise UsageError(f"--plot {args.plot}: the file must end in .png or .svg")
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        if path is not None:
            writable(path, option)
    if args.jobs != 1 or args.scheduler:
        run.note("backends timed side by side share the cores: compare them within this run")
    limit = args.limit if args.limit is not None else (None if args.datasets else DEFAULT_LIMIT)
    started = time.strftime("%Y-%m-%d %H:%M:%S %z")
    command_line = shlex.join(["sudoku", *getattr(args, "argv", [])])
    done = results.CompareRun(settings, compare.machine(), command_line, started)
    tables = []
    plan = compare.plan_of(settings, args.jobs, args.scheduler)
    # the calibration's CPU times, before each spec and at the end; none where a cluster's
    # machines time the puzzles, which this one's pace says nothing of
    paces: list[float] | None = None if args.scheduler else []
    for source in sources:
        args.file = source
        puzzles = list(islice(puzzles_of(args, run), limit))
        if not puzzles:
            continue
        run.emit(_heading(source, puzzles, settings))
        dataset = compare.run_dataset(
            source,
            paths[source],
            puzzles,
            specs,
            settings,
            plan,
            run.progress,
            paces,
        )
        tables.append(summary.summarize(dataset, settings))
        if dataset.backends:
            run.table(summary.table(tables[-1], settings))
            for line in summary.disputed_lines(tables[-1]):
                run.emit(line)
        for kind, text in dataset.notes:
            run.emit(text)
            run.end(EXIT_OF_NOTE.get(kind, EXIT_OK))
        if levels:
            dataset.strength = _strength(run, source, puzzles, levels)
        run.emit("")
        done.datasets.append(dataset)
    if paces is not None:
        paces.append(calibration.sample())
        done.calibration = results.Calibration(calibration.WORKLOAD, tuple(paces))
    if args.json:
        results.write(done, args.json, tables, "--json")
    if args.plot:
        plots.overview(done, args.plot, "--plot")
    if older is not None:
        _against(run, done, older, args.against)


def _levels(text: str) -> list[str]:
    """The --strength levels, as ``sudoku strength --levels`` reads them; a dataset written
    right after a bare --strength is taken as its value, and the message says so."""
    from solvers.formats.datasets import shipped
    from solvers.strength.levels import levels_of

    try:
        return levels_of(text)
    except UsageError as error:
        if shipped(text) is not None or os.path.exists(text):
            raise UsageError(
                f"{error} (--strength took the dataset {text} as its levels: name the datasets "
                "first, or write --strength=LEVELS)"
            ) from None
        raise


def _strength(run: Run, source: str, puzzles: list[Puzzle], levels: list[str]) -> list[Measured]:
    """Each level on each puzzle as given (a shuffled copy is the same puzzle to every level),
    in this process with no deadline, as ``sudoku strength`` measures; its table printed."""
    from solvers.strength.tally import measured, tallies

    show = run.progress(f"{source}: strength")
    found: list[Measured] = []
    for done, puzzle in enumerate(puzzles, 1):
        found += measured(puzzle.line, puzzle.board, levels)
        if show:
            show(done, len(puzzles))
    run.emit("strength: what each level decides with no search, on each puzzle as given")
    run.table(strength_table(tallies(found)))
    return found


def _paths_of(sources: list[str]) -> dict[str, str]:
    """Every dataset named once and readable, before any work (stdin, ``-``, is read as it
    comes): the path each is recorded under, a shipped one's in the package."""
    from solvers.formats.datasets import DATASETS, shipped

    listed = f"the shipped datasets are {', '.join(DATASETS)} ('sudoku datasets')"
    paths: dict[str, str] = {}
    for source in sources:
        if sources.count(source) > 1:
            raise UsageError(f"dataset {source} named twice: its tables could not be told apart")
        dataset = shipped(source)  # a shipped one is in the package, readable
        if dataset is None and source != "-":
            try:
                open(source, "rb").close()  # readable: its puzzles are read when its turn comes
            except FileNotFoundError as error:
                raise InputError(f"cannot read {source}: {error.strerror}; {listed}") from None
            except OSError as error:
                raise InputError(f"cannot read {source}: {error.strerror or error}") from None
        paths[source] = (
            os.path.abspath(source)
            if dataset is None
            else f"(shipped) solvers/formats/datasets/{dataset.filename}"
        )
    return paths


def _against(run: Run, new, old, path: str) -> None:
    from solvers.analysis import regression, summary

    if said := regression.unlike(new, old):
        raise UsageError(f"--against {path}: not a like run: {said}")
    found = regression.changes(new, old)
    if not found:  # the datasets of both, or the backends, had no puzzle to time
        said = regression.nothing_shared([d.name for d in new.datasets], old)
        raise UsageError(f"--against {path}: nothing compared: {said or 'no backend run in both'}")
    run.emit(
        f"against {path} ({old.started}): {len(found)} backend runs in both, CPU times compared"
    )
    run.emit(regression.machine(new, old).said)
    if found:
        run.table(regression.table(found, summary.ms))
    for change in found:
        for lost in change.lost:
            run.emit(f"{change.dataset} {change.spec} {lost}")
    if any(change.regressed for change in found):
        run.emit("a regression: a backend is significantly slower or lost puzzles (exit 6)")
        run.end(EXIT_REGRESSION)


def _like(
    settings: Settings, sources: list[str], older, path: str, labels: list[str] | None = None
) -> None:
    """UsageError, before any puzzle is timed, when the older run's settings make it unlike
    this one, or it shares no dataset (or none of the backend specs ``labels``) with it."""
    from solvers.analysis import regression

    if said := regression.unlike_settings(settings, older.settings):
        raise UsageError(f"--against {path}: not a like run: {said}")
    if said := regression.nothing_shared(sources, older, labels):
        raise UsageError(f"--against {path}: nothing to compare: {said}")


def _heading(source: str, puzzles: list, settings: Settings) -> str:
    """``top95.txt: 95 puzzles, each also as 2 shuffled copies (seed 1), mode unique, ...``"""
    text = f"{source}: {counted(len(puzzles), 'puzzle')}"
    variants = sum(1 for puzzle in puzzles if not puzzle.board.rules.is_classic)
    copies = f"{settings.shuffle} shuffled {'copy' if settings.shuffle == 1 else 'copies'}"
    copies += f" (seed {settings.seed}"
    if settings.shuffle and not variants:
        text += f", each also as {copies})"
    elif settings.shuffle and variants < len(puzzles):
        text += f", {len(puzzles) - variants} also as {copies}; variants are not shuffled)"
    elif settings.shuffle:
        text += " (variants: not shuffled)"
    return f"{text}, mode {settings.mode}, timeout {settings.timeout:g} s per puzzle"
