"""The per-puzzle tasks the commands spread over processes: picklable, and answering in the
compact packed form (``Answer.pack``), since pickling dataclasses costs more than a fast solve.
Each runs in any process, through that process's shared runner for its spec (with no spec:
the backend available there that encodes the puzzle's rules and answers a run of ``puzzles``
first, ``registry.default_backend``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from solvers import registry
from solvers.board import Board
from solvers.spec import BackendSpec

if TYPE_CHECKING:
    from solvers.execution.runner import Runner


def runner_for(spec: BackendSpec | None, board: Board, puzzles: int | None = None) -> Runner:
    # the runner (multiprocessing, subprocess) once a puzzle is asked: a line file's bulk path
    # asks none
    from solvers.execution.runner import shared

    if spec is None:
        spec = BackendSpec(registry.default_backend(board, puzzles))
    return shared(spec)


@dataclass(frozen=True)
class SolveTask:
    spec: BackendSpec | None
    timeout: float | None
    puzzles: int | None = None  # in the run, when known to be few (None: many or unknown)

    def __call__(self, board: Board) -> tuple:
        return runner_for(self.spec, board, self.puzzles).solve(board, self.timeout).pack()


@dataclass(frozen=True)
class CountTask:
    spec: BackendSpec | None
    limit: int
    timeout: float | None
    puzzles: int | None = None  # as SolveTask's

    def __call__(self, board: Board) -> tuple:
        return (
            runner_for(self.spec, board, self.puzzles).count(board, self.limit, self.timeout).pack()
        )


@dataclass(frozen=True)
class CheckTask:
    """Every backend's solve and count (up to ``limit``) of one puzzle."""

    specs: tuple[BackendSpec, ...]
    limit: int
    timeout: float | None

    def __call__(self, board: Board) -> tuple:
        from solvers.execution.runner import shared

        words = []
        for spec in self.specs:
            runner = shared(spec)
            solved = runner.solve(board, self.timeout)
            counted = runner.count(board, self.limit, self.timeout)
            words.append((solved.pack(), counted.pack()))
        return tuple(words)
