"""Running backends: the ``Runner`` (one judged answer per puzzle), the worker process that
keeps deadlines a library cannot, the judge, and the one way work is spread over processes or a
Dask cluster (``parallel.spread``). ``solvers.run.pipeline`` routes a run through them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solvers.run.answer import Answer, Status

if TYPE_CHECKING:
    from solvers.run.runner import Runner, shared

__all__ = ["Answer", "Runner", "Status", "shared"]


def __getattr__(name: str) -> Any:
    """``Runner`` and ``shared``, imported on first use: the runner brings multiprocessing and
    subprocess (a cost to start-up, docs/startup.md), which the answer types and a bulk run
    never need."""
    if name in ("Runner", "shared"):
        from solvers.run import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'solvers.run' has no attribute {name!r}")
