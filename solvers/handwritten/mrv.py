"""``mrv``: the masks of ``bitmask``, and one heuristic: branch on the empty cell with the
fewest candidates (the minimum remaining values; the first such cell in row-major order on
ties), values still ascending."""

from __future__ import annotations

from solvers.handwritten.bitmask import Bitmask

# what `sudoku backends` says of it, and the PyPI distribution of its library:
# read from this text by the registry, which finds a backend by its module's name
SUMMARY = "bit masks, and the cell with the fewest candidates first"


class MostConstrained(Bitmask):
    ENCODES = Bitmask.ENCODES  # the same search, so the same rules
    FEWEST_FIRST = True
