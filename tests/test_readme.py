"""Every example in README.md and the docs/ pages prints what the page shows.

Each fenced block holding ``$ command`` lines is run as one bash script in a folder laid out as
a reader's checkout (``examples/``, ``docs/``, and ``../shared/data`` where this machine has it),
and each command's
output (stdout and stderr together, as a terminal shows them) is compared with the lines the
README puts under it. Measured values are masked on both sides: ``"seconds"`` and other times in
JSON, and library versions. A block preceded by ``<!-- readme-test: timings -->`` prints a table
of measurements: there the command is run on the first 2 puzzles of each dataset and only the
first word of each line (the table's labels) is compared; those runs are slow (marked so), as
are the docs/ pages' command blocks (the default run runs README.md's, at once in threads). A
block preceded by ``<!-- readme-test: measured -->`` is run as written and compared by its
labels alone too; it runs in the slow run, README.md's as well (its compare and report: much
of README.md's time, most of it the engines' and matplotlib's start-up). A block preceded
by ``<!-- readme-test: elided -->`` shows output with parts left out: ``...`` there stands for
any text, whole lines included, and runs of spaces and line breaks compare as one (a doctest's
ELLIPSIS and NORMALIZE_WHITESPACE), so a listing of every backend need not change for a backend
added (the one-line message that names them, a table's rows and its column widths). A ``python``
block with ``>>>`` lines is a doctest: its printed results are checked; one without them must
run (in the slow run, when the timings marker precedes it).
"""

from __future__ import annotations

