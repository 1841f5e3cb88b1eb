"""The handwritten searches, one module per ``--backend`` name.

From the write-ups' reference (``dfs``) to the limit: ``bitmask`` (the same order, used-value
masks), ``mrv`` (most constrained cell first), ``propagate`` (the rules of ``rules`` to a
fixpoint, then branching), ``native`` (propagate compiled with numba), ``dlx`` (dancing links)
and ``norvig`` (Norvig's essay solver, the yardstick). Each reads the rules from the board's
``Geometry`` and keeps its deadline with a ``Ticker``.
"""
