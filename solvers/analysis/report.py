"""``sudoku report``: a comparison run as one self-contained HTML file, rebuilt from its
records: sortable summary tables, the plots as SVG inside it, with an older run the
regressions, and what ``compare --strength`` measured. jinja2 writes it (autoescaped)."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from solvers.analysis import plots, regression, summary
from solvers.analysis.results import CompareRun, DatasetRun, Settings

if TYPE_CHECKING:
    from solvers.strength.tally import Measured


@dataclass(frozen=True)
class Column:
    title: str
    key: str
    kind: str = "count"  # how the value is written: a key of FORMATS, or "name"
    interval: str | None = None  # the key of the value's confidence interval (ms or ratio)

    def cell(self, row: dict, settings: Settings) -> tuple[str, object]:
        """(the text shown, the value sorted on)."""
        value = row.get(self.key, row.get("stats", {}).get(self.key))
        if value is None:
            return "-", None
        if self.kind == "name":
            return value, None  # sorted by its text
        if self.interval:
            bounds = row[self.interval]
            if self.kind == "ms":
                return summary.time_interval(value, bounds, settings.timeout), value
            return summary.ratio_interval(value, bounds), value
        return FORMATS[self.kind](value, settings), value


FORMATS = {
    "count": lambda v, s: str(v),
    "ms": lambda v, s: summary.ms(v, s.timeout),
    "ratio": lambda v, s: summary.ratio(v),
    "whole": lambda v, s: f"{v:.0f}",
    "s": lambda v, s: f"{v:.2f}",
    "mean": lambda v, s: f"{v:.1f}",
}

ALL_PAIRS_UP_TO = 8  # specs: more, and each is drawn against one (``_pairs``)
COLUMNS = (
    Column("backend", "backend", "name"),
    Column("solved", "solved"),
    Column("unsolvable", "unsolvable"),
    Column("timeouts", "timeouts"),
    Column("errors", "errors"),
    Column("wrong", "wrong"),
    Column("disputed", "disputed"),  # shown when the judge disputed some answer
    Column("PAR-2 ms", "par2_s", "ms"),
    Column("median ms [95% CI]", "median_s", "ms", "median_ci_s"),
    Column("p95 ms", "p95_s", "ms"),
    Column("max ms", "max_s", "ms"),
    Column("CPU median ms", "cpu_median_s", "ms"),
    Column("x baseline [95% CI]", "ratio_to_baseline", "ratio", "ratio_ci"),
    Column("best %", "best_pct", "whole"),
    Column("puzzles/s", "puzzles_per_s", "whole"),
    Column("peak MiB", "peak_rss_mib", "whole"),
    Column("setup s", "setup_s", "s"),
    Column("guesses", "guesses_per_puzzle", "mean"),
    Column("no-guess %", "no_guess_pct", "whole"),
    Column("conflicts", "conflicts_per_puzzle", "mean"),
    Column("branches", "branches_per_puzzle", "mean"),
)


def build(run: CompareRun, older: CompareRun | None = None, older_name: str = "") -> str:
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("solvers.analysis", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    template = environment.get_template("report.html")
    style = plots.styles(b.spec for d in run.datasets for b in d.backends)
    datasets = [_dataset(dataset, run.settings, style) for dataset in run.datasets]
    changes = regression.changes(run, older) if older is not None else None
    return template.render(
        run=run,
        datasets=datasets,
        changes=changes,
        change_rows=regression.table(changes, summary.ms) if changes else [],
        older=older,
        older_name=older_name,
        machine=regression.machine(run, older).said if older is not None else "",
    )


def _dataset(dataset: DatasetRun, settings: Settings, style: dict) -> dict:
    rows = summary.summarize(dataset, settings)
    shown = [c for c in COLUMNS if any(c.cell(row, settings)[1] is not None for row in rows)]
    shown = [c for c in COLUMNS if c in shown or c.key in ("backend", "solved")]
    if not any(row.get("disputed") for row in rows):
        shown = [c for c in shown if c.key != "disputed"]
    cells = [[c.cell(row, settings) for c in shown] for row in rows]
    for row, line in zip(rows, cells, strict=True):
        if row.get("disputed"):
            line[0] = (line[0][0] + summary.DISPUTED, line[0][1])
    virtual = [line for row, line in zip(rows, cells, strict=True) if row["backend"] == summary.VBS]
    return {
        "run": dataset,
        "header": [c.title for c in shown],
        "rows": [line for line in cells if line not in virtual],
        "vbs": virtual,  # a row of its own under the backends', never sorted among them
        "overview": _data_uri(_overview(dataset, settings, style)),
        "pairs": _pairs(dataset, settings, rows),
        "strength": _strength(dataset) if dataset.strength else None,
    }


def _strength(dataset: DatasetRun) -> dict:
    """The strength tables: per level, and per puzzle the levels that solve it and the cells
    each decides ("refuted" where it proves the puzzle has no solution, "timed out" where it
    ran out of time); cells as the summary's, (text, value)."""
    from solvers.strength.tally import solved_by, tallies

    tallied = tallies(dataset.strength)
    levels = [tally.level for tally in tallied]
    per_level = [
        [
            (tally.level, None),
            (str(tally.solved), tally.solved),
            (f"{tally.solved_pct:.1f}", tally.solved_pct),
            (str(tally.refuted), tally.refuted),
            _mean(tally.mean_fixed),
            (summary.ms(tally.median_s), tally.median_s),
            (f"{tally.total_s:.2f}", tally.total_s),
        ]
        for tally in tallied
    ]
    by_cell = {(m.puzzle, m.level): m for m in dataset.strength}
    per_puzzle = [
        [
            (str(line), line),
            (", ".join(solving) or "none", len(solving)),
            *(_decided(by_cell[line, level]) for level in levels),
        ]
        for line, solving in solved_by(dataset.strength).items()
    ]
    return {"levels": levels, "per_level": per_level, "per_puzzle": per_puzzle}


