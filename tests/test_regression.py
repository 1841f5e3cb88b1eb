"""A run against an older one: exactly the planted regressions are flagged, and exit 6."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOM
from test_compare import fresh

from solvers.analysis import calibration, regression, results
from solvers.backends import registry
from solvers.cli.main import main

PUZZLES = 30
OLD_MS = [1.0 + 0.05 * i for i in range(PUZZLES)]  # 1.00 .. 2.45 ms, one per puzzle


def synthetic(
    path,
    times_ms: dict[str, list[float]],
    lost: dict[str, int] | None = None,
    calibration_ms: list[float] | None = None,
) -> str:
    """A hand-made compare run: one dataset, a backend spec per key, a time per puzzle; the
    puzzle ``lost[spec]`` (a line number) timed out; the calibration workload's times, if
    given."""
    lost = lost or {}
    records = [
        {
            "dataset": "top",
            "puzzle": line,
            "copy": 0,
            "spec": spec,
            "status": "timeout" if lost.get(spec) == line else "solved",
            "seconds": 1.0 if lost.get(spec) == line else ms / 1000,
            "cpu_seconds": ms / 1000,
            "count": 1,
            "stats": {},
            "detail": "",
        }
        for spec, times in times_ms.items()
        for line, ms in enumerate(times, 1)
    ]
    backends = [{"spec": spec, "options": {}} for spec in times_ms]
    dataset = {"name": "top", "path": "top.txt", "puzzles": PUZZLES, "copies": 1}
    dataset |= {"unshuffled": 0, "backends": backends, "summary": [], "notes": []}
    dataset |= {"hashes": {str(line): f"puzzle{line}" for line in range(1, PUZZLES + 1)}}
    run = {"format": results.FORMAT, "command": "sudoku compare top.txt", "started": "then"}
    run |= {"machine": {}, "settings": {"timeout": 0.5}, "datasets": [dataset]}
    if calibration_ms is not None:
        paces = [ms / 1000 for ms in calibration_ms]
        run["calibration"] = {"workload": calibration.WORKLOAD, "cpu_seconds": paces}
    path.write_text(json.dumps(run | {"records": records}))
    return str(path)


@pytest.fixture
def runs(tmp_path) -> tuple[str, str]:
    """An old run and a new one in which ``slower`` takes 3x as long on every puzzle and
    ``loser`` times out on puzzle 7; ``steady`` has the same times in another order, ``drift``
    is 1.3x throughout (significant, but what a loaded machine does: under the 1.75x that
    counts) and ``faster`` 0.3x."""
    old = {spec: OLD_MS for spec in ("steady", "slower", "loser", "drift", "faster")}
    new = {
        "steady": OLD_MS[::-1],
        "slower": [3 * t for t in OLD_MS],
        "loser": OLD_MS,
        "drift": [1.3 * t for t in OLD_MS],
        "faster": [0.3 * t for t in OLD_MS],
    }
    return synthetic(tmp_path / "new.json", new, {"loser": 7}), synthetic(
        tmp_path / "old.json", old
    )


def test_exactly_the_planted_regressions_are_flagged(runs):
    new, old = (results.read(path) for path in runs)
    found = {change.spec: change for change in regression.changes(new, old)}
    assert [spec for spec, change in found.items() if change.regressed] == ["slower", "loser"]
    assert found["slower"].slower and found["slower"].ratio == pytest.approx(3)
    assert found["slower"].p_value < 0.01 and not found["slower"].lost
    (lost,) = found["loser"].lost
    assert (lost.puzzle, lost.old, lost.new) == (7, "solved", "timeout")
    assert not found["loser"].slower  # one puzzle at 1 s moves no median
    assert found["steady"].verdict == "no significant change" and found["steady"].p_value > 0.9
    assert found["drift"].ratio == pytest.approx(1.3) and found["drift"].p_value < 0.01
    assert not found["drift"].regressed
    assert found["faster"].faster and found["faster"].verdict == "faster"


def test_the_verdict_follows_the_test_beside_it(runs):
    # drift's change is significant (p < 0.01) but under the 1.75x that counts: the verdict
    # must not read "no significant change" beside its own p-value
    new, old = (results.read(path) for path in runs)
    found = {change.spec: change for change in regression.changes(new, old)}
    assert found["drift"].verdict == "a small change (under 1.75x)"
    for change in found.values():
        if change.p_value < regression.ALPHA:
            assert "no significant change" not in change.verdict
        else:
            assert "change" not in change.verdict or change.verdict == "no significant change"


def test_the_report_shows_the_regressions(cli, runs, tmp_path):
    page = tmp_path / "report.html"
    run = cli("report", runs[0], "--against", runs[1], "-o", str(page))
    assert run.code == 0, run.err
    text = page.read_text()
    assert "puzzle 7: solved -&gt; timeout" in text
    assert text.count('class="regressed"') == 3  # slower, loser, and loser's puzzle 7


def test_compare_against_a_faster_old_run_exits_6(cli, tmp_path):
    now = tmp_path / "now.json"
    args = ["compare", "small4", "--limit", "12", "--backends", "propagate", *ROOM]
    args += ["--json", str(now)]
    assert cli(*args).code == 0
    data = json.loads(now.read_text())
    for record in data["records"]:
        record["seconds"] /= 10  # as if it used to be ten times faster
        record["cpu_seconds"] /= 10
    then = tmp_path / "then.json"
    then.write_text(json.dumps(data))
    run = cli(*args[:-2], "--against", str(then))
    assert run.code == 6
    assert "slower" in run.out and "a regression" in run.out


def test_a_file_that_is_not_a_run_is_refused(cli, tmp_path):
    other = tmp_path / "bench.json"
    other.write_text(json.dumps({"benchmarks": []}))
    run = cli("compare", "small4", "--backends", "native", "--against", str(other))
    assert run.code == 2 and "not a run of 'sudoku compare --json'" in run.err


# The machine factor: the same code on a slower machine ------------------------------------


def test_a_run_file_carries_the_calibration_times(small_run):
    _, data = small_run
    paces = data["calibration"]["cpu_seconds"]
    assert data["calibration"]["workload"] == calibration.WORKLOAD
    assert len(paces) == 2 and all(pace > 0 for pace in paces)  # before propagate, and at the end


def test_the_calibration_workload_does_the_same_work_every_time():
    spoiled = len(range(0, calibration.GRIDS, 7))  # the grids the NumPy piece is given wrong
    for _ in range(3):  # the dancing links are reused: every cover must have been undone
        assert [piece() for piece in calibration.PIECES] == [1, 2, spoiled]
    assert calibration.sample() > 0


@pytest.mark.parametrize(
    "slower, calibrated, regressed",
    [
        (2, None, True),  # no calibration: twice the time is a slowdown
        (2, 2, False),  # the calibration twice as slow too: the machine, not the code
        (6, 2, True),  # six times on a machine twice as slow: the code is three times slower
        # the calibration twice as fast: a faster machine is no reason to call 1.5x a slowdown
        (1.5, 0.5, False),
    ],
)
def test_times_are_divided_by_the_machine_factor(tmp_path, slower, calibrated, regressed):
    paces = [10.0, 11.0, 9.0]
    new = {"steady": [slower * t for t in OLD_MS]}
    new_path = synthetic(
        tmp_path / "new.json", new, None, calibrated and [calibrated * p for p in paces]
    )
    old_path = synthetic(tmp_path / "old.json", {"steady": OLD_MS}, None, calibrated and paces)
    now, then = results.read(new_path), results.read(old_path)
    (change,) = regression.changes(now, then)
    assert change.regressed is regressed and change.slower is regressed
    assert change.ratio == pytest.approx(slower / max(calibrated or 1, 1))
    said = regression.machine(now, then).said
    if calibrated and calibrated < 1:
        assert said == (
            "machine factor 1.00 (the calibration ran 2.00x faster than in the older run): "
            "CPU times compared as measured"
        )
    elif calibrated:
        assert said == (
            "machine factor 2.00 (the calibration ran 2.00x slower than in the older run): "
            "CPU times divided by it"
        )
    else:
        assert said.startswith("no machine factor: neither run carries calibration times")


def test_compare_against_an_older_run_names_its_machine_factor(cli, tmp_path, small_run):
    args, data = small_run
    then = tmp_path / "then.json"
    then.write_text(json.dumps(data))
    run = cli(*args, "--against", str(then))
    assert run.code in (0, 6), run.err
    assert re.search(
        r"^machine factor \d+\.\d\d \(the calibration ran \d+\.\d\dx (slower|faster) than in the"
        r" older run\): CPU times (divided by it|compared as measured)$",
        run.out,
        re.MULTILINE,
    ), run.out
    del data["calibration"]  # a run written before runs carried one
    then.write_text(json.dumps(data))
    run = cli(*args, "--against", str(then))
    assert run.code in (0, 6), run.err
    said = "no machine factor: the older run carries no calibration times"
    assert f"{said}: CPU times compared as measured\n" in run.out


def test_report_against_an_older_run_names_its_machine_factor(cli, tmp_path, small_run):
    _, data = small_run
    then, now, page = tmp_path / "then.json", tmp_path / "now.json", tmp_path / "page.html"
    then.write_text(json.dumps(data))
    data["calibration"]["cpu_seconds"] = [2 * t for t in data["calibration"]["cpu_seconds"]]
    now.write_text(json.dumps(data))
    assert cli("report", str(now), "-o", str(page), "--against", str(then)).code == 0
    said = "machine factor 2.00 (the calibration ran 2.00x slower than in the older run)"
    assert f'<p class="machine">{said}: CPU times divided by it</p>' in page.read_text()


def test_a_run_on_a_dask_cluster_carries_no_calibration_times(cli, tmp_path, small_run):
    distributed = pytest.importorskip("distributed")
    args, data = small_run
    then = tmp_path / "then.json"
    then.write_text(json.dumps(data))
    now = tmp_path / "now.json"
    here = {"processes": False, "protocol": "tcp://", "host": "127.0.0.1"}  # threads of this one
    with distributed.LocalCluster(n_workers=1, dashboard_address=None, **here) as cluster:
        on_it = ["--scheduler", cluster.scheduler_address, "--json", str(now)]
        run = cli(*args, *on_it, "--against", str(then))
    assert run.code in (0, 6), run.err
    assert "calibration" not in json.loads(now.read_text())  # this machine's pace is not theirs
    said = "no machine factor: this run carries no calibration times"
    assert f"{said}: CPU times compared as measured\n" in run.out


@pytest.mark.parametrize(
    "spoil, said",
    [
        ({"cpu_seconds": []}, "calibration.cpu_seconds is []: a calibration has a time or more"),
        ({"cpu_seconds": [0.01, -1]}, "calibration.cpu_seconds[1] is -1: not a number of seconds"),
        ({"cpu_seconds": [0.01, 0]}, "calibration.cpu_seconds[1] is 0: under a microsecond"),
        ({"cpu_seconds": [1e-300]}, "calibration.cpu_seconds[0] is 1e-300: under a microsecond"),
        ({"cpu_seconds": "fast"}, "calibration.cpu_seconds is 'fast': not a list"),
        ({"workload": 7}, "calibration.workload is 7: not text"),
        ({"machine": "mine"}, "calibration.machine: not a field of a calibration"),
    ],
)
def test_a_run_file_with_bad_calibration_times_is_refused_in_one_line(cli, tmp_path, spoil, said):
    old = json.loads(
        Path(synthetic(tmp_path / "old.json", {"steady": OLD_MS}, None, [10.0])).read_text()
    )
    old["calibration"] |= spoil
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(old))
    run = cli("compare", "small4", "--backends", "propagate", "--against", str(bad))
    assert (run.code, run.out) == (2, "") and run.err.count("\n") == 1, run.err
    assert f"{bad}: a sudoku-compare/2 file with a bad field: {said}" in run.err


# Only like runs are judged ----------------------------------------------------------------


@pytest.fixture(scope="module")
def small_run_file(tmp_path_factory) -> tuple[list[str], str]:
    """One small compare run for the module (one for each of its tests took 0.4-0.7 s each)."""
    args = ["compare", "small4", "--limit", "6", "--backends", "propagate", "--timeout", "2"]
    now = tmp_path_factory.mktemp("small-run") / "now.json"
    err = io.StringIO()
    assert main([*args, "--json", str(now)], io.StringIO(), err) == 0, err.getvalue()
    return args, now.read_text()


@pytest.fixture
def small_run(small_run_file) -> tuple[list[str], dict]:
    """The module's small run: its arguments and its run file read afresh, for a test to change."""
    args, text = small_run_file
    return list(args), json.loads(text)


