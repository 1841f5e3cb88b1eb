"""The ``gpu`` backend, run on numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1) where no GPU is
here: the same kernel, each CUDA thread a Python thread. numba reads that variable when it is
first imported, and this process has imported numba already (the native kernel), so the
simulated runs are child processes: one script does the batches the tests below read, those
of the default run in one child (``simulated``) and the long ones, under ``heavy``, in another
(``simulated_long``), and a few commands go through the judge. Every answer is compared with
native's, the project's fastest backend, which shares no code with the kernel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from solvers import Board, Shape, parse, solve, solve_many
from solvers.backends import registry
from solvers.formats.datasets import DATASETS
from solvers.model.verify import failing_rows

ROOT = Path(__file__).resolve().parents[1]
SIMULATOR = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
REAL_GPU = Path("/dev/nvidiactl").exists()

# (set, how many of its puzzles, limit): small, as the simulator runs about a thousand times
# slower than a GPU (a hard 9x9 in about a second on a loaded machine)
CASES = [
    ("small4", 12, 2),
    ("six6", 6, 2),
    ("hard9", 2, 2),
    ("several9", 3, 3),
    ("nosolution9", 2, 2),
    ("big16", 1, 2),
]

SCRIPT = """
import json, sys
import numpy as np
from solvers import Board, Shape
from solvers.backends import registry
from solvers.formats.datasets import DATASETS
from solvers.base.errors import SolveTimeout, UsageError
from solvers.base.deadline import Deadline
from solvers import parse

gpu = registry.backend_class("gpu")()
out = {}

def batch(rows, limit, board=None, deadline=None, each=None):
    rows = np.array(rows, np.uint8)
    board = board or Board.empty(Shape.for_size(round(rows.shape[1] ** 0.5)))
    return gpu.search_many(rows, board, limit, deadline or Deadline(), each)

def record(key, found):
    out[key] = {"counts": found.counts.tolist(), "solutions": found.solutions.tolist(),
                "flags": found.flags.tolist(), "launches": gpu.timings.launches}

cases, solved9, parts = json.loads(sys.argv[1]), [int(ch) for ch in sys.argv[2]], sys.argv[3:]
if "default" in parts:
    for name, many, limit in cases:
        rows = [[int(ch, 36) if ch != "." else 0 for ch in line]
                for line in DATASETS[name].puzzles()[:many]]
        record(name, found := batch(rows, limit))
        out[name].update(guesses=found.guesses.tolist(), nodes=found.nodes.tolist())
    empty4 = np.zeros((1, 16), np.uint8)
    record("empty4 to 1000", batch(empty4, 1000))
    record("empty4 to 100", batch(empty4, 100))
    bad = np.zeros((3, 16), np.uint8)
    bad[0, 0] = 5  # over N
    bad[1, 0] = bad[1, 1] = 3  # two 3s in the first row
    bad[2, :4] = 1, 2, 3, 4
    record("bad", batch(bad, 2))
    record("six6 empty", batch(np.zeros((1, 36), np.uint8), 5, board=Board.empty(Shape(2, 3))))
    # an empty 9x9 counted to a billion never ends; a full grid beside it ends at once
    record("each", batch([[0] * 81, solved9], 10**9, each=0.5))
    try:
        batch(np.zeros((1, 81), np.uint8), 10**9, deadline=Deadline(0.3))
        out["timeout"] = "none"
    except SolveTimeout as error:
        out["timeout"] = str(error)
    killer = parse(open("examples/killer.txt", encoding="utf-8").read())
    try:
        batch(np.zeros((1, 81), np.uint8), 1, board=Board.empty(killer.shape, killer.rules))
        out["killer"] = "none"
    except UsageError as error:
        out["killer"] = str(error)
