"""sudoku report: one self-contained HTML page rebuilt from a run's records, opened in a real
browser (headless Chromium) when this machine has one."""

from __future__ import annotations

import base64
import html
import io
import itertools
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from solvers.analysis import results, summary
from solvers.cli.main import main

SPECS = ["propagate", "sat:encoding=minimal", "sat:encoding=extended"]
CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def page(compare_run, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    err = io.StringIO()
    assert main(["report", str(compare_run[1]), "-o", str(out)], io.StringIO(), err) == 0, err
    return out


def test_the_page_fetches_nothing_and_has_a_row_per_backend(page):
    text = page.read_text()
    assert not re.findall(r'(?:src|href)="(?!data:)', text)  # no file, no network
    assert "<link" not in text and "<script src" not in text
    assert "sudoku compare small4 several9 --limit 4" in text and " cores; " in text
    for dataset in ("small4", "several9"):
        assert f"<h2>{dataset}</h2>" in text
    for spec in [*SPECS, "VBS"]:
        assert text.count(f"<tr><td>{spec}</td>") == 2  # one row in each dataset's table
    assert text.count('<option value="') == 2 * 3  # every two of three specs, per dataset


def test_the_plots_keep_two_option_sets_of_one_backend_apart(page):
    images = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page.read_text())
    overview = base64.b64decode(images[0]).decode()  # cactus and box plot, one legend
    for spec in SPECS:  # its own entry in the legend, and its box's label with the count
        assert overview.count(f">{spec}</text>") == 1
        assert overview.count(f">{spec}: 8 puzzles, 0 unfinished</text>") == 1


def test_the_tables_are_rebuilt_from_the_records_alone(compare_run):
    stored = json.loads(compare_run[1].read_text())
    run = results.read(str(compare_run[1]))
    for dataset, written in zip(run.datasets, stored["datasets"], strict=True):
        rebuilt = json.loads(json.dumps(summary.summarize(dataset, run.settings)))
        assert rebuilt == written["summary"]


def test_a_file_that_is_not_a_run_is_a_usage_error(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    run = cli("report", str(bad), "-o", str(tmp_path / "x.html"))
    assert run.code == 2 and "not JSON" in run.err


@pytest.mark.slow  # a browser's start-up: seconds
@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)",
)
def test_the_page_renders_in_headless_chromium(page, tmp_path):
    def chromium(*args: str) -> str:
        return in_chromium(page, tmp_path, *args)

    shot = tmp_path / "shot.png"
    chromium(f"--screenshot={shot}", "--window-size=1280,2000")
    from matplotlib.image import imread

    pixels = imread(shot)[..., :3]
    assert pixels.shape[:2] == (2000, 1280)
    assert pixels.std() > 0.05  # not blank: text, tables and plots
    assert np.mean(pixels.min(axis=2) < 0.9) > 0.02  # a few per cent of pixels are inked
    dom = chromium("--dump-dom")
    for spec in [*SPECS, "VBS"]:
        assert re.search(rf"<tr><td>{re.escape(spec)}</td>(<td[^>]*>[^<]*</td>)+</tr>", dom)


def in_chromium(page: Path, tmp_path: Path, *args: str) -> str:
    """Headless Chromium's stdout on ``page`` (``--dump-dom``: the DOM after its scripts ran)."""
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            *args,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


# Clicks every column title of every table, twice (up, then down), and writes down each
# column's cells in the order the page then shows them, and any error the clicks raised.
CLICKER = """<script>
const seen = [];
window.addEventListener("error", (event) => seen.push({error: event.message}));
document.querySelectorAll("table.sortable").forEach((table, t) => {
  [...table.tHead.rows[0].cells].forEach((th, column) => {
    for (const order of ["up", "down"]) {
      th.click();
      const cells = [...table.tBodies[0].rows].map((row) => row.cells[column]);
      seen.push({table: t, column, order, keys: cells.map((c) => c.dataset.v ?? c.textContent)});
    }
  });
});
const out = document.createElement("pre");
out.id = "clicked";
out.textContent = JSON.stringify(seen);
document.body.appendChild(out);
</script>
"""
NUMBER = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def sort_key(text: str) -> tuple[int, float | str]:
    """A cell as the page is meant to sort it: a leading number by value, '-' last, text."""
    text = text.strip()
    number = NUMBER.match(text)
    if number:
        return 0, float(number.group())
    return (2, "") if text in ("-", "") else (1, text)