@pytest.mark.parametrize(
    "setting, value, said",
    [
        ("mode", "first", "mode unique now, first then"),
        ("timeout", 5.0, "timeout 2.0 now, 5.0 then"),
        ("shuffle", 2, "shuffle 0 now, 2 then"),
        ("seed", 7, "seed 0 now, 7 then"),
    ],
)
def test_against_a_run_with_other_settings_is_refused_before_any_work(
    cli, tmp_path, small_run, setting, value, said
):
    args, data = small_run
    data["settings"][setting] = value
    then = tmp_path / "then.json"
    then.write_text(json.dumps(data))
    run = cli(*args, "--against", str(then))
    assert (run.code, run.out) == (2, "")  # refused before a puzzle is timed
    assert run.err == f"sudoku: --against {then}: not a like run: {said}\n"


def test_against_a_run_of_other_settings_is_refused_before_any_backend_loads(tmp_path, small_run):
    args, data = small_run
    data["settings"]["timeout"] = 5.0
    then = tmp_path / "then.json"
    then.write_text(json.dumps(data))
    every = [*args[:-4], "--backends", "all", *args[-2:]]
    said, loaded = fresh(*every, "--against", str(then))
    assert said == f"sudoku: --against {then}: not a like run: timeout 2.0 now, 5.0 then\nexit 2"
    assert loaded == []


