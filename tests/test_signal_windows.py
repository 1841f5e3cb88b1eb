"""A signal that lands where Python or a library swallows the exception its handler raises
still ends the run: in an at-fork callback (logging's, as a worker is forked), in NumPy's
import (which makes "bad install" ImportError of it). Each window is hit at a set moment: an
audit hook or an at-fork callback sends the signal from inside it."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time

import psutil
from test_signals import EMPTY9, alive

# the command as its script runs it, with the signal sent from inside the window
PROGRAM = """
import os, signal, sys
{setup}
from solvers.cli.main import main
sys.exit(main())
"""

# Ctrl-C from logging's kind of at-fork callback in the parent, the first time a worker is
# forked: the handler's KeyboardInterrupt is printed ("Exception ignored") and dropped there
AT_FORK = """
sent = []
def in_parent():
    if not sent:
        sent.append(os.kill(os.getpid(), signal.{name}))
        sum(range(1000))  # the handler runs here, inside the callback
os.register_at_fork(after_in_parent=in_parent)
"""

# Ctrl-C as NumPy's C part imports datetime (PyCapsule_Import): NumPy raised its "bad
# install" ImportError with a page of advice, exit 1
IN_NUMPY = """
def hook(event, args):
    if event == "import" and args[0] == "datetime" and "numpy" in sys.modules:
        os.kill(os.getpid(), signal.SIGINT)
sys.addaudithook(hook)
"""


def run(setup: str, args: list[str], stdin: str = "") -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-c", PROGRAM.format(setup=setup), *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    children: set[int] = set()
    try:
        process.stdin.write(stdin)
        process.stdin.close()
        process.stdin = None  # communicate() below is only to read
        while process.poll() is None and time.monotonic() - start < 60:
            with contextlib.suppress(psutil.Error):
                children |= {c.pid for c in psutil.Process(process.pid).children(True)}
            time.sleep(0.02)
    finally:
        if process.poll() is None:
            process.kill()
        out, err = process.communicate()
    took = time.monotonic() - start
    time.sleep(0.2)
    left = [pid for pid in children if alive(pid)]
    for pid in left:
        psutil.Process(pid).kill()
    assert not left, f"processes left behind: {left}"
    return subprocess.CompletedProcess(args, process.returncode, out, err), took


def test_a_signal_in_an_at_fork_callback_ends_the_run():
    # before: the run counted on, deaf to every later signal, until the test killed it
    for name, status in (("SIGINT", 130), ("SIGTERM", 143)):
        count = ["count", "-", "--backend", "sat", "--limit", "1000000000"]
        done, took = run(AT_FORK.format(name=name), count, EMPTY9 + "\n")
        assert done.returncode == status, (name, done.stderr)
        assert done.stderr == "", name  # not "Exception ignored ... KeyboardInterrupt"
        assert done.stdout == ""
        assert took < 20, f"{took:.1f} s"


def test_a_signal_in_numpys_import_ends_the_run_as_any_other(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(EMPTY9 + "\n" + EMPTY9 + "\n")
    done, _took = run(IN_NUMPY, ["solve", str(path), "--backend", "native"])
    assert done.returncode == 130, done.stderr
    assert done.stderr == "" and done.stdout == ""
