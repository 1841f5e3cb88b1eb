"""The puzzle as data: cells and their units (``cells``), a board and its kind (``board``,
``variants``), the rule vocabulary every kind is written in (``constraints``), the one compile
step that flattens rules into the primitives a backend reads (``compile``), the sums the 45
rule implies there (``implied``), the exact-cover matrix (``cover``) and the check of an answer
against rules and givens (``verify``).
It reads only ``solvers.base``."""