def seventeen_specs() -> list[str]:
    """Every available backend, and option sets of a few until there are 17."""
    from solvers.backends import registry

    specs = [name for name in registry.names() if registry.availability(name)[0]]
    more = ["sat:encoding=minimal", "sat:encoding=extended", "cpsat:model=boolean"]
    more += ["pysat:solver=glucose", "pysat:solver=minisat", "cms:encoding=minimal"]
    return (specs + [spec for spec in more if spec.split(":")[0] in specs])[:17]


@pytest.mark.slow  # 17 specs on two datasets, then a browser
@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)",
)
def test_every_table_sorts_by_any_column_in_chromium(tmp_path):
    specs = seventeen_specs()
    assert len(specs) == 17
    run_json, page = tmp_path / "run.json", tmp_path / "report.html"
    args = ["compare", "small4", "several9", "--limit", "4", "--timeout", "2"]
    args += ["--backends", ",".join(specs), "--json", str(run_json)]
    err = io.StringIO()
    assert main(args, io.StringIO(), err) == 0, err.getvalue()
    # --against itself: the page's third table, the changes
    report = ["report", str(run_json), "-o", str(page), "--against", str(run_json)]
    assert main(report, io.StringIO(), err) == 0, err.getvalue()
    text = page.read_text()
    page.write_text(text.replace("</body>", CLICKER + "</body>"))
    dom = in_chromium(page, tmp_path, "--dump-dom")
    seen = json.loads(html.unescape(re.search(r'<pre id="clicked">(.*?)</pre>', dom, re.S)[1]))
    assert [entry for entry in seen if "error" in entry] == []
    tables = {entry["table"] for entry in seen}
    assert tables == {0, 1, 2}, "two datasets' tables and the changes table"
    rows = {0: 17, 1: 17, 2: 2 * 17}  # 17 specs (VBS stands apart); changes: per dataset and spec
    for entry in seen:
        keys = [sort_key(key) for key in entry["keys"]]
        assert len(keys) == rows[entry["table"]]
        numbers = [value for kind, value in keys if kind == 0]
        texts = [value for kind, value in keys if kind == 1]
        expected = sorted(numbers) + sorted(texts)
        if entry["order"] == "down":
            expected = sorted(numbers, reverse=True) + sorted(texts, reverse=True)
        blanks = [kind for kind, _ in keys if kind == 2]
        assert [value for kind, value in keys if kind != 2] == expected, entry
        assert [kind for kind, _ in keys][len(keys) - len(blanks) :] == blanks, entry
    for up, down in zip(seen[::2], seen[1::2], strict=True):  # a click changes the order
        if len({sort_key(key) for key in up["keys"]} - {(2, "")}) > 1:
            assert up["keys"] != down["keys"], up


def test_with_many_specs_each_is_plotted_against_the_baseline_or_the_best(compare_run, monkeypatch):
    from dataclasses import replace

    from solvers.analysis import report

    run = results.read(str(compare_run[1]))
    dataset = run.datasets[0]
    rows = summary.summarize(dataset, run.settings)
    assert len(report._chosen_pairs(dataset, run.settings, rows)) == 3  # every two of three
    monkeypatch.setattr(report, "ALL_PAIRS_UP_TO", 2)
    best = min((r for r in rows if r["backend"] in SPECS), key=lambda r: r["par2_s"])["backend"]
    pairs = report._chosen_pairs(dataset, replace(run.settings, baseline=None), rows)
    assert pairs == [(best, spec) for spec in SPECS if spec != best]
    settings = replace(run.settings, baseline="sat:encoding=extended")
    pairs = report._chosen_pairs(dataset, settings, rows)
    assert pairs == [("sat:encoding=extended", s) for s in SPECS if s != "sat:encoding=extended"]


