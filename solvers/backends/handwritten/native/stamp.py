"""The kernel's source stamp, a hash of every module of this package, and the cache folder
named after it: numba's compiled kernels (``cache``) and the batch kernel built ahead of time
(``aot``) both live there, so any edit compiles and builds afresh in a new folder, and the
folders of older sources are pruned. It imports no other module of the package, nor numba.

Where: ``$NUMBA_CACHE_DIR`` when the user set it, else the package's own ``__pycache__`` (as
numba's and Python's own caches), else, when the package is installed where the user cannot
write, the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``, then ``sudoku-solvers``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import time
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
PREFIX = "sudoku-native-"  # then the stamp's first 16 hex digits
# Another source's folder is kept this long after its last use. In a folder shared with other
# installs of the package (the user's cache, NUMBA_CACHE_DIR): a month, or two virtual
# environments with different versions would prune each other's and each compile again. In
# the package's own __pycache__, which holds one source at a time: ten minutes, for a run of
# the source before an edit that is still going (numba raises when its folder goes: its docs,
# "Cache Clearing").
SHARED_KEPT_S = 30 * 86400
OWN_KEPT_S = 600


@cache
def source_stamp() -> str:
    """A hash of every module of the package: any edit builds (and numba compiles) afresh."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def base() -> tuple[Path, bool]:
    """The folder that holds one cache folder per source, and whether other installs of the
    package share it (see the module's docstring for the order)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]), True
    beside = PACKAGE / "__pycache__"
    if os.access(beside if beside.is_dir() else PACKAGE, os.W_OK):
        return beside, False
    home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(home) / "sudoku-solvers", True


@cache
def folder() -> Path:
    """This source's cache folder (not created here: numba and the build create it). The
    first time a source is used, the folders of older sources are pruned (``prune``); in a
    shared folder, each use marks this one as used."""
    where, shared = base()
    here = where / f"{PREFIX}{source_stamp()[:16]}"
    if not here.is_dir():
        prune(where, here, SHARED_KEPT_S if shared else OWN_KEPT_S)
    elif shared:
        with contextlib.suppress(OSError):  # a folder we may only read: nothing to mark
            os.utime(here)
    return here


def prune(where: Path, keep: Path, unused_seconds: float) -> None:
    """Remove the other sources' cache folders in ``where`` not used for ``unused_seconds``,
    and in the package's own ``__pycache__`` what its layout before these folders left there
    (numba's index and code files, extensions and their markers, build scratch folders)."""
    try:
        entries = list(where.iterdir())
    except OSError:  # not there yet, or not readable: nothing to prune
        return
    old = time.time() - unused_seconds
    for entry in entries:
        try:
            if entry.name.startswith(PREFIX) and entry != keep and entry.stat().st_mtime <= old:
                shutil.rmtree(entry, ignore_errors=True)
            elif where == PACKAGE / "__pycache__" and _old_layout(entry.name):
                if entry.is_dir():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink()
        except OSError:  # another process pruned it first, or it is not ours to remove
            continue


def _old_layout(name: str) -> bool:
    return name.endswith((".nbi", ".nbc")) or name.startswith(("sudoku_batch_", ".aot-"))
