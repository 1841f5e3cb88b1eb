"""``native``: a propagating search compiled with numba, the fastest backend here.

Naked and hidden singles, locked candidates, naked pairs on boards of 16x16 and more, and the
sum rule (the sets of values that add up to each sum group's total), to a fixpoint after every
placement; then a branch on the busiest cell with the fewest candidates. Classic 9x9 boards
take a bit-parallel kernel of their own (``band9``). Every rule is read from the compile step
(``solvers.model.compile.flatten``: its units, its all-different sums with their value sets, its
primitives; ``tables``); the kernel checks its own solution before it returns it, and the
runner verifies it again.

Boards whose rules have primitives take a kernel entry of their own (``constrained``): the
same search, with the smaller all-different groups as peers and a propagator for each
relation, linear row and table (``watch``).

The kernels are compiled once and cached on disk (numba's ``cache=True``); the constructor loads
(or compiles) them, which is setup: the runner times it apart from the puzzles.
"""

from __future__ import annotations

from solvers.backends.contract import Backend, Found
from solvers.base.deadline import Deadline
from solvers.model.board import Board
from solvers.model.compile import EVERY_KIND
from solvers.model.geometry import Shape

try:
    from solvers.backends.handwritten.native.solver import Solver
    from solvers.backends.handwritten.native.tables import plan_for
except RuntimeError as error:  # numba found no folder it may write its compiled code to
    if "cannot cache" not in str(error):
        raise
    raise RuntimeError(
        "numba cannot keep its compiled kernel (no writable cache folder beside the package or "
        "in the user's cache): set NUMBA_CACHE_DIR to a folder you can write"
    ) from None


class Native(Backend):
    ENCODES = EVERY_KIND  # a sum rule of its own (propagate.py), and every primitive

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self._solver = Solver()
        self.search(Board.pattern(Shape(2, 2)), Deadline(None), 1)  # load or compile the kernel

    def prepare(self, shape: Shape) -> None:
        self._solver.workspace(plan_for(Board.empty(shape)))

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        found, first, stats = self._solver.search(
            plan_for(board), bytes(board.cells), limit, deadline.at
        )
        cells = tuple(first.tolist()) if found else ()
        solution = Board.unchecked(board.shape, cells, board.rules) if found else None
        return Found(found, solution, stats)
