"""Rules as a vocabulary: constraint kinds, each defined once, decomposed into primitives.

- ``model``: ``Constraint`` (a kind's name, cells, parameters) and ``Kind`` (meaning, check,
  decomposition, validation, in one place).
- ``primitives``: what engines compile (all-different, binary relation, linear, domain, table).
- the kinds, a module per family (each module's docstring names its kinds): ``neighbours``,
  ``cell_kinds``, ``dots``, ``sums``, ``lines``, ``outside``, ``regions``, ``indexers``.

A constraint is self-contained given N: a board-wide kind has no cells, and what it needs
beyond N (a negative constraint's exempt pairs, the box shape) is among its parameters.
``KINDS`` maps each kind's name to its ``Kind``; ``kinds_compiled_by`` says which kinds an
engine supports when it compiles a given set of primitive types.
"""
