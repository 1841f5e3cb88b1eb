"""The handwritten searches, one module per ``--backend`` name.

From the write-ups' reference (``dfs``) to the limit: ``bitmask`` (the same order, used-value
masks), ``mrv`` (most constrained cell first), ``propagate`` (the rules of ``rules`` to a
fixpoint, then branching), ``native`` (propagate compiled with numba), ``dlx`` (dancing links)
and ``norvig`` (Norvig's essay solver, the yardstick). Each reads the rules from the board's
``Geometry`` and keeps its deadline with a ``Ticker``.
"""

from solvers.backends.contract import Solutions
from solvers.base.deadline import Deadline, Ticker


class Counted:
    """A search's tally: its solutions up to ``limit``, its nodes and guesses (``stats``), and
    the ticker that keeps its deadline."""

    def __init__(self, deadline: Deadline, limit: int) -> None:
        self.solutions = Solutions(limit)
        self.nodes = self.guesses = 0
        self.ticker = Ticker(deadline, self.stats)

    def stats(self) -> dict:
        return {"nodes": self.nodes, "guesses": self.guesses}
