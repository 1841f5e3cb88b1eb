"""Input that never ends (``yes | sudoku solve``): real endless producers piped into a real run.
Memory stays bounded, each refusal is said while the input still comes, the puzzles before a
runaway line or block are answered, and the run ends when its input does; a grid fed forever
ends the run by itself (a grid is the one puzzle of its source)."""

from __future__ import annotations

import contextlib
import itertools
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import BOJ2580_IN

from solvers.formats.boards import Puzzle, read_puzzles
from solvers.formats.fpuzzles_link import MAX_JSON

ROOT = Path(__file__).resolve().parents[1]
GOOD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
ANSWER = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
LINK = next(
    line
    for line in (ROOT / "examples" / "fpuzzles.txt").read_text().splitlines()
    if line.startswith("https://")
)
PEAK_MB = 250  # the main process's peak: a run holding what it reads passes it in seconds
SAID = 60  # seconds for a loaded machine to start the run and say what it must


def _peak_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    kb = next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(kb) / 1024


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (600 << 20, 600 << 20))


def _stop(producer: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(producer.pid, signal.SIGKILL)


def _fed_forever(feed: str, args: list[str], tmp_path: Path, until: list[str]):
    """``sudoku ARGS`` reading standard input from the shell command ``feed``, which never ends:
    (its output and its stderr once they hold ``until`` or SAID seconds passed, while the feed
    still runs; its peak memory in MB then; its exit status once the feed is stopped, so that
    its input ends)."""
    out, err = tmp_path / "out", tmp_path / "err"
    with open(out, "w") as stdout, open(err, "w") as stderr:
        # a session of its own: the feed's every process (yes, tr) is stopped with it
        producer = subprocess.Popen(
            ["sh", "-c", feed], stdout=subprocess.PIPE, start_new_session=True
        )
        run = subprocess.Popen(
            [sys.executable, "-m", "solvers", *args],
            stdin=producer.stdout,
            stdout=stdout,
            stderr=stderr,
        )
        producer.stdout.close()
        try:
            deadline = time.monotonic() + SAID
            while time.monotonic() < deadline and run.poll() is None:
                said = out.read_text() + err.read_text()
                if all(text in said for text in until):
                    break
                time.sleep(0.2)
            time.sleep(1)  # a run that holds what it reads grows the while
            assert run.poll() is None, "the run ended while its input still came"
            peak = _peak_mb(run.pid)
            said_while_fed = out.read_text(), err.read_text()
            _stop(producer)  # the input ends: so must the run
            code = run.wait(timeout=30)
        finally:
            _stop(producer)
            run.kill()
            producer.wait()
            run.wait()
    return *said_while_fed, peak, code


@pytest.mark.slow
def test_yes_is_refused_line_by_line_in_bounded_memory_and_ends_with_its_input(tmp_path):
    said = "sudoku: line 2000: 1 cells; a line puzzle has N*N cells for N in 4..25"
    out, err, peak, code = _fed_forever("yes", ["solve", "-"], tmp_path, [said])
    assert said in err and out == ""
    assert peak < PEAK_MB
    assert code == 2


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(
    "first, runaway, said",
    [
        # a line with no end: refused once past the limit, its rest read and dropped
        (GOOD, "tr '\\0' y < /dev/zero", "line 2: over 1,000,000 characters"),
        # a JSON document that never closes: refused once past MAX_JSON, its rest dropped
        (LINK, "echo '{'; yes '\"author\": 1,'", "line 2: the f-puzzles puzzle is over 1,000,000"),
    ],
    ids=["line", "json"],
)
def test_the_puzzle_before_a_runaway_is_answered_while_it_runs(
    tmp_path, jobs, first, runaway, said
):
    # the default choice, which reads puzzles ahead, stops at the runaway: its puzzles come first
    feed = f"echo '{first}'; {runaway}"
    answer = ANSWER if first == GOOD else "https://www.f-puzzles.com/?load="
    out, err, peak, code = _fed_forever(feed, ["solve", "--jobs", jobs], tmp_path, [answer, said])
    assert out.startswith(answer) and len(out.splitlines()) == 1
    assert err.startswith(f"sudoku: {said}") and len(err.splitlines()) == 1, err
    assert peak < PEAK_MB
    assert code == 2


GRIDS = {
    "rows of a grid": "yes '1 2 3 4 5 6 7 8 9'",
    "rows of dots": "yes .........",
    "a grid's section": "printf '%s\\n' '1 2 3 4' 'constraints:'; yes 'thermometer r1c1 r1c2'",
    "blank lines in a grid": "echo '1 2 3 4'; yes ''",
}


@pytest.mark.slow
@pytest.mark.parametrize("feed", GRIDS.values(), ids=GRIDS.keys())
def test_a_grid_fed_forever_ends_the_run_with_a_message_naming_its_first_line(feed):
    started = time.monotonic()
    done = subprocess.run(
        ["sh", "-c", f"({feed}) | {sys.executable} -m solvers solve; echo $? >&2"],
        capture_output=True,
        text=True,
        timeout=SAID,
        preexec_fn=_limited,  # a run that holds the grid fails here within seconds
    )
    said = "sudoku: line 1: a grid that runs past 1,000,000 characters (at line "
    assert done.stderr.startswith(said) and done.stderr.endswith(
        "starts here: no puzzle is that long\n2\n"
    )
    assert done.stdout == "" and time.monotonic() - started < SAID


def test_a_grid_past_the_limit_in_a_file_is_refused_and_one_under_it_read(tmp_path, cli):
    long = tmp_path / "long.txt"
    long.write_text("1 2 3 4 5 6 7 8 9\n" * 60_000)  # 1.08 MB
    done = cli("solve", str(long))
    assert done.code == 2 and done.out == ""
    assert done.err.startswith("sudoku: line 1: a grid that runs past 1,000,000 characters")
    rows = BOJ2580_IN.splitlines(keepends=True)
    padded = tmp_path / "padded.txt"  # a comment inside counts, yet the grid is under the limit
    padded.write_text("".join(rows[:4]) + "# " + "x" * 900_000 + "\n" + "".join(rows[4:]))
    assert cli("solve", str(padded)).code == 0


def test_the_library_stops_at_a_grid_fed_forever():
    rows = itertools.chain(["1 2 3 4 5 6 7 8 9\n"], itertools.repeat("1 2 3 4 5 6 7 8 9\n"))
    (error,) = read_puzzles(rows)
    assert str(error).startswith("line 1: a grid that runs past 1,000,000 characters")


def test_the_library_refuses_a_json_document_fed_forever_as_soon_as_it_passes_the_cap():
    lines = itertools.chain([LINK + "\n", "{\n"], itertools.repeat('"author": 1,\n'))
    items = read_puzzles(lines)
    assert isinstance(next(items), Puzzle)
    error = next(items)  # comes, though the document never ends
    assert error.line == 2 and f"over {MAX_JSON:,} characters of JSON" in str(error)
