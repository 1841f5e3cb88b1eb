"""The batch kernel compiled ahead of time, loaded with NumPy alone: no numba in the process.

Importing numba and loading its cached copy of the kernel cost a bulk count about as much as
the kernel's own work (docs/startup.md). So when the kernels are compiled for a source
(``warmup.compile_kernels``, which the command line runs once, with a notice), the batch
kernel (``batch._batch``) is also built by ``numba.pycc`` (public, though numba deprecates it;
still in numba 0.68) into a C extension in the source's cache folder (``stamp.folder``),
beside numba's compiled kernels (``aot_build``): the same code compiled by the same numba, for
the architecture's baseline or, where the CPU and the kernel say every core has its features,
for x86-64-v3 (AVX2, BMI, ...: ``target_cpu``); never for this very CPU, and the level is in
the file's name, so a home folder shared with an older machine is safe. Later runs load that
extension with NumPy alone.

Nothing here may break a run or change an answer. The extension is named after the package's
source (``source_stamp``), the CPU level it is built for, NumPy's version and Python's ABI, so
an edit or an upgrade builds it afresh; it is built under a temporary name and renamed into
place, so no run loads a half-written one. Where it cannot be built (no C compiler, numba.pycc
gone from a later numba), a marker file beside it holds the reason, runs use numba's kernel, and
no build is tried again for that source (delete the marker to retry). An extension that fails to
load, or tables it was not built for, are likewise left to numba's kernel.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

from solvers.backends.handwritten.native import stamp
from solvers.backends.handwritten.native.outcome import UNLIMITED, Batch, run_batch
from solvers.backends.handwritten.native.stamp import source_stamp
from solvers.backends.handwritten.native.tables import KernelPlan
from solvers.base.deadline import Deadline

BUILD_SECONDS = 600  # far above numba.pycc's time (docs/native.md); a build past it is given up


def module_name() -> str:
    """The extension's module name (its init function is named after it)."""
    return f"sudoku_batch_{source_stamp()[:16]}"


def folder() -> Path:
    """Where the extension lives: this source's cache folder, beside numba's compiled kernels
    (``stamp.folder``: an edit builds into a new one, and old ones are pruned)."""
    return stamp.folder()


# The instruction-set level x86-64-v3, as Linux names its features in /proc/cpuinfo ("abm":
# LZCNT). Built for it, the kernel counts the sudoku17 file faster than for baseline x86-64;
# x86-64-v2 (POPCNT, SSE4) gains nothing, and the host's own CPU little more than v3
# (docs/startup.md, "For which CPU").
V3_FLAGS = frozenset({"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"})


@cache
def target_cpu(cpuinfo: str = "/proc/cpuinfo") -> str:
    """The CPU the extension is built for: ``"x86-64-v3"`` on an x86-64 Linux whose every core
    lists the level's features (the kernel lists AVX only where it enabled it), else ``""``:
    numba.pycc's default, the architecture's baseline."""
    if sys.platform != "linux" or os.uname().machine != "x86_64":
        return ""
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as handle:
            cores = [line.split(":", 1)[-1].split() for line in handle if line.startswith("flags")]
    except OSError:
        return ""
    return "x86-64-v3" if cores and all(set(flags) >= V3_FLAGS for flags in cores) else ""


def location(where: Path | None = None) -> Path:
    """The extension's file for this source, CPU level, NumPy and Python, in ``where``
    (``folder()``)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    level = f"-{target_cpu()}" if target_cpu() else ""
    return (where or folder()) / f"{module_name()}{level}-numpy{np.__version__}{suffix}"


def marker(path: Path) -> Path:
    """The file that says why ``path`` could not be built."""
    return path.with_name(path.name + ".failed")


def built(where: Path | None = None) -> bool | None:
    """True when the extension is built for this source, None when building it failed here
    (its marker says why), False when it was never tried."""
    path = location(where)
    if path.is_file():
        return True
    return None if marker(path).is_file() else False


def load(where: Path | None = None) -> ModuleType | None:
    """The extension, imported once per process and folder; None while it is not built here,
    or when it fails to load (asked again at the next call: a build may come in between)."""
    path = location(where)
    if path in _LOADED:
        return _LOADED[path]
    if not path.is_file():
        return None
    name = module_name()
    try:
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except (ImportError, OSError):
        return None
    _LOADED[path] = module
    return module


_LOADED: dict[Path, ModuleType] = {}  # a deliberate cache: an extension never unloads


def build(where: Path | None = None, env: dict[str, str] | None = None) -> bool:
    """Build the extension (in a child process: numba.pycc and a C compiler); True when it is
    in place. A failure leaves the marker with the reason, never a file that ``load`` trusts.
    ``env``: the child's environment (the tests take the compiler away)."""
    import shutil  # here: what a run that loads the extension never needs
    import subprocess
    import tempfile

    path = location(where)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".aot-", dir=path.parent))
    except OSError:  # no room to build in: numba's kernel answers, and a later run asks again
        return False
    try:
        scratch = dict(os.environ if env is None else env, TMPDIR=str(work))  # pycc's too
        done = subprocess.run(
            [sys.executable, "-m", "solvers.backends.handwritten.native.aot_build", str(work),
             module_name(), target_cpu()],
            capture_output=True, text=True, timeout=BUILD_SECONDS, env=scratch, check=False,
        )  # fmt: skip
        made = [file for file in work.iterdir() if file.name.startswith(module_name() + ".")]
        if done.returncode == 0 and len(made) == 1:
            os.replace(made[0], path)  # whole, under its final name, or not at all
            return True
        reason = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no extension made"]
    except (OSError, subprocess.SubprocessError) as error:
        reason = [str(error)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with contextlib.suppress(OSError):  # unsaid, it is tried again: never a broken run
        marker(path).write_text(f"the batch kernel was not built ahead of time: {reason[0]}\n")
    return False


def solve_batch(
    plan: KernelPlan,
    puzzles: np.ndarray,
    limit: int = 1,
    budget: int = UNLIMITED,
    where: Path | None = None,
    deadline: Deadline | None = None,
    each: float | None = None,
) -> Batch:
    """``batch.solve_batch``: the ahead-of-time kernel when it is built in ``where``
    (``folder()``) and the tables are the arrays it takes, else numba's kernel."""
    module = None if plan.primitives is not None else load(where)  # constraints: numba's
    if module is None or not _fits(plan):
        from solvers.backends.handwritten.native.batch import solve_batch as with_numba

        return with_numba(plan, puzzles, limit, budget, deadline, each)

    def kernel(puzzles, space, work, solutions, flags, stats):
        module.batch(puzzles, limit, budget, *plan.tables, plan.band, plan.pairs, *space, work,
                     solutions, flags, stats)  # fmt: skip

    return run_batch(plan, puzzles, kernel, deadline, each)


def _fits(plan: KernelPlan) -> bool:
    """Whether the tables are the C-ordered int64 matrices the extension's signature names."""
    return all(t.dtype == np.int64 and t.ndim == 2 and t.flags.c_contiguous for t in plan.tables)
