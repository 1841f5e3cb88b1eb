"""``sudoku report`` and ``--against`` over mutated run files: every field they read is
checked, and a bad one is one line naming it, exit 2; never a traceback (hypothesis drives the
mutations: types, huge and non-finite numbers, duplicates, missing parts)."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest
from conftest import ROOM
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.cli.main import main


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    """A small real run: two backends on a few puzzles of two datasets."""
    path = tmp_path_factory.mktemp("run") / "run.json"
    args = ["compare", "small4", "hard9", "--limit", "3", "--backends", "native,propagate", *ROOM]
    assert main([*args, "--json", str(path)], io.StringIO(), io.StringIO()) == 0
    return path


# The places are the ones of a run file of this shape, listed once from a run written above.
SHAPE = {
    "format": "",
    "command": "",
    "started": "",
    "machine": {},
    "settings": {"mode": "", "timeout": 0, "shuffle": 0, "seed": 0, "baseline": None},
    "datasets": [
        {
            "name": "", "path": "", "puzzles": 0, "copies": 1, "unshuffled": 0,
            "backends": [{"spec": "", "options": {"k": ""}, "setup_s": 0, "peak_rss_kb": 0}],
            "summary": [], "notes": [{"kind": "", "text": ""}], "hashes": {"1": ""},
        }
    ],
    "records": [
        {
            "dataset": "", "puzzle": 1, "copy": 0, "spec": "", "status": "", "seconds": 0,
            "cpu_seconds": 0, "count": 1, "stats": {}, "detail": "",
        }
    ],
}  # fmt: skip

ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=5),
    st.just(10**400),
    st.just(1e308),
    st.just(-1),
    st.just(float("inf")),
    st.just(float("nan")),
    st.just("HUGE"),  # written below as a 5,000-digit number (past Python's int limit)
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def paths(value, where=()):
    """Every place in the JSON: each key of each object and each item of each list."""
    yield where
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*where, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):  # the first few of a long list stand for all
            yield from paths(item, (*where, index))


PLACES = [place for place in paths(SHAPE) if place]


def mutated(data, place, how, odd):
    data = copy.deepcopy(data)
    *parent_path, last = place
    parent = data
    for step in parent_path:
        if isinstance(parent, dict) and step not in parent:  # an options or hashes key
            step = next(iter(parent), None)
        if step is None or (isinstance(parent, list) and step >= len(parent)):
            return data  # not in this run (no notes, say): the file as it was
        parent = parent[step]
    if isinstance(parent, dict) and last not in parent:
        last = next(iter(parent), None)
    if last is None or (isinstance(parent, list) and last >= len(parent)):
        return data
    if how == "replace":
        parent[last] = odd
    elif how == "delete":
        del parent[last]
    elif isinstance(parent, list):  # duplicate
        parent.insert(last, copy.deepcopy(parent[last]))
    else:
        parent[last] = [parent[last], parent[last]]
    return data


@pytest.mark.slow  # a page built per example: about a minute
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    place=st.sampled_from(PLACES),
    how=st.sampled_from(["replace", "delete", "duplicate"]),
    odd=ODD,
    against=st.booleans(),
)
def test_a_mutated_run_is_a_page_or_one_line_naming_the_field(
    cli, tmp_path, good, place, how, odd, against
):
    bad = tmp_path / "bad.json"
    run = json.loads(good.read_text())
    bad.write_text(json.dumps(mutated(run, place, how, odd)).replace('"HUGE"', "9" * 5000))
    args = ["report", str(good), "--against", str(bad)] if against else ["report", str(bad)]
    run = cli(*args, "-o", str(tmp_path / "page.html"))
    assert run.code in (0, 2), run.err
    if run.code == 2:
        assert run.err.startswith("sudoku: ") and run.err.count("\n") == 1, run.err


@pytest.mark.parametrize(
    "place, odd, names",
    [
        (("settings", "timeout"), "abc", "settings.timeout"),
        (("settings", "timeout"), 10**400, "settings.timeout"),
        (("datasets", 0, "puzzles"), None, "datasets[0].puzzles"),
        (("records", 0, "count"), "x", "records[0].count"),
        (("datasets", 0, "backends", 0, "peak_rss_kb"), 1e308, "datasets[0].backends[0]"),
        (("datasets", 0, "puzzles"), "HUGE", "datasets[0].puzzles is a huge number"),
        (("records", 1, "count"), "-HUGE", "records[1].count is a huge number"),
        (("settings", "timeout"), "HUGE", "settings.timeout is a huge number"),
    ],
    ids=[
        *("timeout-text", "timeout-huge", "puzzles-null", "count-text", "memory-1e308"),
        *("puzzles-5000-digits", "count-minus-5000-digits", "timeout-5000-digits"),
    ],
)
@pytest.mark.parametrize("command", ["report", "against"])
def test_a_bad_field_is_named(cli, tmp_path, good, place, odd, names, command):
    """Numbers past Python's int limit (4,300 digits) are written in as text: json.dumps
    cannot write them."""
    bad = tmp_path / "bad.json"
    text = json.dumps(mutated(json.loads(good.read_text()), place, "replace", odd))
    bad.write_text(text.replace('"HUGE"', "9" * 5000).replace('"-HUGE"', "-" + "9" * 5000))
    first = ["report", str(bad)] if command == "report" else ["report", str(good), "--against"]
    run = cli(*first, *([str(bad)] if command == "against" else []), "-o", str(tmp_path / "p.html"))
    assert run.code == 2 and names in run.err and len(run.err.splitlines()) == 1, run.err


@pytest.mark.parametrize("line", ["9" * 5000, "\u00b2"], ids=["5000-digits", "superscript-two"])
def test_a_puzzle_hash_under_a_line_that_is_no_line_number_is_named(cli, tmp_path, good, line):
    data = json.loads(good.read_text())
    data["datasets"][0]["hashes"][line] = "0123456789abcdef"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    run = cli("report", str(bad), "-o", str(tmp_path / "page.html"))
    assert run.code == 2 and len(run.err.splitlines()) == 1, run.err
    assert "datasets[0].hashes." in run.err and "not a line number" in run.err
