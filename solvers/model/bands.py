"""The tables of the classic 9x9 band representation (after Zhouyundong's JCZSolve): per digit
and band of three rows, a 27-bit word of the cells that may still hold the digit (bit
9 * row + column within the band).

For one digit, within a band the three rows and the three boxes must be matched one to one,
and within a stack the three bands and the three columns likewise: these tables keep the
mini-rows and columns that lie on some perfect matching, so hidden singles and locked
candidates both ways are a few table lookups. Derived here, not copied; read by native's band
kernel (``band9``) and by the gpu backend's (``adapters/gpu/band.py``), which share no search
code.
"""

from __future__ import annotations

import itertools

import numpy as np

FULL27 = (1 << 27) - 1


def band_tables() -> tuple[np.ndarray, ...]:
    """(SHRINK9, MATCH9, COMPLEX9, COLS27, ROW27, COL27, ROWBOX27), int64 arrays:

    - SHRINK9[x]: which of a 9-cell row's three mini-rows hold a cell of ``x``;
    - MATCH9[m]: the edges of a 3x3 bipartite graph (bit 3i+j: i may go with j) that lie on
      some perfect matching;
    - COMPLEX9[m]: a band word's cells on the mini-rows that ``MATCH9[m]`` keeps;
    - COLS27[c]: the nine columns of ``c`` (a 9-bit set) as a band word;
    - ROW27[r], COL27[c]: row r's and column c's cells in a band word;
    - ROWBOX27[i]: cell i's row and box within its band, itself left out."""
    shrink = np.zeros(512, np.int64)
    for x in range(512):
        shrink[x] = (x & 0o7 != 0) | (x & 0o70 != 0) << 1 | (x & 0o700 != 0) << 2
    perms = [sum(1 << (r * 3 + p[r]) for r in range(3)) for p in itertools.permutations(range(3))]
    match = np.zeros(512, np.int64)
    for m in range(512):
        for bits in perms:
            if bits & m == bits:
                match[m] |= bits
    expand = np.zeros(512, np.int64)  # mini-rows -> their cells in a band word
    for m in range(512):
        for k in range(9):
            if m >> k & 1:
                expand[m] |= 0o7 << (9 * (k // 3) + 3 * (k % 3))
    cols27 = np.array([c | c << 9 | c << 18 for c in range(512)], np.int64)
    row27 = np.array([511 << (9 * r) for r in range(3)], np.int64)
    col27 = np.array([1 << c | 1 << (c + 9) | 1 << (c + 18) for c in range(9)], np.int64)
    rowbox27 = np.array(
        [(511 << (9 * (i // 9)) | 0o7007007 << (3 * (i % 9 // 3))) & ~(1 << i) for i in range(27)],
        np.int64,
    )
    return shrink, match, expand[match], cols27, row27, col27, rowbox27
