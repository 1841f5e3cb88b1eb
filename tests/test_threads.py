"""Threads: ``solve`` and ``count_solutions`` from several threads at once, per backend.

Each run is a process of its own, because the failure this guards against is not an exception
but the process dying (CaDiCaL aborts on concurrent use, Z3 segfaults): the test reads its exit
status and what it printed.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# Four threads, each solving and counting its own puzzles, with and without a timeout (with
# one, sat, exactcover and cpmpy answer from a worker process; the pipe to it is one per runner).
SCRIPT = textwrap.dedent(
    """
    import sys, threading
    from solvers import count_solutions, solve
    from solvers.formats.boards import parse
    from solvers.model.verify import problems

    backend = sys.argv[1]
    LINES = [
        "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7",
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        ".................................................................................",
    ]
    failures = []

    def work(seed):
        try:
            for turn in range(6):
                line = LINES[(seed + turn) % len(LINES)]
                timeout = 30.0 if turn % 2 else None
                answer = solve(line, backend, timeout=timeout)
                assert answer.status.name == "SOLVED", answer
                assert not problems(parse(line), answer.solution)
                count = count_solutions(line, 2, backend, timeout=timeout)
                assert count == (2 if line.startswith("...") else 1), (line, count)
        except BaseException as error:
            failures.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print("\\n".join(failures) or "ok")
    """
)


# A process each: the default run takes the two whose libraries bring the process down when
# threads call them at once (CaDiCaL in pysat, Z3), one answering from a worker process (cpmpy)
# and the compiled kernel; the heavy run the rest.
IN_THE_DEFAULT_RUN = ("pysat", "z3", "cpmpy", "native")


@pytest.mark.parametrize(
    "backend",
    [
        pytest.param(name, marks=[] if name in IN_THE_DEFAULT_RUN else [pytest.mark.heavy])
        for name in ("pysat", "z3", "sat", "exactcover", "cpmpy", "native", "choco", "cms")
    ],
)
def test_several_threads_share_a_backend(backend):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, backend],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr[-2000:]


def test_two_specs_of_one_backend_in_threads():
    # Z3's solvers share one context per process whatever their options: two specs, two
    # runners, and still one library underneath.
    # z3's integer model has a heavy tail on the 17-clue line and the empty board (long, and
    # varying run to run): the two easy lines show the sharing
    script = (
        SCRIPT.replace("backend = sys.argv[1]", "backend = sys.argv[1]; import random")
        .replace("solve(line, backend,", "solve(line, random.choice(['z3', 'z3:cells=int']),")
        .replace("failures = []", "LINES = LINES[:2]\nfailures = []")
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "z3"], capture_output=True, text=True, timeout=300
    )
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr[-2000:]
