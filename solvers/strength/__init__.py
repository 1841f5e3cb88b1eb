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

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from solvers.base.deadline import Deadline
from solvers.base.errors import UsageError
from solvers.model.board import Board
from solvers.strength import cnf, cp, human
from solvers.strength.grid import Outcome

__all__ = ["LEVELS", "Outcome", "levels_of", "measure"]

# weakest first, within each family
LEVELS: dict[str, Callable[[Board, Deadline], Outcome]] = {
    "up:minimal": partial(cnf.unit_propagation, encoding="minimal"),
    "up:extended": partial(cnf.unit_propagation, encoding="extended"),
    "fl:extended": partial(cnf.failed_literals, encoding="extended"),
    "fc": partial(cp.level, name="fc"),
    "gac": partial(cp.level, name="gac"),
    "sac": partial(cp.level, name="sac"),
    **{name: partial(human.level, name=name) for name in human.LEVELS},
}


def measure(board: Board, level: str, deadline: Deadline | None = None) -> Outcome:
    """What ``level`` decides on ``board`` with no search; SolveTimeout when ``deadline``
    (default: none) passes first."""
    return LEVELS[level](board, deadline or Deadline())


def levels_of(text: str) -> list[str]:
    """Level names from a comma-separated list (``all``: every level); UsageError naming an
    unknown one."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if names == ["all"]:
        return list(LEVELS)
    unknown = [name for name in names if name not in LEVELS]
    if unknown or not names:
        raise UsageError(
            f"unknown level {', '.join(unknown) or '(none)'}; choose from {', '.join(LEVELS)}"
        )
    return names
