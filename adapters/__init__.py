"""Library adapters: one module per library, each encoding the rules from ``solvers.model.board``.

Note: a different, unrelated package named ``adapters`` (AdapterHub) exists on PyPI. Installing
both in one environment would make one shadow the other; this project's is the one that ships
``adapters.csp``, ``adapters.cpsat``, ``adapters.sat`` and ``adapters.pysat``.
"""