if "long" in parts:
    # a batch after one stopped by its deadline: nothing of the first is read as the second's
    # (40 empty 9x9s on the simulator: 6 s of a loaded machine)
    try:
        batch(np.zeros((40, 81), np.uint8), 10**9, deadline=Deadline(0.3))
    except SolveTimeout:
        pass
    record("each after a timeout", batch([[0] * 81, solved9], 10**9, each=0.5))
    # the global kernel (gpu:kernel=global) on the same hard and several-solution boards, slices
    # of work small enough that every search pauses and resumes between launches in both kernels
    from adapters.gpu import batch as batching
    batching.FIRST_SLICE, batching.LAUNCH_S = 60, 1e-9
    for kind in ("shared", "global"):
        gpu = registry.backend_class("gpu")(kernel=kind)
        rows = [[int(ch, 36) if ch != "." else 0 for ch in line]
                for line in DATASETS["hard9"].puzzles()[:2] + DATASETS["several9"].puzzles()[:2]]
        found = batch(rows, 3)
        record(f"kernel {kind}", found)
        out[f"kernel {kind}"].update(guesses=found.guesses.tolist(), nodes=found.nodes.tolist())
    gpu = registry.backend_class("gpu")(kernel="band")  # native's band search, step for step
    record("kernel band", found := batch(rows, 3))
    out["kernel band"].update(guesses=found.guesses.tolist(), nodes=found.nodes.tolist())
print(json.dumps(out))
"""
# A solved 9x9 grid made here (the shifted-rows pattern)
SOLVED9 = "".join(str((3 * (r % 3) + r // 3 + c) % 9 + 1) for r in range(9) for c in range(9))


def grid(line: str) -> list[int]:
    return [int(ch, 36) if ch != "." else 0 for ch in line]


def sudoku(*args: str, env: dict[str, str] = SIMULATOR) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "solvers", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def batches(part: str) -> dict:
    """The script's batches of ``part`` ("default" or "long"), each recorded by its name."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(CASES), SOLVED9, part],
        cwd=ROOT, env=SIMULATOR, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def simulated() -> dict:
    """The default run's batches: the default kernels (band on classic 9x9, shared on the other
    boards), the cases a user meets."""
    return batches("default")


@pytest.fixture(scope="module")
def simulated_long() -> dict:
    """The heavy run's batches: every kernel pausing at every launch, a batch after a timed-out
    one (10 s on a loaded machine, as long as the default run's whole script)."""
    return batches("long")


@pytest.mark.parametrize("name, many, limit", CASES)
def test_every_answer_is_natives(simulated, name, many, limit):
    rows = np.array([grid(line) for line in DATASETS[name].puzzles()[:many]], np.uint8)
    native = solve_many(rows, limit)
    found = simulated[name]
    assert found["counts"] == native.counts.tolist()
    assert found["flags"] == native.flags.tolist()
    solutions = np.array(found["solutions"], np.uint8)
    board = Board.empty(Shape.for_size(round(rows.shape[1] ** 0.5)))
    solved = native.counts > 0
    assert not failing_rows(board, rows[solved], solutions[solved]).any()
    unique = native.counts == 1  # one solution: the same grid from any search
    assert (solutions[unique] == native.solutions[unique]).all()
    assert not solutions[~solved].any()
    if rows.shape[1] == 81:  # the band kernel, native's search on the device, step for step
        assert found["solutions"] == native.solutions.tolist()
        steps = (native.guesses.tolist(), native.nodes.tolist())
        assert (found["guesses"], found["nodes"]) == steps


def test_the_sets_cover_no_one_and_several_solutions(simulated):
    counts = {name: simulated[name]["counts"] for name, _, _ in CASES}
    assert set(counts["nosolution9"]) == {0}
    assert set(counts["small4"]) == {1}
    assert min(counts["several9"]) >= 2


def test_a_count_stops_at_its_limit(simulated):
    assert simulated["empty4 to 1000"]["counts"] == [288]  # every 4x4 grid
    assert simulated["empty4 to 100"]["counts"] == [100]
    assert simulated["six6 empty"]["counts"] == [5]


def test_bad_givens_are_flagged_each_in_its_row(simulated):
    found = simulated["bad"]
    assert found["flags"] == [4, 1, 0]  # BAD_VALUE, UNSOLVABLE, SOLVED
    assert found["counts"] == [0, 0, 2]
    assert found["solutions"][2][:4] == [1, 2, 3, 4]


def test_the_deadline_stops_a_long_count_between_launches(simulated):
    assert simulated["timeout"] == "deadline passed"


def test_a_batch_is_searched_at_once(simulated):
    # twelve 4x4 puzzles, one thread each, in one launch (not a launch a puzzle)
    assert simulated["small4"]["launches"] == 1


