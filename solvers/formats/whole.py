"""A file written whole or not at all: the text goes to a new file beside it, reaches the disk,
and only then takes the file's name (``os.replace``), so a full disk or a stopped run leaves
the old file as it was and no half-written one. Every file a command writes goes through here."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from typing import IO

from solvers.base.errors import OutputError


@contextlib.contextmanager
def written(path: str, label: str = "", binary: bool = False) -> Iterator[IO]:
    """A handle to write ``path``'s new content to; the file takes it when the block ends
    without an error. OutputError (naming ``label``, the option that named the file, and
    ``path``) when it cannot be written; then the file is as it was and nothing is left
    beside it. A path that is no plain file (``/dev/stdout``, a pipe) is written directly, as is
    a writable file in a folder this user cannot write (no new file can be made beside it); a
    file this user may not write is refused as ``open`` would refuse it."""
    try:
        before = os.stat(path)
    except OSError:
        before = None
    if before is not None and not stat.S_ISREG(before.st_mode):
        with _named(path, label, False), _open(path, binary) as handle:
            yield handle
        return
    target = os.path.realpath(path)  # a link goes on naming the file it named
    folder, name = os.path.split(target)
    if before is not None and not os.access(target, os.W_OK):
        # a file its owner made read-only stays so: no new file takes its name
        raise OutputError(f"cannot write {label + ' ' if label else ''}{path}: Permission denied")
    if before is not None and not os.access(folder, os.W_OK | os.X_OK):
        # a writable file in a folder that is not: written in place, as a plain open would
        with _named(path, label, False), _open(path, binary) as handle:
            yield handle
        return
    part = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.part")
    with _named(path, label, before is not None):
        # created as any new file would be (the umask applies), or with the old one's mode
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with _open(fd, binary) as handle:
                if before is not None:
                    os.fchmod(fd, stat.S_IMODE(before.st_mode))
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(part, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(part)
            raise
    _sync_folder(folder)


def _open(file: str | int, binary: bool) -> IO:
    if binary:
        return open(file, "wb")
    return open(file, "w", encoding="utf-8")


@contextlib.contextmanager
def _named(path: str, label: str, existed: bool) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        reason = error.strerror or str(error)
        kept = f" ({path} is as it was)" if existed else ""
        where = f"{label} {path}" if label else path
        raise OutputError(f"cannot write {where}: {reason}{kept}") from None


def _sync_folder(folder: str) -> None:
    """The new name on the disk too (a crash right after keeps the new file, not the old)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