def _mean(fixed: float | None) -> tuple[str, float | None]:
    """The mean cells decided, or "-" (sorted after every mean) where there is none."""
    return ("-", None) if fixed is None else (f"{fixed:.1f}", fixed)


def _decided(measured: Measured) -> tuple[str, int | None]:
    """A level's cell in the puzzle table: the cells it decided, or how it ended otherwise
    (as text, sorted after every count)."""
    if measured.refuted:
        return "refuted", None
    if measured.timed_out:
        return "timed out", None
    return str(measured.fixed), measured.fixed


def _overview(dataset: DatasetRun, settings: Settings, style: dict) -> str:
    plt = plots.pyplot()
    height = 0.6 + plots.panel_height(len(_specs(dataset)))
    fig, (left, right) = plt.subplots(1, 2, figsize=(15, height), layout="constrained")
    plots.cactus(left, dataset, settings, style)
    plots.boxes(right, dataset, settings, style)
    plots.legend(left, {spec: style[spec] for spec in _specs(dataset)})
    return plots.svg(fig)


def _pairs(dataset: DatasetRun, settings: Settings, rows: list[dict]) -> list[tuple[str, str]]:
    """(``y against x``, the scatter plot) for the chosen pairs of specs (``_chosen_pairs``)."""
    plt = plots.pyplot()
    found = []
    for x_spec, y_spec in _chosen_pairs(dataset, settings, rows):
        fig, ax = plt.subplots(figsize=(4.6, 4.6))
        fig.subplots_adjust(left=0.17, bottom=0.13, right=0.97, top=0.93)
        plots.scatter(ax, dataset, settings, x_spec, y_spec)
        found.append((f"{y_spec} against {x_spec}", _data_uri(plots.svg(fig))))
    return found


def _chosen_pairs(
    dataset: DatasetRun, settings: Settings, rows: list[dict]
) -> list[tuple[str, str]]:
    """Every two specs; with more than ``ALL_PAIRS_UP_TO``, each against one: the baseline,
    or else the best PAR-2 in ``rows`` (17 specs would be 136 plots and megabytes of page)."""
    specs = _specs(dataset)
    if len(specs) <= ALL_PAIRS_UP_TO:
        return list(combinations(specs, 2))
    if settings.baseline in specs:
        anchor = settings.baseline
    else:
        ranked = [row for row in rows if row["backend"] in specs]  # not the VBS row
        anchor = min(ranked, key=lambda row: row["par2_s"])["backend"]
    return [(anchor, spec) for spec in specs if spec != anchor]


def _specs(dataset: DatasetRun) -> list[str]:
    return [backend.spec for backend in dataset.backends]


def _data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