def test_against_a_run_of_no_dataset_of_this_one_is_refused_before_any_backend_loads(
    tmp_path, small_run
):
    args, data = small_run
    data["datasets"][0]["name"] = "top95.txt"
    for record in data["records"]:
        record["dataset"] = "top95.txt"
    then = tmp_path / "then.json"
    then.write_text(json.dumps(data))
    every = [*args[:-4], "--backends", "all", *args[-2:]]
    said, loaded = fresh(*every, "--against", str(then))
    nothing = "nothing to compare: no dataset in both (small4 now, top95.txt then)"
    assert said == f"sudoku: --against {then}: {nothing}\nexit 2"
    assert loaded == []


def test_against_a_run_of_no_backend_of_this_one_is_refused_before_any_puzzle_is_timed(
    cli, tmp_path, small_run
):
    args, data = small_run
    then = tmp_path / "then.json"
    then.write_text(json.dumps(data))
    run = cli(*args[:-3], "dfs,mrv", *args[-2:], "--against", str(then))
    assert (run.code, run.out) == (2, "")
    nothing = "nothing to compare: no backend in both on small4 (dfs, mrv now, propagate then)"
    assert run.err == f"sudoku: --against {then}: {nothing}\n"


def test_against_a_run_whose_datasets_have_no_puzzle_now_says_nothing_was_compared(
    cli, tmp_path, small_run, monkeypatch
):
    args, data = small_run
    monkeypatch.chdir(tmp_path)
    Path("gone.txt").write_text("not a puzzle\n")  # a dataset of the older run, emptied since
    data["datasets"][0]["name"] = "gone.txt"
    for record in data["records"]:
        record["dataset"] = "gone.txt"
    Path("then.json").write_text(json.dumps(data))
    run = cli("compare", "gone.txt", *args[2:], "--against", "then.json")
    assert run.code == 2
    nothing = "nothing compared: no dataset in both (none now, gone.txt then)"
    assert run.err.endswith(f"sudoku: --against then.json: {nothing}\n"), run.err


