"""``mip``: Sudoku as a 0-1 integer program, solved by HiGHS (highspy) or SCIP (pyscipopt).

A binary per cell and value (``cell * N + v - 1``) and four families of equalities, each "= 1":
one value per cell, and each value once per row, column and box (and per extra unit of the
x, windoku and jigsaw variants). A given fixes its binary's lower bound to 1. A killer cage
adds "at most one" per value and the equality sum of v * x(cell, v) = total. No objective: the
first feasible point is a solution. ``solver=highs`` (default, faster by measurement: README,
"Backends") or ``scip``, the one that also comes with ``pip install -e '.[mip]'``.

The deadline is the solver's time limit (HiGHS ``time_limit``, SCIP ``limits/time``), set
before every run with what is left; building a SCIP model in Python looks at the clock between
rows. Counting adds a no-good cut per solution found (its empty cells' binaries sum to at most
their number less one) and runs again. Stats: branch-and-bound nodes and LP iterations, summed
over the runs (both are often 0: presolve alone solves most puzzles).
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

import highspy
import numpy as np

from solvers.backend import Backend, Found, Solutions
from solvers.board import Board, Geometry
from solvers.deadline import Deadline
from solvers.errors import BackendUnavailable, SolveTimeout

INF = highspy.kHighsInf


class MipBackend(Backend):
    RULES = frozenset({"x", "windoku", "jigsaw", "killer"})  # opt-in: what it encodes
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"solver": ("highs", "scip")}

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        if options["solver"] == "scip":
            try:
                import pyscipopt  # noqa: F401
            except ImportError as error:
                raise BackendUnavailable(f"mip:solver=scip is unavailable: {error}") from None

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        n = board.size
        lower = np.zeros(n**3)
        lower[[cell * n + v - 1 for cell, v in enumerate(board.cells) if v]] = 1.0
        program = (_Highs if self.options["solver"] == "highs" else _Scip)(lower)
        program.add(_rule_rows(board.geometry), deadline)
        program.add(_cage_rows(board), deadline)
        empty = [cell for cell, v in enumerate(board.cells) if not v]
        solutions = Solutions(limit)
        while program.run(deadline):
            cells = np.argmax(program.values().reshape(n * n, n), axis=1) + 1
            if solutions.add(cells.tolist()) or not empty:
                break
            chosen = [cell * n + int(cells[cell]) - 1 for cell in empty]
            program.add([(chosen, [1.0] * len(chosen), -INF, len(chosen) - 1.0)], deadline)
        return solutions.found(board, program.stats)


@lru_cache(maxsize=16)
def _rule_rows(geometry: Geometry) -> list:
    """(binaries, weights, lower, upper) of each equality of the rules."""
    n = geometry.size
    rows = [[cell * n + v for v in range(n)] for cell in range(n * n)]
    rows += [[cell * n + v for cell in unit] for unit in geometry.units for v in range(n)]
    return [(row, [1.0] * n, 1.0, 1.0) for row in rows]


def _cage_rows(board: Board) -> list:
    n, rows = board.size, []
    for cage in board.rules.cages:
        for v in range(n):  # each value at most once in the cage
            rows.append(([cell * n + v for cell in cage.cells], [1.0] * len(cage.cells), -INF, 1.0))
        binaries = [cell * n + v for cell in cage.cells for v in range(n)]
        weights = [float(v + 1) for _cell in cage.cells for v in range(n)]
        rows.append((binaries, weights, float(cage.total), float(cage.total)))
    return rows


class _Highs:
    """A HiGHS model of ``len(lower)`` binaries."""

    def __init__(self, lower: np.ndarray) -> None:
        self.highs = highspy.Highs()
        self.highs.setOptionValue("output_flag", False)  # no banner, no log
        count = len(lower)
        self.highs.addVars(count, lower, np.ones(count))
        integer = np.full(count, highspy.HighsVarType.kInteger)
        self.highs.changeColsIntegrality(count, np.arange(count, dtype=np.int32), integer)
        self.stats = {"nodes": 0, "lp_iterations": 0}

    def add(self, rows: list, deadline: Deadline) -> None:
        if not rows:
            return
        starts = np.cumsum([0] + [len(row[0]) for row in rows[:-1]], dtype=np.int32)
        binaries = np.fromiter((b for row in rows for b in row[0]), dtype=np.int32)
        weights = np.fromiter((w for row in rows for w in row[1]), dtype=np.float64)
        bounds = np.array([row[2:] for row in rows], dtype=np.float64)
        self.highs.addRows(
            len(rows), bounds[:, 0], bounds[:, 1], len(binaries), starts, binaries, weights
        )

    def run(self, deadline: Deadline) -> bool:
        """True: feasible; False: infeasible; SolveTimeout otherwise."""
        remaining = deadline.remaining()
        if remaining is not None:
            if remaining <= 0:
                raise SolveTimeout(stats=self.stats)
            self.highs.setOptionValue("time_limit", max(remaining, 1e-3))
        self.highs.run()
        info = self.highs.getInfo()
        self.stats["nodes"] += info.mip_node_count
        self.stats["lp_iterations"] += info.simplex_iteration_count
        status = self.highs.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return False
        if status != highspy.HighsModelStatus.kOptimal:
            raise SolveTimeout(
                stats={**self.stats, "status": self.highs.modelStatusToString(status)}
            )
        return True

    def values(self) -> np.ndarray:
        return np.asarray(self.highs.getSolution().col_value)


class _Scip:
    """A SCIP model of ``len(lower)`` binaries, built row by row under the deadline."""

    def __init__(self, lower: np.ndarray) -> None:
        import pyscipopt

        self.quicksum = pyscipopt.quicksum
        self.scip = pyscipopt.Model()
        self.scip.hideOutput()
        self.x = [self.scip.addVar(vtype="B", lb=low) for low in lower.tolist()]
        self.stats = {"nodes": 0, "lp_iterations": 0}

    def add(self, rows: list, deadline: Deadline) -> None:
        self.scip.freeTransform()  # back to the problem stage, where rows can be added
        for binaries, weights, low, high in rows:  # lower == upper, or no lower bound
            if deadline.expired():
                raise SolveTimeout(stats=self.stats)
            total = self.quicksum(w * self.x[b] for b, w in zip(binaries, weights, strict=True))
            self.scip.addCons(total == high if low == high else total <= high)

    def run(self, deadline: Deadline) -> bool:
        remaining = deadline.remaining()
        if remaining is not None:
            if remaining <= 0:
                raise SolveTimeout(stats=self.stats)
            self.scip.setParam("limits/time", max(remaining, 1e-3))
        self.scip.optimize()
        self.stats["nodes"] += self.scip.getNNodes()
        self.stats["lp_iterations"] += self.scip.getNLPIterations()
        status = self.scip.getStatus()
        if status == "infeasible":
            return False
        if status != "optimal":
            raise SolveTimeout(stats={**self.stats, "status": status})
        return True

    def values(self) -> np.ndarray:
        solution = self.scip.getBestSol()
        return np.array([self.scip.getSolVal(solution, x) for x in self.x])
