"""--jobs and --scheduler: the same output as a serial run, in order, and lost workers retried."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import ROOM
from crashing_backend import KillOnce

from solvers import format_board, read_puzzles
from solvers.execution.parallel import ordered
from solvers.formats import Puzzle
from solvers.tools.datasets import DATASETS


@pytest.fixture(scope="module")
def mixed_file(tmp_path_factory, puzzles) -> Path:
    """Enough puzzles for several chunks, with bad lines, a conflict and unsolvable ones."""
    lines = DATASETS["easy9"].puzzles() + DATASETS["hard9"].puzzles()[:60]
    lines.insert(7, "not a puzzle")
    lines.insert(40, format_board(puzzles["conflicting-givens"], "line"))
    lines.insert(90, format_board(puzzles["no-solution-9x9"], "line"))
    path = tmp_path_factory.mktemp("data") / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "--backend", "sat"],
        ["solve", "--backend", "native", "--json"],
        ["count", "--backend", "pysat"],
        pytest.param(["check", "--backends", "native,sat"], marks=pytest.mark.slow),
    ],
)
def test_jobs_give_the_serial_output_in_input_order(cli, mixed_file, command):
    serial = cli(*command, str(mixed_file))
    parallel = cli(*command, str(mixed_file), "--jobs", "2")
    every_core = cli(*command, str(mixed_file), "--jobs", "0")
    assert serial.code == parallel.code == every_core.code == 2  # the bad lines
    assert untimed(parallel.out) == untimed(serial.out) == untimed(every_core.out)
    # check says how long it may take, which the jobs divide: the rest is the same
    assert bounded(parallel.err) == bounded(serial.err)
    # every puzzle was answered: a line each, or check's summary of all 161
    assert len(serial.out.splitlines()) >= 160 or "161 puzzles: 161 agree" in serial.out


def untimed(out: str) -> str:
    """The output without measured times (--json records them; they differ run to run)."""
    return re.sub(r'"seconds": [0-9.e-]+', '"seconds": T', out)


def boards_of(path: Path) -> list:
    with open(path, encoding="utf-8") as handle:
        return [p for p in read_puzzles(handle) if isinstance(p, Puzzle)]


def test_a_killed_worker_loses_and_duplicates_nothing(mixed_file, tmp_path):
    items = boards_of(mixed_file)
    task = KillOnce(items[100].board, str(tmp_path / "killed"))
    got = list(ordered(task, items, jobs=2))
    assert (tmp_path / "killed").exists()  # a worker really died mid-run
    assert [item for item, _ in got] == items
    assert [answer for _, answer in got] == [p.board.givens() for p in items]


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    tests = str(Path(__file__).parent)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = tests + (os.pathsep + old if old else "")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def test_a_dask_cluster_gives_the_serial_output(cli, mixed_file, dask_cluster):
    serial = cli("solve", "--backend", "sat", str(mixed_file))
    remote = cli("solve", "--backend", "sat", str(mixed_file), "--scheduler", dask_cluster)
    assert remote.code == serial.code and remote.out == serial.out and remote.err == serial.err


def test_a_lost_dask_worker_loses_and_duplicates_nothing(mixed_file, dask_cluster, tmp_path):
    items = boards_of(mixed_file)
    task = KillOnce(items[50].board, str(tmp_path / "killed"))
    got = list(ordered(task, items, scheduler=dask_cluster))
    assert (tmp_path / "killed").exists()
    assert [answer for _, answer in got] == [p.board.givens() for p in items]


def test_compare_with_jobs_counts_what_a_serial_run_counts(cli, tmp_path):
    counts = []
    for extra in ([], ["--jobs", "2"]):
        out = tmp_path / f"run{len(extra)}.json"
        run = cli(
            "compare",
            "several9",
            "nosolution9",
            "--backends",
            "native,sat",
            *ROOM,
            "--json",
            str(out),
            *extra,
        )
        assert run.code == 0, run.err
        report = json.loads(out.read_text())
        counts.append(
            [
                (r["backend"], r["solved"], r["unsolvable"], r["timeouts"], r["errors"])
                for d in report["datasets"]
                for r in d["summary"]
            ]
        )
    assert counts[0] == counts[1]
    assert counts[0][:2] == [("native", 20, 0, 0, 0), ("sat", 20, 0, 0, 0)]


def bounded(err: str) -> str:
    return re.sub(r": at most [^\n]*", ": at most ...", err)
