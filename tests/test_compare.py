"""sudoku compare: specs side by side, the statistics, per-puzzle records, shuffled copies
checked against their puzzle, and deadlines and crashes that do not stop the run."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOM

from solvers import BackendSpec, Board, Shape, Status, format_board, solve
from solvers.analysis import summary
from solvers.analysis.compare import Copy, crosscheck, plan_of
from solvers.analysis.results import Settings
from solvers.formats.datasets import DATASETS
from solvers.generation.shuffle import random_transform
from solvers.run.answer import Answer
from solvers.run.pipeline import timed

SPECS = ["propagate", "sat:encoding=minimal", "sat:encoding=extended"]
RECORD_FIELDS = {"dataset", "puzzle", "copy", "spec", "status", "seconds", "cpu_seconds"}
RECORD_FIELDS |= {"count", "stats", "detail"}
ROW_FIELDS = {"backend", "options", "puzzles", "solved", "unsolvable", "timeouts", "errors"}
ROW_FIELDS |= {"wrong", "par2_s", "median_s", "median_ci_s", "p95_s", "max_s"}
ROW_FIELDS |= {
    "mean_finished_s",
    "cpu_median_s",
    "ratio_to_baseline",
    "ratio_ci",
    "best_pct",
    "peak_rss_mib",
}


@pytest.fixture(scope="module")
def report(compare_run) -> dict:
    run, path = compare_run
    assert run.code == 0, run.err
    return json.loads(path.read_text())


def test_two_option_sets_of_one_backend_run_side_by_side(compare_run, report):
    lines = compare_run[0].out.splitlines()
    assert lines[0] == (
        "small4: 4 puzzles, each also as 1 shuffled copy (seed 1), mode unique, "
        "timeout 30 s per puzzle"
    )
    header = lines[1].split()
    assert header[:4] == ["backend", "solved", "t/o", "err"] and "base" in header
    assert [line.split()[0] for line in lines[2:6]] == [*SPECS, "VBS"]
    assert max(len(line) for line in lines) <= 120
    small = report["datasets"][0]
    assert [b["spec"] for b in small["backends"]] == SPECS
    assert [b["options"]["encoding"] for b in small["backends"][1:]] == ["minimal", "extended"]
    assert {r["spec"] for r in report["records"]} == set(SPECS)


def test_the_json_holds_every_answer_and_the_tables(compare_run, report):
    assert report["format"] == "sudoku-compare/2"
    assert report["command"].startswith("sudoku compare small4 several9 --limit 4")
    assert {"platform", "python", "cpus", "processor"} <= set(report["machine"])
    assert report["settings"] == {
        "mode": "unique",
        "timeout": 30.0,
        "shuffle": 1,
        "seed": 1,
        "baseline": "sat:encoding=extended",
    }
    records = report["records"]
    assert len(records) == 2 * 4 * 2 * 3  # datasets x puzzles x copies x specs
    assert all(set(record) == RECORD_FIELDS for record in records)
    small = [r for r in records if r["dataset"] == "small4" and r["spec"] == "propagate"]
    assert [(r["puzzle"], r["copy"]) for r in small] == [
        (line, copy) for line in (3, 4, 5, 6) for copy in (0, 1)
    ]  # the file's lines (lines 1 and 2 are its header)
    assert all(r["status"] == "solved" and r["count"] == 1 for r in small)
    several = [r for r in records if r["dataset"] == "several9"]
    assert {(r["status"], r["count"]) for r in several} == {("solved", 2)}  # still solved
    for dataset in report["datasets"]:
        *rows, vbs = dataset["summary"]
        assert all(set(row) >= ROW_FIELDS for row in rows) and vbs["backend"] == "VBS"
        assert [row["solved"] for row in dataset["summary"]] == [8, 8, 8, 8]
        assert all(row["peak_rss_mib"] > 10 and row["cpu_median_s"] > 0 for row in rows)
        assert rows[2]["ratio_to_baseline"] == 1 and rows[2]["ratio_ci"] == [1, 1]
    several_rows = report["datasets"][1]["summary"]
    assert [row["several_solutions"] for row in several_rows[:3]] == [8, 8, 8]


def test_the_tables_statistics_follow_from_the_records(report):
    dataset = report["datasets"][0]
    times = {
        spec: np.array([r["seconds"] for r in report["records"] if r["spec"] == spec][:8])
        for spec in SPECS
    }
    rows = {row["backend"]: row for row in dataset["summary"]}
    for spec in SPECS:  # every puzzle finished: PAR-2 is the plain mean
        assert rows[spec]["par2_s"] == pytest.approx(times[spec].mean())
        assert rows[spec]["median_s"] == pytest.approx(np.median(times[spec]))
        assert rows[spec]["max_s"] == pytest.approx(times[spec].max())
        low, high = rows[spec]["median_ci_s"]
        assert low <= rows[spec]["median_s"] <= high
    best = np.min([times[spec] for spec in SPECS], axis=0)
    assert rows["VBS"]["median_s"] == pytest.approx(np.median(best))
    assert sum(rows[spec]["best_pct"] for spec in SPECS) == pytest.approx(100)
    ratio = np.median(times["propagate"] / times["sat:encoding=extended"])
    assert rows["propagate"]["ratio_to_baseline"] == pytest.approx(ratio)


def test_the_plot_is_drawn(compare_run):
    assert (compare_run[1].parent / "run.png").read_bytes()[:4] == b"\x89PNG"


def test_first_mode_stops_at_the_first_solution(cli, tmp_path):
    out = tmp_path / "first.json"
    args = ["several9", "--limit", "3", "--backends", "native", "--mode", "first"]
    run = cli("compare", *args, *ROOM, "--json", str(out))
    assert run.code == 0 and "mode first" in run.out.splitlines()[0]
    records = json.loads(out.read_text())["records"]
    assert [(r["status"], r["count"]) for r in records] == [("solved", None)] * 3


def test_a_shuffled_copy_that_disagrees_with_its_puzzle_is_a_wrong_answer(cli, unsure, tmp_path):
    out = tmp_path / "unsure.json"
    args = ["small4", "--limit", "4", "--shuffle", "3", "--seed", "1", "--json", str(out)]
    run = cli("compare", *args, "--backends", f"{unsure},propagate")
    assert run.code == 5
    records = json.loads(out.read_text())["records"]
    wrong = [r for r in records if r["status"] == "wrong"]
    assert wrong and {r["spec"] for r in wrong} == {unsure}
    copies = [r for r in wrong if r["copy"]]
    assert copies and all("shuffled copy" in r["detail"] for r in copies)
    assert any("no solution, but the puzzle as given was solved" in r["detail"] for r in copies)
    assert f"BUG: backend {unsure} on shuffled copy" in run.out
    originals = [r for r in wrong if not r["copy"]]  # said no solution; a copy was solved
    assert all("but shuffled copy" in r["detail"] for r in originals)


def test_another_count_on_a_shuffled_copy_is_a_wrong_answer(puzzles):
    puzzle = puzzles["9x9-minimal"]
    solution = solve(puzzle, "native").solution
    transform = random_transform(puzzle.shape, __import__("random").Random(1))
    boards = [Copy(1, 0, puzzle), Copy(1, 1, transform.forward(puzzle), transform)]
    one = Answer(Status.SOLVED, "x", solution, count=1)
    agreeing = Answer(Status.SOLVED, "x", transform.forward(solution), count=1)
    assert crosscheck(boards, [one, agreeing], unique=True) == [one, agreeing]
    two = Answer(Status.SOLVED, "x", transform.forward(solution), count=2)
    checked = crosscheck(boards, [one, two], unique=True)
    assert checked[1].status is Status.WRONG and "2 solution(s) counted" in checked[1].detail
    assert crosscheck(boards, [one, two], unique=False)[1] == two  # first mode: no count


def test_timeouts_are_counted_and_the_run_goes_on(cli, puzzles, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(
        format_board(puzzles["16x16-minimal"], "line")
        + "\n"
        + format_board(puzzles["16x16"], "line")
        + "\n"
    )
    out = tmp_path / "r.json"
    # 3 s: dfs never finishes the minimal one, native (milliseconds) must finish both, loaded
    run = cli(
        "compare", str(path), "--backends", "dfs,native", "--timeout", "3", "--json", str(out)
    )
    assert run.code == 0
    dfs, native, _ = json.loads(out.read_text())["datasets"][0]["summary"]
    assert dfs["timeouts"] >= 1 and dfs["solved"] + dfs["timeouts"] == 2
    assert dfs["max_s"] == 6.0  # a timeout scores twice the timeout
    assert native["solved"] == 2
    assert ">3000" in run.out  # shown as beyond the timeout, not as a time


def test_a_hang_is_killed_and_a_segfault_is_an_error(crasher):
    shape = Shape(2, 2)
    hangs = Board(shape, (1,) + (0,) * 15)
    crashes = Board(shape, (0,) * 16)
    # The crash is an error only if its worker segfaults before the timeout: the worker's
    # start-up is waited for apart, but on a loaded machine a woken child can wait 0.2 s for a
    # core before it runs the board at all, and the crash read as a timeout. A second leaves it
    # room, and each hang is still killed at its deadline (the sleep is 60 s).
    plan = plan_of(Settings(timeout=1.0))
    answers, _setup, _peak = timed(BackendSpec(crasher).resolve(), [hangs, crashes, hangs], plan)
    assert [a.status for a in answers] == [Status.TIMEOUT, Status.ERROR, Status.TIMEOUT]
    assert "worker died" in answers[1].detail
    assert answers[0].stats == answers[2].stats == {"killed_after_s": 1.0}  # killed, not answered


def test_a_bad_spec_or_baseline_is_refused_before_any_work(cli):
    assert cli("compare", "small4", "--backends", "nope").code == 2
    run = cli("compare", "small4", "--backends", "sat", "--option", "sat:encoding=odd")
    assert run.code == 2 and "encoding=odd" in run.err
    run = cli("compare", "small4", "--backends", "sat:encoding=odd")
    assert run.code == 2 and "reduced, extended, minimal" in run.err
    run = cli("compare", "small4", "--backends", "sat:level=3")
    assert run.code == 2 and "encoding=reduced|extended|minimal" in run.err
    run = cli("compare", "small4", "--backends", "sat,pysat", "--baseline", "cpsat")
    assert run.code == 2 and "--baseline cpsat is not one of the backends: sat, pysat" in run.err


@pytest.mark.parametrize("command", ["compare", "check"])
@pytest.mark.parametrize(
    "backends, message",
    [
        pytest.param("dfs,dfs", "'dfs,dfs': dfs is named twice: name each backend once", id="same"),
        pytest.param(
            "cpsat:workers=1,model=boolean,cpsat:model=boolean,workers=1",
            "'cpsat:workers=1,model=boolean,cpsat:model=boolean,workers=1': "
            "cpsat:model=boolean,workers=1 is named twice: name each backend once",
            id="options-reordered",
        ),
        pytest.param(
            "sat,native,sat:encoding=reduced",
            "sat and sat:encoding=reduced are one configuration (encoding=reduced is sat's"
            " default): name each backend once",
            id="default-restated",
        ),
    ],
)
def test_a_backend_named_twice_is_refused_in_one_line_before_any_work(
    cli, command, backends, message
):
    # two spellings of one configuration would be timed (or checked) once and shown as one
    # row: the user meant something else, and is told what
    run = cli(command, "small4", "--backends", backends)
    assert (run.code, run.out, run.err) == (2, "", f"sudoku: {message}\n")


def test_times_are_written_so_that_a_larger_one_never_reads_smaller():
    assert [summary.ms(s) for s in (0.000349, 0.00035, 0.0123456, 0.98765)] == [
        "0.349",
        "0.350",  # three digits, its trailing zero kept
        "12.3",
        "988",
    ]
    values = sorted(np.random.default_rng(0).lognormal(-7, 2, 500))
    shown = [float(summary.ms(s)) for s in values]
    assert shown == sorted(shown)  # the old table showed a max of 0.3 under a p95 of 0.349
    assert summary.ms(0.7, timeout=0.5) == ">500"  # only an unfinished puzzle's score
    assert summary.time_interval(0.00306, [0.00296, 0.00328]) == "3.06 [2.9..3.3]"
    assert summary.time_interval(0.4, [0.2, 1.0], timeout=0.5) == "400 [200..>500]"


def test_check_takes_two_option_sets_of_one_backend_too(cli):
    run = cli("check", "small4", "--backends", "sat:encoding=minimal,sat:encoding=extended")
    assert run.code == 0, run.err
    rows = [line.split()[0] for line in run.out.splitlines()[1:3]]
    assert rows == ["sat:encoding=minimal", "sat:encoding=extended"]


def test_puzzles_with_variant_rules_run_unshuffled_and_the_run_says_so(cli, tmp_path):
    made = cli("generate", "--rules", "x", "--count", "2", "--seed", "1", "--clues", "40")
    path, out = tmp_path / "x.txt", tmp_path / "x.json"
    path.write_text(made.out)
    args = [str(path), "--backends", "propagate", "--shuffle", "2", *ROOM]
    run = cli("compare", *args, "--json", str(out))
    assert run.code == 0, run.err
    assert run.out.startswith(f"{path}: 2 puzzles (variants: not shuffled), mode unique")
    assert "2 puzzles with variant rules, unshuffled" in run.out
    assert [r["copy"] for r in json.loads(out.read_text())["records"]] == [0, 0]


def test_a_backend_that_does_not_encode_a_rule_is_left_out_and_never_answers(cli, tmp_path):
    out, plot, page = tmp_path / "k.json", tmp_path / "k.png", tmp_path / "k.html"
    args = ["examples/killer.txt", "examples/variants.txt", "--backends", "norvig,propagate"]
    # norvig takes ~50 ms CPU on the jigsaw puzzle: a loaded machine must not time it out
    run = cli("compare", *args, "--timeout", "20", "--json", str(out), "--plot", str(plot))
    assert run.code == 0, run.err
    killer, variants = run.out.split("\n\n")[:2]
    rows = [line.split()[0] for line in killer.splitlines()[2:-1]]
    assert rows == ["propagate"] and killer.endswith(
        "norvig left out: it does not support killercage"
    )
    rows = [line.split()[0] for line in variants.splitlines()[2:]]
    assert rows == ["norvig", "propagate", "VBS"]  # x and jigsaw are units: norvig reads them
    records = json.loads(out.read_text())["records"]
    assert {(r["dataset"], r["spec"]) for r in records if r["status"] != "solved"} == set()
    assert ("examples/killer.txt", "norvig") not in {(r["dataset"], r["spec"]) for r in records}
    alone = cli("compare", "examples/killer.txt", "--backends", "norvig", "--json", str(out))
    assert alone.code == 0 and "backend" not in alone.out and "left out" in alone.out
    assert cli("report", str(out), "-o", str(page)).code == 0  # a dataset no backend ran


def test_a_runner_does_not_attempt_a_board_whose_rules_its_backend_lacks():
    from solvers.formats.boards import read_puzzles
    from solvers.run.runner import Runner

    with open("examples/killer.txt", encoding="utf-8") as handle:
        [killer] = [p.board for p in read_puzzles(handle)]
    classic = Board.pattern(killer.shape).with_cells(
        [0] * 9 + list(Board.pattern(killer.shape).cells[9:])
    )
    with Runner("norvig", isolate=True) as runner:
        answers = runner.count_each([killer, classic, killer], 2, timeout=5)
    assert [a.status for a in answers] == [Status.UNSUPPORTED, Status.SOLVED, Status.UNSUPPORTED]
    assert answers[0].detail == "norvig does not support killercage" and answers[1].count == 1


def test_check_calls_nothing_agreed_when_no_backend_encodes_the_rules(cli):
    run = cli("check", "examples/killer.txt", "--backends", "norvig")
    assert run.code == 3
    assert run.out.splitlines()[0] == "line 3: unconfirmed, no backend named encodes killercage"
    assert "1 puzzle: 0 agree, 0 disagree, 1 unconfirmed" in run.out
    both = cli("check", "examples/killer.txt", "--backends", "norvig,native")
    assert both.code == 0 and "1 puzzle: 1 agree" in both.out


def test_exit_statuses_follow_the_documented_table(cli, registered, crasher):
    registered("liar", "tiny_backend:Liar", summary="returns a wrong grid")
    two = "\n".join(DATASETS["small4"].puzzles()[:2]) + "\n"
    wrong = cli("check", "--backends", "liar,propagate", stdin=two)
    assert wrong.code == 5, wrong.out  # a wrong answer: 5, whatever else disagrees
    failed = cli("check", "--backends", "crasher,propagate", stdin=two)
    assert failed.code == 2, failed.out  # a backend that failed on a puzzle: 2
    crashed = cli("compare", "several9", "--backends", "crasher", "--limit", "2")
    assert crashed.code == 2 and "crasher: 2 errors" in crashed.out, crashed.out


def fresh(*args: str) -> tuple[str, list[str]]:
    """A ``sudoku`` command's stderr and exit status in a process of its own, and the adapters
    it loaded (every one, and its library: seconds, with --backends all)."""
    code = (
        "import sys\nfrom solvers.cli.main import main\nstatus = main(sys.argv[1:])\n"
        "print(status, *sorted(m for m in sys.modules if m.startswith('adapters.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )
    status, *loaded = done.stdout.splitlines()[-1].split()  # after what the command printed
    return done.stderr + f"exit {status}", loaded


def test_the_same_dataset_twice_is_refused_before_any_backend_loads():
    said, loaded = fresh("compare", "easy9", "easy9")
    assert said == "sudoku: dataset easy9 named twice: its tables could not be told apart\nexit 2"
    assert loaded == []


def test_a_bad_puzzle_with_json_to_a_file_is_named_on_stderr_alone(cli, tmp_path):
    # compare's --json names a file: the bad line's record belongs there, not on stdout
    data = tmp_path / "bad.txt"
    data.write_text("x" + "." * 15 + "\n" + "1234341221434321\n")
    done = cli("compare", str(data), "--backends", "dfs", "--json", str(tmp_path / "run.json"))
    assert done.code == 2 and "line 1, column 1" in done.err
    assert "invalid" not in done.out and not done.out.lstrip().startswith("{")
    assert json.loads((tmp_path / "run.json").read_text())["datasets"][0]["puzzles"] == 1
