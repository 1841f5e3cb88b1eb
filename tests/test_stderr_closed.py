"""A stderr that cannot be written (its reader gone, as with ``2> >(head -1)``, or its disk full)
stops the messages, never the answers: every puzzle's answer still reaches stdout, on the
per-puzzle path and the bulk path, on one job and many, and the exit status still says what the
messages would have (2: a bad line). A closed stdout, by contrast, ends the run quietly
(tests/test_failures.py): the answers have nowhere to go."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.formats.boards import parse
from solvers.model.verify import problems

SUDOKU = str(Path(sys.executable).with_name("sudoku"))
EASY = Path(__file__).resolve().parents[1] / "solvers" / "formats" / "datasets" / "easy9.txt"
BROKEN = "1" * 81  # breaks the rules: one message on stderr for its line


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> tuple[Path, list[str]]:
    """A file of 60 puzzles, each followed by a line that is a message on stderr."""
    puzzles = [line.strip() for line in EASY.open() if line.strip()[:1] not in ("", "#")][:60]
    path = tmp_path_factory.mktemp("stderr") / "mixed.txt"
    path.write_text("".join(f"{puzzle}\n{BROKEN}\n" for puzzle in puzzles))
    return path, puzzles


def assert_all_answered(stdout: str, puzzles: list[str]) -> None:
    answers = stdout.split()
    assert len(answers) == len(puzzles)
    for puzzle, answer in zip(puzzles, answers, strict=True):
        assert problems(parse(puzzle), parse(answer)) == []


PATHS = [
    ["--backend", "sat"],  # the per-puzzle path
    ["--backend", "native"],  # the bulk path
]
MANY_JOBS = [  # the same on worker processes: process-heavy, so in the slow run
    pytest.param([*args, "--jobs", "2"], marks=pytest.mark.slow, id=" ".join(args) + " --jobs 2")
    for args in PATHS
]


@pytest.mark.parametrize("args", [*PATHS, *MANY_JOBS], ids=" ".join)
def test_a_stderr_whose_reader_is_gone_loses_the_messages_alone(mixed, args):
    path, puzzles = mixed
    reading, writing = os.pipe()
    os.close(reading)  # the reader is gone before the first message: each write is EPIPE
    try:
        done = subprocess.run(
            [SUDOKU, "solve", str(path), *args],
            stdout=subprocess.PIPE,
            stderr=writing,
            text=True,
            timeout=300,
            check=False,
        )
    finally:
        os.close(writing)
    assert done.returncode == 2
    assert_all_answered(done.stdout, puzzles)


@pytest.mark.parametrize("args", PATHS, ids=" ".join)
def test_a_stderr_read_for_its_first_line_alone_loses_no_answer(mixed, args):
    path, puzzles = mixed
    done = subprocess.run(
        ["/bin/bash", "-c", f'"$0" solve "$1" {" ".join(args)} 2> >(head -1 >&2)', SUDOKU, path],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("sudoku: line 2: row 1 has 1 9 times")
    assert done.stderr.count("\n") == 1
    assert_all_answered(done.stdout, puzzles)


def test_a_stderr_on_a_full_disk_loses_the_messages_alone(mixed):
    path, puzzles = mixed
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [SUDOKU, "solve", str(path), "--backend", "sat"],
            stdout=subprocess.PIPE,
            stderr=full,
            text=True,
            timeout=300,
            check=False,
        )
    assert done.returncode == 2
    assert_all_answered(done.stdout, puzzles)
