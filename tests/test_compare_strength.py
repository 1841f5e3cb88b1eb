"""``sudoku compare --strength``: what each level of inference decides with no search, measured
by ``sudoku strength``'s code on each puzzle of a compare run, printed, kept in the run file
(checked field by field when read back) and shown by ``sudoku report``, in a real browser too."""

from __future__ import annotations

import copy
import html
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_report import CHROMIUM, in_chromium
from test_report_mutations import ODD, mutated, paths

from solvers.analysis import results, run_fields
from solvers.cli.levels import DEFAULT_LEVELS
from solvers.cli.main import main
from solvers.formats.datasets import DATASETS

LEVELS = ["singles", "locked", "gac"]
LIMIT = 6


@pytest.fixture(scope="module")
def strength_run(tmp_path_factory) -> tuple[str, Path]:
    """A small run with strength: one backend on two datasets, each puzzle also as a shuffled
    copy (strength is measured on the puzzles as given); (its output, its run file)."""
    path = tmp_path_factory.mktemp("strength") / "run.json"
    args = ["compare", "small4", "hard9", "--limit", str(LIMIT), "--shuffle", "1"]
    args += ["--backends", "propagate", "--strength", ",".join(LEVELS), "--json", str(path)]
    out, err = io.StringIO(), io.StringIO()
    assert main(args, out, err) == 0, err.getvalue()
    return out.getvalue(), path


@pytest.fixture(scope="module")
def strength_page(strength_run, tmp_path_factory) -> Path:
    page = tmp_path_factory.mktemp("strength-page") / "report.html"
    err = io.StringIO()
    assert main(["report", str(strength_run[1]), "-o", str(page)], io.StringIO(), err) == 0, err
    return page


@pytest.fixture(scope="module")
def expected(tmp_path_factory) -> dict[str, dict[str, list[tuple[bool, int]]]]:
    """What ``sudoku strength --json`` says of the same puzzles: per dataset and level, each
    puzzle's (solved, cells decided)."""
    found: dict[str, dict[str, list[tuple[bool, int]]]] = {}
    folder = tmp_path_factory.mktemp("strength-first")
    for dataset in ("small4", "hard9"):
        first = folder / f"{dataset}.txt"  # the run's puzzles alone (hard9 has 100)
        first.write_text("\n".join(DATASETS[dataset].puzzles()[:LIMIT]) + "\n", encoding="utf-8")
        out = io.StringIO()
        assert main(["strength", str(first), "--levels", ",".join(LEVELS), "--json"], out) == 0
        items = [json.loads(line) for line in out.getvalue().splitlines()]
        assert sorted({item["index"] for item in items}) == list(range(1, LIMIT + 1))
        found[dataset] = {
            level: [(item["solved"], item["fixed"]) for item in items if item["level"] == level]
            for level in LEVELS
        }
    return found


def solved(measured: list[tuple[bool, int]]) -> int:
    return sum(done for done, _ in measured)


