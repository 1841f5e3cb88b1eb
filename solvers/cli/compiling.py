"""A notice before the ``native`` kernel compiles for the first time: numba takes 15-22 s of
CPU over it, once, and a first run should not look hung."""

from __future__ import annotations

import argparse
import time

from solvers.cli.output import Run


def announce_native(args: argparse.Namespace, run: Run) -> None:
    """Compile the native kernels here, said on stderr with the time it took, when the command
    will use ``native`` and numba has no compiled copy of them yet."""
    if not _uses_native(args):
        return
    from solvers import registry

    if not registry.availability("native")[0]:
        return
    from solvers.handwritten.native.cache import compile_kernels, compiled

    if compiled() is not False:
        return
    run.note("compiling the native kernel with numba, once (about 20 s of CPU; cached after)")
    start = time.perf_counter()
    compile_kernels()
    run.note(f"native kernel compiled in {time.perf_counter() - start:.1f} s")


def _uses_native(args: argparse.Namespace) -> bool:
    """Whether the command runs ``native``: named, or the default (no --backend), or among
    every backend (no --backends, or ``all``)."""
    if hasattr(args, "backends"):
        named = args.backends
    elif hasattr(args, "backend"):
        named = args.backend
    else:
        return False
    if named is None or named == "all":
        return True
    return any(spec.split(":")[0].strip() == "native" for spec in str(named).split(","))
