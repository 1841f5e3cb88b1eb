"""How much each form of inference decides with no search: propagation strength.

Each level takes a board and runs one inference to its fixpoint from the givens, with no
guess, and returns an ``Outcome`` (solved, refuted, cells decided, candidates); given a
``Deadline``, a level that passes it raises ``SolveTimeout`` instead:

- CNF (``cnf``): ``up:minimal``, ``up:extended`` (unit propagation on each encoding) and
  ``fl:extended`` (failed-literal probing);
- CP (``cp``): ``fc`` (forward checking), ``gac`` (all-different by Régin's matching) and
  ``sac`` (singleton arc consistency over gac);
- human (``human``): ``singles``, ``locked``, ``subsets``, ``fish``, ``wings``, each holding
  the ones before it (``explain`` shows their steps, ``rating`` grades a puzzle by them);
  every level from ``singles`` up holds each constraint's own steps (``kinds``).

Every level reads the units of the board's compile step (``solvers.model.compile.flatten``): rows,
columns, regions, and the constraints' all-different groups of N cells. ``gac`` and ``sac``
also read the rest of it but tables (``network``), and the human levels every constraint
by its kind's own steps (``kinds``); the CNF levels and ``fc`` do not: on such a board they
decide what the units alone decide. A grid a level completes counts as solved
only if it keeps every rule.
"""
