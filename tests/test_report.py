"""sudoku report: one self-contained HTML page rebuilt from a run's records, opened in a real
browser (headless Chromium) when this machine has one."""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from solvers.cli import main
from solvers.tools import results, summary

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


def test_with_many_specs_each_is_plotted_against_the_baseline_or_the_best(compare_run, monkeypatch):
    from dataclasses import replace

    from solvers.tools import report

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
    assert run.err == f"sudoku: cannot read {tmp_path / 'gone.txt'}: No such file or directory\n"
    run = cli("compare", "small4", "small4", "--backends", "propagate")
    assert (run.code, run.out) == (2, "")
    assert "dataset small4 named twice" in run.err and not out.exists()


def test_a_full_disk_is_named_as_a_write_error(cli, compare_run):
    run = cli("report", str(compare_run[1]), "-o", "/dev/full")
    assert (run.code, run.err) == (2, "sudoku: cannot write the output: No space left on device\n")
