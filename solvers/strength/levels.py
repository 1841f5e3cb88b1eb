"""The levels of inference by name (``LEVELS``), and ``measure``: one level run on a board to
its fixpoint, under a deadline."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from solvers.base.deadline import Deadline
from solvers.base.errors import UsageError
from solvers.model.board import Board
from solvers.strength import cnf, cp, human
from solvers.strength.grid import Outcome

__all__ = ["levels_of", "measure"]

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
