"""``gpu``: singles and the fewest candidates first, one CUDA thread per puzzle (numba).

Every board whose rules are units alone (classic boards of every shape from 4x4 to 25x25,
rectangular boxes included; X, windoku and jigsaw too, their extra groups being units): the
kernel reads each cell's units from the compile step and knows no box shape. ``search`` runs a
batch of one puzzle (the judge verifies its answer, as every backend's); ``batch`` runs many
in one launch and verifies every first solution on the host (``batch.Batcher``).

Importing this module fails with one sentence where no CUDA GPU is found: the registry makes
that the reason ``sudoku backends`` gives. numba's simulator (NUMBA_ENABLE_CUDASIM=1, set
before numba is imported) runs the same kernel on the CPU, slowly: the tests use it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from numba import cuda
except ImportError as error:  # numba-cuda without the CUDA bindings it needs, say
    raise RuntimeError(f"numba's CUDA target does not load: {error}") from None

from adapters.gpu.batch import UNLIMITED, Batch, Batcher, Flag
from solvers.backends.contract import Backend, Found
from solvers.base.deadline import Deadline
from solvers.base.errors import UsageError
from solvers.model.board import Board
from solvers.model.compile import flatten
from solvers.model.geometry import Shape

NO_GPU = (
    "no CUDA GPU found (numba.cuda.is_available() is False): it needs an NVIDIA GPU and "
    "pip install 'sudoku-solvers[gpu]'; NUMBA_ENABLE_CUDASIM=1 runs numba's simulator"
)
if not cuda.is_available():
    raise RuntimeError(NO_GPU)


class Gpu(Backend):
    ENCODES = frozenset()  # units alone: the kernel knows no sum or other primitive

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self._batcher = Batcher()
        # compile the kernel now, which is setup (timed apart from the puzzles)
        self._batcher.run(Board.empty(Shape(2, 2)), np.zeros((1, 16), np.uint8))

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        puzzle = np.frombuffer(bytes(board.cells), np.uint8)[None]
        done = self._batcher.run(board, puzzle, limit, deadline=deadline)
        stats: dict[str, Any] = {
            "guesses": int(done.guesses[0]),
            "nodes": int(done.nodes[0]),
            "launches": done.launches,
        }
        if done.flags[0] not in (Flag.SOLVED, Flag.WRONG):  # a wrong one goes to the judge
            return Found(0, None, stats)
        cells = tuple(done.solutions[0].tolist())
        return Found(int(done.counts[0]), Board.unchecked(board.shape, cells, board.rules), stats)

    def batch(
        self,
        puzzles: np.ndarray,
        limit: int = 1,
        *,
        board: Board | None = None,
        budget: int | None = None,
        deadline: Deadline | None = None,
    ) -> Batch:
        """Every row of ``puzzles`` ((P, N*N) values, 0 empty) searched in one batch for up to
        ``limit`` solutions, boards of ``board``'s shape and rules (None: classic, the most
        square box for N), each within ``budget`` units of work (None: no cap). Each first
        solution is verified on the host: one that fails is flagged ``Flag.WRONG``. UsageError
        for rules beyond units; SolveTimeout once ``deadline`` has passed."""
        puzzles = np.asarray(puzzles)
        if board is None:
            board = Board.empty(Shape.for_size(round(puzzles.shape[-1] ** 0.5)))
        if beyond := flatten(board).beyond(self.ENCODES):
            raise UsageError(f"gpu does not support {' and '.join(sorted(beyond))}")
        return self._batcher.run(
            board, puzzles, limit, UNLIMITED if budget is None else budget, deadline
        )