def test_against_a_run_of_other_puzzles_under_the_same_name_is_refused(cli, tmp_path, small_run):
    args, data = small_run
    hashes = data["datasets"][0]["hashes"]
    line = sorted(hashes, key=int)[2]
    hashes[line] = "0" * 16  # another puzzle at that line of a file with the same name
    then = tmp_path / "then.json"
    then.write_text(json.dumps(data))
    run = cli(*args, "--against", str(then))
    assert run.code == 2
    said = f"small4: other puzzles (the first at line {line})"
    assert run.err == f"sudoku: --against {then}: not a like run: {said}\n"
    page = tmp_path / "page.html"
    run = cli("report", str(then), "--against", str(tmp_path / "then.json"), "-o", str(page))
    assert run.code == 0  # a run is like itself


def test_against_a_like_run_says_which_time_it_compares(cli, tmp_path, small_run):
    args, data = small_run
    then = tmp_path / "then.json"
    then.write_text(json.dumps(data))
    run = cli(*args, "--against", str(then))
    assert run.code in (0, 6), run.err
    assert "CPU times compared" in run.out and "median cpu ms" in run.out


# Under load -------------------------------------------------------------------------------

# room: a loaded machine misses the default 0.5 s wall-clock timeout now and then (a lost
# puzzle is an alarm of its own); these tests are about CPU times
LOADED = ["small4", "easy9", "--limit", "30", "--shuffle", "3", *ROOM, "--backends"]