@pytest.mark.parametrize("case", ["each", "each after a timeout"])
def test_a_search_past_each_is_unfinished_and_the_others_answered(request, case):
    found = request.getfixturevalue("simulated" if case == "each" else "simulated_long")[case]
    assert found["flags"] == [2, 0]  # UNFINISHED (an empty 9x9 counted to a billion), SOLVED
    assert found["counts"] == [0, 1]
    assert not any(found["solutions"][0])
    assert "".join(map(str, found["solutions"][1])) == SOLVED9


def test_both_kernels_search_alike_pausing_between_launches(simulated_long):
    shared, global_ = simulated_long["kernel shared"], simulated_long["kernel global"]
    assert shared == {**global_, "launches": shared["launches"]}  # counts, grids, guesses, nodes
    assert shared["counts"] == [1, 1, 3, 3] and min(shared["guesses"]) > 0
    assert shared["launches"] > 3 and global_["launches"] > 3  # each search paused and resumed


def test_the_band_kernel_searches_as_natives_band_kernel_does(simulated_long):
    # classic 9x9 boards: the same first solutions (several-solution boards too), counts,
    # guesses and nodes as native's, whose kernel it writes again for the device
    band = simulated_long["kernel band"]
    lines = DATASETS["hard9"].puzzles()[:2] + DATASETS["several9"].puzzles()[:2]
    native = solve_many(np.array([grid(line) for line in lines], np.uint8), 3)
    assert band["counts"] == native.counts.tolist() == [1, 1, 3, 3]
    assert band["solutions"] == native.solutions.tolist()
    assert (band["guesses"], band["nodes"]) == (native.guesses.tolist(), native.nodes.tolist())
    assert min(band["guesses"]) > 0 and band["launches"] > 3  # it paused and resumed


BANDS_DEEP = """
import json, sys
import numpy as np
from adapters.gpu import band
from solvers import Board, Shape
from solvers.backends import registry
from solvers.base.deadline import Deadline
band.LEVELS = 1  # (the simulator reads it as the kernel runs; a GPU when it compiles)
rows = np.array(json.loads(sys.argv[1]), np.uint8)
gpu = registry.backend_class("gpu")(kernel="band")
found = gpu.search_many(rows, Board.empty(Shape(3, 3)), 3, Deadline())
handed = gpu._batcher._fallback is not None  # some searches went deeper than one level
print(json.dumps([found.counts.tolist(), found.solutions.tolist(), found.flags.tolist(), handed]))
"""


def test_a_band_search_deeper_than_its_levels_is_answered_by_the_shared_kernel():
    lines = DATASETS["hard9"].puzzles()[:2] + DATASETS["several9"].puzzles()[:2]
    rows = [grid(line) for line in lines]
    done = subprocess.run(
        [sys.executable, "-c", BANDS_DEEP, json.dumps(rows)],
        cwd=ROOT, env=SIMULATOR, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    counts, solutions, flags, handed = json.loads(done.stdout)
    native = solve_many(np.array(rows, np.uint8), 3)
    assert handed
    assert counts == native.counts.tolist() == [1, 1, 3, 3] and flags == [0, 0, 0, 0]
    board = Board.empty(Shape(3, 3))
    assert not failing_rows(board, np.array(rows, np.uint8), np.array(solutions, np.uint8)).any()
    assert solutions[:2] == native.solutions[:2].tolist()  # one solution: the same grid


def test_a_batch_of_rules_beyond_units_is_refused(simulated):
    assert simulated["killer"] == "gpu does not support killercage"


def test_the_judge_verifies_its_answers_and_variants_are_units(tmp_path):
    # X puzzles made here from a shipped one's solution, a third of the cells blanked (a
    # minimal one takes the simulator 5-15 s); the judge checks the diagonals too
    solved = solve(parse("# rules: x\n" + DATASETS["x9"].puzzles()[0]), backend="native")
    cells = "".join(map(str, solved.solution.cells))
    lines = ["".join("." if (i + shift) % 3 == 0 else v for i, v in enumerate(cells))
             for shift in (0, 1)]  # fmt: skip
    puzzles = tmp_path / "x9.txt"
    puzzles.write_text("# rules: x\n" + "\n".join(lines) + "\n", encoding="utf-8")
    done = sudoku("solve", str(puzzles), "--backend", "gpu", "--json")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["status"], r["solution"], r["backend"]) for r in records] == [
        ("solved", cells, "gpu"),
        ("solved", cells, "gpu"),
    ]


