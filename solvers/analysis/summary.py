"""A dataset's summary table, computed from its records alone (``stats`` does the sums).

A row per backend spec, and a ``VBS`` row: the virtual best solver, the best spec on each
puzzle. Every time statistic is over all the puzzles a spec was given, an unfinished one
scoring as in PAR-2. ``solved`` counts the answers within the timeout (a verified solution or
a proof there is none) that the judge does not dispute: a disputed answer scores as unfinished.
"""

from __future__ import annotations

import math
import statistics
from functools import partial

import numpy as np

from solvers.analysis import stats
from solvers.analysis.results import DatasetRun, Record, Settings
from solvers.run.answer import Status

VBS = "VBS"
DISPUTED = " !"  # after a backend's name in the table: the judge disputes some of its answers
# Counters some libraries report, shown as per-puzzle means when a backend has them.
LIBRARY_STATS = ("branches", "conflicts", "decisions", "propagations")


def summarize(dataset: DatasetRun, settings: Settings) -> list[dict]:
    """The rows of ``dataset``'s table (times in seconds; None where a backend cannot tell),
    then ``VBS`` when there are two specs or more."""
    specs = [backend.spec for backend in dataset.backends]
    if not specs:
        return []
    runs = {spec: dataset.records_of(spec) for spec in specs}
    present = [{r.key for r in runs[spec]} for spec in specs]
    keys = [r.key for r in runs[specs[0]] if all(r.key in keys for keys in present)]
    by_key = {spec: {r.key: r for r in runs[spec]} for spec in specs}
    aligned = {spec: [by_key[spec][key] for key in keys] for spec in specs}
    timeout = settings.timeout
    times = np.array([stats.scored_records(aligned[spec], timeout) for spec in specs])
    finished = np.array([[r.finished for r in aligned[spec]] for spec in specs])
    base = times[specs.index(settings.baseline)] if settings.baseline in specs else None
    shares = stats.best_shares(times, finished)
    rows = []
    for i, backend in enumerate(dataset.backends):
        row = _times(times[i], runs[backend.spec], timeout, base)
        cpu = stats.scored(
            [r.answer.cpu_seconds for r in aligned[backend.spec]], finished[i], timeout
        )
        row.update(
            backend=backend.spec,
            options=backend.options,
            best_pct=100 * float(shares[i]),
            cpu_median_s=float(np.median(cpu)),
            setup_s=backend.setup_s,
            peak_rss_mib=backend.peak_rss_kb / 1024 if backend.peak_rss_kb else None,
            **_counts(runs[backend.spec]),
            **_search(runs[backend.spec]),
        )
        rows.append(row)
    if len(specs) > 1:
        rows.append(_virtual_best(times, finished, timeout, base))
    return rows


def _times(times: np.ndarray, records: list[Record], timeout: float, base) -> dict:
    median = stats.median_interval(times) if times.size else None
    ratio = stats.paired_ratio(times, base) if base is not None and times.size else None
    done = [r.answer.seconds for r in records if r.finished]
    return {
        "puzzles": len(records),
        "par2_s": float(np.mean(times)) if times.size else None,
        "median_s": median.value if median else None,
        "median_ci_s": [median.low, median.high] if median else None,
        "p95_s": stats.quantile(times, 0.95) if times.size else None,
        "max_s": float(np.max(times)) if times.size else None,
        "mean_finished_s": statistics.mean(done) if done else None,  # PAR-2 is the mean of all
        "puzzles_per_s": len(done) / sum(done) if done and sum(done) > 0 else None,
        "ratio_to_baseline": ratio.value if ratio else None,
        "ratio_ci": [ratio.low, ratio.high] if ratio else None,
    }


def _counts(records: list[Record]) -> dict:
    count = {s: sum(r.answer.status == s for r in records) for s in Status}
    return {
        "solved": sum(r.finished for r in records),
        "unsolvable": sum(r.finished and r.answer.status == Status.UNSOLVABLE for r in records),
        "disputed": sum(r.disputed for r in records),
        "timeouts": count[Status.TIMEOUT],
        "errors": count[Status.ERROR] + count[Status.UNSUPPORTED] + count[Status.INVALID],
        "wrong": count[Status.WRONG],
        "several_solutions": sum(
            1 for r in records if r.answer.count is not None and r.answer.count > 1
        ),
    }


def _search(records: list[Record]) -> dict:
    """Guesses per puzzle, the share solved without a guess, and the libraries' own counters,
    as means over the finished puzzles (None where the backend does not say)."""
    finished = [r for r in records if r.finished]
    guesses = [r.answer.stats["guesses"] for r in finished if "guesses" in r.answer.stats]
    has_guesses = bool(finished) and len(guesses) == len(finished)
    library = {
        f"{key}_per_puzzle": statistics.mean(r.answer.stats[key] for r in finished)
        for key in LIBRARY_STATS
        if finished and all(key in r.answer.stats for r in finished)
    }
    return {
        "guesses_per_puzzle": statistics.mean(guesses) if has_guesses else None,
        "no_guess_pct": 100 * guesses.count(0) / len(guesses) if has_guesses else None,
        "stats": library,
    }


