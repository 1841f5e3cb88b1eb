"""Running backends: the ``Runner`` (one judged answer per puzzle), the worker process that
keeps deadlines a library cannot, the per-puzzle tasks, and spreading them over processes or a
Dask cluster (``parallel``)."""

from solvers.execution.answer import Answer, Status
from solvers.execution.runner import Runner, shared

__all__ = ["Answer", "Runner", "Status", "shared"]
