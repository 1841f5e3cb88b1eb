"""The vocabulary's speed target, in one run, with the command that gives it.

    python bench/vocabulary.py                  # every shipped constraint set, 10 s timeout
    python bench/vocabulary.py --sets thermo9,xv9 --timeout 5

One ``sudoku compare`` run (unique mode: each puzzle counted to two, so each is also proved
unique) of the handwritten searches and the library engines on the shipped sets of generated
constraint puzzles; then, from its JSON, a table per set: each spec's median, the fastest
library engine's, and the ratio of ``native`` and ``propagate`` to it (the target: at most 2x
for one of them), and the slowest puzzle of the default backend (the target: under 1 s).
Ratios are taken in the one run, as the machine is shared and its load moves.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from solvers.backends import choice, registry
from solvers.formats.boards import read_puzzles
from solvers.formats.datasets import open_named

SETS = ["antiknight9", "antiking9", "nonconsecutive9", "thermo9", "arrow9", "kropki9", "xv9"]
HANDWRITTEN = ["native", "propagate"]
LIBRARIES = ["cpsat", "choco", "pysat", "sat", "cms", "z3"]
TARGET_RATIO, TARGET_SLOWEST_S = 2.0, 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args(argv)
    sets = args.sets.split(",")
    specs = [s for s in HANDWRITTEN + LIBRARIES if registry.availability(s)[0]]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run.json"
        command = ["sudoku", "compare", *sets, "--backends", ",".join(specs)]
        command += ["--timeout", str(args.timeout), "--limit", "1000", "--json", str(out)]
        print("$", " ".join(command[:-2]), flush=True)
        subprocess.run([sys.executable, "-m", "solvers", *command[1:]], check=False)
        run = json.loads(out.read_text())
    missed = 0
    header = f"{'set':16} {'default':10} {'slowest s':>9}  fastest library      native x"
    print(f"\n{header}  propagate x")
    for dataset in run["datasets"]:
        rows = {row["backend"]: row for row in dataset["summary"]}
        libraries = [rows[s] for s in LIBRARIES if s in rows and not rows[s]["timeouts"]]
        best = min(libraries, key=lambda row: row["median_s"])
        ratios = {s: rows[s]["median_s"] / best["median_s"] for s in HANDWRITTEN if s in rows}
        native, propagate = (ratios.get(s, float("nan")) for s in HANDWRITTEN)
        default = _default_for(dataset["name"])
        slowest = rows[default]["max_s"] if default in rows else float("nan")
        met = min(ratios.values(), default=float("inf")) <= TARGET_RATIO
        met = met and slowest < TARGET_SLOWEST_S
        missed += not met
        print(
            f"{dataset['name']:16} {default:10} {slowest:9.3f}  "
            f"{best['backend']:8} {best['median_s'] * 1e3:8.2f} ms  "
            f"{native:8.2f}  {propagate:11.2f}"
            f"{'' if met else '   (target missed)'}"
        )
    return 1 if missed else 0


def _default_for(name: str) -> str:
    """The backend a ``sudoku count`` of the whole set takes by default."""
    with open_named(name) as handle:
        puzzles = list(read_puzzles(handle))
    names = frozenset().union(*(p.board.rules.names for p in puzzles))
    return choice.default_backend(names, puzzles=len(puzzles))


if __name__ == "__main__":
    sys.exit(main())
