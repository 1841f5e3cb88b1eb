"""``exactcover``: the exact-cover package (Algorithm X with dancing links, in C) on the same
matrix as the handwritten ``dlx`` (``solvers.model.cover``): the same model compiled, so the pair
shows what Python costs.

The givens are chosen before the matrix is handed over, as ``dlx`` does by covering them: their
rows and the columns they cover are left out, with every row that hits one of those columns. A
column no row can cover is a puzzle without a solution. The library has no deadline, no
interrupt and no counters: it cannot stop by itself, so a call with a timeout runs in a worker
process that is killed at the deadline, and the stats are the matrix's size.

Counting: ``get_all_solutions(max_count=K)`` allocates room for K solutions first (K = 10**9
crashes the process), so K is capped at ``ENUMERATE_AT_MOST``; a larger limit counts every
solution with ``get_solution_count`` (which has no limit) and keeps the first from
``get_exact_cover``.
"""

from __future__ import annotations

import exact_cover
import numpy as np
from exact_cover.error import NoSolution
from exact_cover.io import DTYPE_FOR_ARRAY
from exact_cover_impl import get_all_solutions as raw_all_solutions

from solvers.backends.contract import Backend, Found, Operation
from solvers.base.deadline import Deadline
from solvers.model.board import Board
from solvers.model.compile import SUM_GROUPS, flatten
from solvers.model.cover import exact_cover as cover_of

ENUMERATE_AT_MOST = 10_000


class ExactCoverBackend(Backend):
    ENCODES = frozenset(
        {SUM_GROUPS}
    )  # units, and sum groups by their set rows (solvers.model.cover)
    INTERRUPTIBLE = False  # the C search holds the thread until it ends

    def stops_itself(self, operation: Operation) -> bool:
        return False

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        matrix, placements = _matrix(board)
        if matrix is None:
            return Found(0, None, {})
        stats = {"rows": matrix.shape[0], "columns": matrix.shape[1]}
        if matrix.shape[1] == 0:  # the givens cover every column: they are the solution
            return Found(1, board, stats)
        try:
            if limit == 1 or limit > ENUMERATE_AT_MOST:
                first = exact_cover.get_exact_cover(matrix)
                count = 1 if limit == 1 else min(limit, exact_cover.get_solution_count(matrix))
            else:
                found = _all_solutions(matrix, limit)
                count, first = len(found), found[0]
        except NoSolution:
            return Found(0, None, stats)
        cells = list(board.cells)
        for row in first:
            cell, v = placements[row]
            if cell >= 0:
                cells[cell] = v
        return Found(count, board.with_cells(cells), stats)


def _all_solutions(matrix: np.ndarray, limit: int) -> list[np.ndarray]:
    """Up to ``limit`` solutions, each the rows chosen. The package's own ``get_all_solutions``
    turns a solution that fills its row of the result (no -1 padding after it) into an empty
    one (exact-cover 1.5.0), so the C function's array is read here."""
    packed = np.require(matrix, dtype=DTYPE_FOR_ARRAY, requirements=["C_CONTIGUOUS"])
    found = raw_all_solutions(packed, limit)
    if found.size == 0:
        raise NoSolution
    return [row[row >= 0] for row in found]


def _matrix(board: Board) -> tuple[np.ndarray | None, list[tuple[int, int]]]:
    """The cover matrix after the givens are chosen, and each row's placement; None when
    the givens leave a column covered twice or one that no row can cover."""
    cover = cover_of(board.geometry, flatten(board).sum_groups)
    n = board.size
    given_rows = [cell * n + v - 1 for cell, v in enumerate(board.cells) if v]
    covered = {col for row in given_rows for col in cover.rows[row]}
    if sum(len(cover.rows[row]) for row in given_rows) > len(covered):
        return None, []
    open_columns = [col for col in range(cover.columns) if col not in covered]
    position = {col: k for k, col in enumerate(open_columns)}
    rows = [r for r, hits in enumerate(cover.rows) if covered.isdisjoint(hits)]
    matrix = np.zeros((len(rows), len(open_columns)), dtype=np.bool_)
    for k, row in enumerate(rows):
        matrix[k, [position[col] for col in cover.rows[row]]] = True
    if not matrix.any(axis=0).all():
        return None, []
    return matrix, [cover.placements[row] for row in rows]
