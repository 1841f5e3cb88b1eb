"""The batch kernel built ahead of time (``native.aot``): the same answers as numba's kernel,
loaded without numba on the bulk path, and numba's kernel wherever it cannot be built or
loaded (no C compiler, a damaged file)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from corpus import variant

from solvers import Board, Shape, solve_many
from solvers.backends.handwritten.native import aot
from solvers.backends.handwritten.native.batch import solve_batch as with_numba
from solvers.backends.handwritten.native.outcome import Flag
from solvers.backends.handwritten.native.tables import plan_for
from solvers.formats.datasets import DATASETS

ROOT = Path(__file__).resolve().parents[1]
X9 = variant(Shape(3, 3), "x")


def hard9() -> np.ndarray:
    rows = [[int(c) if c.isdigit() else 0 for c in line] for line in DATASETS["hard9"].puzzles()]
    return np.array(rows, np.uint8)


def cases() -> list[tuple[Board, np.ndarray, int, int]]:
    """(board whose plan is used, puzzles, limit, budget): both kernels (band and general),
    every flag, and counts past one."""
    classic = Board.empty(Shape(3, 3))
    puzzles = hard9()
    broken = puzzles[:3].copy()
    broken[0, :2] = 5  # two 5s in a row: no solution
    broken[1, 0] = 10  # not a 9x9 value
    return [
        (classic, puzzles, 1, 2**62),
        (classic, puzzles, 2, 2**62),
        (classic, puzzles, 2, 3_000),  # some run over this budget: UNFINISHED
        (classic, broken, 2, 2**62),
        (Board.empty(Shape(2, 2)), np.zeros((2, 16), np.uint8), 300, 2**62),  # 288 grids
        (
            Board.empty(Shape(3, 3), variant(Shape(3, 3), "x")),
            np.zeros((1, 81), np.uint8),
            5,
            2**62,
        ),
        (Board.empty(Shape(4, 4)), np.zeros((1, 256), np.uint8), 3, 2**62),
    ]


def assert_same(found, expected) -> None:
    for name, ours, theirs in zip(found._fields, found, expected, strict=True):
        assert np.array_equal(ours, theirs), name


def test_the_kernel_built_ahead_gives_numbas_answers_and_counters():
    # built by the tests' session start (compile_kernels) unless this machine cannot build it
    state = aot.built()
    if state is None:  # tried and refused here: its reason is in the marker, numba answers
        assert aot.marker(aot.location()).read_text().startswith("the batch kernel was not built")
        assert aot.load() is None
    else:
        assert state and aot.load() is not None
    for board, puzzles, limit, budget in cases():
        plan = plan_for(board)
        found = aot.solve_batch(plan, puzzles, limit, budget)
        assert_same(found, with_numba(plan, puzzles, limit, budget))
    found = aot.solve_batch(plan_for(cases()[3][0]), cases()[3][1], 2)
    assert found.flags.tolist() == [Flag.UNSOLVABLE, Flag.BAD_VALUE, Flag.SOLVED]
    assert aot.solve_batch(plan_for(Board.empty(Shape(2, 2))), np.zeros((1, 16)), 300).counts == 288


@pytest.mark.parametrize("copy", ["built ahead", "numba"])
def test_a_batch_cut_into_many_short_kernel_calls_answers_as_one_long_call(monkeypatch, copy):
    from solvers.backends.handwritten.native import batch, outcome

    solve_batch = aot.solve_batch if copy == "built ahead" else with_numba
    whole = [
        solve_batch(plan_for(b), puzzles, limit, budget) for b, puzzles, limit, budget in cases()
    ]
    calls = []

    def counted(plan, puzzles, kernel, deadline=None, each=None):
        call = lambda *a: calls.append(1) or kernel(*a)  # noqa: E731
        return outcome.run_batch(plan, puzzles, call, deadline, each)

    monkeypatch.setattr(aot, "run_batch", counted)
    monkeypatch.setattr(batch, "run_batch", counted)
    monkeypatch.setattr(outcome, "CALL_WORK", 500)  # a few nodes a call: searches resumed often
    for (board, puzzles, limit, budget), expected in zip(cases(), whole, strict=True):
        assert_same(solve_batch(plan_for(board), puzzles, limit, budget), expected)
    assert len(calls) > 2 * sum(len(puzzles) for _, puzzles, _, _ in cases())


def test_without_a_c_compiler_the_build_fails_fast_leaves_only_a_marker_and_numba_answers(
    tmp_path,
):
    empty = tmp_path / "no-compiler-here"
    empty.mkdir()
    env = dict(os.environ, PATH=str(empty), CC=str(empty / "cc"), CXX=str(empty / "c++"))
    assert aot.build(tmp_path, env=env) is False
    assert aot.built(tmp_path) is None  # not tried again for this source
    marker = aot.marker(aot.location(tmp_path))
    assert "compiler" in marker.read_text()
    assert sorted(tmp_path.iterdir()) == sorted([marker, empty])  # no extension, no scratch
    plan = plan_for(Board.empty(Shape(3, 3)))
    assert aot.load(tmp_path) is None
    assert_same(aot.solve_batch(plan, hard9(), 2, where=tmp_path), with_numba(plan, hard9(), 2))


def test_a_damaged_extension_is_not_trusted(tmp_path):
    aot.location(tmp_path).write_bytes(b"\x7fELF, but cut short")
    assert aot.load(tmp_path) is None
    plan = plan_for(Board.empty(Shape(3, 3)))
    assert_same(aot.solve_batch(plan, hard9(), 2, where=tmp_path), with_numba(plan, hard9(), 2))


def test_a_folder_that_cannot_be_written_is_no_extension_and_no_failed_run(tmp_path):
    blocked = tmp_path / "a-file"  # (the tests may run as root: a mode would not stop them)
    blocked.write_text("not a folder\n")
    assert aot.build(blocked) is False
    assert aot.built(blocked) is False  # no marker either: the next compile tries again
    assert sorted(tmp_path.iterdir()) == [blocked]


def test_a_source_never_built_ahead_counts_as_not_compiled(monkeypatch, tmp_path):
    from solvers.backends.handwritten.native import warmup

    monkeypatch.setattr(aot, "folder", lambda: tmp_path)
    assert warmup.compiled() is False  # the command line then compiles, with its notice
    (tmp_path / warmup.COMPILED).touch()  # numba's kernels compiled, the build never tried
    assert warmup.compiled() is False
    aot.marker(aot.location()).write_text("the batch kernel was not built ahead of time: -\n")
    assert warmup.compiled() is True  # refused here once: not asked again


def test_the_bulk_count_runs_without_numba_once_the_kernel_is_built_ahead(tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(DATASETS["hard9"].puzzles()) + "\n")
    code = (
        "import sys\n"
        "from solvers.cli.main import main\n"
        f"status = main(['count', {str(path)!r}, '--backend', 'native', '--limit', '2'])\n"
        "print(status, 'numba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    *counts, last = done.stdout.splitlines()
    assert counts == ["1"] * len(DATASETS["hard9"].puzzles())
    assert last == f"0 {not aot.built()}"  # numba only where the build was refused
    assert done.stderr == ""


def test_solve_many_takes_the_kernel_built_ahead_with_the_verifiers_check():
    found = solve_many(hard9(), 2)
    assert (found.counts == 1).all() and (found.flags == Flag.SOLVED).all()


@pytest.mark.slow
def test_a_build_from_scratch_is_renamed_into_place_loaded_and_agrees(tmp_path):
    assert aot.built(tmp_path) is False
    assert aot.build(tmp_path) is True  # this machine has a C compiler (gcc)
    assert [p.name for p in tmp_path.iterdir()] == [aot.location(tmp_path).name]  # no scratch
    assert aot.load(tmp_path) is not None
    for board, puzzles, limit, budget in cases():
        plan = plan_for(board)
        found = aot.solve_batch(plan, puzzles, limit, budget, where=tmp_path)
        assert_same(found, with_numba(plan, puzzles, limit, budget))


def test_the_kernel_is_built_for_x86_64_v3_only_where_every_core_lists_its_features(tmp_path):
    every = " ".join(sorted(aot.V3_FLAGS | {"fpu", "sse2", "popcnt"}))
    info = tmp_path / "cpuinfo"
    info.write_text(f"processor\t: 0\nflags\t\t: {every}\n\nprocessor\t: 1\nflags\t\t: {every}\n")
    linux_x86 = sys.platform == "linux" and os.uname().machine == "x86_64"
    assert aot.target_cpu.__wrapped__(str(info)) == ("x86-64-v3" if linux_x86 else "")
    lacking = every.replace("avx2 ", "")  # a core without AVX2 (or a hypervisor hiding it)
    info.write_text(f"flags\t\t: {every}\nflags\t\t: {lacking}\n")
    assert aot.target_cpu.__wrapped__(str(info)) == ""
    assert aot.target_cpu.__wrapped__(str(tmp_path / "no-such-file")) == ""
    # the level is in the file's name: a folder shared with an older CPU never loads it there
    assert f"{aot.module_name()}{'-' if aot.target_cpu() else ''}{aot.target_cpu()}-numpy" in (
        aot.location().name
    )