import doctest
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
MEASURED = "<!-- readme-test: measured -->"
ELIDED = "<!-- readme-test: elided -->"
README = "README.md"
PAGES = [README, *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
MASKS = [
    (re.compile(r'("(?:seconds|wall_time_s|cpu_seconds)": )[0-9.e+-]+'), r"\1T"),
    (re.compile(r"\b\d+\.\d+(?:\.\w+)*\b"), "V"),  # versions (and any decimal)
]


def blocks() -> list[tuple[str, str, list[str]]]:
    """(``page:line``, its marker or "", lines) of each fenced block with a $ command."""
    found = []
    for page in PAGES:
        lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if lines[i].startswith("```"):
                end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
                body = lines[i + 1 : end]
                if any(line.startswith("$ ") for line in body):
                    marker = lines[i - 1].strip() if i > 0 else ""
                    marker = marker if marker in (TIMINGS, MEASURED, ELIDED) else ""
                    found.append((f"{page}:{i + 1}", marker, body))
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
def quick_outputs(tmp_path_factory, request) -> dict[str, list[list[str]]]:
    """README.md's blocks but the slow timings, run at once in threads (each block is a few
    processes of its own, each in its own scratch checkout): the suite's time, halved. Only
    the blocks whose tests this run selected: a block under ``heavy`` (tests/conftest.py) is
    not run in the default run to be read by no test."""

    def run(body: tuple[str, ...]) -> list[list[str]]:
        checkout = reader_checkout(tmp_path_factory.mktemp("readme"))
        return run_block(commands(list(body)), False, checkout)

    selected = {
        item.callspec.id
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_readme_example_prints_what_the_readme_shows"
    }
    quick = [
        block
        for block in blocks()
        if block[0] in selected and not _slow(*block[:2]) and _runnable(block[2])
    ]
    # A block shown on two pages (the README's tour, and its command's docs page) runs once.
    bodies = list(dict.fromkeys(tuple(body) for _, _, body in quick))
    with ThreadPoolExecutor(max_workers=4) as pool:
        outputs = dict(zip(bodies, pool.map(run, bodies), strict=True))
    return {where: outputs[tuple(body)] for where, _, body in quick}


def _runnable(body: list[str]) -> bool:
    return _why_not(body) is None


def _why_not(body: list[str]) -> str | None:
    """Why the example cannot run as shown on this machine, or None."""
    if not SHARED_DATA.is_dir() and any("../shared/data" in text for text in body):
        return "the example reads ../shared/data, which is not on this machine"
    if not shutil.which("minizinc") and any("minizinc" in text for text in body):
        return "the example shows the minizinc backend; no minizinc command here"
    return None


def _slow(where: str, marker: str) -> bool:
    """Run in the slow run only: a timings or measured block, and the blocks of the docs/ pages
    (each command a fresh process); the default run runs README.md's others."""
    return marker in (TIMINGS, MEASURED) or not where.startswith(README + ":")


@pytest.mark.parametrize(
    "where, marker, body",
    [
        pytest.param(*block, marks=[pytest.mark.slow] if _slow(*block[:2]) else [], id=block[0])
        for block in blocks()
    ],
)
def test_readme_example_prints_what_the_readme_shows(where, marker, body, tmp_path, request):
    if not _runnable(body):
        pytest.skip(_why_not(body))
    pairs = commands(body)
    if _slow(where, marker):
        outputs = run_block(pairs, marker == TIMINGS, reader_checkout(tmp_path))
    else:
        outputs = request.getfixturevalue("quick_outputs")[where]
    for (command, shown), got in zip(pairs, outputs, strict=True):
        if marker == ELIDED:
            matched = elided_match(masked(got), masked(shown))
            assert matched, f"{where}: {command} printed\n" + "\n".join(got)
        elif marker:
            assert labels(got) == labels(shown), f"{where}: {command}"
        else:
            assert masked(got) == masked(shown), f"{where}: {command}"


def elided_match(got: list[str], shown: list[str]) -> bool:
    """Whether ``got`` is what ``shown`` shows, ``...`` standing for any text."""
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    checker = doctest.OutputChecker()
    return checker.check_output("\n".join(shown) + "\n", "\n".join(got) + "\n", flags)


def test_elided_output_leaves_out_lines_and_widths_but_nothing_it_shows():
    shown = [
        "backend   solved",
        "dfs       4",
        "...",
        "portfolio 4",
        "backends: dfs, ..., portfolio",
    ]
    added = ["backend      solved", "dfs          4", "toy          4", "sat          4"]
    assert elided_match([*added, "portfolio    4", "backends: dfs, toy, sat, portfolio"], shown)
    assert not elided_match([*added, "portfolio    3", "backends: dfs, toy, portfolio"], shown)
    assert not elided_match([*added, "portfolio    4", "backends: dfs, toy"], shown)


def test_every_built_in_backend_has_its_docs_lines():
    """A row of docs/backends.md's table and its name in README.md's table of backends: the
    docs lines CONTRIBUTING.md's "Adding a backend" asks for."""
    from solvers.backends import registry

    built_in = [name for name in registry.names() if not registry.entry(name).outside]
    table = (ROOT / "docs/backends.md").read_text(encoding="utf-8")
    readme = (ROOT / README).read_text(encoding="utf-8").split("\n## The backends\n")[1]
    readme = readme.split("\n## ")[0]
    assert [name for name in built_in if f"| `{name}` |" not in table] == []
    assert [name for name in built_in if f"`{name}`" not in readme] == []


def labels(lines: list[str]) -> list[str]:
    """The first word of each line: a table's labels, without its measurements."""
    return [text.split()[0] for text in lines if text.strip()]


def python_blocks() -> list[tuple[str, int, str, str]]:
    """(page, line number, code, its marker or "") of each ``python`` block of every page."""
    found = []
    for page in PAGES:
        lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if line.strip() == "```python":
                end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
                marker = lines[i - 1].strip() if i > 0 else ""
                code = "\n".join(lines[i + 1 : end]) + "\n"
                found.append((page, i + 1, code, marker if marker == TIMINGS else ""))
    return found


@pytest.mark.parametrize(
    "page, line, code",
    [
        # a measuring script (the timings marker) runs whole, in the slow run: docs/minizinc.md's
        # runs MiniZinc 60 times
        pytest.param(page, n, code, marks=[pytest.mark.slow] if marker else [], id=f"{page}:{n}")
        for page, n, code, marker in python_blocks()
    ],
)
def test_readme_python_example_runs(page, line, code, tmp_path, monkeypatch):
    monkeypatch.chdir(reader_checkout(tmp_path))
    if ">>> " not in code:
        exec(compile(code, f"{page}:{line}", "exec"), {})
        return
    test = doctest.DocTestParser().get_doctest(code, {}, f"{page}:{line}", page, line)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append)
    assert test.examples, f"{page}:{line}: no >>> example"
    assert runner.failures == 0, "".join(report)
