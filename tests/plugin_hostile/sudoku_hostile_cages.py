"""An outside backend written before the compile step's cages were named sum groups (issue
30): it declares ``ENCODES = frozenset({CAGES})`` and reads ``flatten(board).cages``, as
CONTRIBUTING.md then said to. An installed package of that time must keep working."""

from solvers.backend import Backend, Found
from solvers.compile import CAGES, Cage, flatten
from solvers.handwritten.dlx import DancingLinks


class DeclaresCages(Backend):
    """dlx's answers, once it has read the board's cages as the older names give them."""

    ENCODES = frozenset({CAGES})

    def search(self, board, deadline, limit) -> Found:
        cages = flatten(board).cages
        if not all(isinstance(cage, Cage) and cage.value_sets(board.size) for cage in cages):
            raise RuntimeError("a cage that is not a Cage")
        return DancingLinks().search(board, deadline, limit)
