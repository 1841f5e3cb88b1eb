"""``gpu``: one CUDA thread per puzzle (numba): native's band search on classic 9x9 boards,
singles and the fewest candidates first on every other.

Every board whose rules are units alone (classic boards of every shape from 4x4 to 25x25,
rectangular boxes included; X, windoku and jigsaw too, their extra groups being units): the
general kernels read each cell's units from the compile step and know no box shape. ``search``
runs a batch of one puzzle (the judge verifies its answer, as every backend's); ``search_many``
(the contract's batch, ``BATCHES``: the bulk path of ``sudoku solve FILE`` hands it a line file's
boards) runs many in one launch, and its caller verifies every first solution on the host, as
for every backend (``solve_many``).

Importing this module fails with one sentence where no CUDA GPU is found: the registry makes
that the reason ``sudoku backends`` gives. numba's simulator (NUMBA_ENABLE_CUDASIM=1, set
before numba is imported) runs the same kernel on the CPU, slowly: the tests use it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

# numba-cuda 0.30 names numpy.row_stack (an alias of vstack) when it first compiles a kernel,
# and NumPy 2.5 has no such name: seen on an H200 machine (numba-cuda 0.30.4, NumPy 2.5.2),
# where every compile failed with "module 'numpy' has no attribute 'row_stack'"
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack

try:
    from numba import cuda
except ImportError as error:  # numba-cuda without the CUDA bindings it needs, say
    raise RuntimeError(f"numba's CUDA target does not load: {error}") from None

from adapters.gpu.batch import Batcher, Timings
from solvers.backends.batch import Batch, Flag
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
    BATCHES = True  # one launch for a whole batch (search_many)

    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"kernel": ("band", "shared", "global")}

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self._batcher = Batcher(options.get("kernel", "band"))
        self._loaded = False
        # The last batch's seconds apart (copies, launches): the benchmark's
        self.timings: Timings | None = None

    def load(self) -> None:
        """Compile the kernels (a launch on an empty 4x4 and one on a 9x9 grid with one cell
        empty), which is setup: timed apart from the puzzles. A batch that comes first
        compiles its kernel at its first launch."""
        if not self._loaded:
            self._batcher.run(Board.empty(Shape(2, 2)), np.zeros((1, 16), np.uint8))
            grid = [(3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]
            self._batcher.run(Board.empty(Shape(3, 3)), np.array([[0, *grid[1:]]], np.uint8))
            self._loaded = True

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        puzzle = np.frombuffer(bytes(board.cells), np.uint8)[None]
        done, timings = self._batcher.run(board, puzzle, limit, deadline)
        stats: dict[str, Any] = {
            "guesses": int(done.guesses[0]),
            "nodes": int(done.nodes[0]),
            "launches": timings.launches,
        }
        if done.flags[0] != Flag.SOLVED:  # the judge verifies a solution
            return Found(0, None, stats)
        cells = tuple(done.solutions[0].tolist())
        return Found(int(done.counts[0]), Board.unchecked(board.shape, cells, board.rules), stats)

    def search_many(
        self,
        values: np.ndarray,
        board: Board,
        limit: int,
        deadline: Deadline,
        each: float | None = None,
    ) -> Batch:
        """Every row of ``values`` ((P, N*N) uint8, 0 empty), boards of ``board``'s shape and
        rules, searched at once: one launch after another, a slice of work each, until every
        search has ended. Every puzzle is searched throughout, so ``each`` caps the seconds
        of launches: a search still under way then is UNFINISHED. The caller verifies each
        first solution (``solve_many``, as for every backend); ``self.timings`` has the
        batch's seconds apart. UsageError for rules beyond units; SolveTimeout once
        ``deadline`` has passed."""
        if beyond := flatten(board).beyond(self.ENCODES):
            raise UsageError(f"gpu does not support {' and '.join(sorted(beyond))}")
        found, self.timings = self._batcher.run(board, values, limit, deadline, each)
        return found
