"""The interruption contract, with the real command and real engines: SIGINT, SIGTERM or SIGHUP
sent while an engine searches ends the run with 128 + the signal's number, no traceback, no
answer printed, and no process of the run left (``minizinc`` and its solver included). Each
run starts in a session of its own, so that whatever it started is found by its session
even once it has been handed to init.

The matrix (docs/reliability.md, "Signals") runs in the slow run; three of its cells run in
the default one. The searches outlast every test: an empty 16x16 under non-consecutive,
anti-knight and anti-king takes each engine more than 8 s, and an empty 9x9 has 6.7e21
solutions to count.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest
from test_signals import handlers_in

SUDOKU = str(Path(sys.executable).with_name("sudoku"))
HARD16 = "# rules: non-consecutive; anti-knight; anti-king\n" + "." * 256 + "\n"
EMPTY9 = "." * 81 + "\n"
SIGNALS = {"ctrl-c": signal.SIGINT, "sigterm": signal.SIGTERM, "sighup": signal.SIGHUP}
# every library engine, a search of our own in Python and the compiled one
BACKENDS = (
    "sat",
    "pysat",
    "cms",
    "z3",
    "mip",
    "cpsat",
    "cpmpy",
    "choco",
    "minizinc",
    "csp",
    "dfs",
    "native",
)
BUSY_CPU_S = 1.5  # the run's CPU, its workers' included, before the signal: imported, searching


def session_processes(session: int) -> list[psutil.Process]:
    """The live processes of ``session`` (zombies are dead, waiting to be reaped)."""
    found = []
    for process in psutil.process_iter():
        try:
            if os.getsid(process.pid) == session and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
        except (OSError, psutil.Error):
            continue
    return found


def cpu_of(session: int) -> float:
    total = 0.0
    for process in session_processes(session):
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def searching(session: int, engine: str | None) -> bool:
    """Whether the run has used ``BUSY_CPU_S`` of CPU, and (if the engine is a program of its
    own: ``fzn-gecode``) the engine's process runs: imported, probed, and searching."""
    if cpu_of(session) < BUSY_CPU_S:
        return False
    return engine is None or any(engine in p.name() for p in session_processes(session))


def interrupted(
    command: list[str], stdin: str, number: int, engine: str | None = None, within: float = 10.0
) -> tuple[int | None, float, str, str, list[str]]:
    """Run ``command`` (in a session of its own), send ``number`` once it is ``searching``
    with ``engine``: to the whole group for Ctrl-C (as a terminal sends it), to the main process
    alone for the others (as kill(1) does). Its exit status (None: still running ``within``
    seconds later), the seconds it took to end, its stdout and stderr, and the processes of
    its session left a moment after it ended (killed then)."""
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
    )
    try:
        process.stdin.write(stdin)
        process.stdin.close()
        process.stdin = None  # written: communicate has nothing more to send
        deadline = time.monotonic() + 60
        while not searching(process.pid, engine):
            assert process.poll() is None, f"ended before the signal: {process.stderr.read()}"
            assert time.monotonic() < deadline, "not searching after 60 s"
            time.sleep(0.05)
        time.sleep(0.2)
        sent = time.monotonic()
        if number == signal.SIGINT:
            os.killpg(process.pid, number)
        else:
            os.kill(process.pid, number)
        try:
            out, err = process.communicate(timeout=within)
            code = process.returncode
        except subprocess.TimeoutExpired:
            code = None
            process.kill()
            out, err = process.communicate()
        took = time.monotonic() - sent
        time.sleep(0.5)  # what is killed on the way out has ended by now
    finally:
        left = session_processes(process.pid)
        for child in left:
            child.kill()
        process.kill()
        process.wait()
    return code, took, out, err, [" ".join(p.cmdline()[:2]) for p in left if p.is_running()]


def solve_file(backend: str, folder: Path) -> tuple[list[str], str]:
    path = folder / "hard16.txt"
    path.write_text(HARD16)
    return [SUDOKU, "solve", str(path), "--backend", backend], ""


def count_stdin(backend: str, folder: Path) -> tuple[list[str], str]:
    return [SUDOKU, "count", "-", "--backend", backend, "--limit", "1000000000"], EMPTY9


def solve_stdin(backend: str, folder: Path) -> tuple[list[str], str]:
    return [SUDOKU, "solve", "-", "--backend", backend], HARD16


def count_file(backend: str, folder: Path) -> tuple[list[str], str]:
    path = folder / "empty9.txt"
    path.write_text(EMPTY9 * 3)
    return [SUDOKU, "count", str(path), "--backend", backend, "--limit", "1000000000"], ""


