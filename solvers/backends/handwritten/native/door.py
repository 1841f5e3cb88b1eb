"""The one door to the kernel: the rest of the project calls these functions and imports no
other module of this package (tests/test_layers.py), so that what loading the kernel takes
(the build ahead of time, numba's disk cache in a folder per source) stays behind it, and
importing it imports neither NumPy nor numba."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple


class Kernel(NamedTuple):
    """The batch kernel and what its callers need beside it (``load``)."""

    solve_batch: Callable[..., Any]  # (plan, puzzles, limit, budget) -> outcome.Batch
    plan_for: Callable[..., Any]  # a board -> its tables (one per shape and rules)
    Flag: type  # what became of each puzzle (outcome.Flag)
    UNLIMITED: int  # a work budget that never runs out


def load() -> Kernel:
    """The batch kernel: the one built ahead of time where it is (NumPy alone, no numba),
    else numba's, compiled once and cached on disk."""
    from .aot import solve_batch
    from .outcome import UNLIMITED, Flag
    from .tables import plan_for

    return Kernel(solve_batch, plan_for, Flag, UNLIMITED)


def built_ahead() -> bool:
    """Whether the batch kernel is built ahead of time for this source (``aot``)."""
    from .aot import built

    return bool(built())


def compiled() -> bool | None:
    """Whether the kernels are compiled on disk for this source (``warmup.compiled``)."""
    from .warmup import compiled

    return compiled()


def compile_kernels() -> None:
    """Compile and cache the kernels, then build the batch kernel ahead of time."""
    from .warmup import compile_kernels

    compile_kernels()
