"""The pictures of a comparison, drawn from its records with matplotlib: a cactus plot (the
SAT competition's: each spec's finished puzzles sorted by time, the virtual best dashed), a
box plot of each spec's scored times, and a log-log scatter plot of two specs. A spec keeps
its colour, marker and line style in every panel."""

from __future__ import annotations

import io
from collections.abc import Iterable

import numpy as np

from solvers.analysis import stats
from solvers.analysis.results import CompareRun, DatasetRun, Record, Settings
from solvers.base.errors import UsageError
from solvers.formats import whole

PENALTY_NOTE = "an unfinished puzzle drawn at 2 x the timeout, its PAR-2 score"


def pyplot():
    """matplotlib's pyplot without a display; UsageError when it is not installed."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError("plots need matplotlib: pip install 'sudoku-solvers[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# Forty colours that differ: tab20's ten strong ones, its ten light ones, then tab20b's twenty;
# each block of ten takes its own marker, and each block of twenty its own line style, so that
# specs whose colours are near (or, past forty, the same) still differ in shape.
MARKERS = ("o", "s", "^", "D")
LINES = ("-", "--", "-.", (0, (1, 2)))


def styles(specs: Iterable[str]) -> dict[str, dict]:
    """Each spec's line style, the same in every panel."""
    import matplotlib

    tab20 = matplotlib.colormaps["tab20"].colors
    colours = [*tab20[0::2], *tab20[1::2], *matplotlib.colormaps["tab20b"].colors]
    found = {}
    for i, spec in enumerate(dict.fromkeys(specs)):
        found[spec] = {
            "color": colours[i % len(colours)],
            "linestyle": LINES[(i // 20) % len(LINES)],
            "marker": MARKERS[(i // 10) % len(MARKERS)],
        }
    return found


def overview(run: CompareRun, path: str, label: str = "") -> None:
    """``--plot``: a cactus plot and a box plot for each dataset, one row each, written whole
    or not at all (OutputError naming ``label`` and ``path``)."""
    plt = pyplot()
    specs = [b.spec for d in run.datasets for b in d.backends]
    style = styles(specs)
    rows = max(1, len(run.datasets))
    height = 0.8 + rows * panel_height(len(style))
    fig, axes = plt.subplots(rows, 2, figsize=(15, height), squeeze=False, layout="constrained")
    for (left, right), dataset in zip(axes, run.datasets, strict=False):
        cactus(left, dataset, run.settings, style)
        boxes(right, dataset, run.settings, style)
        legend(left, {b.spec: style[b.spec] for b in dataset.backends})
    fig.suptitle(f"sudoku compare on {run.machine['processor']}, {run.machine['cpus']} cores")
    try:
        with whole.written(path, label, binary=True) as handle:
            fig.savefig(handle, format=path.rpartition(".")[2].lower())
    finally:
        plt.close(fig)


def panel_height(specs: int) -> float:
    """Inches for a row of panels: room for each spec's box and its label."""
    return max(4.6, 1.4 + 0.3 * specs)


def legend(ax, style: dict[str, dict]) -> None:
    """The specs' legend just right of ``ax`` (the cactus plot), beside the curves it names."""
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], label=spec, **look) for spec, look in style.items()]
    handles.append(Line2D([], [], color="black", linestyle=":", label="VBS (best per puzzle)"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")


def log_ticks(axis, low: float, high: float) -> None:
    """Readable ticks on a log ``axis`` over ``low..high`` (ms), as plain numbers: decades
    over a wide range, 1-2-5 or 1-2-3-5-7 over a short one (matplotlib would label one tick
    there), evenly spaced over a sliver."""
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

    decades = np.log10(max(high, 1e-12) / max(low, 1e-12))
    if decades < 0.5:
        axis.set_major_locator(MaxNLocator(nbins=5))
    else:
        subs = (1.0,) if decades >= 3 else (1.0, 2.0, 5.0) if decades >= 1.2 else (1, 2, 3, 5, 7)
        axis.set_major_locator(LogLocator(base=10, subs=subs))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def _by_spec(dataset: DatasetRun) -> dict[str, list[Record]]:
    return {b.spec: dataset.records_of(b.spec) for b in dataset.backends}


def cactus(ax, dataset: DatasetRun, settings: Settings, style: dict[str, dict]) -> None:
    from matplotlib.ticker import MaxNLocator

    runs = _by_spec(dataset)
    for spec, records in runs.items():
        times = sorted(1000 * r.answer.seconds for r in records if r.finished)
        if times:
            ax.plot(range(1, len(times) + 1), times, markersize=4, **style[spec])
    if len(runs) > 1:
        best = stats.virtual_best(
            np.array([1000 * stats.scored_records(r, settings.timeout) for r in runs.values()])
        )
        best = np.sort(best[best <= 1000 * settings.timeout])
        ax.plot(range(1, best.size + 1), best, color="black", linestyle=":", linewidth=1.5)
    if any(not r.finished for records in runs.values() for r in records):
        ax.axhline(1000 * settings.timeout, color="grey", linewidth=0.8, label="timeout")
    ax.set_yscale("log")
    drawn = [t for r in runs.values() for t in 1000 * stats.scored_records(r, settings.timeout)]
    if drawn:
        log_ticks(ax.yaxis, min(drawn), max(drawn))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"puzzles solved (of {len(next(iter(runs.values()), []))})")
    ax.set_ylabel("time per puzzle (ms, log scale)")
    ax.set_title(f"{dataset.name}: puzzles solved within a time (cactus)")
    ax.grid(True, which="both", alpha=0.3)


def boxes(ax, dataset: DatasetRun, settings: Settings, style: dict[str, dict]) -> None:
    runs = dict(reversed(_by_spec(dataset).items()))  # the first spec at the top
    ax.set_title(f"{dataset.name}: times per backend")
    if not runs:  # every spec was left out: none encodes these puzzles' rules
        ax.text(0.5, 0.5, "no backend ran", ha="center", va="center", transform=ax.transAxes)
        return
    data = [1000 * stats.scored_records(records, settings.timeout) for records in runs.values()]
    unfinished = [sum(not r.finished for r in records) for records in runs.values()]
    labels = [
        f"{spec}: {len(records)} puzzle{'' if len(records) == 1 else 's'}, {missed} unfinished"
        for (spec, records), missed in zip(runs.items(), unfinished, strict=True)
    ]
    drawn = ax.boxplot(
        data,
        orientation="horizontal",
        tick_labels=labels,
        patch_artist=True,
        widths=0.6,
        medianprops={"color": "black"},
    )
    for box, spec in zip(drawn["boxes"], runs, strict=True):
        box.set(facecolor=style[spec]["color"], alpha=0.55)
    if any(unfinished):
        ax.axvline(1000 * settings.timeout, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    drawn = np.concatenate(data)
    if drawn.size:
        log_ticks(ax.xaxis, drawn.min(), drawn.max())
    ax.tick_params(axis="y", labelsize="small")
    ax.set_xlabel(f"time per puzzle (ms, log scale)\n{PENALTY_NOTE}")
    ax.grid(True, which="both", axis="x", alpha=0.3)


def scatter(ax, dataset: DatasetRun, settings: Settings, x_spec: str, y_spec: str) -> None:
    """``y_spec``'s time against ``x_spec``'s on each puzzle: below the diagonal, y is faster."""
    xs, ys = ({r.key: r for r in dataset.records_of(spec)} for spec in (x_spec, y_spec))
    keys = [key for key in xs if key in ys]
    x = 1000 * stats.scored_records([xs[k] for k in keys], settings.timeout)
    y = 1000 * stats.scored_records([ys[k] for k in keys], settings.timeout)
    ax.scatter(x, y, s=10, alpha=0.6, color="C0")
    low = min(x.min(initial=1), y.min(initial=1)) / 1.5
    high = max(x.max(initial=1), y.max(initial=1)) * 1.5
    ax.plot([low, high], [low, high], color="grey", linewidth=0.8)
    ax.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high), aspect="equal")
    ax.minorticks_off()  # decades suffice, and minor ticks make a report's many scatters slow
    ax.set_xlabel(f"{x_spec} (ms)")
    ax.set_ylabel(f"{y_spec} (ms)")
    puzzles = f"{len(keys)} puzzle{'' if len(keys) == 1 else 's'}"
    ax.set_title(f"{dataset.name}: {puzzles}", fontsize="small")
    ax.grid(True, alpha=0.3)


def svg(fig) -> str:
    """The figure as SVG text (closed afterwards), its text searchable."""
    plt = pyplot()
    buffer = io.StringIO()
    with plt.rc_context({"svg.fonttype": "none"}):
        fig.savefig(buffer, format="svg")
    plt.close(fig)
    return buffer.getvalue()
