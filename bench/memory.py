"""Peak memory of a long run with each backend: one ``sudoku solve FILE --backend B`` process each.

    python bench/memory.py                          # every available backend, 10,000 puzzles
    python bench/memory.py --backends dfs,cpmpy --count 2000 --jobs 1
    python bench/memory.py --write mem10k.txt       # only write the puzzle file (seconds)

The puzzles (docs/reliability.md, Memory): ``--bases`` classic 9x9 puzzles made by the project's
generator (``sudoku generate --seed 44 --clues 40``: a unique answer, 40 givens, so that even
the reference's row-major search in Python answers each in milliseconds), and each in
``count / bases`` shuffled copies (``solvers.generation.shuffle``: digits relabelled, rows and
columns permuted within bands and stacks, bands and stacks among themselves, a transpose): distinct
puzzles, each with one answer, all different lines (checked). The same arguments write the same
file.

Each backend runs in a fresh process on the whole file, as a user's run would, sampled every
``--interval`` seconds with psutil: the main process's resident memory, and its worker's (the
largest process under it; a backend that searches in the main process has none). Every line
of output is checked as it comes: a complete grid that keeps its puzzle's givens and the rules.
A row gives the worker's peak over the first 1,000 answers and over the whole run, and the main
process's at 1,000 answers and at the end; flat memory is the first column equal to the second.
Backends run ``--jobs`` at a time (memory does not depend on the machine's load; time does),
slowest first as given; ``--time-limit`` cuts a run (its row says how far it got).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from solvers.backends import registry
from solvers.formats.boards import format_board
from solvers.generation.generate import Request, generate
from solvers.generation.shuffle import copies
from solvers.model.geometry import Shape

SUDOKU = [sys.executable, "-m", "solvers"]
MARK = 1_000  # answers: the "first 1,000" columns
MB = 1024 * 1024
# slowest first here (a program started per puzzle, searches in Python, models built per
# puzzle), so that two at a time finish together; any other available backend after them
SLOW_FIRST = ["minizinc", "dfs", "bitmask", "csp", "cpmpy", "z3", "mip", "mrv", "cpsat"]


def puzzles(count: int, bases: int, seed: int, clues: int) -> list[str]:
    """``count`` distinct 9x9 puzzles: ``bases`` generated, each in shuffled copies."""
    made = generate(Request(Shape(3, 3), clues=clues), seed, timeout=60)
    boards = [next(made)[0] for _ in range(bases)]
    per = -(-count // bases)
    lines = []
    for number, board in enumerate(boards, 1):
        lines += [format_board(t.forward(board), "line") for t in copies(board, per, seed, number)]
    random.Random(seed).shuffle(lines)  # copies of one puzzle not all in a row
    lines = lines[:count]
    if len(set(lines)) != len(lines):
        raise SystemExit("two shuffled copies came out the same: try another --seed")
    return lines


def solves(answer: str, puzzle: str) -> bool:
    """``answer`` is a complete 9x9 grid that keeps ``puzzle``'s givens and the rules."""
    if len(answer) != 81 or not answer.isdigit() or "0" in answer:
        return False
    if any(p not in ".0" and p != a for p, a in zip(puzzle, answer, strict=True)):
        return False
    digits = set("123456789")
    rows = [answer[9 * r : 9 * r + 9] for r in range(9)]
    cols = [answer[c::9] for c in range(9)]
    boxes = [
        "".join(
            answer[9 * (3 * (b // 3) + r) + 3 * (b % 3) + c] for r in range(3) for c in range(3)
        )
        for b in range(9)
    ]
    return all(set(unit) == digits for unit in rows + cols + boxes)


@dataclass
class Row:
    backend: str
    answered: int = 0
    wrong: int = 0
    status: int | None = None
    seconds: float = 0.0
    cut: bool = False
    worker_first: float = 0.0  # MB, peaks
    worker_all: float = 0.0
    main_at_mark: float | None = None
    main_end: float = 0.0
    note: str = ""
    blocks: list[tuple[float, float]] = field(default_factory=list)  # peaks per 1,000 answers

    def trend(self) -> str:
        """Worker's and main process's peaks in each 1,000 answers: a leak climbs."""
        worker = " ".join(f"{w:.1f}" for w, _ in self.blocks if self.worker_all)
        main = " ".join(f"{m:.1f}" for _, m in self.blocks)
        return f"{self.backend} peaks per 1,000 answers: worker {worker or '-'}; main {main}"

    stderr: list[str] = field(default_factory=list)

    def cells(self, total: int) -> list[str]:
        if self.note:
            return [self.backend, "-", self.note, "", "", "", ""]
        done = self.answered == total and self.status == 0 and not self.wrong
        count = f"{self.answered:,}" + ("" if done else self._why())
        worker = (
            [f"{self.worker_first:.1f}", f"{self.worker_all:.1f}"] if self.worker_all else ["-"] * 2
        )
        mark = self.main_at_mark if self.main_at_mark is not None else self.main_end
        return [
            self.backend,
            count,
            *worker,
            f"{mark:.1f}",
            f"{self.main_end:.1f}",
            f"{self.seconds:.0f}",
        ]

    def _why(self) -> str:
        if self.cut:
            return " (cut)"
        return f" (exit {self.status}, {self.wrong} wrong)"


def measure(
    backend: str, path: Path, lines: list[str], interval: float, limit: float | None
) -> Row:
    row = Row(backend)
    ok, reason = registry.availability(backend.split(":")[0])
    if not ok:
        row.note = f"not run: {reason}"
        return row
    command = [*SUDOKU, "solve", str(path), "--backend", backend]
    start = time.monotonic()
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    main = psutil.Process(run.pid)

    def read() -> None:
        for line in run.stdout:  # type: ignore[union-attr]
            if row.answered < len(lines) and solves(line.strip(), lines[row.answered]):
                row.answered += 1
            else:
                row.wrong += 1

    reader = threading.Thread(target=read, daemon=True)
    errors = threading.Thread(target=lambda: row.stderr.extend(run.stderr), daemon=True)  # type: ignore[arg-type]
    reader.start()
    errors.start()
    while run.poll() is None:
        own = _rss(main)
        if not own:  # the run has ended (a zombie reads 0): its last sample stands
            time.sleep(interval)
            continue
        try:
            under = main.children(recursive=True)
        except psutil.Error:
            under = []
        worker = max(map(_rss, under), default=0.0)
        block = row.answered // MARK
        while len(row.blocks) <= block:
            row.blocks.append((0.0, 0.0))
        row.blocks[block] = (max(row.blocks[block][0], worker), max(row.blocks[block][1], own))
        row.worker_all = max(row.worker_all, worker)
        if row.answered < MARK:
            row.worker_first = row.worker_all
        elif row.main_at_mark is None:
            row.main_at_mark = own
        row.main_end = own
        if limit is not None and time.monotonic() - start > limit:
            _end(main)
            row.cut = True
        time.sleep(interval)
    reader.join()
    errors.join()
    row.status = run.returncode
    row.seconds = time.monotonic() - start
    return row


def _rss(process: psutil.Process) -> float:
    """Resident MB, 0 for a process that has ended (between listing and reading, say)."""
    try:
        return process.memory_info().rss / MB
    except psutil.Error:
        return 0.0


def _end(main: psutil.Process) -> None:
    """Kill a run cut short and every process under it (a worker would hold its output open)."""
    try:
        under = main.children(recursive=True)
    except psutil.Error:
        under = []
    for process in [main, *under]:
        with contextlib.suppress(psutil.Error):
            process.kill()


HEADER = [
    "backend",
    "puzzles",
    "worker, first 1,000",
    "worker, all",
    "main, at 1,000",
    "main, end",
    "s",
]


def table(rows: list[Row], total: int) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row.cells(total)) + " |" for row in rows]
    return "\n".join(lines)


def ordered(backends: list[str]) -> list[str]:
    first = [name for name in SLOW_FIRST if name in backends]
    return first + [name for name in backends if name not in first]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", help="comma-separated specs (default: every backend)")
    parser.add_argument("--count", type=int, default=10_000, help="puzzles (default 10,000)")
    parser.add_argument("--bases", type=int, default=100, help="generated puzzles (default 100)")
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--clues", type=int, default=40, help="givens a puzzle (default 40)")
    parser.add_argument("--file", type=Path, help="measure on this line file instead")
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the puzzles and stop")
    parser.add_argument("--jobs", type=int, default=2, help="backends at a time (default 2)")
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between samples")
    parser.add_argument("--time-limit", type=float, help="cut each run after this many seconds")
    args = parser.parse_args()
    if args.file:
        lines = [s for s in args.file.read_text().split() if len(s) == 81]
    else:
        lines = puzzles(args.count, args.bases, args.seed, args.clues)
    if args.write:
        args.write.write_text("\n".join(lines) + "\n")
        print(f"wrote {len(lines):,} puzzles to {args.write}")
        return 0
    chosen = args.backends.split(",") if args.backends else ordered(registry.names())
    with tempfile.TemporaryDirectory() as folder:
        path = args.file or Path(folder) / "puzzles.txt"
        if not args.file:
            path.write_text("\n".join(lines) + "\n")
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            futures = [
                pool.submit(measure, b, path, lines, args.interval, args.time_limit) for b in chosen
            ]
            for future in as_completed(futures):  # each row as its run ends
                row = future.result()
                print(table([row], len(lines)).splitlines()[-1], flush=True)
                print("  " + row.trend(), file=sys.stderr, flush=True)
                if row.stderr:  # the run's last message, such as why it stopped
                    print("  " + row.stderr[-1].strip(), file=sys.stderr, flush=True)
    rows = [future.result() for future in futures]
    print(f"\n{len(lines):,} puzzles, in MB:\n")
    print(table(rows, len(lines)))
    return 0 if all(r.note or (r.answered == len(lines) and r.status == 0) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
