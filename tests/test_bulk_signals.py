"""Signals on the bulk path of ``sudoku count FILE`` (a line file, the ``native`` batch kernel):
Ctrl-C, SIGTERM and SIGHUP end an untimed run within 2 s with 128 + the signal, print no
answer that was not proved, and leave no process of ours behind, with one job or two."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
from test_signals import SIGNALS, SUDOKU, alive, busy

from solvers.formats.datasets import DATASETS

EMPTY9 = "." * 81
# an easy puzzle first (its count may be printed before the signal: it is proved), then a
# count that no run finishes
LINES = [DATASETS["easy9"].puzzles()[0], EMPTY9, EMPTY9]
DEFAULT = {("sigterm", 1)}  # the default run's case: no wall-clock limit there
SLACK = 1.0  # for a loaded machine, in the default run


@pytest.mark.parametrize(
    "name, jobs",
    [
        pytest.param(name, jobs, marks=[] if (name, jobs) in DEFAULT else [pytest.mark.slow])
        for name in SIGNALS
        for jobs in (1, 2)
    ],
)
def test_a_signal_ends_an_untimed_bulk_count(tmp_path, name, jobs):
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(LINES) + "\n")
    process = subprocess.Popen(
        [SUDOKU, "count", str(path), "--backend", "native", "--limit", "100000000000",
         "--jobs", str(jobs)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
    )  # fmt: skip
    if jobs == 1:
        busy(process, 1.0)  # the kernel loaded, and counting
    else:
        _one_busy(_workers(process, jobs), 1.0)
    children = [c.pid for c in psutil.Process(process.pid).children(recursive=True)]
    number, to_group = SIGNALS[name]
    sent = time.monotonic()
    (os.killpg if to_group else os.kill)(process.pid, number)
    try:
        out, err = process.communicate(timeout=30)  # a hang fails here, whatever the load
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    took = time.monotonic() - sent
    time.sleep(0.2)
    left = [pid for pid in children if alive(pid)]
    for pid in left:
        os.kill(pid, 9)
    assert process.returncode == 128 + number, f"{took:.1f} s after the signal: {err}"
    if (name, jobs) not in DEFAULT:  # the 2 s the contract allows, in the slow run alone
        assert took < 2.0, f"{took:.2f} s to exit"
    assert not left, f"processes left behind: {left}"
    assert "Traceback" not in err
    assert out in ("", "1\n"), "an answer that was not proved"


def _workers(process: subprocess.Popen, jobs: int) -> list:
    """The pool's worker processes, once they are all started."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        children = psutil.Process(process.pid).children(recursive=True)
        if len(children) >= jobs:
            return children
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"--jobs {jobs}: the workers did not start")


def _one_busy(processes: list, seconds: float) -> None:
    """Wait until one of ``processes`` has used ``seconds`` of CPU (the one given the range)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for one in processes:
            used = one.cpu_times()
            if used.user + used.system >= seconds:
                return
        time.sleep(0.02)
    raise AssertionError(f"no worker used {seconds} s of CPU in 30 s")


# A pool worker that has written the start of a result and stops there (as one killed midway
# through writing a range's answers does): the pool's manager thread waits in its read for the
# rest, and the interpreter joins that thread as it exits.
HALF_WRITTEN = """
import os, struct, sys, time
from solvers.run.parallel import Pool, spread

def half_write(marker):
    frame = sys._getframe()
    while frame.f_code.co_name != "_process_worker":
        frame = frame.f_back
    writer = frame.f_locals["result_queue"]._writer
    os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"x" * 100)
    open(marker, "w").close()
    time.sleep(60)

if __name__ == "__main__":
    try:
        for _ in spread(half_write, [(0, sys.argv[1])], Pool(2, None)):
            pass
    except KeyboardInterrupt:
        print("stopped", flush=True)
"""


def test_a_stopped_pool_ends_though_a_worker_half_wrote_a_result(tmp_path):
    script, marker = tmp_path / "half.py", tmp_path / "written"
    script.write_text(HALF_WRITTEN)
    process = subprocess.Popen(
        [sys.executable, str(script), str(marker)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    # both workers started: the first may write before the pool has forked the second, and a
    # SIGINT inside that fork is another window (the command's own: test_signal_windows.py)
    children = [c.pid for c in _workers(process, 2)]
    time.sleep(0.2)  # the manager thread in its read of the rest
    sent = time.monotonic()
    os.kill(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
    took = time.monotonic() - sent
    assert out == "stopped\n", err
    assert process.returncode == 0, err
    assert took < 2.0 + SLACK, f"{took:.2f} s to exit"
    time.sleep(0.2)
    assert not [pid for pid in children if alive(pid)]
