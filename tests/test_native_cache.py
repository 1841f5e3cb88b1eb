"""The native kernel's disk cache: numba's compiled kernels and the batch kernel built ahead of
time live in one folder per source (``native.stamp.folder``), given to numba through its public
``CACHE_DIR``; an edit to any module of the kernel gives a new folder (numba alone would see an
edit to the decorated function's own file only), and older sources' folders are pruned."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solvers.backends.handwritten.native import stamp

ROOT = Path(__file__).resolve().parents[1]
FOLDER = "from solvers.backends.handwritten.native import stamp; print(stamp.folder().name)"


def folder_name(tree: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", FOLDER],
        cwd=tree,
        env=dict(env or os.environ, PYTHONPATH=str(tree)),
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_an_edit_to_any_module_of_the_kernel_gives_it_a_new_cache_folder(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT / "solvers", tree / "solvers", ignore=shutil.ignore_patterns("__pycache__")
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    unedited = folder_name(tree, env)
    assert unedited == stamp.folder().name  # the same source: the same folder
    callee = tree / "solvers/backends/handwritten/native/propagate.py"  # inlined in every entry
    callee.write_text(callee.read_text() + "# an edit\n")
    edited = folder_name(tree, env)
    assert edited.startswith(stamp.PREFIX) and edited != unedited


def test_the_kernels_are_compiled_into_the_folder_of_this_source():
    import numba

    from solvers.backends.handwritten.native import batch, constrained, search

    here = stamp.folder()
    assert str(here) == numba.config.CACHE_DIR
    cached = {path.name.split("-")[0] for path in here.rglob("*.nbi")}  # numba's index files
    for kernel in (search.run_verified, batch._batch, constrained.run_constrained):
        function = kernel.py_func
        assert f"{function.__module__.rsplit('.', 1)[-1]}.{function.__qualname__}" in cached


def aged(path: Path, seconds: float) -> Path:
    path.mkdir(parents=True)
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


@pytest.fixture
def package(tmp_path, monkeypatch):
    """The stamp module pointed at a package folder of its own (its cache unset)."""
    stamp.source_stamp()  # this source's, kept for the rest of the process
    home = tmp_path / "package"
    home.mkdir()
    monkeypatch.setattr(stamp, "PACKAGE", home)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    stamp.folder.cache_clear()
    yield home
    stamp.folder.cache_clear()


def test_a_new_source_prunes_older_sources_from_the_packages_own_cache(package):
    cache = package / "__pycache__"
    older = aged(cache / f"{stamp.PREFIX}0123456789abcdef", stamp.OWN_KEPT_S + 60)
    running = aged(cache / f"{stamp.PREFIX}fedcba9876543210", 60)  # a run of it may be going
    layout = [cache / "search.run_verified-103.py311.nbi", cache / "sudoku_batch_0123.so"]
    for path in layout:  # what numba and the build left here before these folders
        path.write_bytes(b"")
    python = cache / "stamp.cpython-311.pyc"
    python.write_bytes(b"")
    here = stamp.folder()
    assert here.parent == cache and here.name.startswith(stamp.PREFIX)
    assert not older.exists() and running.is_dir() and python.is_file()
    assert not any(path.exists() for path in layout)


def test_a_shared_cache_keeps_another_installs_folder_for_a_month(package, tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    month = 30 * 86400
    stale = aged(tmp_path / "numba" / f"{stamp.PREFIX}0123456789abcdef", month + 60)
    other = aged(tmp_path / "numba" / f"{stamp.PREFIX}fedcba9876543210", month - 3600)
    theirs = aged(tmp_path / "numba" / "somebody_else", month + 60)  # not ours to remove
    here = stamp.folder()
    assert here.parent == tmp_path / "numba"
    assert not stale.exists() and other.is_dir() and theirs.is_dir()


def test_a_package_installed_read_only_caches_in_the_users_cache_folder(
    package, tmp_path, monkeypatch
):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.setattr(stamp.os, "access", lambda path, mode: False)  # the tests may run as root
    assert stamp.folder().parent == tmp_path / "user-cache" / "sudoku-solvers"
    assert stamp.base() == (tmp_path / "user-cache" / "sudoku-solvers", True)


def test_a_used_folder_in_a_shared_cache_is_marked_used(package, tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    here = aged(tmp_path / "numba" / f"{stamp.PREFIX}{stamp.source_stamp()[:16]}", 10 * 86400)
    assert stamp.folder() == here
    assert time.time() - here.stat().st_mtime < 3600  # another install's prune keeps it