# A line file made here: puzzles derived from examples/puzzles.txt's first (unique ones, for a
# solve's first solution is the search's own where there are several), a 4x4 board side, bad
# lines and one with no solution, read by the bulk path as any backend's that batches
LINES = [
    "# a comment, kept out of the answers",
    "9..64.7..8173.25.44.51872..7.14..6855..9..3..2438.61..3..76.9..6..2194..12.53.8..",
    "...64.7...17..25.44.5187...7.1....855.........43..6......76.9..6...194...2..3....",
    "1..4.4....3..1.2",
    ".6.64.7...17..25.44.5187...7.1....855.........43..6......76.9..6...194...2..3....",
    "12.3",
    ".2.43......1.4..",
    "900640700817302504405187200701400685500900300243806100300760900600219400120530800",
]
SEVERAL = ["1.3...1.2...4...", "...4.4.....1.1..", "................"]


@pytest.mark.parametrize(
    "mode, lines, options",
    [
        ("solve", LINES, []),
        ("count", LINES + SEVERAL, []),
        ("count", LINES + SEVERAL, ["--timeout", "60"]),  # a 9x9 unfinished in its batch
    ],
)
def test_a_line_file_is_answered_as_natives_byte_for_byte(cli, tmp_path, mode, lines, options):
    puzzles = tmp_path / "mixed.txt"
    puzzles.write_text("\n".join(lines) + "\n", encoding="utf-8")
    gpu = sudoku(mode, str(puzzles), "--backend", "gpu", *options)
    # native's in this process: the same command, no simulator to start
    native = cli(mode, str(puzzles), "--backend", "native", *options)
    assert (gpu.returncode, gpu.stdout, gpu.stderr) == (native.code, native.out, native.err)
    assert gpu.returncode == 2 and "line 5: row 1 has 6 twice" in gpu.stderr
    assert "line 7: no solution" in gpu.stderr if mode == "solve" else "\n0\n" in gpu.stdout


ROUTE = """
import sys
from collections import Counter
from adapters.gpu.backend import Gpu
from solvers.cli.main import main

calls = Counter()
def counted(name):
    method = getattr(Gpu, name)
    def call(self, *args, **kwargs):
        calls[name] += 1
        return method(self, *args, **kwargs)
    setattr(Gpu, name, call)
counted("search")
counted("search_many")
status = main(sys.argv[1:])
print(dict(calls), status, file=sys.stderr)
"""


def test_a_line_file_goes_to_the_batch_search(tmp_path):
    # the bulk path: each board side's plain puzzles in one batch (two 9x9s, then two 4x4s
    # beside one with no solution), which the per-puzzle path takes up again to say so
    puzzles = tmp_path / "mixed.txt"
    puzzles.write_text("\n".join(LINES[:4] + LINES[6:7]) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", ROUTE, "count", str(puzzles), "--backend", "gpu"],
        cwd=ROOT, env=SIMULATOR, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.stdout == "1\n1\n1\n0\n"
    # the exit status 1: a puzzle with no solution
    assert done.stderr.splitlines()[-1] == "{'search_many': 2, 'search': 1} 1"


def test_worker_processes_forked_after_the_device_was_used_are_refused_in_one_line(tmp_path):
    # --jobs 2 loads the batch search here, then forks: CUDA fails in such a child (numba:
    # "CUDA initialized before forking"), so the simulator's child is refused the same way
    puzzles = tmp_path / "nine.txt"
    puzzles.write_text("\n".join(LINES[i] for i in (1, 7)) + "\n", encoding="utf-8")
    done = sudoku("solve", str(puzzles), "--backend", "gpu", "--jobs", "2")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "sudoku: gpu: CUDA cannot be used in a process forked from one that used it (--jobs N "
        "forks worker processes): run gpu with --jobs 1, whose one process keeps every GPU "
        "thread busy\n"
    )


