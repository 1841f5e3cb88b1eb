"""``mrv``: the masks of ``bitmask``, and one heuristic: branch on the empty cell with the
fewest candidates (the minimum remaining values; the first such cell in row-major order on
ties), values still ascending."""

from __future__ import annotations

from solvers.backends.handwritten.bitmask import Bitmask


class MostConstrained(Bitmask):
    ENCODES = Bitmask.ENCODES  # the same search, so the same rules
    FEWEST_FIRST = True
