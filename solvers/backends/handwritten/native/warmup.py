"""The kernels made ready ahead of a run: whether they are compiled on disk for this source
(``compiled``), and their compilation with the ahead-of-time build (``compile_kernels``, as
``sudoku`` does once before a long run). Nothing in the kernel imports this module."""

from __future__ import annotations

import contextlib

COMPILED = "compiled"  # the marker file, in the source's cache folder (``stamp.folder``)


def compiled() -> bool:
    """Whether the entry kernels (one puzzle, a batch, a board with constraints) are compiled
    on disk for this source, and the batch kernel built ahead of time or found unbuildable here
    (``aot``): False when a run would compile them first (each build takes long:
    docs/native.md). ``compile_kernels`` leaves a marker in the source's cache folder once
    numba has compiled and cached them there."""
    from solvers.backends.handwritten.native import aot

    return aot.built() is not False and (aot.folder() / COMPILED).is_file()


def compile_kernels() -> None:
    """Load, or compile and cache, the entry kernels, with calls on empty 4x4 boards, and mark
    them compiled; then build the batch kernel ahead of time, unless it is built or was found
    unbuildable here."""
    import numpy as np

    from solvers.backends.handwritten.native import aot
    from solvers.backends.handwritten.native.batch import solve_batch
    from solvers.backends.handwritten.native.solver import Solver
    from solvers.backends.handwritten.native.tables import plan_for
    from solvers.model.board import Board
    from solvers.model.constraints.model import Constraint
    from solvers.model.geometry import Shape
    from solvers.model.variants import Rules

    empty = Board.empty(Shape(2, 2))
    solver = Solver()
    solver.search(plan_for(empty), bytes(empty.cells), 1, None)
    solve_batch(plan_for(empty), np.zeros((1, empty.shape.cell_count), np.uint8))
    odd = Board.empty(Shape(2, 2), Rules(constraints=(Constraint("odd", (0,)),)))
    solver.search(plan_for(odd), bytes(odd.cells), 1, None)  # the constrained entry
    with contextlib.suppress(OSError):  # unmarked, it is asked again: never a failed run
        (aot.folder() / COMPILED).touch()
    if aot.built() is False:
        aot.build()
