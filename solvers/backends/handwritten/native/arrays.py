"""Rows of different lengths as one int64 array of [count, item...] rows: the form of the
kernel's tables (``tables``, ``constraints``). It imports no other module of the package."""

from __future__ import annotations

import numpy as np


def padded(rows: list[list[int]]) -> np.ndarray:
    """Rows of different lengths as [count, item...] rows of one width."""
    table = np.zeros((max(len(rows), 1), 1 + max(map(len, rows), default=0)), dtype=np.int64)
    for i, row in enumerate(rows):
        table[i, 0] = len(row)
        table[i, 1 : 1 + len(row)] = row
    return table[: len(rows)]
