"""Build the batch kernel ahead of time (``aot``): ``python -m ... FOLDER NAME [CPU]`` writes the
C extension NAME into FOLDER with numba.pycc, which needs a C compiler, for the LLVM CPU name
CPU (``aot.target_cpu``; none: pycc's default, the architecture's baseline).

The exported function is ``batch._batch`` itself, with the tables passed one array each (a C
signature has no tuple of arrays) and put back into a ``Tables`` in compiled code.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import warnings

from solvers.backends.handwritten.native.tables import Tables

TABLE = "i8[:, ::1]"
SIGNATURE = (
    f"void(u1[:, ::1], i8, i8, {', '.join([TABLE] * len(Tables._fields))}, b1, b1, "
    "i8[:, ::1], i8[:, ::1], i8[::1], i8[::1], i8[::1], i8, u1[:, ::1], u1[::1], i8[:, ::1])"
)


def missing_compiler() -> str | None:
    """The C or C++ compiler that numba.pycc would call and that is not on PATH, found before
    numba is imported (pycc checks too, after a second of imports)."""
    for name in ("CC", "CXX"):
        command = (os.environ.get(name) or sysconfig.get_config_var(name) or "").split()
        if not command or shutil.which(command[0]) is None:
            return command[0] if command else name
    return None


def build(folder: str, name: str, cpu: str = "") -> None:
    if missing := missing_compiler():
        raise RuntimeError(f"no C compiler: {missing} is not on PATH")
    from solvers.backends.handwritten.native.batch import _batch

    with warnings.catch_warnings():  # numba.pycc is deprecated, and says so
        warnings.simplefilter("ignore")
        from numba.pycc import CC

        compiler = CC(name)
    compiler.output_dir = folder
    compiler.verbose = False
    if cpu:
        compiler.target_cpu = cpu

    @compiler.export("batch", SIGNATURE)
    def batch(puzzles, limit, budget, units, cell_units, unit_bits, peers, segs, parts,
              unit_parts, elims, sums, sum_sets, band, pairs, state, branch, room, ctrl, at,
              work, solutions, flags, stats):  # fmt: skip
        t = Tables(units, cell_units, unit_bits, peers, segs, parts, unit_parts, elims, sums,
                   sum_sets)  # fmt: skip
        _batch(puzzles, limit, budget, t, band, pairs, state, branch, room, ctrl, at, work,
               solutions, flags, stats)  # fmt: skip

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiler.compile()


if __name__ == "__main__":
    try:
        build(*sys.argv[1:4])
    except Exception as error:  # the reason, in one line, for aot's marker file
        lines = str(error).strip().splitlines() or [""]
        sys.exit(f"{type(error).__name__}: {lines[0]}")
