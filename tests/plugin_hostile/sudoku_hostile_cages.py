"""An outside backend that names sum groups by their alias: it declares
``ENCODES = frozenset({CAGES})`` and reads ``flatten(board).cages``, and must load, be given
killer cages and solve them."""

from solvers.backends.contract import Backend, Found
from solvers.backends.handwritten.dlx import DancingLinks
from solvers.model.compile import CAGES, Cage, flatten


class DeclaresCages(Backend):
    """dlx's answers, once it has read the board's cages as the alias gives them."""

    ENCODES = frozenset({CAGES})

    def search(self, board, deadline, limit) -> Found:
        cages = flatten(board).cages
        if not all(isinstance(cage, Cage) and cage.value_sets(board.size) for cage in cages):
            raise RuntimeError("a cage that is not a Cage")
        return DancingLinks().search(board, deadline, limit)