def tables_of(page: str, name: str) -> list[list[list[str]]]:
    """Each table of class ``name`` in the page, as rows of cell texts."""
    tables = re.findall(rf'<table class="sortable {name}">(.*?)</table>', page, re.S)
    return [
        [re.findall(r"<td[^>]*>([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)]
        for body in (table.split("<tbody>")[1] for table in tables)
    ]


def test_compare_prints_each_datasets_strength_as_sudoku_strength_measures_it(
    strength_run, expected
):
    out, path = strength_run
    for dataset in ("small4", "hard9"):
        shown = out.split(f"{dataset}: {LIMIT} puzzles")[1].split("\n\n")[0].splitlines()
        start = shown.index(
            "strength: what each level decides with no search, on each puzzle as given"
        )
        header, *rows = shown[start + 1 :]
        assert header.split() == [
            "level",
            "solved",
            "%",
            "refuted",
            "mean",
            "known",
            "median",
            "ms",
            "total",
            "s",
        ]
        for row, level in zip(rows, LEVELS, strict=True):
            count = solved(expected[dataset][level])
            assert row.split()[:4] == [level, str(count), f"{100 * count / LIMIT:.1f}", "0"]
    items = json.loads(path.read_text())["strength"]
    assert len(items) == 2 * LIMIT * len(LEVELS)  # the puzzles as given, not their copies


def test_the_report_shows_per_level_and_per_puzzle_strength(strength_page, expected):
    page = strength_page.read_text()
    per_level, per_puzzle = tables_of(page, "strength"), tables_of(page, "strength-puzzles")
    assert len(per_level) == len(per_puzzle) == 2  # one of each per dataset
    for dataset, levels, puzzles in zip(("small4", "hard9"), per_level, per_puzzle, strict=True):
        assert [row[0] for row in levels] == LEVELS
        for row in levels:
            measured = expected[dataset][row[0]]
            count, fixed = solved(measured), sum(cells for _, cells in measured)
            percent, mean = f"{100 * count / LIMIT:.1f}", f"{fixed / LIMIT:.1f}"
            assert row[1:5] == [str(count), percent, "0", mean]
        assert len(puzzles) == LIMIT
        for index, row in enumerate(puzzles):
            solving = [level for level in LEVELS if expected[dataset][level][index][0]]
            assert row[1] == (", ".join(solving) or "none")
            assert row[2:] == [str(expected[dataset][level][index][1]) for level in LEVELS]
    hard9 = [row[1] for row in per_puzzle[1]]
    assert "none" in hard9 and any("gac" in text for text in hard9)  # a telling sample


def test_a_run_without_strength_has_none_in_its_file_or_its_page(compare_run, tmp_path):
    assert "strength" not in json.loads(compare_run[1].read_text())
    page = tmp_path / "report.html"
    assert main(["report", str(compare_run[1]), "-o", str(page)], io.StringIO()) == 0
    assert "Strength" not in page.read_text() and "strength" not in page.read_text()


def test_strength_round_trips_through_the_run_file(strength_run, tmp_path):
    data = json.loads(strength_run[1].read_text())
    run_fields.check(data)
    run = results.read(str(strength_run[1]))
    assert [len(d.strength) for d in run.datasets] == [LIMIT * len(LEVELS)] * 2
    again = tmp_path / "again.json"
    results.write(run, str(again), [d["summary"] for d in data["datasets"]])
    assert again.read_text() == strength_run[1].read_text()


def test_a_refuted_puzzle_is_counted_in_the_table_the_run_file_and_the_report(tmp_path):
    """nosolution9's puzzles have no solution, and singles prove it: each level that does is
    counted as refuted (not solved, not "0 cells decided") in compare's table, in the run file
    and in the report; up:minimal refutes only some, and its mean is over the others."""
    path, page = tmp_path / "run.json", tmp_path / "report.html"
    args = ["compare", "nosolution9", "--backends", "propagate"]
    count = 20  # the whole set: up:minimal refutes 13 of them
    out = io.StringIO()
    assert main([*args, "--strength", "singles,up:minimal", "--json", str(path)], out) == 0
    rows = [
        line.split() for line in out.getvalue().split("on each puzzle as given\n")[1].splitlines()
    ]
    assert rows[0][:4] == ["level", "solved", "%", "refuted"]
    assert rows[1][:5] == ["singles", "0", "0.0", str(count), "-"]
    items = json.loads(path.read_text())["strength"]
    singles = [item for item in items if item["level"] == "singles"]
    assert len(singles) == count and all(i["refuted"] and not i["solved"] for i in singles)
    refuted = sum(item["refuted"] for item in items if item["level"] == "up:minimal")
    assert 0 < refuted < count
    assert main(["report", str(path), "-o", str(page)], io.StringIO()) == 0
    text = page.read_text()
    (per_level,), (per_puzzle,) = tables_of(text, "strength"), tables_of(text, "strength-puzzles")
    assert per_level[0][:5] == ["singles", "0", "0.0", str(count), "-"]
    assert per_level[1][3] == str(refuted) and per_level[1][4] != "-"
    assert [row[2] for row in per_puzzle] == ["refuted"] * count
    assert sum(row[3] == "refuted" for row in per_puzzle) == refuted
    assert "<th>refuted</th>" in text


def test_a_run_file_written_before_refuted_reads_it_as_false(strength_run, tmp_path):
    data = json.loads(strength_run[1].read_text())
    for item in data["strength"]:
        del item["refuted"], item["timed_out"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    run = results.read(str(old))
    measured = [m for d in run.datasets for m in d.strength]
    assert len(measured) == 2 * LIMIT * len(LEVELS)
    assert not any(m.refuted or m.timed_out for m in measured)
    assert main(["report", str(old), "-o", str(tmp_path / "page.html")], io.StringIO()) == 0


def test_a_bare_strength_measures_the_default_levels(tmp_path):
    path = tmp_path / "run.json"
    args = ["compare", "small4", "--limit", "2", "--backends", "propagate", "--strength"]
    assert main([*args, "--json", str(path)], io.StringIO()) == 0
    levels = [item["level"] for item in json.loads(path.read_text())["strength"]]
    assert list(dict.fromkeys(levels)) == DEFAULT_LEVELS.split(",")


def test_an_unknown_level_is_refused_in_one_line_before_any_work(cli, tmp_path):
    path = tmp_path / "run.json"
    done = cli("compare", "small4", "--strength", "gac,nope", "--json", str(path))
    assert (done.code, done.out) == (2, "") and not path.exists()
    assert done.err == cli("strength", "small4", "--levels", "gac,nope").err  # the same words
    assert done.err.startswith("sudoku: unknown level nope; choose from up:minimal")
    done = cli("compare", "--strength", "small4")  # the dataset taken as the levels
    assert done.code == 2 and done.err.count("\n") == 1
    assert "took the dataset small4 as its levels" in done.err


def spoiled(data: dict, how) -> dict:
    data = copy.deepcopy(data)
    how(data)
    return data


@pytest.mark.parametrize(
    "spoil, names",
    [
        (lambda d: d.update(strength={}), "strength is {}: not a list"),
        (lambda d: d["strength"][0].update(level="guess"), "strength[0].level is 'guess'"),
        (lambda d: d["strength"][1].update(solved="yes"), "strength[1].solved is 'yes'"),
        (lambda d: d["strength"][2].update(fixed=-1), "strength[2].fixed is -1"),
        (lambda d: d["strength"][0].update(seconds=float("nan")), "strength[0].seconds is nan"),
        (lambda d: d["strength"][0].pop("puzzle"), "strength[0]: no puzzle"),
        (lambda d: d["strength"][0].update(tries=3), "strength[0].tries: not a field"),
        (lambda d: d["strength"].append(d["strength"][0]), "a second singles on small4 line"),
        (lambda d: d["strength"].pop(1), "has no locked"),  # the first puzzle's
        (lambda d: d["strength"][0].update(dataset="ghost"), "strength[0].dataset is 'ghost'"),
        (lambda d: d["strength"][1].update(refuted="yes"), "strength[1].refuted is 'yes'"),
        (lambda d: d["strength"][2].update(timed_out=1), "strength[2].timed_out is 1"),
        (lambda d: d["strength"][0].update(solved=True, refuted=True),
         "strength[0]: solved and refuted both true"),
    ],
    ids=["not-a-list", "level", "solved", "fixed", "seconds", "puzzle", "extra", "twice",
         "lacking", "dataset", "refuted", "timed-out", "solved-and-refuted"],
)  # fmt: skip
def test_a_malformed_strength_field_is_one_line_naming_it(
    cli, strength_run, tmp_path, spoil, names
):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(spoiled(json.loads(strength_run[1].read_text()), spoil)))
    done = cli("report", str(bad), "-o", str(tmp_path / "page.html"))
    assert done.code == 2 and done.err.count("\n") == 1, done.err
    assert done.err.startswith(f"sudoku: {bad}: a sudoku-compare/2 file with a bad field: ")
    assert names in done.err, done.err


@pytest.mark.slow  # a browser's start-up: seconds
@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)",
)
def test_the_strength_section_renders_with_its_counts_in_headless_chromium(
    strength_page, expected, tmp_path
):
    dom = html.unescape(in_chromium(strength_page, tmp_path, "--dump-dom"))
    assert dom.count("Strength: what each level of inference decides with no search") == 2
    for dataset, levels in zip(("small4", "hard9"), tables_of(dom, "strength"), strict=True):
        assert [row[:2] for row in levels] == [
            [level, str(solved(expected[dataset][level]))] for level in LEVELS
        ]


STRENGTH_PLACES = [
    place
    for place in paths(
        {"strength": [{"dataset": "", "puzzle": 1, "level": "", "solved": True, "fixed": 0,
                       "seconds": 0, "refuted": False, "timed_out": False}]}
    )
    if place
]  # fmt: skip


@pytest.mark.slow  # a page built per example: about a minute
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    place=st.sampled_from(STRENGTH_PLACES),
    how=st.sampled_from(["replace", "delete", "duplicate"]),
    odd=ODD,
    index=st.integers(0, 2 * LIMIT * len(LEVELS) - 1),
)
def test_a_mutated_strength_list_is_a_page_or_one_line_naming_the_field(
    cli, strength_run, tmp_path, place, how, odd, index
):
    if len(place) > 1:
        place = ("strength", index, *place[2:])
    bad = tmp_path / "bad.json"
    data = mutated(json.loads(strength_run[1].read_text()), place, how, odd)
    bad.write_text(json.dumps(data).replace('"HUGE"', "9" * 5000))
    done = cli("report", str(bad), "-o", str(tmp_path / "page.html"))
    assert done.code in (0, 2), done.err
    if done.code == 2:
        assert done.err.startswith("sudoku: ") and done.err.count("\n") == 1, done.err
