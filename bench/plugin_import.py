"""What importing an outside backend's module in a child process first costs a run.

    python bench/plugin_import.py              # 7 rounds
    python bench/plugin_import.py --rounds 9

The example package of CONTRIBUTING.md (tests/plugin_example) is installed by pip in a
temporary folder. Each round, interleaved after an untimed one: the probe alone, in this
process (``solvers.backends.probe.import_faults``: one child interpreter importing the
module), and two commands in fresh processes with the package installed, one naming its
backend (which pays the probe) and one naming a built-in backend (which never reads the entry
points). Medians of wall time and of CPU time (user + system, children included); the machine
is shared, so compare within one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from solvers.backends.probe import import_faults

ROOT = Path(__file__).resolve().parents[1]
THREE = "3...4.3........2\n.31....32......1\n1..3.....24.....\n"


def install(folder: Path) -> Path:
    """The example package installed by pip under ``folder``; the folder it is importable from."""
    source = shutil.copytree(ROOT / "tests" / "plugin_example", folder / "source")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    target = ["--no-build-isolation", "--target", str(folder / "site"), str(source)]
    subprocess.run([*pip, *target], check=True, capture_output=True)
    return folder / "site"


def timed(call: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds (this process's and its children's) of one call."""
    before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    call()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(
        a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime
        for a, b in zip(after, before, strict=True)
    )
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        site = install(Path(scratch))
        puzzles = Path(scratch) / "three.txt"
        puzzles.write_text(THREE)
        sys.path.insert(0, str(site))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # from the bytecode cache, as a user's run

        def command(backend: str) -> Callable[[], object]:
            line = [sys.executable, "-m", "solvers", "solve", str(puzzles), "--backend", backend]
            return lambda: subprocess.run(line, env=env, check=True, capture_output=True)

        def probe() -> None:
            assert import_faults(["sudoku_undercount"]) == {"sudoku_undercount": None}

        cases = {
            "the probe alone": probe,
            "sudoku solve three.txt --backend undercount": command("undercount"),
            "sudoku solve three.txt --backend propagate": command("propagate"),
        }
        seconds: dict[str, list[tuple[float, float]]] = {case: [] for case in cases}
        for round_ in range(args.rounds + 1):
            for case, call in cases.items():
                took = timed(call)
                if round_:
                    seconds[case].append(took)
    for case, times in seconds.items():
        wall = statistics.median(w for w, _ in times) * 1000
        cpu = statistics.median(c for _, c in times) * 1000
        print(f"{case}: median {wall:.0f} ms wall, {cpu:.0f} ms CPU")


if __name__ == "__main__":
    main()
