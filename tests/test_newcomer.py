"""What a newcomer meets first: the version, progress on a terminal, printed boards."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

import solvers
from solvers import solve
from solvers.tools.datasets import path_of

SUDOKU = [sys.executable, "-m", "solvers"]


def metadata_version() -> str:
    from importlib.metadata import version

    return version("sudoku-solvers")


@pytest.mark.parametrize("argv", [["--version"], ["-V"]])
def test_version_is_the_package_metadata(argv):
    done = subprocess.run([*SUDOKU, *argv], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"sudoku {metadata_version()}\n"
    assert solvers.__version__ == metadata_version()


def test_the_sudoku_script_prints_the_version_too():
    script = Path(sys.executable).parent / "sudoku"
    done = subprocess.run([script, "--version"], capture_output=True, text=True, check=False)
    assert done.stdout.split() == ["sudoku", metadata_version()]


def test_a_printed_solution_is_a_grid():
    answer = solve("1" + "." * 15, backend="dfs")
    assert str(answer.solution) == "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1"
    assert repr(answer.solution).startswith("Board(shape=")


def slow_file(tmp_path: Path) -> Path:
    """150 hard puzzles for `mrv` (about 9 ms each): a run that outlasts the bar's delay."""
    hard = [line for line in Path(path_of("hard9")).read_text().splitlines() if line[:1] != "#"]
    path = tmp_path / "hard.txt"
    path.write_text("\n".join((hard * 2)[:150]) + "\n")
    return path


def on_a_terminal(argv: list[str], cwd: Path) -> tuple[str, bytes]:
    """(stdout, everything written to stderr) of a run whose stderr is a terminal."""
    leader, follower = pty.openpty()
    # A terminal window of 24 rows and 100 columns, as a user's has (a bare pty has none).
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    answers = (cwd / "answers.txt").open("w+b")  # a file: a pipe left unread could fill up
    process = subprocess.Popen(
        [*SUDOKU, *argv],
        stdout=answers,
        stderr=follower,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        env=env,
    )
    os.close(follower)
    seen = bytearray()
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            process.kill()
            pytest.fail("no output on the terminal for 60 s")
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the run has ended and closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    process.wait(30)
    os.close(leader)
    answers.seek(0)
    with answers:
        return answers.read().decode(), bytes(seen)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_progress_on_a_terminal_reaches_the_total_and_ends_its_line(tmp_path, jobs):
    path = slow_file(tmp_path)
    stdout, terminal = on_a_terminal(
        ["solve", str(path), "--backend", "mrv", "--jobs", jobs], tmp_path
    )
    assert len(stdout.splitlines()) == 150
    text = terminal.decode().replace("\r\n", "\n")  # the terminal's own line ends
    assert "150/150" in text, text
    last = text.rsplit("\r", 1)[-1]  # what the bar shows last
    assert "150/150" in last and "puzzles/s" in last
    assert text.endswith("\n")


def test_no_progress_on_a_pipe(tmp_path):
    path = slow_file(tmp_path)
    done = subprocess.run(
        [*SUDOKU, "solve", str(path), "--backend", "mrv"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 150
    assert done.stderr == ""


@pytest.mark.slow
def test_a_first_native_run_says_it_compiles_and_how_long_it_took(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))  # an empty cache
    board = tmp_path / "board.txt"
    board.write_text("1" + "." * 15 + "\n")
    first = subprocess.run(
        [*SUDOKU, "solve", str(board)], capture_output=True, text=True, env=env, check=False
    )
    assert first.returncode == 0, first.stderr
    notice, took = first.stderr.splitlines()
    assert notice.startswith("sudoku: compiling the native kernel with numba, once")
    assert re.fullmatch(r"sudoku: native kernel compiled in \d+\.\d s", took)
    again = subprocess.run(
        [*SUDOKU, "solve", str(board)], capture_output=True, text=True, env=env, check=False
    )
    assert (again.stdout, again.stderr) == (first.stdout, "")


def test_a_run_with_the_kernel_compiled_says_nothing_of_it(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("1" + "." * 15 + "\n")
    done = subprocess.run([*SUDOKU, "solve", str(board)], capture_output=True, text=True)
    assert (done.returncode, len(done.stdout), done.stderr) == (0, 17, "")


@pytest.mark.parametrize(
    "argv, uses",
    [
        (["solve", "x.txt"], True),
        (["solve", "x.txt", "--backend", "native"], True),
        (["count", "x.txt", "--backend", "sat"], False),
        (["check", "x.txt", "--backends", "sat,native"], True),
        (["check", "x.txt", "--backends", "sat,cpsat:workers=2,model=boolean"], False),
        (["compare", "hard9"], True),
        (["generate", "--count", "1"], False),
    ],
)
def test_which_commands_run_native(argv, uses):
    from solvers.cli.compiling import _uses_native
    from solvers.cli.parser import build_parser

    assert _uses_native(build_parser().parse_args(argv)) is uses
