"""Signals with real processes: Ctrl-C, SIGTERM and SIGHUP end a run within 2 s, and no
process of ours is left behind (each one's PID checked)."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

SUDOKU = str(Path(sys.executable).with_name("sudoku"))
EMPTY9 = "." * 81

# Each keeps processes busy for far longer than the test: a pool of two on hard puzzles with
# the reference DFS; a count no backend finishes, in sat's killable worker; a comparison.
RUNS = {
    "solve --jobs 2": ["solve", "hard9", "--backend", "dfs", "--jobs", "2"],
    "count in a worker": [
        "count",
        "-",
        "--backend",
        "sat",
        "--timeout",
        "30",
        "--limit",
        "1000000000",
    ],
    "compare": ["compare", "hard9", "--backends", "dfs,bitmask", "--timeout", "20"],
    "compare --jobs 2": ["compare", "hard9", "--backends", "dfs", "--timeout", "20", "--jobs", "2"],
    "count in process": ["count", "-", "--backend", "propagate", "--limit", "1000000000"],
}


def start(args: list[str]) -> tuple[subprocess.Popen, list[int]]:
    """The command in a session of its own (as a terminal runs it), once it has children."""
    process = subprocess.Popen(
        [SUDOKU, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
    )
    process.stdin.write(EMPTY9 + "\n")
    process.stdin.close()
    if args == RUNS["count in process"]:
        busy(process, 0.6)  # imported, and counting
        return process, []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        children = psutil.Process(process.pid).children(recursive=True)
        if children:
            time.sleep(0.2)  # let it get going
            return process, [c.pid for c in psutil.Process(process.pid).children(recursive=True)]
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"{args}: no worker process started")


def busy(process: subprocess.Popen, seconds: float) -> None:
    """Wait until ``process`` has used ``seconds`` of CPU: a fixed sleep is too short on a
    loaded machine and wasted time on a quiet one."""
    watched = psutil.Process(process.pid)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        used = watched.cpu_times()
        if used.user + used.system >= seconds:
            return
        time.sleep(0.02)
    process.kill()
    raise AssertionError(f"{process.args}: not {seconds} s of CPU in 30 s")


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


# The default run: each signal on one kind of run; every signal on every run in the slow run.
DEFAULT = {
    ("ctrl-c", "solve --jobs 2"),
    ("sigterm", "count in a worker"),
    ("sighup", "compare"),
    ("ctrl-c", "compare --jobs 2"),
    ("sigterm", "count in process"),
}
SIGNALS = {
    "ctrl-c": (signal.SIGINT, True),
    "sigterm": (signal.SIGTERM, False),
    "sighup": (signal.SIGHUP, False),
}


@pytest.mark.parametrize(
    "name, run",
    [
        pytest.param(name, run, marks=[] if (name, run) in DEFAULT else [pytest.mark.slow])
        for name in SIGNALS
        for run in RUNS
    ],
)
def test_a_signal_ends_the_run_quickly_and_leaves_no_process(name, run):
    number, to_group = SIGNALS[name]
    process, children = start(RUNS[run])
    sent = time.monotonic()
    if to_group:
        os.killpg(process.pid, number)  # Ctrl-C reaches the whole foreground group
    else:
        os.kill(process.pid, number)  # kill(1) reaches the main process alone
    try:
        code = process.wait(timeout=5)
    finally:
        process.kill()
    took = time.monotonic() - sent
    time.sleep(0.2)
    left = [pid for pid in children if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert code == 128 + number, process.stderr.read()
    assert took < 2.0, f"{run}: {took:.2f} s to exit"
    assert not left, f"{run}: processes left behind: {left}"
    assert "Traceback" not in process.stderr.read()


def test_a_killed_main_process_takes_its_workers_with_it():
    process, children = start(RUNS["solve --jobs 2"])
    os.kill(process.pid, signal.SIGKILL)  # no clean-up can run: the kernel must do it
    process.wait(timeout=5)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and any(alive(pid) for pid in children):
        time.sleep(0.05)
    left = [pid for pid in children if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left


# Native without a timeout: its compiled search runs in slices and looks between them, so a
# signal's handler runs within a slice, not after the search, which on an empty 25x25 windoku
# outlasts any test (docs/reliability.md, Signals).
NATIVE = {
    "solve": (["solve", "-", "--backend", "native"], "# rules: windoku\n" + "." * 625),
    "count": (["count", "-", "--backend", "native", "--limit", "1000000000"], EMPTY9),
}
NATIVE_DEFAULT = {("sigterm", "solve"), ("sighup", "count")}


@pytest.mark.parametrize(
    "name, run",
    [
        pytest.param(name, run, marks=[] if (name, run) in NATIVE_DEFAULT else [pytest.mark.slow])
        for name in SIGNALS
        for run in NATIVE
    ],
)
def test_a_signal_ends_an_untimed_native_search(name, run):
    args, text = NATIVE[run]
    process = subprocess.Popen(
        [SUDOKU, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
    )
    process.stdin.write(text + "\n")
    process.stdin.close()
    busy(process, 1.5)  # imported and the kernel loaded, and searching
    number, to_group = SIGNALS[name]
    sent = time.monotonic()
    (os.killpg if to_group else os.kill)(process.pid, number)
    try:
        code = process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        code = None
    finally:
        process.kill()
    took = time.monotonic() - sent
    assert code == 128 + number, process.stderr.read()
    assert took < 2.0, f"{run}: {took:.2f} s to exit"


def test_a_stopped_child_takes_what_it_started_even_once_that_left_its_tree():
    # a program a backend starts may run on after its own parent is gone (reparented, so no
    # longer under the child): the child's process group still holds it
    import multiprocessing

    from solvers.run.children import become_child, kill_tree

    def child(found) -> None:
        become_child(os.getppid())
        started = subprocess.run(
            ["sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True
        )
        found.put(int(started.stdout))
        time.sleep(60)

    context = multiprocessing.get_context("fork")
    found = context.Queue()
    process = context.Process(target=child, args=(found,))
    process.start()
    orphan = psutil.Process(found.get(timeout=30))
    assert orphan.pid not in [p.pid for p in psutil.Process(process.pid).children(recursive=True)]
    kill_tree(process.pid)
    process.join(10)
    _gone, alive = psutil.wait_procs([orphan], timeout=5)
    for left in alive:
        left.kill()
    assert not alive, "a program the child started outlived it"


ADOPTING = """
import subprocess
from solvers.run.children import adopt_orphans, end_descendants
adopt_orphans()
# a program that leaves its own child in a session of its own and ends, as a killed minizinc
# leaves its solver: no longer under us, in no process group of ours
started = subprocess.run(
    ["sh", "-c", "setsid sleep 60 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True
)
print(started.stdout.strip(), flush=True)
end_descendants()
"""


def test_a_stopped_run_ends_what_its_programs_left_in_a_group_of_their_own():
    ended = subprocess.run(
        [sys.executable, "-c", ADOPTING], capture_output=True, text=True, timeout=60
    )
    assert ended.returncode == 0, ended.stderr
    try:
        orphan = psutil.Process(int(ended.stdout))
    except psutil.NoSuchProcess:
        return  # ended and reaped
    _gone, alive = psutil.wait_procs([orphan], timeout=5)
    for left in alive:
        left.kill()
    assert not alive, "a program's orphan outlived the run"


SWALLOWING = """
import sys, time
from solvers.backends.handwritten.dfs import DepthFirst
print("loading", file=sys.stderr, flush=True)
try:  # as a library's compiled part may, taking the signal's exception for a failure of its own
    time.sleep(1.5)
except BaseException:
    pass


class Slow(DepthFirst):
    pass
"""
REGISTERED = """
import sys
from solvers.backends import registry
from solvers.cli.main import main
sys.path.insert(0, sys.argv[1])
registry.register("slowload", "slowload:Slow")
sys.exit(main(["solve", "-", "--backend", "slowload"]))
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_signal_while_a_backend_loads_ends_the_run_even_if_the_library_swallows_it(
    name, tmp_path
):
    (tmp_path / "slowload.py").write_text(SWALLOWING)
    number = getattr(signal, name)
    process = subprocess.Popen(
        [sys.executable, "-c", REGISTERED, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    process.stdin.write("." * 81 + "\n")
    process.stdin.close()
    process.stdin = None  # written: communicate has nothing more to send
    assert process.stderr.readline().strip() == "loading"
    time.sleep(0.2)
    process.send_signal(number)
    try:
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 128 + number, err
    assert out == "", f"answered though stopped: {out!r}"
    assert "Traceback" not in err, err


def test_a_parallel_run_stopped_keeps_the_answers_it_wrote(tmp_path):
    # two puzzles answered at once, then one that is never done (an empty 9x9 counted)
    path = tmp_path / "three.txt"
    easy = "...64.7...17..25.44.5187...7.1....855.........43..6......76.9..6...194...2..3...."
    path.write_text(f"{easy}\n{easy}\n{'.' * 81}\n")
    process = subprocess.Popen(
        [SUDOKU, "count", str(path), "--backend", "dfs", "--jobs", "2", "--limit", "10000000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout])
    reader.start()
    try:
        written = [lines.get(timeout=60) for _ in range(2)]  # as they are known
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        reader.join(10)
    finally:
        process.kill()
    assert process.returncode == 128 + signal.SIGTERM, process.stderr.read()
    assert lines.empty(), list(lines.queue)
    assert written == ["1\n", "1\n"]


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_more_signals_while_the_run_ends_change_nothing(name):
    number = getattr(signal, name)
    process = subprocess.Popen(
        [SUDOKU, "count", "-", "--backend", "dfs", "--jobs", "2", "--limit", "10000000000"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    process.stdin.write(("." * 81 + "\n") * 2)
    process.stdin.close()
    process.stdin = None  # written: communicate has nothing more to send
    deadline = time.monotonic() + 60
    while len(psutil.Process(process.pid).children()) < 2:  # its workers searching
        assert time.monotonic() < deadline, "no workers in 60 s"
        time.sleep(0.05)
    time.sleep(0.5)
    send = (lambda: os.killpg(process.pid, number)) if name == "SIGINT" else process.terminate
    send()
    until = time.monotonic() + 2
    while process.poll() is None and time.monotonic() < until:  # more while it ends
        time.sleep(0.02)
        with contextlib.suppress(ProcessLookupError):
            send()
    try:
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 128 + number, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert out == ""


# A signal from the moment the run starts: what each moment may end in. Before the command's
# first line runs there is Python's own start, where SIG_DFL kills the process (-2, -15, no
# message), and the import of the solvers package that holds the command (the library's
# __init__, which no library should give signal handlers), where Ctrl-C is Python's
# KeyboardInterrupt: docs/reliability.md, "Gaps", measures both. From main's first line on,
# every moment ends in 128 + the signal, with no traceback: the command's own modules load
# after its handlers are in. The moments are a share of this machine's start-up, measured
# here as the time until the handlers are in, so that load moves them together.
# CPython's start prints a KeyboardInterrupt raised while it looks at the script's path
# (Modules/main.c) and runs the script all the same: that Ctrl-C is lost. So is one raised in
# the weakref callback of an import's module lock (importlib._bootstrap._get_module_lock's
# ``cb``), which CPython reports as "Exception ignored in" and drops (CI rehearsal, 29 Nov),
# and one raised while site.py runs a line of a .pth file (an editable install's finder),
# which site reports as "Error processing line" and skips the rest of that file (CI, 30 Nov)
PYTHON_WENT_ON = (
    "Failed checking if argv[0] is an import path entry",
    "Exception ignored in: <function _get_module_lock.<locals>.cb",
    "Remainder of file ignored",
)
EARLY_SHARES = (0.3, 0.6, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98, 1.0, 1.05, 1.2, 2.0)
CAUGHT = re.compile(r"^SigCgt:\s*([0-9a-f]+)$", re.MULTILINE)


def went_on_in_pythons_start(err: str) -> bool:
    """Whether stderr shows a signal that Python's own start caught and dropped: a message
    CPython prints for one, or a traceback none of whose frames is in the solvers package."""
    if any(said in err for said in PYTHON_WENT_ON):
        return True
    frames = re.findall(r'File "([^"]+)", line \d+', err)
    package = os.path.join(os.sep + "solvers", "")
    return "KeyboardInterrupt" in err and bool(frames) and not any(package in f for f in frames)


def handlers_in(pid: int) -> bool:
    """Whether the process catches SIGTERM: Python never does by itself, the command does."""
    with open(f"/proc/{pid}/status") as status:
        caught = int(CAUGHT.search(status.read()).group(1), 16)
    return bool(caught & (1 << (signal.SIGTERM - 1)))


def endless_count(**popen) -> subprocess.Popen:
    """A count that never ends, fed on its standard input; ``popen``: Popen's further options."""
    return subprocess.Popen(
        [SUDOKU, "count", "-", "--backend", "propagate", "--limit", "1000000000"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


def until_handlers_in() -> float:
    """Seconds from the start of a run until its handlers are in (the median of three)."""
    took = []
    for _ in range(3):
        start = time.perf_counter()
        process = endless_count()
        try:
            while not handlers_in(process.pid):
                assert process.poll() is None, process.stderr.read()
                time.sleep(0.0005)
            took.append(time.perf_counter() - start)
        finally:
            process.kill()
            process.communicate()
    return sorted(took)[1]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_signal_from_the_start_of_a_run_ends_it_with_no_traceback_from_the_command(name):
    number = getattr(signal, name)
    start_up = until_handlers_in()
    ended = []
    for share in EARLY_SHARES * 3:
        process = endless_count()
        time.sleep(share * start_up)
        process.send_signal(number)
        try:
            _, err = process.communicate("." * 81 + "\n", timeout=10)
        except BrokenPipeError:
            _, err = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # the run went on: only Python's start may do that
            process.kill()
            _, err = process.communicate()
            assert went_on_in_pythons_start(err), err
            continue
        finally:
            process.kill()
        frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', err)
        package = os.path.join("solvers", "cli", "")
        command = [(path.partition(package)[2], code) for path, code in frames if package in path]
        # main never shows: a traceback may only come from the package's import, the
        # modules' own lines (main.py's class Ended among them) before main's first line
        assert ("main.py", "main") not in command, err
        assert all(code == "<module>" or code[:1].isupper() for _, code in command), err
        if "Traceback" in err:  # in the package's import, before the command's first line
            assert name == "SIGINT" and "KeyboardInterrupt" in err, err  # or a RuntimeError of it
        else:
            assert (process.returncode, err) in ((128 + number, ""), (-number, "")), err
        ended.append(process.returncode)
    assert 128 + number in ended, ended  # the moments reached the command


def test_a_run_under_nohup_outlives_a_hangup_and_still_stops_on_sigterm():
    # before: the command put its own SIGHUP handler over the one nohup had ignored, and
    # `nohup sudoku solve BIG &` ended (129, answers cut short) when its terminal closed
    def as_nohup() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    process = endless_count(start_new_session=True, preexec_fn=as_nohup)
    try:
        process.stdin.write(EMPTY9 + "\n")
        process.stdin.close()
        busy(process, 0.6)  # its handlers in, and counting
        process.send_signal(signal.SIGHUP)
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(timeout=2)  # a hangup ends it within 2 s when it is not ignored
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=5) == 128 + signal.SIGTERM
    finally:
        process.kill()
    assert "Traceback" not in process.stderr.read()