def solve_jobs(backend: str, folder: Path) -> tuple[list[str], str]:
    path = folder / "hard16.txt"
    path.write_text(HARD16 * 3)
    return [SUDOKU, "solve", str(path), "--backend", backend, "--jobs", "2"], ""


def solve_timed(backend: str, folder: Path) -> tuple[list[str], str]:
    command, stdin = solve_file(backend, folder)
    return [*command, "--timeout", "100"], stdin


def check_file(backend: str, folder: Path) -> tuple[list[str], str]:
    command, stdin = solve_file(backend, folder)
    return [SUDOKU, "check", command[2], "--backends", f"{backend},dfs", "--timeout", "100"], stdin


LIBRARY = textwrap.dedent(
    """
    import os, signal, sys
    import psutil
    from solvers.api import count_solutions, solve
    for number in (signal.SIGTERM, signal.SIGHUP):  # what a program of the user's might do
        signal.signal(number, lambda number, frame: sys.exit(128 + number))
    board, backend, mode = sys.stdin.read(), sys.argv[1], sys.argv[2]
    try:
        if mode == "solve":
            print(solve(board, backend=backend))
        else:
            print(count_solutions(board, backend=backend, limit=10**9))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    finally:  # the call's own processes are gone when it ends, before any exit hook
        assert not psutil.Process().children(recursive=True), "left children"
    """
)


def library(backend: str, folder: Path) -> tuple[list[str], str]:
    return [sys.executable, "-c", LIBRARY, backend, "solve"], HARD16


PATHS = {
    "solve FILE": solve_file,
    "count -": count_stdin,
    "solve -": solve_stdin,
    "count FILE": count_file,
    "solve --jobs 2": solve_jobs,
    "solve --timeout 100": solve_timed,
    "check FILE": check_file,
    "library solve()": library,
}
# Every backend on two paths, every path with two backends (a library of C code and minizinc,
# which runs programs of its own), under each signal; three cells in the default run.
CELLS = sorted(
    {(backend, path) for backend in BACKENDS for path in ("solve FILE", "count -")}
    | {(backend, path) for backend in ("sat", "minizinc") for path in PATHS}
    | {("exactcover", "count -")}  # it encodes no rule of the 16x16
)
DEFAULT = {
    ("sat", "solve FILE", "sighup"),
    ("cms", "solve FILE", "ctrl-c"),
    ("minizinc", "count -", "sigterm"),
}


@pytest.mark.parametrize(
    "backend, path, name",
    [
        pytest.param(
            backend,
            path,
            name,
            marks=[] if (backend, path, name) in DEFAULT else [pytest.mark.slow],
            id=f"{backend}-{path}-{name}",
        )
        for backend, path in CELLS
        for name in SIGNALS
    ],
)
def test_a_signal_ends_every_backend_on_every_path(backend, path, name, tmp_path):
    number = SIGNALS[name]
    command, stdin = PATHS[path](backend, tmp_path)
    engine = "fzn-gecode" if backend == "minizinc" else None
    code, took, out, err, left = interrupted(command, stdin, number, engine)
    assert code == 128 + number, f"exit {code}, stderr: {err}"
    assert "Traceback" not in err, err
    assert out == "", f"printed though interrupted: {out!r}"
    assert not left, f"left running: {left}"
    # the contract's 2 s in the slow run; the default run's cells must not hang on load
    assert took < (10.0 if (backend, path, name) in DEFAULT else 2.0), f"{took:.2f} s to end"


