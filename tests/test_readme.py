"""Every example in README.md prints what the README shows.

Each fenced block holding ``$ command`` lines is run as one bash script in a folder laid out as
a reader's checkout (``examples/``, ``docs/``, and ``../shared/data`` where this machine has it),
and each command's
output (stdout and stderr together, as a terminal shows them) is compared with the lines the
README puts under it. Measured values are masked on both sides: ``"seconds"`` and other times in
JSON, and library versions. A block preceded by ``<!-- readme-test: timings -->`` prints a table
of measurements: there the command is run on the first 2 puzzles of each dataset and only the
first word of each line (the table's labels) is compared; those runs are slow (marked so).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import SHARED_DATA

ROOT = Path(__file__).resolve().parents[1]
TIMINGS = "<!-- readme-test: timings -->"
MASKS = [
    (re.compile(r'("(?:seconds|wall_time_s|cpu_seconds)": )[0-9.e+-]+'), r"\1T"),
    (re.compile(r"\b\d+\.\d+(?:\.\w+)*\b"), "V"),  # versions (and any decimal)
]


def blocks() -> list[tuple[int, bool, list[str]]]:
    """(line number, is a timings block, lines) of each fenced block with a $ command."""
    found, lines = [], (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            body = lines[i + 1 : end]
            if any(line.startswith("$ ") for line in body):
                timings = i > 0 and lines[i - 1].strip() == TIMINGS
                found.append((i + 1, timings, body))
            i = end
        i += 1
    return found


def commands(body: list[str]) -> list[tuple[str, list[str]]]:
    """Each command with the output lines the README shows under it."""
    pairs: list[tuple[str, list[str]]] = []
    for line in body:
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
    return pairs


def masked(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        for pattern, replacement in MASKS:
            line = pattern.sub(replacement, line)
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def reader_checkout(tmp: Path) -> Path:
    """A folder laid out as a reader's checkout: ``examples/``, an empty ``docs/`` (examples may
    write there, never into the real one), and ``../shared`` when this machine has it."""
    checkout = tmp / "main"
    shutil.copytree(ROOT / "examples", checkout / "examples")
    (checkout / "docs").mkdir()
    if SHARED_DATA.is_dir():
        (tmp / "shared").symlink_to(SHARED_DATA.parent)
    return checkout


def run_block(pairs: list[tuple[str, list[str]]], timings: bool, cwd: Path) -> list[list[str]]:
    """Each command's output, run in one bash session (so ``echo $?`` sees the one before)."""
    marker = "@@readme-test@@"
    script = ["__status=0"]
    for command, _ in pairs:
        if timings and command.startswith("sudoku compare"):
            command += " --limit 2"
        script.append(f"echo {marker}; (exit $__status); {command} 2>&1; __status=$?")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("COLUMNS", None)
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    outputs = done.stdout.split(marker + "\n")[1:]
    assert len(outputs) == len(pairs), done.stderr
    return [text.splitlines() for text in outputs]


@pytest.fixture(scope="module")
def quick_outputs(tmp_path_factory) -> dict[int, list[list[str]]]:
    """Every block without measurements, run at once in threads (each block is a few
    processes of its own, each in its own scratch checkout): the suite's time, halved."""

    def run(block: tuple[int, bool, list[str]]) -> tuple[int, list[list[str]]]:
        line, timings, body = block
        checkout = reader_checkout(tmp_path_factory.mktemp(f"readme{line}"))
        return line, run_block(commands(body), timings, checkout)

    quick = [block for block in blocks() if not block[1] and _runnable(block[2])]
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(run, quick))


def _runnable(body: list[str]) -> bool:
    return _why_not(body) is None


def _why_not(body: list[str]) -> str | None:
    """Why the example cannot run as shown on this machine, or None."""
    if not SHARED_DATA.is_dir() and any("../shared/data" in text for text in body):
        return "the example reads ../shared/data, which is not on this machine"
    if not shutil.which("minizinc") and any("minizinc" in text for text in body):
        return "the example shows the minizinc backend; no minizinc command here"
    return None


@pytest.mark.parametrize(
    "line, timings, body",
    [
        pytest.param(*block, marks=[pytest.mark.slow] if block[1] else [], id=f"README:{block[0]}")
        for block in blocks()
    ],
)
def test_readme_example_prints_what_the_readme_shows(line, timings, body, tmp_path, request):
    if not _runnable(body):
        pytest.skip(_why_not(body))
    pairs = commands(body)
    if timings:
        outputs = run_block(pairs, timings, reader_checkout(tmp_path))
    else:
        outputs = request.getfixturevalue("quick_outputs")[line]
    for (command, shown), got in zip(pairs, outputs, strict=True):
        if timings:
            got_labels = [text.split()[0] for text in got if text.strip()]
            shown_labels = [text.split()[0] for text in shown if text.strip()]
            assert got_labels == shown_labels, f"README line {line}: {command}"
        else:
            assert masked(got) == masked(shown), f"README line {line}: {command}"


def python_blocks() -> list[tuple[int, str]]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.strip() == "```python":
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            found.append((i + 1, "\n".join(lines[i + 1 : end])))
    return found


@pytest.mark.parametrize(
    "line, code", python_blocks(), ids=[f"README:{n}" for n, _ in python_blocks()]
)
def test_readme_python_example_runs(line, code, tmp_path, monkeypatch):
    monkeypatch.chdir(reader_checkout(tmp_path))
    exec(compile(code, f"README.md:{line}", "exec"), {})
