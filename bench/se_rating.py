"""How close ``sudoku rate``'s difficulty comes to Sudoku Explainer's (SE) own ratings.

Reads a file of puzzles with their SE rating, one a line: 81 digits (0 or . for an empty
cell) and the rating, optionally after an identifier (the grantm/sudoku-exchange-puzzle-bank
layout: ``hash digits rating``). Rates each with ``solvers.strength.rating.rate`` and prints
Spearman's rank correlation and the share within 0.3 of SE's rating, overall and by SE band.
A puzzle rated as a bound (``>=9.0``: it needs more than the techniques here) counts at that
bound. Without the file it says so and exits 0, so it can sit in a script that runs anywhere.

    python bench/se_rating.py /tmp/se_bank.txt [--limit N] [--list] [--jobs N]
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.strength.rating import Rating, rate


def read_bank(path: Path) -> list[tuple[str, float]]:
    """(digits, SE rating) for each line that has both; other lines are skipped."""
    found = []
    for line in path.read_text().splitlines():
        fields = line.split()
        digits = next((f for f in fields if len(f) == 81), None)
        try:
            rating = float(fields[-1])
        except (IndexError, ValueError):
            continue
        if digits is not None:
            found.append((digits.replace(".", "0"), rating))
    return found


def _rate(digits: str) -> Rating:
    return rate(Board(Shape.for_size(9), tuple(int(d) for d in digits)))


def spearman(xs: list[float], ys: list[float]) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(xs, ys).statistic)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bank", type=Path, help="puzzles with their SE rating, one a line")
    parser.add_argument("--limit", type=int, default=0, help="the first N puzzles only")
    parser.add_argument("--list", action="store_true", help="print each puzzle's two ratings")
    parser.add_argument("--jobs", type=int, default=1, help="processes to rate in (default 1)")
    args = parser.parse_args(argv)
    if not args.bank.is_file():
        print(f"{args.bank}: no such file; nothing measured (see the docstring for the format)")
        return 0
    bank = read_bank(args.bank)[: args.limit or None]
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        ratings = pool.map(_rate, [digits for digits, _ in bank], chunksize=1)
    ours, theirs = [], []
    for number, ((_, se), rating) in enumerate(zip(bank, ratings, strict=True), 1):
        ours.append(rating.difficulty)
        theirs.append(se)
        if args.list:
            bound = ">=" if rating.bound else ""
            print(f"{number} SE {se:.1f} ours {bound}{rating.difficulty:.1f} {rating.hardest}")
    if len(bank) < 3:
        print(f"{args.bank}: {len(bank)} rated puzzles, too few to correlate")
        return 0
    close = sum(abs(a - b) <= 0.3 + 1e-9 for a, b in zip(ours, theirs, strict=True))
    print(f"{len(bank)} puzzles, SE {min(theirs):.1f} to {max(theirs):.1f}, "
          f"{time.perf_counter() - start:.0f} s")  # fmt: skip
    print(f"Spearman {spearman(ours, theirs):.3f}; within 0.3 of SE: {close / len(bank):.1%}")
    for low, high in ((0, 4.5), (4.5, 6.5), (6.5, 7.5), (7.5, 8.5), (8.5, 99)):
        pairs = [(a, b) for a, b in zip(ours, theirs, strict=True) if low <= b < high]
        if pairs:
            near = sum(abs(a - b) <= 0.3 + 1e-9 for a, b in pairs)
            mean = sum(a - b for a, b in pairs) / len(pairs)
            print(f"  SE {low:.1f}-{min(high, 12):.1f}: {len(pairs):3d} puzzles, "
                  f"within 0.3 {near / len(pairs):.0%}, mean ours-SE {mean:+.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