def test_a_run_file_with_bad_records_or_bad_bytes_is_one_line_usage_error(
    cli, compare_run, tmp_path
):
    good = json.loads(compare_run[1].read_text())
    spoiled = {
        "seconds null": lambda d: d["records"][0].update(seconds=None),
        "seconds NaN": lambda d: d["records"][0].update(seconds=float("nan")),
        "no records": lambda d: d.update(records=[]),
        "a stranger": lambda d: d["records"][0].update(spec="ghost"),
    }
    for name, spoil in spoiled.items():
        data = json.loads(json.dumps(good))
        spoil(data)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        run = cli("report", str(path), "-o", str(tmp_path / "out.html"))
        assert run.code == 2 and run.err.startswith(f"sudoku: {path}: a sudoku-compare/2"), name
        assert len(run.err.splitlines()) == 1
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "binary.json").write_bytes(b"\xd0\xcf\x11\xe0" * 100)
    for name in ("deep.json", "binary.json"):
        run = cli("report", str(tmp_path / name), "-o", str(tmp_path / "out.html"))
        assert run.code == 2 and run.err.startswith(f"sudoku: {tmp_path / name}: not JSON")


def test_compare_names_a_missing_or_repeated_dataset_before_any_work(cli, tmp_path):
    out = tmp_path / "run.json"
    run = cli("compare", "small4", str(tmp_path / "gone.txt"), "--json", str(out))
    assert (run.code, run.out) == (2, "")
    missing = f"sudoku: cannot read {tmp_path / 'gone.txt'}: No such file or directory; "
    assert run.err.startswith(missing) and run.err.endswith("('sudoku datasets')\n")
    run = cli("compare", "small4", "small4", "--backends", "propagate")
    assert (run.code, run.out) == (2, "")
    assert "dataset small4 named twice" in run.err and not out.exists()


@pytest.fixture
def small_run(cli, tmp_path) -> Path:
    """A run of one backend on two puzzles: a page a fifth as costly to draw as compare_run's,
    for the tests of where the page goes rather than of what it shows."""
    path = tmp_path / "small.json"
    args = ["small4", "--limit", "2", "--backends", "propagate", "--json", str(path)]
    assert cli("compare", *args).code == 0
    return path


def test_a_full_disk_is_named_as_a_write_error(cli, small_run):
    run = cli("report", str(small_run), "-o", "/dev/full")
    said = "sudoku: cannot write -o /dev/full: No space left on device\n"  # the file named
    assert (run.code, run.err) == (2, said)


def test_twenty_and_more_specs_each_look_different():
    from solvers.analysis import plots

    specs = [f"spec{i}" for i in range(45)]
    looks = plots.styles(specs)
    colours = [tuple(looks[spec]["color"]) for spec in specs]
    assert len(set(colours[:40])) == 40  # a colour each, up to forty
    whole = {(tuple(look["color"]), look["marker"], look["linestyle"]) for look in looks.values()}
    assert len(whole) == 45


def drawn_overview(run_path: Path, dataset: int, specs: list[str] | None = None):
    """The report's cactus and box plot of one dataset of a run (``specs`` alone if named),
    drawn (Agg)."""
    from dataclasses import replace

    from solvers.analysis import plots

    run = results.read(str(run_path))
    plt = plots.pyplot()
    data = run.datasets[dataset]
    if specs:
        data = replace(data, backends=[b for b in data.backends if b.spec in specs])
    style = plots.styles(b.spec for b in data.backends)
    fig, (left, right) = plt.subplots(1, 2, figsize=(15, 5), layout="constrained")
    plots.cactus(left, data, run.settings, style)
    plots.boxes(right, data, run.settings, style)
    plots.legend(left, style)
    fig.canvas.draw()
    return fig, left, right


