"""Every file a command writes is written whole or not at all: on a full disk the file keeps its
old content, no half-written file or temporary file is left beside it, and one line names the
file and why (exit 2). The disk is "full" for real: the command runs under a file-size limit
(RLIMIT_FSIZE, with SIGXFSZ ignored), so its writes fail with EFBIG after that many bytes."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

SUDOKU = str(Path(sys.executable).with_name("sudoku"))
ROOT = Path(__file__).resolve().parents[1]
OLD = "the old content, which a failed write must leave alone\n" * 300  # 17 KB
LINE = "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7"


def limited(args: list[str], folder: Path, size: int | None) -> subprocess.CompletedProcess:
    """``sudoku ARGS`` in ``folder``, each file it writes cut at ``size`` bytes."""

    def full_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return subprocess.run(
        [SUDOKU, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        preexec_fn=full_disk if size is not None else None,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


def left_in(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


@pytest.fixture
def run_file(compare_run, tmp_path) -> Path:
    """The shared compare run's JSON, copied where a test may write beside it."""
    return Path(shutil.copy(compare_run[1], tmp_path / "run.json"))


@pytest.mark.slow
@pytest.mark.parametrize(
    "option, name, size",
    [
        # the JSON is a few KB: cut at 1,000 bytes
        ("--json", "out.json", 1000),
        # the JSON fits under 12,000 bytes, the figure does not
        ("--plot", "out.png", 12000),
    ],
)
def test_compare_on_a_full_disk_keeps_the_old_file(tmp_path, option, name, size):
    target = tmp_path / name
    target.write_text(OLD)
    args = ["compare", "small4", "--backends", "sat", "--limit", "2", "--timeout", "30"]
    args += ["--json", "out.json"] if option == "--plot" else []
    done = limited([*args, option, name], tmp_path, size)
    said = f"sudoku: cannot write {option} {name}: File too large ({name} is as it was)\n"
    assert done.stderr == said
    assert done.returncode == 2
    assert target.read_text() == OLD
    assert left_in(tmp_path) == sorted({"out.json", name})


def test_report_on_a_full_disk_keeps_the_old_page(run_file):
    folder = run_file.parent
    (folder / "page.html").write_text(OLD)
    done = limited(["report", "run.json", "-o", "page.html"], folder, 20000)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "sudoku: cannot write -o page.html: File too large (page.html is as it was)\n"
    )
    assert (folder / "page.html").read_text() == OLD
    assert left_in(folder) == ["page.html", "run.json"]


def test_report_on_a_full_disk_leaves_no_new_file(run_file):
    folder = run_file.parent
    done = limited(["report", "run.json", "-o", "page.html"], folder, 20000)
    said = "sudoku: cannot write -o page.html: File too large\n"
    assert (done.returncode, done.stderr) == (2, said)
    assert left_in(folder) == ["run.json"]


def test_encode_on_a_full_disk_keeps_each_old_file(tmp_path):
    (tmp_path / "two.txt").write_text(f"{LINE}\n{LINE}\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "line-1.cnf").write_text(OLD)
    done = limited(["encode", "two.txt", "--output-dir", "out"], tmp_path, 5000)
    assert done.returncode == 2
    assert done.stderr == (
        "sudoku: cannot write --output-dir out/line-1.cnf: File too large"
        " (out/line-1.cnf is as it was)\n"
    )
    assert left_in(tmp_path / "out") == ["line-1.cnf"]
    assert (tmp_path / "out" / "line-1.cnf").read_text() == OLD


def test_a_written_file_keeps_the_old_files_mode_and_replaces_it_whole(run_file):
    folder = run_file.parent
    page = folder / "page.html"
    page.write_text(OLD)
    page.chmod(0o640)
    done = limited(["report", "run.json", "-o", "page.html"], folder, None)
    assert done.returncode == 0, done.stderr
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert page.stat().st_mode & 0o777 == 0o640
    assert left_in(folder) == ["page.html", "run.json"]


def test_a_link_goes_on_naming_the_file_it_named(run_file):
    folder = run_file.parent
    (folder / "pages").mkdir()
    (folder / "pages" / "page.html").write_text(OLD)
    (folder / "page.html").symlink_to("pages/page.html")
    done = limited(["report", "run.json", "-o", "page.html"], folder, None)
    assert done.returncode == 0, done.stderr
    assert (folder / "page.html").is_symlink()
    assert (folder / "pages" / "page.html").read_text().startswith("<!DOCTYPE html>")


def test_a_report_over_its_own_run_is_refused(cli, run_file):
    before = run_file.read_text()
    run = cli("report", str(run_file), "-o", str(run_file))
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"sudoku: -o {run_file} is the run {run_file} this page is made from: the page would "
        f"overwrite it (without -o the page is {run_file.parent / 'run.html'})\n"
    )
    assert run_file.read_text() == before


def test_a_report_over_its_older_run_by_another_name_is_refused(cli, run_file):
    older = run_file.parent / "old.json"
    shutil.copy(run_file, older)
    (run_file.parent / "same.json").symlink_to("old.json")
    run = cli(
        "report", str(run_file), "--against", str(older), "-o", str(older.parent / "same.json")
    )
    assert run.code == 2
    assert "the page would overwrite it" in run.err
    assert older.read_text() == run_file.read_text()


def test_a_report_with_no_output_named_goes_beside_its_run(cli, run_file, monkeypatch):
    monkeypatch.chdir(run_file.parent)
    run = cli("report", "run.json")
    assert run.code == 0, run.err
    assert run.out.startswith("run.html: ")
    assert (run_file.parent / "run.html").read_text().startswith("<!DOCTYPE html>")


def test_every_file_option_refuses_a_missing_folder_and_makes_none(cli, run_file):
    # one rule for a FILE an option names (--json, --plot, report -o): its folder must be
    # there, and a typo in it makes no folder; --output-dir names the folder it fills: made
    missing = run_file.parent / "no-such-folder"
    for args in (
        ["compare", "small4", "--backends", "sat", "--limit", "1", "--json", "x/run.json"],
        ["compare", "small4", "--backends", "sat", "--limit", "1", "--plot", "x/run.png"],
        ["report", str(run_file), "-o", "x/page.html"],
    ):
        option, path = args[-2], str(missing / args[-1])
        done = cli(*args[:-1], path)
        assert done.code == 2 and done.out == "", done.err
        assert done.err == f"sudoku: cannot write {option} {path}: no folder {missing / 'x'}\n"
        assert not missing.exists()
    target = missing / "cnf"
    done = cli("encode", "--output-dir", str(target), stdin=f"{LINE}\n{LINE}\n")
    assert done.code == 0 and left_in(target) == ["line-1.cnf", "line-2.cnf"]
