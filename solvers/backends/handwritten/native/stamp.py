"""The kernel's source stamp: a hash of every module of this package. numba's disk cache
(``cache``) and the ahead-of-time build (``aot``) are both keyed by it, so any edit compiles
and builds afresh. It imports no other module of the package."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


@cache
def source_stamp() -> str:
    """A hash of every module of the package: any edit builds (and numba compiles) afresh."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