@pytest.mark.slow  # timing on purpose: the machine loaded by four CPU-burning processes
@pytest.mark.xfail(
    strict=False,
    reason="a known gap (docs/compare.md): on the 2-core VM with four burners, propagate's "
    "easy9 CPU times (0.16 ms a puzzle) rose 1.82x while the calibration rose 1.21x (CI "
    "rehearsal of 29 Nov): the factor does not yet cover sub-millisecond puzzles under load",
)
def test_the_same_code_on_a_loaded_machine_raises_no_alarm(cli, tmp_path):
    then = tmp_path / "then.json"
    assert cli("compare", *LOADED, "propagate,dlx", "--json", str(then)).code == 0
    burn = "import time\nend = time.time() + 120\nwhile time.time() < end: pass"
    burners = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(4)]
    try:
        run = cli("compare", *LOADED, "propagate,dlx", "--against", str(then))
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert run.code == 0, run.out
    assert "machine factor" in run.out, run.out  # the load was measured, and divided out
    changes = [line for line in run.out.splitlines() if " -> " in line]
    assert len(changes) == 4 and not any("slower" in line for line in changes), run.out


# A slowdown past what load does to sub-millisecond CPU times: four burners beside the older
# run raised them up to 1.7x here (a CI rehearsal of 30 November read a 3x slowdown as 1.75x,
# on the threshold) and 2.6x from a quiet start (docs/compare.md), and the machine factor,
# at least 1, does not take back the older run's load
@pytest.mark.slow  # timing on purpose: the older run is the loaded one, the slowdown real
def test_a_backend_five_times_slower_is_flagged_though_its_old_run_was_loaded(
    cli, registered, tmp_path
):
    registered("paced", "tiny_backend:Paced", summary="propagate, at its own pace")
    then = tmp_path / "then.json"
    burn = "import time\nend = time.time() + 120\nwhile time.time() < end: pass"
    burners = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(4)]
    try:
        assert cli("compare", *LOADED, "paced", "--json", str(then)).code == 0
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    registry.register("paced", "tiny_backend:FiveTimesSlower", replace=True)
    run = cli("compare", *LOADED, "paced", "--against", str(then))
    assert run.code == 6, run.out
    verdicts = [line.split()[-1] for line in run.out.splitlines() if line.startswith("easy9")]
    assert "slower" in verdicts


def test_a_puzzle_the_judge_now_disputes_is_lost(tmp_path):
    new = json.loads(Path(synthetic(tmp_path / "new.json", {"steady": OLD_MS})).read_text())
    new["records"][2]["disputed"] = True  # puzzle 3: another backend's count disagreed
    (tmp_path / "new.json").write_text(json.dumps(new))
    old = synthetic(tmp_path / "old.json", {"steady": OLD_MS})
    (change,) = regression.changes(results.read(str(tmp_path / "new.json")), results.read(old))
    assert [str(lost) for lost in change.lost] == ["puzzle 3: solved -> disputed"]
    assert change.regressed