def test_the_throughput_benchmark_runs_on_the_simulator(tmp_path):
    # bench/gpu.py on three 9x9 lines made here, in batches of two: every answer native's
    data = tmp_path / "nine.txt"
    data.write_text("\n".join(LINES[i] for i in (1, 2, 7)) + "\n", encoding="utf-8")
    # (each batch verified while the next runs; native's answers kept in a file for a rerun)
    kept = tmp_path / "native.npz"
    done = subprocess.run(
        [sys.executable, "bench/gpu.py", "--data", str(data), "--repeat", "2", "--batch", "2",
         "--overlap", "--native", str(kept)],
        cwd=ROOT, env=SIMULATOR, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "nine.txt x 2 (6 puzzles), limit 1, on numba's CUDA simulator" in done.stdout
    row = done.stdout.splitlines()[-1].split()
    assert row[0] == "2" and row[-3:] == ["0", "0", "0"]  # wrong, unsolved, != native
    with np.load(kept) as native:
        assert native["counts"].tolist() == [1, 1, 1] and native["solutions"].all()


def test_killer_cages_are_refused_by_the_judge():
    done = sudoku("solve", "examples/killer.txt", "--backend", "gpu")
    assert done.returncode == 2 and done.stderr == "sudoku: gpu does not support killercage\n"


@pytest.mark.skipif(REAL_GPU, reason="a GPU is here: the backend is available")
def test_without_a_gpu_it_is_unavailable_and_says_what_it_needs():
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    code = "from solvers.backends import registry; print(registry.availability('gpu'))"
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert "no CUDA GPU found (numba.cuda.is_available() is False)" in done.stdout
    assert "NVIDIA GPU" in done.stdout and "sudoku-solvers[gpu]" in done.stdout
    assert "NUMBA_ENABLE_CUDASIM=1" in done.stdout
    assert time.perf_counter() - started < 30
    assert registry.entry("gpu").summary  # and `sudoku backends` lists it


COMPILE = """
import types
import numba.cuda.dispatcher
from numba import cuda, types as t
from adapters.gpu import band, kernel, shared

# compile_ptx asks the driver for the device of each device function it calls: with no GPU
# here, it is told of an H100-class one (compute capability 9.0) instead
numba.cuda.dispatcher.get_current_device = lambda: types.SimpleNamespace(
    compute_capability=(9, 0)
)
def array(kind, dims=2):
    return t.Array(kind, dims, "C")
signature = (array(t.uint8), t.int64, t.int64, array(t.int32), array(t.int32), t.int64, t.int64,
             t.int64, t.boolean, array(t.uint8), array(t.int32), array(t.int16), array(t.int16),
             array(t.int16), array(t.int32), array(t.int64), array(t.uint8), array(t.int64, 1))
try:
    ptx, _ = cuda.compile_ptx(kernel.search.py_func, signature, cc=(9, 0))
    for geometry in ((81, 27, 9, 4), (256, 48, 16, 4)):  # the shared kernel: 9x9, 16x16
        threads = shared.threads_for(*geometry)
        found, _ = cuda.compile_ptx(shared.compiled(*geometry, threads).py_func, signature,
                                    cc=(9, 0))
        ptx += found if ".shared" in found else ""
    band_signature = (array(t.uint8), t.int64, array(t.int32), t.int64, t.int64, t.boolean,
                      array(t.int32), array(t.int32), array(t.int64), array(t.uint8),
                      array(t.int64, 1))
    found, _ = cuda.compile_ptx(band.search.py_func, band_signature, cc=(9, 0))
    ptx += found if ".shared" in found else ""
except Exception as error:  # no CUDA compiler library here (NVVM; NVRTC for numba-cuda)
    said = f"{type(error).__name__}: {error}"
    if any(name in said.lower() for name in ("nvvm", "libdevice", "nvrtc", "dynamiclib")):
        print("no CUDA compiler:", said.splitlines()[0])
        raise SystemExit(0)
    raise
print("ptx", ptx.count(".entry") == 4)
"""


@pytest.mark.slow  # numba's CUDA compiler and NVVM: 5-20 s
def test_the_kernel_compiles_to_ptx_for_a_real_gpu():
    # the simulator runs the kernel as Python: what numba's CUDA compiler refuses (min() of two
    # integers, in numba 0.68's own CUDA target) passes there, and would fail on the first GPU
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    done = subprocess.run(
        [sys.executable, "-c", COMPILE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    if done.stdout.startswith("no CUDA compiler"):
        pytest.skip(f"CUDA's compiler libraries are not installed here: {done.stdout.strip()}")
    assert done.stdout.strip() == "ptx True"
