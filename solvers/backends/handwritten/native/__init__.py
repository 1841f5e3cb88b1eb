"""The ``native`` backend: a numba kernel in small modules.

bits       machine-level bit tricks and the names of the kernel's registers
tables     the board's rules (as solvers.model.compile flattens them) as the kernel's arrays
propagate  the general kernel's rules, one function each, and settle to a fixpoint
band9      the classic 9x9 bit-parallel kernel
search     one resumable search loop for both kernels, and the in-kernel verification
solver     one puzzle under a deadline (slices of bounded work)
batch      many puzzles of one shape and rules in one kernel call
outcome    what a batch gives back, without numba
aot        the batch kernel compiled ahead of time, loaded without numba (aot_build builds it)
backend    the Native backend (``--backend native``)
cache      numba's disk cache, stamped with the whole package: every kernel module takes numba
           from there, so importing this package, ``tables`` or ``aot`` imports no numba

The rest of the project reaches the kernel through the functions below and never imports a
module of this package itself (the registry names ``backend`` by its dotted path;
tests/test_layers.py holds this), so that what loading the kernel takes (the build ahead of
time, numba's disk cache stamped with the package, SciPy kept from numba's BLAS check) stays in
here, and importing the package imports neither NumPy nor numba.
"""

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
    """Whether the kernels are compiled on disk for this source (``cache.compiled``)."""
    from .cache import compiled

    return compiled()


def compile_kernels() -> None:
    """Compile and cache the kernels, then build the batch kernel ahead of time."""
    from .cache import compile_kernels

    compile_kernels()
