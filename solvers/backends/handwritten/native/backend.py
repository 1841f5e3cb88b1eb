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
relation, linear row and table (``watch``), and a cell choice of its own (``choice``: dom/wdeg
with ISS's house branches by default; docs/native.md).

The kernels are compiled once and cached on disk (numba's ``cache=True``); the constructor loads
(or compiles) them, which is setup: the runner times it apart from the puzzles.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import TYPE_CHECKING, ClassVar

from solvers.backends.contract import Backend, Found
from solvers.backends.handwritten.native import aot
from solvers.backends.handwritten.native.tables import KernelPlan, plan_for
from solvers.base.deadline import Deadline
from solvers.model.board import Board
from solvers.model.compile import EVERY_KIND
from solvers.model.geometry import Shape

if TYPE_CHECKING:
    import numpy as np

    from solvers.backends.batch import Batch


def _solver_class() -> type:
    """numba's per-puzzle kernel's class, numba imported (and its disk cache opened)."""
    try:
        from solvers.backends.handwritten.native.solver import Solver
    except RuntimeError as error:  # numba found no folder it may write compiled code to
        if "cannot cache" not in str(error):
            raise
        raise RuntimeError(
            "numba cannot keep its compiled kernel (no writable cache folder beside the "
            "package or in the user's cache): set NUMBA_CACHE_DIR to a folder you can write"
        ) from None
    return Solver


# numba is this backend's library: without it the backend is unavailable. The per-puzzle
# kernel is imported here, so that a numba that cannot load (no folder for its cache) makes
# the backend unavailable, with the reason; unless the batch kernel is built ahead of time and
# numba is not imported yet: a line file's batches then run without numba (docs/startup.md),
# and a numba that fails later fails ``load``, said in each answer.
if importlib.util.find_spec("numba") is None:
    raise ImportError("No module named numba")
if "numba" in sys.modules or not aot.built():
    _solver_class()


class Native(Backend):
    ENCODES = EVERY_KIND  # a sum rule of its own (propagate.py), and every primitive
    BATCHES = True  # the batch kernel (batch.py), or its copy built ahead of time (aot.py)
    # the 45 rule's sum groups (solvers.model.implied): off, to measure what they are worth
    # ... and the constrained kernel's cell choice: dom/wdeg with ISS's branches on a value's
    # two places in a unit (the default), dom/wdeg alone, or with ISS's value scores
    # (``constrained``)
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "implied": ("on", "off"),
        "choice": ("houses", "wdeg", "values"),
    }

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self._implied = options.get("implied", "on") == "on"
        self._choice = options.get("choice", "houses")
        self._solver = None  # numba's per-puzzle kernel: loaded by ``load`` (setup)
        self._last: tuple = (None, None, None)  # the last board's shape, rules and plan

    def load(self) -> None:
        """Load (or compile) numba's kernel; a batch alone needs none of it when the batch
        kernel is built ahead of time (``search_many``), and then never imports numba."""
        if self._solver is not None:
            return
        from solvers.backends.handwritten.native.outcome import HOUSES, VALUES, WDEG

        choice = {"wdeg": WDEG, "values": VALUES, "houses": HOUSES}[self._choice]
        self._solver = _solver_class()(choice)
        self.search(Board.pattern(Shape(2, 2)), Deadline(None), 1)  # load or compile the kernel

    @classmethod
    def uncompiled(cls) -> str | None:
        from solvers.backends.handwritten.native import door

        if door.built_ahead() or door.compiled() is not False:  # built_ahead: numba need not load
            return None
        return "the native kernel with numba, once (about 90 s of CPU; cached after)"

    @classmethod
    def compile(cls) -> None:
        from solvers.backends.handwritten.native import door

        door.compile_kernels()

    def prepare(self, shape: Shape) -> None:
        self.load()
        self._solver.workspace(plan_for(Board.empty(shape)))

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        if self._solver is None:  # (not a call of load on every puzzle: a few microseconds)
            self.load()
        found, first, stats = self._solver.search(
            self._plan(board), bytes(board.cells), limit, deadline.at
        )
        if not found:
            return Found(0, None, stats)
        # a byte's iteration gives its value as an int: tuple(tolist()) takes longer
        return Found(
            found, Board.unchecked(board.shape, tuple(first.tobytes()), board.rules), stats
        )

    def _plan(self, board: Board) -> KernelPlan:
        """``plan_for(board)``, kept for the next board of the same shape and rules: the rules'
        lookup hashes them (a part of a fast 9x9 solve: docs/native.md), their comparison
        with the last board's is quicker (the same objects, most often)."""
        shape, rules, plan = self._last
        if board.shape == shape and (board.rules is rules or board.rules == rules):
            return plan
        plan = plan_for(board, self._implied)
        self._last = (board.shape, board.rules, plan)
        return plan

    def search_many(
        self,
        values: np.ndarray,
        board: Board,
        limit: int,
        deadline: Deadline,
        each: float | None = None,
    ) -> Batch:
        """The batch kernel on every row, each solution checked inside it (``batch``)."""
        from solvers.backends.handwritten.native.outcome import UNLIMITED

        return aot.solve_batch(
            plan_for(board, self._implied), values, limit, UNLIMITED, deadline=deadline, each=each
        )
