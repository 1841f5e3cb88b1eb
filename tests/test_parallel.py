"""--jobs and --scheduler: the same output as a serial run, in order, and lost workers retried."""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

import pytest
from conftest import ROOM
from crashing_backend import KillOnce

from solvers import BackendSpec, Board, Shape, format_board, read_puzzles
from solvers.formats.boards import Puzzle
from solvers.formats.datasets import DATASETS
from solvers.run.parallel import ordered


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


def test_compare_runs_on_a_process_based_dask_cluster(cli, dask_cluster, tmp_path):
    # Dask's worker processes are daemonic, and compare runs every spec in a worker process
    # of its own, started inside them
    out = tmp_path / "run.json"
    args = ["several9", "--limit", "4", "--backends", "propagate,exactcover", *ROOM]
    run = cli("compare", *args, "--scheduler", dask_cluster, "--json", str(out))
    assert run.code == 0, run.err
    rows = json.loads(out.read_text())["datasets"][0]["summary"]
    solved = [(r["backend"], r["solved"]) for r in rows]
    assert solved == [("propagate", 4), ("exactcover", 4), ("VBS", 4)]


def test_on_a_process_based_dask_cluster_a_deadline_is_kept_and_a_crash_costs_one_puzzle(
    dask_cluster, crasher
):
    from distributed import Client
    from on_dask_workers import Registered

    from solvers.analysis.compare import plan_of
    from solvers.analysis.results import Settings
    from solvers.run.answer import Status
    from solvers.run.pipeline import timed

    shape = Shape(2, 2)
    hangs, crashes = Board(shape, (1,) + (0,) * 15), Board(shape, (0,) * 16)
    plan = plan_of(Settings(timeout=0.2), scheduler=dask_cluster)
    with Client(dask_cluster) as client:
        plugin = Registered(crasher, "crashing_backend:Crasher", summary="crashes on purpose")
        client.register_plugin(plugin, name="crasher")
        try:
            boards = [hangs, crashes, crashes, hangs]
            answers, _setup, _peak = timed(BackendSpec(crasher).resolve(), boards, plan)
        finally:
            client.unregister_worker_plugin("crasher")
    statuses = [Status.TIMEOUT, Status.ERROR, Status.ERROR, Status.TIMEOUT]
    assert [a.status for a in answers] == statuses
    assert "worker died" in answers[1].detail


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


# A server that sends nothing is named once the probe's wait is over: the default run waits
# 0.5 s of it, the slow run the wait a user meets (5 s, solvers/run/parallel.py's
# CONNECT_SECONDS), idle seconds of a worker that the default run would sit through.
@pytest.mark.parametrize(
    "reply, seconds",
    [
        pytest.param(None, 0.5, id="silent-short-wait"),
        pytest.param(None, None, id="silent", marks=pytest.mark.slow),
        pytest.param(b"HTTP/1.0 200 OK\r\n\r\nhello", None, id="http"),
    ],
)
def test_a_server_that_is_no_dask_scheduler_is_named_within_seconds(
    cli, reply, seconds, monkeypatch
):
    # before, a plain HTTP server on the port held the Dask client for more than 10 minutes
    import socket
    import threading
    import time

    if seconds is not None:
        monkeypatch.setattr("solvers.run.parallel.CONNECT_SECONDS", seconds)

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    held = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                line, _ = server.accept()
                held.append(line)  # a plain HTTP server waits for a request; this one too
                if reply is not None:
                    line.sendall(reply)

    threading.Thread(target=serve, daemon=True).start()
    start = time.monotonic()
    try:
        address = f"tcp://127.0.0.1:{port}"
        run = cli("compare", "small4", "--backends", "sat", "--limit", "2", "--scheduler", address)
    finally:
        server.close()
        for line in held:
            line.close()
    assert time.monotonic() - start < 15  # the probe waits 5 s; the rest is a loaded start
    assert run.code == 2
    assert run.err.splitlines()[-1].startswith(f"sudoku: {address} is not a Dask scheduler: ")
    assert "Traceback" not in run.err
    if reply is None:  # named for its silence, after the probe's own wait
        wait = 5 if seconds is None else seconds
        assert run.err.splitlines()[-1].endswith(f"it sent nothing in {wait} s"), run.err