COUNT = [SUDOKU, "count", "-", "--limit", "1000000000"]
THREAD = textwrap.dedent(
    """
    import sys, threading, time
    from solvers.api import count_solutions
    backend = sys.argv[1]
    threading.Thread(
        target=count_solutions,
        args=("." * 81,),
        kwargs={"backend": backend, "limit": 10**9, "timeout": 100},
    ).start()
    time.sleep(600)
    """
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "run",
    [
        pytest.param([*COUNT, "--jobs", "2", "--backend", "sat"], id="count --jobs 2"),
        pytest.param([sys.executable, "-c", THREAD, "sat"], id="library count in a thread"),
        pytest.param([sys.executable, "-c", THREAD, "minizinc"], id="minizinc in a thread"),
    ],
)
def test_a_killed_run_leaves_no_process(run):
    """SIGKILL: nothing of ours runs on the way out; the kernel must end every child."""
    process = subprocess.Popen(
        run,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        text=True,
    )
    process.stdin.write(EMPTY9 * 4)
    process.stdin.close()
    deadline = time.monotonic() + 60
    while cpu_of(process.pid) < 2.0 or len(session_processes(process.pid)) < 2:
        assert time.monotonic() < deadline, "no child busy in 60 s"
        time.sleep(0.05)
    process.kill()
    process.wait()
    deadline = time.monotonic() + 5
    while (left := session_processes(process.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for child in left:
        child.kill()
    assert not left, [" ".join(p.cmdline()[:2]) for p in left if p.is_running()]


def names_of_children(pid: int) -> set[str]:
    """The names of a process's descendants now; one that ends while they are read (its
    /proc entry gone: psutil's NoSuchProcess, or a bare FileNotFoundError) is left out."""
    names = set()
    for child in psutil.Process(pid).children(recursive=True):
        with contextlib.suppress(psutil.Error, OSError):
            names.add(child.name())
    return names


def test_minizinc_leaves_no_temporary_file(tmp_path):
    """A call killed at its deadline, and a run ended by a signal, leave nothing in the
    temporary folder: neither the package's model files nor the flattened models of the
    ``minizinc`` process."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    environment = {**os.environ, "TMPDIR": str(folder)}
    count = [SUDOKU, "count", "-", "--backend", "minizinc", "--limit", "1000000000"]
    timed = subprocess.run(
        [*count, "--timeout", "1"],
        input=EMPTY9 * 2,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    assert timed.returncode == 3, timed.stderr  # both puzzles past their deadline
    assert timed.stderr.count("timeout after 1 s") == 2, timed.stderr
    process = subprocess.Popen(
        count, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=environment, text=True
    )
    process.stdin.write(EMPTY9)
    process.stdin.close()
    deadline = time.monotonic() + 60
    while "fzn-gecode" not in names_of_children(process.pid):
        assert time.monotonic() < deadline, "no fzn-gecode in 60 s"
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 128 + signal.SIGTERM
    assert sorted(p.name for p in folder.rglob("*")) == []


@pytest.mark.slow
def test_a_minizinc_that_never_answers_is_unavailable_not_a_hang(tmp_path):
    """A ``minizinc`` first on PATH that never answers makes the backend unavailable, naming
    it, within the probe's limit (``adapters.minizinc.PROBE_SECONDS``), in every command that
    looks at the backends; the command goes on with the others."""
    fake = tmp_path / "minizinc"
    fake.write_text("#!/bin/sh\nexec sleep 600\n")
    fake.chmod(0o755)
    environment = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    start = time.monotonic()
    listing = subprocess.run(
        [SUDOKU, "backends"], capture_output=True, text=True, env=environment, timeout=60
    )
    assert time.monotonic() - start < 30
    line = next(line for line in listing.stdout.splitlines() if line.startswith("minizinc"))
    assert f"{fake} --version gave no answer in 10 s" in line
    assert listing.returncode == 0, listing.stderr
    solved = subprocess.run(
        [SUDOKU, "solve", "-", "--backend", "minizinc"],
        input=EMPTY9,
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
    )
    assert solved.returncode == 2, solved.stderr
    assert "--version gave no answer" in solved.stderr
    assert "Traceback" not in solved.stderr
    assert not [
        p for p in psutil.process_iter(["cmdline"]) if str(fake) in (p.info["cmdline"] or [])
    ]


@pytest.mark.slow
def test_a_signal_while_minizinc_is_probed_leaves_no_process_and_no_file(tmp_path):
    """Looking at what MiniZinc runs (a tiny model per solver, as the backend loads) stopped
    midway: the probes are ended and their files (the model, minizinc's flattened one) are
    removed."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    process = subprocess.Popen(
        [SUDOKU, "count", "-", "--backend", "minizinc", "--limit", "1000000000"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(folder)},
        start_new_session=True,
        text=True,
    )
    process.stdin.write(EMPTY9)
    process.stdin.close()
    deadline = time.monotonic() + 60
    try:
        while not any(
            "--solver" in command and command[-1].endswith(".mzn")
            for command in _commands_under(process.pid)
        ):
            assert process.poll() is None, "ended before a probe was seen"
            assert time.monotonic() < deadline, "no probe in 60 s"
            time.sleep(0.005)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 128 + signal.SIGTERM, process.stderr.read()
        left = session_processes(process.pid)
        assert not left, [p.cmdline() for p in left]
        assert sorted(p.name for p in folder.rglob("*")) == []
    finally:
        for child in session_processes(process.pid):
            child.kill()
        process.kill()
        process.wait()


def _commands_under(pid: int) -> list[list[str]]:
    found = []
    with contextlib.suppress(psutil.Error):
        for child in psutil.Process(pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                found.append(child.cmdline())
    return found


# Signals at many moments of a run, not only once its engine searches: each backend, with one
# job and with two, and native's bulk path, counting a file of easy puzzles (each answered
# and written as it is known) and then two empty 9x9s that no run finishes. The moments are
# events of the run: its start-up, its imports (some CPU spent), its first child (a worker,
# a pool: the fork), its first answer written, and its search of the empty boards.
MOMENTS = ("start-up", "import", "fork", "writing", "search")
EASY = 30  # puzzles before the two empty boards


def easy_then_endless(folder: Path) -> Path:
    from solvers.formats.datasets import DATASETS

    path = folder / "easy-then-endless.txt"
    path.write_text("\n".join([*DATASETS["easy9"].puzzles()[:EASY], "." * 81, "." * 81]) + "\n")
    return path


def at_moment(process: subprocess.Popen, out: Path, moment: str) -> None:
    """Wait for ``moment`` of the run (at most 30 s: a run with no child forks none)."""
    by = time.monotonic() + 30
    while process.poll() is None and time.monotonic() < by:
        if moment == "start-up" and handlers_in(process.pid):  # main's first line: before
            return  # it, Python's own answer (docs/reliability.md, "Gaps")
        if moment == "import" and cpu_of(process.pid) > 0.25:
            return
        if moment == "fork" and len(session_processes(process.pid)) > 1:
            return
        if moment == "writing" and out.stat().st_size > 0:
            return
        if moment == "search" and out.stat().st_size >= 2 * EASY:  # every easy one written
            time.sleep(0.3)
            return
        time.sleep(0.005)


@pytest.mark.slow
@pytest.mark.parametrize(
    "backend, jobs",
    [(b, j) for b in (*BACKENDS, "exactcover", "propagate", "portfolio") for j in (1, 2)]
    + [("native-bulk", 1), ("native-bulk", 2)],
)
def test_a_signal_at_any_moment_of_a_run_ends_it(backend, jobs, tmp_path):
    """Every moment under one signal, the signals taken in turn (a cell's five runs see each
    at least once): the run ends within 2 s with 128 + the signal, no traceback, only the
    answers of easy puzzles written, and no process of its session nor temporary file left
    (a pool worker killed with its run leaves its backend worker's folder to its killer)."""
    path = easy_then_endless(tmp_path)
    # native's count of a named line file is the bulk path (the batch kernel); of standard
    # input, each puzzle through its runner, as every other backend's
    name, named = backend.removesuffix("-bulk"), backend != "native"
    command = [SUDOKU, "count", str(path) if named else "-", "--backend", name]
    command += ["--limit", "1000000000", "--jobs", str(jobs)]
    failures = []
    for index, moment in enumerate(MOMENTS):
        number = list(SIGNALS.values())[(index + jobs) % 3]
        out, scratch = tmp_path / f"out-{moment}.txt", tmp_path / f"tmp-{moment}"
        scratch.mkdir()
        with out.open("w") as sink:
            process = subprocess.Popen(
                command, stdin=path.open(), stdout=sink, stderr=subprocess.PIPE,
                start_new_session=True, text=True, env={**os.environ, "TMPDIR": str(scratch)},
            )  # fmt: skip
        try:
            at_moment(process, out, moment)
            sent = time.monotonic()
            (os.killpg if number == signal.SIGINT else os.kill)(process.pid, number)
            try:
                _, err = process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                err = "(still running 30 s after the signal)"
            took = time.monotonic() - sent
            time.sleep(0.3)
            left = [" ".join(p.cmdline()[:3]) for p in session_processes(process.pid)]
        finally:
            for child in session_processes(process.pid):
                with contextlib.suppress(psutil.Error):
                    child.kill()
            process.kill()
            process.wait()
        written = out.read_text().splitlines()
        said = f"{moment}, signal {number}: exit {process.returncode} after {took:.2f} s"
        if process.returncode != 128 + number or took >= 2.0 or left or "Traceback" in err:
            failures.append(f"{said}; left {left}; stderr {err[-300:]!r}")
        elif any(line != "1" for line in written) or len(written) > EASY:
            failures.append(f"{said}; printed what was not proved: {written[-3:]}")
        elif files := sorted(p.name for p in scratch.iterdir()):
            failures.append(f"{said}; left in the temporary folder: {files}")
    assert not failures, "\n".join(failures)
