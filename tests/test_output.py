"""What the command prints: the version, boards, progress on a terminal, notes and help."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from conftest import BACKENDS

import solvers
from solvers import solve
from solvers.backends import registry
from solvers.cli.main import main
from solvers.formats.datasets import DATASETS, path_of
from solvers.model.compile import PRIMITIVES

SUDOKU = [sys.executable, "-m", "solvers"]


def metadata_version() -> str:
    from importlib.metadata import version

    return version("sudoku-solvers")


@pytest.mark.parametrize("argv", [["--version"], ["-V"]])
def test_version_is_the_package_metadata(argv):
    done = subprocess.run([*SUDOKU, *argv], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"sudoku {metadata_version()}\n"
    assert solvers.__version__ == metadata_version()


def test_the_sudoku_script_prints_the_version_too():
    script = Path(sys.executable).parent / "sudoku"
    done = subprocess.run([script, "--version"], capture_output=True, text=True, check=False)
    assert done.stdout.split() == ["sudoku", metadata_version()]


def test_a_printed_solution_is_a_grid():
    answer = solve("1" + "." * 15, backend="dfs")
    assert str(answer.solution) == "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1"
    assert repr(answer.solution).startswith("Board(shape=")


def slow_file(tmp_path: Path, count: int = 300) -> Path:
    """``count`` hard puzzles for `mrv`: 300 make a run that outlasts the bar's delay (0.5 s)
    even with two jobs on a quiet machine."""
    hard = [line for line in Path(path_of("hard9")).read_text().splitlines() if line[:1] != "#"]
    path = tmp_path / "hard.txt"
    path.write_text("\n".join((hard * 3)[:count]) + "\n")
    return path


def on_a_terminal(argv: list[str], cwd: Path) -> tuple[str, bytes]:
    """(stdout, everything written to stderr) of a run whose stderr is a terminal."""
    leader, follower = pty.openpty()
    # A terminal window of 24 rows and 100 columns, as a user's has (a bare pty has none).
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    answers = (cwd / "answers.txt").open("w+b")  # a file: a pipe left unread could fill up
    process = subprocess.Popen(
        [*SUDOKU, *argv],
        stdout=answers,
        stderr=follower,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        env=env,
    )
    os.close(follower)
    seen = bytearray()
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            process.kill()
            pytest.fail("no output on the terminal for 60 s")
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the run has ended and closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    process.wait(30)
    os.close(leader)
    answers.seek(0)
    with answers:
        return answers.read().decode(), bytes(seen)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_progress_on_a_terminal_reaches_the_total_and_ends_its_line(tmp_path, jobs):
    count = 300  # past the bar's delay (0.5 s) by far, on a quiet machine too
    path = slow_file(tmp_path, count)
    stdout, terminal = on_a_terminal(
        ["solve", str(path), "--backend", "mrv", "--jobs", jobs], tmp_path
    )
    assert len(stdout.splitlines()) == count
    text = terminal.decode().replace("\r\n", "\n")  # the terminal's own line ends
    assert f"{count}/{count}" in text, text
    last = text.rsplit("\r", 1)[-1]  # what the bar shows last
    assert f"{count}/{count}" in last and "puzzles/s" in last
    assert text.endswith("\n")


def test_no_progress_on_a_pipe(tmp_path):
    path = slow_file(tmp_path, 120)
    done = subprocess.run(
        [*SUDOKU, "solve", str(path), "--backend", "mrv"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 120
    assert done.stderr == ""


@pytest.mark.slow
def test_a_first_native_run_says_it_compiles_and_how_long_it_took(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))  # an empty cache
    board = tmp_path / "board.txt"
    board.write_text("1" + "." * 15 + "\n")
    command = [*SUDOKU, "solve", str(board), "--backend", "native"]  # a board's default: propagate
    first = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert first.returncode == 0, first.stderr
    notice, took = first.stderr.splitlines()
    assert notice.startswith("sudoku: compiling the native kernel with numba, once")
    assert re.fullmatch(r"sudoku: native compiled in \d+\.\d s", took)
    again = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert (again.stdout, again.stderr) == (first.stdout, "")


@pytest.mark.slow  # compiles the kernel into an empty cache (docs/native.md: its compile time)
def test_a_first_test_session_says_it_compiles_the_kernel_before_it_does(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))  # an empty cache
    test = "tests/test_dfs.py::test_boj2239_answer_from_the_library"
    command = [sys.executable, "-m", "pytest", test, "-q", "-n", "0", "-p", "no:cacheprovider"]
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=root, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    said = lines.index(
        "compiling the native kernel with numba, once before the tests (about 90 s of CPU)"
    )
    assert re.fullmatch(r"native kernel compiled in \d+\.\d s", lines[said + 1])
    assert "1 passed" in lines[-1]


def test_a_run_with_the_kernel_compiled_says_nothing_of_it(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("1" + "." * 15 + "\n")
    done = subprocess.run([*SUDOKU, "solve", str(board)], capture_output=True, text=True)
    assert (done.returncode, len(done.stdout), done.stderr) == (0, 17, "")


def test_a_bad_option_is_said_before_anything_compiles(tmp_path):
    # the one backend a command runs is compiled where its spec is resolved (inputs.plan_of),
    # so a spec that does not resolve ends the run with its message alone
    board = tmp_path / "board.txt"
    board.write_text("1" + "." * 15 + "\n")
    command = [*SUDOKU, "count", str(board), "--backend", "native:x=1"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "sudoku: backend native has no option 'x' "
        "(options: implied=on|off, choice=houses|wdeg|values)\n"
    )


def test_the_default_runs_native_on_a_file_of_many_puzzles_only(tmp_path):
    from solvers.backends.choice import SMALL_RUN
    from solvers.cli.compiling import default_compiled

    few, many = tmp_path / "few.txt", tmp_path / "many.txt"
    few.write_text(("." * 81 + "\n") * SMALL_RUN)
    many.write_text(("." * 81 + "\n") * (SMALL_RUN + 1))
    assert default_compiled(str(tmp_path / "x.txt")) == []  # no such file: a small run's default
    assert default_compiled("-") == []
    assert default_compiled(str(few)) == []
    assert [spec.name for spec in default_compiled(str(many))] == ["native"]


ROOT = Path(__file__).resolve().parents[1]


def test_solve_json_seconds_keep_four_significant_digits(cli):
    import json

    run = cli("solve", str(ROOT / "examples" / "boj2239.txt"), "--json", "--backend", "sat")
    seconds = json.loads(run.out)["seconds"]
    assert seconds > 0 and float(f"{seconds:.4g}") == seconds


def test_one_puzzle_is_one_puzzle(cli):
    one = "1" + "." * 15 + "\n"
    assert "\n1 puzzle: 1 agree" in cli("check", "--backends", "dfs,sat", stdin=one).out
    run = cli("compare", "-", "--backends", "dfs", "--limit", "1", stdin=one)
    assert run.out.startswith("-: 1 puzzle, mode unique, timeout 0.5 s per puzzle"), run.out


def test_generate_help_says_what_difficulty_means(cli, capsys):
    from solvers.cli.parser import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["generate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--difficulty {easy,medium,hard} keep drawing until a puzzle is this hard" in help_text


@pytest.mark.parametrize(
    "command", ["solve", "count", "check", "encode", "generate", "compare", "report"]
)
def test_help_examples_name_files_that_exist(command, capsys):
    from solvers.cli.parser import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    example = capsys.readouterr().out.split("example:", 1)[1].split("\n\n")[0]
    named = re.findall(r"[\w./-]+\.txt\b", example)
    for path in named:  # in this checkout, or one of the public sets beside it (README)
        assert (ROOT / path).is_file() or path.startswith("../shared/data/"), path


def test_compare_on_a_missing_dataset_lists_the_shipped_ones(cli):
    run = cli("compare", "nosuchset")
    assert run.code == 2
    assert run.err.startswith("sudoku: cannot read nosuchset: No such file or directory; ")
    assert "easy9, hard9, small4" in run.err and "('sudoku datasets')" in run.err
    assert len(run.err.splitlines()) == 1


def test_report_into_a_missing_folder_is_refused_and_makes_none(cli, compare_run, tmp_path):
    """As --json and --plot (docs/commands.md): a typo in -o makes no folder."""
    page = tmp_path / "new" / "deeper" / "report.html"
    run = cli("report", str(compare_run[1]), "-o", str(page))
    assert run.code == 2 and "no folder" in run.err and str(page) in run.err
    assert not (tmp_path / "new").exists()


def test_times_keep_their_trailing_zeros():
    from solvers.analysis.summary import ms

    assert [ms(s) for s in (0.001, 0.00106, 0.0000223, 0.0121, 0.0999999, 0.7354)] == [
        "1.00",
        "1.06",
        "0.0223",
        "12.1",
        "100",
        "735",
    ]


# What an engine prints never reaches the answers: standard output holds them alone.

CHATTY = (
    "import sys\n"
    f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
    "from solvers.backends import registry\n"
    "from solvers.cli.main import main\n"
    "registry.register('chatty', 'tiny_backend:Chatty', summary='prints as it searches')\n"
    "sys.exit(main())\n"
)


@pytest.mark.parametrize("command", ["solve", "count"])
def test_what_an_engine_prints_goes_to_stderr_never_among_the_answers(tmp_path, command):
    puzzles = tmp_path / "small.txt"
    lines = DATASETS["small4"].puzzles()[:3]
    puzzles.write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [sys.executable, "-c", CHATTY, command, str(puzzles), "--backend", "chatty"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    expected = io.StringIO()
    assert main([command, str(puzzles), "--backend", "dfs"], expected, io.StringIO()) == 0
    assert done.stdout == expected.getvalue() and len(done.stdout.splitlines()) == 3
    assert done.stderr.count("chatty from C") == 3 and done.stderr.count("chatty from Python") == 3


def variant_puzzles(name: str, count: int) -> list[str]:
    """The first ``count`` puzzles of a shipped variant set, each under its rules line."""
    lines, rules = [], ""
    for line in Path(path_of(name)).read_text().splitlines():
        if line.startswith("# rules:"):
            rules = line
        elif line and not line.startswith("#") and len(lines) < 2 * count:
            lines += [rules, line]
    return lines


def library_engines() -> list:
    # the backends over a library that encode every kind (the handwritten ones print nothing;
    # dfs, the reference, and csp, a pure-Python search, take minutes on these); mip in the
    # default run (HiGHS prints a log unless its output is turned off), the rest heavy
    return [
        pytest.param(name, marks=[] if name == "mip" else [pytest.mark.heavy])
        for name in BACKENDS
        if registry.entry(name).distribution is not None
        and PRIMITIVES in registry.backend_class(name).ENCODES
        and name != "csp"
    ]


@pytest.mark.parametrize("backend", library_engines())
def test_each_engine_leaves_standard_output_to_the_answers(tmp_path, backend):
    puzzles = tmp_path / "variants.txt"
    lines = [*variant_puzzles("kropki9", 2), *variant_puzzles("xv9", 1)]
    puzzles.write_text("\n".join([*lines, *variant_puzzles("thermo9", 1)]) + "\n")
    args = ["solve", str(puzzles), "--format", "line"]
    expected = io.StringIO()
    assert main([*args, "--backend", "propagate"], expected, io.StringIO()) == 0
    done = subprocess.run(
        [sys.executable, "-m", "solvers", *args, "--backend", backend],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected.getvalue() and len(done.stdout.splitlines()) == 4
