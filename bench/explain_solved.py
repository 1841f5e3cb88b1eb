"""How many puzzles of a file ``sudoku explain`` finishes without search, and where it stalls.

Each puzzle (line format, a ``#`` line before it naming it) is explained in a worker process
with the same steps as ``sudoku explain`` (``rating.prepared`` then ``human.steps``), capped
at ``--cap`` seconds of CPU; one JSON line a puzzle as it ends (its end: solved, stalled,
contradiction or timeout; the cells left open, the last step's technique, the constraint
kinds present, the CPU seconds, and the puzzle's solutions counted to 2 by CP-SAT), then the
count of each end, over every puzzle, again without ISS's stress tests (names with "slow",
"hard", "zero solution" or "0-indexed"), and over the puzzles with one solution: a puzzle with
none or with two or more (ISS's "Classic sudoku, was slow (1)" and "(4)") cannot be finished by
any explainer, so issue 42's 90% is read on the unique ones, the others named apart. A count
CP-SAT does not finish within ``--count-timeout`` seconds stays unknown, counted as unique.
Without the file it says so and exits 0. Kept outside the project, published puzzles are
read where they lie:

    python bench/iss.py --out /tmp/iss.txt        # sigh's ISS puzzles, fetched
    python bench/explain_solved.py /tmp/iss.txt --cap 30 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

# ISS's deliberate stress tests (slow, hard, no solution, its 0-indexed copies): puzzles no
# human-logic explainer is meant to finish, counted apart in the last line
STRESS = re.compile(r"slow|hard|zero solution|0-indexed", re.IGNORECASE)


class _Late(Exception):
    pass


def _late(*_: object) -> None:
    raise _Late


def explain(item: tuple[int, str, str, float, float]) -> dict:
    """One puzzle's end, in a worker: what ``sudoku explain`` would reach, and its solutions
    counted to 2 (None: not counted, or not within ``wait`` seconds)."""
    from solvers.formats.boards import parse
    from solvers.strength import human
    from solvers.strength.grid import outcome
    from solvers.strength.rating import prepared
    from solvers.strength.techniques import Contradiction

    number, name, text, cap, wait = item
    try:
        board = parse(text)
    except Exception as error:  # a puzzle this project cannot read: counted, not fatal
        return {"puzzle": number, "name": name, "end": "unread", "why": str(error)}
    signal.signal(signal.SIGVTALRM, _late)
    signal.setitimer(signal.ITIMER_VIRTUAL, cap)
    start, last, count, left = time.process_time(), None, 0, -1
    try:
        grid = prepared(board)
        for step in human.steps(grid):
            count, last = count + 1, step
        end = "solved" if outcome(board, grid.candidates).solved else "stalled"
        left = sum(1 for mask in grid.candidates if mask & (mask - 1))
    except Contradiction:
        end = "contradiction"
    except _Late:
        end = "timeout"
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    return {
        "puzzle": number,
        "name": name,
        "end": end,
        "open": left,
        "steps": count,
        "last": [last.technique, last.rating] if last else None,
        "kinds": sorted({c.kind for c in board.rules.constraints}),
        "cpu": round(time.process_time() - start, 2),
        "solutions": solutions(board, wait) if wait > 0 else None,
    }


def solutions(board: object, wait: float) -> int | None:
    """The board's solutions counted to 2 by CP-SAT (2: two or more); None where it cannot
    say within ``wait`` seconds or cannot read the board's rules."""
    from solvers.api import count_solutions
    from solvers.base.errors import SudokuError

    try:
        return count_solutions(board, 2, "cpsat", timeout=wait)
    except SudokuError:  # a timeout, or rules CP-SAT does not encode
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="puzzles in line format, a # name line before each")
    parser.add_argument("--cap", type=float, default=30.0, help="CPU seconds a puzzle (30)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--count-timeout",
        type=float,
        default=10.0,
        help="seconds for CP-SAT to count each puzzle's solutions to 2 (10; 0: not counted)",
    )
    args = parser.parse_args(argv)
    if not args.file.is_file():
        print(f"{args.file}: no such file; nothing measured")
        return 0
    items, name = [], ""
    for line in args.file.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            name = line.lstrip("# ")
        elif line.strip():
            items.append((len(items) + 1, name, line, args.cap, args.count_timeout))
    ends: Counter[str] = Counter()
    meant: Counter[str] = Counter()  # the same without the stress tests
    unique: Counter[str] = Counter()  # the same over the puzzles with one solution
    unique_meant: Counter[str] = Counter()  # and over those that are not stress tests
    apart: list[str] = []  # the others: no solution, or two or more
    with Pool(args.jobs) as pool:
        for found in pool.imap_unordered(explain, items, chunksize=1):
            ends[found["end"]] += 1
            if not STRESS.search(found["name"]):
                meant[found["end"]] += 1
            if found.get("solutions") in (0, 2):
                apart.append(f"{found['name']} ({_solutions(found['solutions'])})")
            else:
                unique[found["end"]] += 1
                if not STRESS.search(found["name"]):
                    unique_meant[found["end"]] += 1
            print(json.dumps(found), flush=True)
    print(f"{len(items)} puzzles: " + ", ".join(f"{n} {e}" for e, n in ends.most_common()))
    print(
        f"{meant.total()} without the stress tests (slow, hard, zero solution, 0-indexed): "
        + ", ".join(f"{n} {e}" for e, n in meant.most_common())
    )
    if args.count_timeout > 0:
        within = f"one solution (or not counted within {args.count_timeout:g} s)"
        print(_share(unique, f"with {within}"))
        print(_share(unique_meant, f"with {within}, not stress tests"))
        print(f"{len(apart)} left out, not unique: " + ("; ".join(sorted(apart)) or "none"))
    return 0


def _share(ends: Counter[str], which: str) -> str:
    """``131 with one solution (61.8% solved): 81 solved, 50 stalled``"""
    solved = f" ({100 * ends['solved'] / ends.total():.1f}% solved)" if ends else ""
    return f"{ends.total()} {which}{solved}: " + ", ".join(
        f"{n} {e}" for e, n in ends.most_common()
    )


def _solutions(count: int) -> str:
    return "no solution" if count == 0 else "two solutions or more"


if __name__ == "__main__":
    sys.exit(main())
