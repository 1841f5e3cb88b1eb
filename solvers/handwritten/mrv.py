"""``mrv``: the masks of ``bitmask``, and one heuristic: branch on the empty cell with the
fewest candidates (the minimum remaining values; the first such cell in row-major order on
ties), values still ascending."""

from __future__ import annotations

from solvers.compile import CAGES
from solvers.handwritten.bitmask import Bitmask


class MostConstrained(Bitmask):
    ENCODES = frozenset({CAGES})  # as bitmask: units, and cages by their value sets
    FEWEST_FIRST = True