@pytest.mark.parametrize("specs", [SPECS, SPECS[1:]], ids=["all", "two-sat-encodings"])
def test_time_axes_have_readable_ticks_whatever_the_range(compare_run, specs, tmp_path):
    """Every time axis holds three labels or more, none over another: the two encodings'
    times span under two decades, where matplotlib's log axis labels one tick or crowds."""
    run_path = compare_run[1]
    if specs != SPECS:  # measured times spread wider on a loaded machine: pin them to 0.1-0.9 ms
        run = json.loads(run_path.read_text())
        for index, record in enumerate(run["records"]):
            record["seconds"] = record["cpu_seconds"] = 1e-4 * (1 + index % 9)
        run_path = tmp_path / "narrow.json"
        run_path.write_text(json.dumps(run))
    for dataset in (0, 1):
        fig, left, right = drawn_overview(run_path, dataset, specs)
        renderer = fig.canvas.get_renderer()
        for axis, low_high in ((right.xaxis, right.get_xlim()), (left.yaxis, left.get_ylim())):
            low, high = sorted(low_high)
            if specs != SPECS:
                assert high / low < 100  # the case this is about
            labels = [
                label
                for tick, label in zip(axis.get_majorticklocs(), axis.get_ticklabels(), strict=True)
                if low <= tick <= high and label.get_text()
            ]
            assert len(labels) >= 3, [label.get_text() for label in labels]
            boxes = [label.get_window_extent(renderer) for label in labels]
            for a, b in itertools.pairwise(boxes):
                assert not a.overlaps(b), [label.get_text() for label in labels]
        fig.clf()


def test_the_legend_stands_beside_the_cactus_plot(compare_run):
    fig, left, right = drawn_overview(compare_run[1], 0)
    renderer = fig.canvas.get_renderer()
    legend = left.get_legend().get_window_extent(renderer)
    cactus, boxes = left.get_window_extent(renderer), right.get_window_extent(renderer)
    assert cactus.x1 <= legend.x0 and legend.x1 <= boxes.x0
    assert legend.y1 <= cactus.y1 + 1 and legend.y0 >= cactus.y0 - 1


@pytest.mark.parametrize("low, high", [(0.9, 1.1), (3, 15), (1, 50), (0.2, 90), (0.01, 5000)])
def test_log_ticks_label_any_range_readably(low, high):
    from solvers.analysis import plots

    plt = plots.pyplot()
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.set_xscale("log")
    ax.set_xlim(low, high)
    plots.log_ticks(ax.xaxis, low, high)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    shown = [
        label
        for tick, label in zip(ax.xaxis.get_majorticklocs(), ax.xaxis.get_ticklabels(), strict=True)
        if low <= tick <= high and label.get_text()
    ]
    plt.close(fig)
    texts = [label.get_text() for label in shown]
    assert len(shown) >= 3 and all("mathdefault" not in text for text in texts), texts
    extents = [label.get_window_extent(renderer) for label in shown]
    assert not any(a.overlaps(b) for a, b in itertools.pairwise(extents)), texts


def test_a_run_that_timed_no_puzzle_says_so(cli, tmp_path):
    """Every puzzle of the input bad: compare writes a run with no dataset (exit 2), and its
    page says that no puzzle was timed rather than showing an empty page."""
    source, run_file, out = tmp_path / "bad.txt", tmp_path / "run.json", tmp_path / "run.html"
    source.write_text("x...............\n")
    assert cli("compare", str(source), "--backends", "dfs", "--json", str(run_file)).code == 2
    done = cli("report", str(run_file), "-o", str(out))
    assert done.code == 0 and done.out.endswith(" KiB; no puzzle was timed\n"), done.out
    assert "This run timed no puzzle: its input held none that could be read" in out.read_text()
