"""sudoku compare: the table, the JSON, the plot, and deadlines and crashes that do not stop it."""

from __future__ import annotations

import json

from solvers import BackendSpec, Board, Shape, Status, format_board
from solvers.tools.compare import run_backend

FIELDS = {
    "backend",
    "options",
    "solved",
    "unsolvable",
    "timeouts",
    "errors",
    "median_s",
    "p95_s",
    "max_s",
    "mean_s",
    "puzzles_per_s",
    "setup_s",
    "guesses_per_puzzle",
    "no_guess_pct",
    "stats",
}


def test_compare_prints_a_table_and_writes_json_and_a_plot(cli, tmp_path):
    out_json, out_png = tmp_path / "run.json", tmp_path / "run.png"
    run = cli(
        "compare",
        "small4",
        "nosolution9",
        "--limit",
        "4",
        "--backends",
        "propagate,cpsat,sat",
        "--json",
        str(out_json),
        "--plot",
        str(out_png),
    )
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "small4: 4 puzzles, timeout 1 s per puzzle"
    assert lines[1].split()[:4] == ["backend", "solved", "unsolv", "timeouts"]
    assert [line.split()[0] for line in lines[2:5]] == ["propagate", "cpsat", "sat"]
    report = json.loads(out_json.read_text())
    assert {"platform", "python", "cpus"} <= set(report["machine"])
    small, none = report["datasets"]
    assert small["name"] == "small4" and small["puzzles"] == 4
    for result in small["results"]:
        assert set(result) == FIELDS
        assert result["solved"] == 4 and result["median_s"] > 0
    assert [r["unsolvable"] for r in none["results"]] == [4, 4, 4]
    propagate = small["results"][0]
    assert propagate["guesses_per_puzzle"] == 0 and propagate["no_guess_pct"] == 100
    cpsat = small["results"][1]["stats"]  # CP-SAT's own counters, as means per puzzle
    assert set(cpsat) == {"branches_per_puzzle", "conflicts_per_puzzle"}
    assert all(isinstance(value, int | float) for value in cpsat.values())
    assert small["results"][2]["guesses_per_puzzle"] is None  # pycosat cannot tell
    assert out_png.read_bytes()[:4] == b"\x89PNG"


def test_timeouts_are_counted_and_the_run_goes_on(cli, puzzles, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(
        format_board(puzzles["16x16-minimal"], "line")
        + "\n"
        + format_board(puzzles["16x16"], "line")
        + "\n"
    )
    run = cli(
        "compare",
        str(path),
        "--backends",
        "dfs,native",
        "--timeout",
        "0.3",
        "--json",
        str(tmp_path / "r.json"),
    )
    assert run.code == 0
    dfs, native = json.loads((tmp_path / "r.json").read_text())["datasets"][0]["results"]
    assert dfs["timeouts"] >= 1 and dfs["solved"] + dfs["timeouts"] == 2
    assert native["solved"] == 2


def test_a_hang_is_killed_and_a_segfault_is_an_error(crasher):
    shape = Shape(2, 2)
    hangs = Board(shape, (1,) + (0,) * 15)
    crashes = Board(shape, (0,) * 16)
    result = run_backend(BackendSpec(crasher), [hangs, crashes, hangs], timeout=0.2)
    assert [a.status for a in result.answers] == [Status.TIMEOUT, Status.ERROR, Status.TIMEOUT]
    assert "worker died" in result.answers[1].detail
    summary = result.summary()
    assert summary["timeouts"] == 2 and summary["errors"] == 1 and summary["median_s"] is None


def test_unknown_backend_or_option_is_refused_before_any_work(cli):
    assert cli("compare", "small4", "--backends", "nope").code == 2
    run = cli("compare", "small4", "--backends", "sat", "--option", "sat:encoding=odd")
    assert run.code == 2 and "encoding=odd" in run.err