def _virtual_best(times: np.ndarray, finished: np.ndarray, timeout: float, base) -> dict:
    best = stats.virtual_best(times)
    solved = int(np.sum(np.any(finished, axis=0)))
    row = dict.fromkeys(
        ("options", "best_pct", "cpu_median_s", "setup_s", "peak_rss_mib", "unsolvable")
    )
    row |= dict.fromkeys(("errors", "wrong", "several_solutions", "guesses_per_puzzle"))
    row["disputed"] = None
    row.update(_times(best, [], timeout, base), backend=VBS, puzzles=best.size)
    row.update(solved=solved, timeouts=best.size - solved, no_guess_pct=None, stats={})
    return row


# Rendering -------------------------------------------------------------------------------


def ms(seconds: float | None, timeout: float | None = None) -> str:
    """Milliseconds to three significant digits (so a larger time never reads smaller); '>T'
    for an unfinished puzzle's score beyond the timeout T; '-' for none."""
    if seconds is None:
        return "-"
    if timeout is not None and seconds > timeout:
        return f">{_three(timeout * 1000)}"
    return _three(seconds * 1000)


def _three(value: float) -> str:
    """Three significant digits, trailing zeros kept (1.00 beside 1.06, not 1)."""
    if value >= 100:
        return f"{value:.0f}"
    return f"{value:#.3g}".rstrip(".")


def time_interval(
    seconds: float | None, bounds: list[float] | None, timeout: float | None = None
) -> str:
    """``median [low..high]`` in milliseconds, the bounds to two significant digits rounded
    outwards (an interval is rough, and must still hold the median); '-' for none."""
    if seconds is None or bounds is None:
        return "-"
    low, high = _outwards(bounds[0], False, timeout), _outwards(bounds[1], True, timeout)
    return f"{ms(seconds, timeout)} [{low}..{high}]"


def _outwards(seconds: float, up: bool, timeout: float | None) -> str:
    if timeout is not None and seconds > timeout:
        return f">{_three(timeout * 1000)}"
    value = seconds * 1000
    if value <= 0:
        return "0"
    exponent = math.floor(math.log10(value)) - 1  # two significant digits
    scale = 10.0**exponent
    units = math.ceil(value / scale - 1e-9) if up else math.floor(value / scale + 1e-9)
    return f"{units * scale:.{max(0, -exponent)}f}"


def ratio(value: float) -> str:
    """Two decimals below 10 (so 1.00 reads as exactly even), else three digits."""
    return f"{value:.2f}" if value < 10 else _three(value)


def ratio_interval(value: float | None, bounds: list[float] | None) -> str:
    if value is None or bounds is None:
        return "-"
    return f"{ratio(value)} [{ratio(bounds[0])}..{ratio(bounds[1])}]"


def table(rows: list[dict], settings: Settings) -> list[list[str]]:
    """The terminal's table, within 120 columns for labels of up to 22 characters (18 when a
    backend returned a wrong answer: its column is added) (the rest is in the JSON and the
    report)."""
    timeout = settings.timeout
    in_ms = partial(ms, timeout=timeout)
    # a wrong answer is a bug, never an error: its column is shown wherever one was returned
    wrong = any(row["wrong"] for row in rows)
    header = ["backend", "solved", "t/o", "err", *(["wrong"] if wrong else [])]
    header += ["PAR-2 ms", "median ms [95% CI]", "max ms", "cpu ms"]
    baseline = settings.baseline is not None
    header += ["x base [95% CI]"] if baseline else []
    header += ["best %", "MiB"]
    lines = [header]
    for row in rows:
        line = [
            row["backend"] + (DISPUTED if row.get("disputed") else ""),
            str(row["solved"]),
            str(row["timeouts"]),
            "-" if row["errors"] is None else str(row["errors"]),
            *(["-" if row["wrong"] is None else str(row["wrong"])] if wrong else []),
            ms(row["par2_s"]),
            time_interval(row["median_s"], row["median_ci_s"], timeout),
            in_ms(row["max_s"]),
            in_ms(row["cpu_median_s"]),
        ]
        if baseline:
            line.append(ratio_interval(row["ratio_to_baseline"], row["ratio_ci"]))
        line.append("-" if row["best_pct"] is None else f"{row['best_pct']:.0f}")
        line.append("-" if row["peak_rss_mib"] is None else f"{row['peak_rss_mib']:.0f}")
        lines.append(line)
    return lines


def disputed_lines(
    rows: list[dict], cost: str = "not counted solved, never best, never the VBS's"
) -> list[str]:
    """The line under a table for each row (``backend``, ``disputed``: how many answers) the
    judge disputed: how many, and what that ``cost`` the backend in the table."""
    return [
        f"{DISPUTED.strip()} {row['backend']}: the judge disputes {row['disputed']} of its "
        f"answers (the notes say why): {cost}"
        for row in rows
        if row.get("disputed")
    ]
