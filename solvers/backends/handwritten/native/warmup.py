"""The kernels made ready ahead of a run: whether they are compiled on disk for this source
(``compiled``), and their compilation with the ahead-of-time build (``compile_kernels``, as
``sudoku`` does once before a long run). Nothing in the kernel imports this module."""

from __future__ import annotations


def compiled() -> bool | None:
    """Whether the entry kernels (one puzzle, a batch, a board with constraints) are compiled
    on disk for this source, and the batch kernel built ahead of time or found unbuildable here
    (``aot``): False when a run would compile them first (each build takes long:
    docs/native.md), None when numba's cache cannot be read here (another numba: its
    internals moved)."""
    from solvers.backends.handwritten.native import aot, batch, constrained, search

    if aot.built() is False:
        return False
    entries = (search.run_verified, batch._batch, constrained.run_constrained)
    try:
        files = [kernel._cache._cache_file for kernel in entries]
        return all(file._load_index() for file in files)
    except (AttributeError, OSError, EOFError, ValueError, ImportError):
        return None


def compile_kernels() -> None:
    """Load, or compile and cache, the entry kernels, with calls on empty 4x4 boards; then
    build the batch kernel ahead of time, unless it is built or was found unbuildable here."""
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
    if aot.built() is False:
        aot.build()
