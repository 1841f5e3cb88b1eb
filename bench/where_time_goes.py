"""Where each further engine's time goes on a puzzle: building its model, and solving it.

Run: ``python bench/where_time_goes.py [FILE] [N]`` (default ../shared/data/top95.txt, 20 puzzles).
Each puzzle is built and solved 3 times, each phase timed alone; the medians per puzzle are
summed. Prints, per engine, the median total per puzzle and the share spent building.
"""

from __future__ import annotations

import statistics
import sys
import time
import warnings

import cpmpy as cp
import exact_cover
import numpy as np
import pycryptosat

from adapters import choco, cnf, exactcover, mip
from solvers import Board, parse


def phases_choco(board: Board):
    model, _cells = choco.ChocoBackend(consistency="AC")._model(board)
    yield
    model.get_solver().solve()


def phases_mip(board: Board):
    n = board.size
    lower = np.zeros(n**3)
    lower[[c * n + v - 1 for c, v in enumerate(board.cells) if v]] = 1.0
    program = mip._Highs(lower)
    program.add(mip._rule_rows(board.geometry), None)
    yield
    program.highs.run()


def phases_cms(board: Board):
    solver = pycryptosat.Solver(options={"sls": "0"})
    solver.add_clauses(cnf.pin_unused(cnf.encode(board, "reduced"), board.size**3))
    yield
    solver.solve()


def phases_exactcover(board: Board):
    matrix, _placements = exactcover._matrix(board)
    yield
    exact_cover.get_exact_cover(matrix)


def phases_cpmpy(name: str):
    def phases(board: Board):
        cells = cp.intvar(1, board.size, shape=board.shape.cell_count)
        rules = [cp.AllDifferent([cells[i] for i in unit]) for unit in board.geometry.units]
        rules += [cells[i] == v for i, v in enumerate(board.cells) if v]
        solver = cp.SolverLookup.get(name, cp.Model(rules))
        yield
        solver.solve()

    return phases


ENGINES = {
    "choco": phases_choco,
    "mip (HiGHS)": phases_mip,
    "cms (reduced)": phases_cms,
    "exactcover": phases_exactcover,
    "cpmpy (choco)": phases_cpmpy("choco"),
    "cpmpy (ortools)": phases_cpmpy("ortools"),
}


def timed(phases, board: Board) -> tuple[float, float]:
    steps = phases(board)
    start = time.perf_counter()
    next(steps)
    built = time.perf_counter()
    next(steps, None)
    return built - start, time.perf_counter() - built


def main(path: str = "../shared/data/top95.txt", count: str = "20") -> None:
    with open(path, encoding="utf-8") as handle:
        boards = [parse(line.strip()) for line in handle if line.strip()][: int(count)]
    warnings.simplefilter("ignore")
    print(f"{'engine':<16} {'median ms':>9} {'build share':>11}")
    for name, phases in ENGINES.items():
        timed(phases, boards[0])  # first-call costs out of the way
        build = solve = 0.0
        totals = []
        for board in boards:
            runs = [timed(phases, board) for _ in range(3)]
            b, s = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
            build, solve = build + b, solve + s
            totals.append(b + s)
        share = build / (build + solve)
        print(f"{name:<16} {statistics.median(totals) * 1000:9.2f} {share:11.0%}")


if __name__ == "__main__":
    main(*sys.argv[1:])
