"""``cpsat``: OR-tools CP-SAT.

``model=integer`` (default): one integer variable per cell with domain 1..N, givens fixed, and
``AddAllDifferent`` per unit; a killer cage is one more AllDifferent and a linear equality.
``model=boolean``: one 0/1 variable per cell and value, with exactly-one constraints per cell
and per unit and value (a cage: at most one per value, and a weighted sum). One worker by
default: it measured fastest for single puzzles (README, "Backends"). CP-SAT's own time limit
is the deadline."""

from __future__ import annotations

from typing import ClassVar

from ortools.sat.python import cp_model

from solvers.backend import Backend, Found
from solvers.board import Board
from solvers.deadline import Deadline
from solvers.errors import SolveTimeout


class CpSatBackend(Backend):
    RULES = frozenset({"x", "windoku", "jigsaw", "killer"})  # opt-in: what it encodes
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "model": ("integer", "boolean"),
        "workers": ("1", "2", "4", "8", "16"),
    }

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.model_kind, self.workers = options["model"], int(options["workers"])

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        # one solution: the solver's own search, on every worker asked for; more: enumeration
        return self._first(board, deadline) if limit == 1 else self._count(board, limit, deadline)

    def _first(self, board: Board, deadline: Deadline) -> Found:
        model, read = self._build(board)
        solver = self._solver(deadline, enumerate_all=False)
        status = solver.solve(model)
        stats = _stats(solver)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Found(1, board.with_cells(read(solver.value)), stats)
        if status == cp_model.INFEASIBLE:
            return Found(0, None, stats)
        raise SolveTimeout(stats=stats)

    def _count(self, board: Board, limit: int, deadline: Deadline) -> Found:
        model, read = self._build(board)
        solver = self._solver(deadline, enumerate_all=True)
        counter = _StopAt(limit, read)
        status = solver.solve(model, counter)
        stats = _stats(solver)
        # OPTIMAL: enumeration finished; INFEASIBLE: none; otherwise it stopped early, which is
        # fine only when it stopped because the limit was reached.
        if counter.found < limit and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise SolveTimeout(stats=stats)
        first = None if counter.first is None else board.with_cells(counter.first)
        return Found(counter.found, first, stats)

    def _solver(self, deadline: Deadline, enumerate_all: bool) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1 if enumerate_all else self.workers
        solver.parameters.enumerate_all_solutions = enumerate_all
        remaining = deadline.remaining()
        if remaining is not None:
            solver.parameters.max_time_in_seconds = max(remaining, 1e-3)
        return solver

    def _build(self, board: Board):
        """The model, and a function that reads the cells back from a solver's values."""
        n, geometry = board.size, board.geometry
        model = cp_model.CpModel()
        if self.model_kind == "integer":
            cells = [
                model.new_constant(v) if v else model.new_int_var(1, n, f"c{i}")
                for i, v in enumerate(board.cells)
            ]
            for unit in geometry.units:
                model.add_all_different(cells[i] for i in unit)
            for cage in board.rules.cages:
                model.add_all_different(cells[i] for i in cage.cells)
                model.add(sum(cells[i] for i in cage.cells) == cage.total)
            return model, lambda value: (value(cell) for cell in cells)
        holds = [[model.new_bool_var(f"c{i}v{v}") for v in range(1, n + 1)] for i in range(n * n)]
        for i, v in enumerate(board.cells):
            model.add_exactly_one(holds[i])
            if v:
                model.add(holds[i][v - 1] == 1)
        for unit in geometry.units:
            for v in range(n):
                model.add_exactly_one(holds[i][v] for i in unit)
        for cage in board.rules.cages:
            for v in range(n):
                model.add_at_most_one(holds[i][v] for i in cage.cells)
            model.add(
                sum((v + 1) * holds[i][v] for i in cage.cells for v in range(n)) == cage.total
            )
        return model, lambda value: (
            next(v + 1 for v in range(n) if value(holds[i][v])) for i in range(n * n)
        )


class _StopAt(cp_model.CpSolverSolutionCallback):
    """Counts solutions, keeps the first, and stops the search at the limit."""

    def __init__(self, limit: int, read) -> None:
        super().__init__()
        self.limit, self.read, self.found = limit, read, 0
        self.first: tuple[int, ...] | None = None

    def on_solution_callback(self) -> None:
        self.found += 1
        if self.first is None:
            self.first = tuple(self.read(self.value))
        if self.found >= self.limit:
            self.stop_search()


def _stats(solver: cp_model.CpSolver) -> dict:
    return {
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "wall_time_s": solver.wall_time,
    }
