"""An outside package adds a backend through the ``sudoku_solvers.backends`` entry-point group,
with no edit here: the example of CONTRIBUTING.md (tests/plugin_example) is installed for real
by pip beside the project, and the commands are run as a user runs them. Its backend declares
no variant and undercounts on purpose: the judge must catch it everywhere."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy
import pytest
from conftest import ROOM

from solvers.formats.datasets import DATASETS

EXAMPLE = Path(__file__).parent / "plugin_example"
SEVERAL = "".join(line + "\n" for line in DATASETS["several9"].puzzles()[:3])
KILLER = Path("examples/killer.txt").read_text(encoding="utf-8")
STDIN = {"check": SEVERAL, "solve killer": KILLER}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder where pip installed the example package (a copy: a build writes beside it)."""
    where = tmp_path_factory.mktemp("plugin")
    source = shutil.copytree(EXAMPLE, where / "source")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    target = ["--no-build-isolation", "--target", str(where / "site"), str(source)]
    subprocess.run([*pip, *target], check=True, capture_output=True)
    return where / "site"


def sudoku(site: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """The installed ``sudoku`` command with the example package importable, as it would be
    after ``pip install`` into the same environment."""
    env = dict(os.environ, PYTHONPATH=str(site))
    command = [sys.executable, "-m", "solvers", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, env=env)


def test_an_installed_package_adds_a_backend_that_works_everywhere(site):
    calls = {
        "backends": ("backends",),
        "compare": ("compare", "several9", "--limit", "3", "--backends", "undercount,cpsat", *ROOM),
        "check": ("check", "-", "--backends", "undercount,cpsat"),
        "solve killer": ("solve", "-", "--backend", "undercount"),
        "compare killer": (
            "compare",
            "killer9",
            "--limit",
            "2",
            "--backends",
            "undercount,cpsat",
            *ROOM,
        ),
    }
    with ThreadPoolExecutor(len(calls)) as pool:
        runs = {
            name: pool.submit(sudoku, site, *args, stdin=STDIN.get(name, ""))
            for name, args in calls.items()
        }
        done = {name: future.result() for name, future in runs.items()}

    lines = done["backends"].stdout.splitlines()
    listed = [line for line in lines if line.startswith("undercount")]
    assert listed and "sudoku-undercount 0.1.0" in listed[0] and "available" in listed[0]

    compare = done["compare"]
    assert compare.returncode == 4, compare.stdout + compare.stderr
    assert "counts: undercount 1, cpsat 2+" in compare.stdout

    check = done["check"]
    assert check.returncode == 4, check.stdout + check.stderr
    assert "counts: undercount 1, cpsat 2+" in check.stdout

    solve = done["solve killer"]
    assert solve.returncode == 2
    assert solve.stderr.strip().endswith("undercount does not support killercage")

    left_out = done["compare killer"]
    assert left_out.returncode == 0, left_out.stdout + left_out.stderr
    assert "undercount left out: it does not support killercage" in left_out.stdout


# Outside backends that misbehave are contained --------------------------------------------

HOSTILE = Path(__file__).parent / "plugin_hostile"
# The entry points of tests/plugin_hostile, as its installed .dist-info would declare them.
HOSTILE_ENTRY_POINTS = """\
[sudoku_solvers.backends]
osexit = sudoku_hostile:OsExit
segfault = sudoku_hostile:Segfault
exitzero = sudoku_hostile:ExitZero
raisesbase = sudoku_hostile:RaisesBase
deaf = sudoku_hostile:Deaf
inprocess = sudoku_hostile:InProcess
isolated = sudoku_hostile:Isolated
described = sudoku_hostile:Described
exitswhenbuilt = sudoku_hostile:ExitsWhenBuilt
raiseswhenbuilt = sudoku_hostile:RaisesWhenBuilt
returnsnone = sudoku_hostile:ReturnsNone
returnstext = sudoku_hostile:ReturnsText
returnsgenerator = sudoku_hostile:ReturnsGenerator
notabackend = sudoku_hostile:NotABackend
function = sudoku_hostile:a_function
notaclass = sudoku_hostile:NOT_A_CLASS
module = sudoku_hostile
exitsatimport = sudoku_hostile_exits:Backend
raisesatimport = sudoku_hostile_raises:Backend
osexitatimport = sudoku_hostile_imports.osexits:Backend
segfaultatimport = sudoku_hostile_imports.segfaults:Backend
interruptsatimport = sudoku_hostile_imports.interrupts:Backend
raisesbaseatimport = sudoku_hostile_imports.raisesbase:Backend
printsatimport = sudoku_hostile_imports.prints:Prints
encodestext = sudoku_hostile:EncodesText
encodesunknown = sudoku_hostile:EncodesUnknown
optionstext = sudoku_hostile:OptionsText
optionsempty = sudoku_hostile:OptionsEmpty
optionslist = sudoku_hostile:OptionsList
summarynumber = sudoku_hostile:SummaryNumber
librarylist = sudoku_hostile:LibraryList
declarescages = sudoku_hostile_cages:DeclaresCages
two words = sudoku_hostile:Described
a,b = sudoku_hostile:Described
c:d = sudoku_hostile:Described
dfs = sudoku_hostile:Described
all = sudoku_hostile:Described
"""
# Three puzzles of small4: the hostile backends misbehave on the second (its first cell is
# empty), and answer the others with the project's propagating search.
THREE = "3...4.3........2\n.31....32......1\n1..3.....24.....\n"


def installed(site: Path, entry_points: str) -> Path:
    """``site`` holding tests/plugin_hostile as pip would install it: its modules and a
    .dist-info declaring ``entry_points``, found by importlib.metadata on the path."""
    shutil.copytree(HOSTILE, site, ignore=shutil.ignore_patterns("__pycache__"))
    info = site / "sudoku_hostile-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sudoku-hostile\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    (site / "three.txt").write_text(THREE)
    return site


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    return installed(tmp_path_factory.mktemp("hostile") / "site", HOSTILE_ENTRY_POINTS)


@pytest.fixture(scope="module")
def listing(hostile) -> subprocess.CompletedProcess:
    """``sudoku backends`` with tests/plugin_hostile installed, read by the tests of its rows
    and of its notes."""
    (listed,) = run_all(hostile, {"backends": ("backends",)}).values()
    return listed


def run_all(
    site: Path, calls: dict[str, tuple[str, ...]]
) -> dict[str, subprocess.CompletedProcess]:
    """Each call's ``sudoku`` run, at once in threads, with a limit that no hang outlives."""

    def one(args: tuple[str, ...]) -> subprocess.CompletedProcess:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.getcwd()]))
        command = [sys.executable, "-m", "solvers", *args]
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)

    with ThreadPoolExecutor(len(calls)) as pool:
        runs = {name: pool.submit(one, args) for name, args in calls.items()}
        return {name: future.result() for name, future in runs.items()}


def sample_and_rest(cases: list, sample: set) -> list:
    """Two parameters: the cases of the default run, and the rest, slow (each case is a
    process of its own)."""
    return [
        pytest.param(tuple(case for case in cases if case in sample), id="sample"),
        pytest.param(
            tuple(case for case in cases if case not in sample),
            id="rest",
            marks=[pytest.mark.slow],
        ),
    ]


CRASHES = {
    "osexit": "osexit worker died (exit code 3)",
    "segfault": "segfault worker died (exit code -11)",
    "exitzero": "backend raised SystemExit: 0",
    "raisesbase": "backend raised BaseException: a search that gave up its own way",
}


# Each crash on solve, count and check is three processes: the default run takes a crash of
# the process (a segfault) and one in Python (BaseException), the slow run all four; compare
# meets all four in the default run too (below).
CRASHES_BY_DEFAULT = ("segfault", "raisesbase")


@pytest.mark.parametrize(
    "backend",
    [
        pytest.param(name, marks=[] if name in CRASHES_BY_DEFAULT else [pytest.mark.slow])
        for name in CRASHES
    ],
)
def test_an_outside_backend_that_crashes_costs_that_puzzle_alone(hostile, cli, backend):
    three = str(hostile / "three.txt")
    commands = ("solve", "count", "check")
    done = run_all(
        hostile, {c: (c, three, "--backend" + "s" * (c == "check"), backend) for c in commands}
    )
    for command in ("solve", "count"):
        expected = cli(command, three, "--backend", "propagate").out.splitlines()
        said = done[command]
        assert said.returncode == 2, said.stderr
        assert said.stdout.splitlines() == [expected[0], expected[2]]
        assert said.stderr == f"sudoku: line 2: {CRASHES[backend]}\n"
    check = done["check"]
    assert check.returncode == 2, check.stderr
    assert check.stdout.splitlines()[0] == f"line 2: {backend}: {CRASHES[backend]}"
    assert f"{backend}  " in check.stdout and "Traceback" not in check.stderr


def test_an_outside_backend_crash_costs_that_puzzle_alone_with_jobs_too(hostile, cli):
    three = str(hostile / "three.txt")
    calls = {"jobs": ("solve", three, "--backend", "segfault", "--jobs", "2")}
    (done,) = run_all(hostile, calls).values()
    expected = cli("solve", three, "--backend", "propagate").out.splitlines()
    assert done.returncode == 2, done.stderr
    assert done.stdout.splitlines() == [expected[0], expected[2]]
    assert done.stderr == f"sudoku: line 2: {CRASHES['segfault']}\n"


def test_compare_counts_an_outside_backend_crash_as_that_puzzle_error(hostile):
    three = str(hostile / "three.txt")
    backends = ",".join(CRASHES)
    (done,) = run_all(hostile, {"compare": ("compare", three, "--backends", backends)}).values()
    assert done.returncode == 2, done.stdout + done.stderr
    for backend, crash in CRASHES.items():
        row = next(line.split() for line in done.stdout.splitlines() if line.startswith(backend))
        assert row[1:4] == ["2", "0", "1"]  # solved, timeouts, errors
        assert f"{backend}: 1 errors; the first, puzzle 2: {crash}" in done.stdout
    assert "Traceback" not in done.stderr


BUILT = {
    "exitswhenbuilt": "exitswhenbuilt worker died (exit code 4)",
    "raiseswhenbuilt": "backend raised RuntimeError: cannot build",
}


@pytest.mark.parametrize(
    "cases",
    sample_and_rest(
        [(b, c) for b in BUILT for c in ("solve", "compare")],
        {("exitswhenbuilt", "solve"), ("raiseswhenbuilt", "compare")},
    ),
)
def test_an_outside_backend_that_fails_as_it_is_built_fails_each_puzzle_in_one_line(hostile, cases):
    three = str(hostile / "three.txt")
    calls = {(b, c): ("solve", three, "--backend", b) for b, c in cases if c == "solve"}
    calls |= {
        (b, c): ("compare", three, "--backends", f"{b},propagate")
        for b, c in cases
        if c == "compare"
    }
    for (backend, command), done in run_all(hostile, calls).items():
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        if command == "solve":
            assert done.stderr.splitlines() == [
                f"sudoku: line {line}: {BUILT[backend]}" for line in (1, 2, 3)
            ]
        else:
            assert f"{backend}: 3 errors; the first, puzzle 1: {BUILT[backend]}" in done.stdout


MALFORMED = {
    "returnsnone": "search returned NoneType, not a Found",
    "returnstext": "its count '2' is not a whole number",
    "returnsgenerator": "search returned generator, not a Found",
}


@pytest.mark.parametrize(
    "cases",
    sample_and_rest(
        [(b, c) for b in MALFORMED for c in ("solve", "count")],
        {("returnsnone", "solve"), ("returnstext", "count"), ("returnsgenerator", "solve")},
    ),
)
def test_a_malformed_answer_from_a_contained_backend_is_a_bug_line_for_each_puzzle(hostile, cases):
    three = str(hostile / "three.txt")
    calls = {(b, c): (c, three, "--backend", b) for b, c in cases}
    for (backend, command), done in run_all(hostile, calls).items():
        assert done.returncode == 5, (backend, command, done.stderr)
        said = f"BUG: backend {backend} returned a malformed answer: {MALFORMED[backend]}"
        assert done.stderr.splitlines() == [f"sudoku: line {n}: {said}" for n in (1, 2, 3)]


def test_an_outside_search_that_ignores_its_deadline_is_stopped(hostile):
    three = str(hostile / "three.txt")
    calls = {c: (c, three, "--backend", "deaf", "--timeout", "1") for c in ("solve", "count")}
    for command, done in run_all(hostile, calls).items():
        assert done.returncode == 3, (command, done.stderr)
        assert len(done.stdout.splitlines()) == 2
        assert done.stderr == "sudoku: line 2: timeout after 1 s\n"


def test_an_outside_backend_runs_in_a_worker_unless_it_declares_in_process(hostile):
    """The backend names the process that started the one it ran in: this test's process when
    it ran in the sudoku command's own, the command's when it ran in a worker of its own."""
    calls = {
        b: ("solve", str(hostile / "three.txt"), "--backend", b) for b in ("inprocess", "isolated")
    }
    done = run_all(hostile, calls)
    assert done["inprocess"].stderr.endswith(f"ran in a child of process {os.getpid()}\n")
    assert "ran in a child of process" in done["isolated"].stderr
    assert f"process {os.getpid()}\n" not in done["isolated"].stderr


BROKEN = {
    "notabackend": "class NotABackend does not derive from solvers.backends.contract.Backend",
    "function": "it names a function, not a class deriving from Backend",
    "notaclass": "it names a list, not a class deriving from Backend",
    "exitsatimport": "importing sudoku_hostile_exits raised SystemExit: 3",
    "raisesatimport": "importing sudoku_hostile_raises raised RuntimeError: this module cannot",
    "osexitatimport": "importing sudoku_hostile_imports.osexits ended its process (exit code 3)",
    "segfaultatimport": (
        "importing sudoku_hostile_imports.segfaults killed its process (signal SIGSEGV)"
    ),
    "interruptsatimport": "importing sudoku_hostile_imports.interrupts raised KeyboardInterrupt",
    "raisesbaseatimport": (
        "importing sudoku_hostile_imports.raisesbase raised BaseException: a module that gave up"
    ),
    "encodestext": "ENCODES is 'sum groups', not a frozenset of 'sum groups' and 'primitives'",
    "encodesunknown": "ENCODES holds 'everything': it may hold only 'sum groups' and 'primitives'",
    "optionstext": "OPTIONS['model'] is 'fast', not a tuple of values (the default first)",
    "optionsempty": "OPTIONS['model'] is (): give one or more values, as text",
    "optionslist": "OPTIONS is a list, not a mapping of option to values",
    "summarynumber": "SUMMARY is 5, not text",
    "librarylist": "LIBRARY is ['somelib'], not text",
}
UNNAMEABLE = "cannot be given to --backend (letters, digits, - and _ only)"
REFUSED = {
    "module": "'sudoku_hostile' is not 'module:Class'",
    "two words": f"the name 'two words' {UNNAMEABLE}",
    "a,b": f"the name 'a,b' {UNNAMEABLE}",
    "c:d": f"the name 'c:d' {UNNAMEABLE}",
    "dfs": "backend dfs already exists",
    "all": "the name 'all' is taken by --backends all (every backend)",
}


# A solve with each broken backend is a process: the default run takes one of each fault (the
# class, its import raising, its import crashing the process, one attribute: ENCODES; OPTIONS,
# SUMMARY and LIBRARY, which contract_fault checks with it, in the slow run), the slow run the
# rest; the listing names them all in both.
BROKEN_BY_DEFAULT = (
    "notabackend",
    "exitsatimport",
    "segfaultatimport",
    "encodestext",
)


@pytest.mark.parametrize("solved", sample_and_rest(list(BROKEN), set(BROKEN_BY_DEFAULT)))
def test_broken_outside_backends_are_listed_with_why_and_break_nothing(hostile, listing, solved):
    three = str(hostile / "three.txt")
    calls = {"described": ("solve", three, "--backend", "described")}
    calls |= {name: ("solve", three, "--backend", name) for name in solved}
    done = run_all(hostile, calls)
    assert listing.returncode == 0 and "Traceback" not in listing.stderr, listing.stderr
    rows = {line.split()[0]: line for line in listing.stdout.splitlines()}
    assert "propagate, from an outside package" in rows["described"]  # its SUMMARY
    assert f"sudoku-hostile 0.1.0, numpy {numpy.__version__}" in rows["described"]  # LIBRARY
    for name, why in BROKEN.items():
        assert why in rows[name], rows[name]
    for name in solved:
        why = BROKEN[name]
        said = done[name]
        assert said.returncode == 2 and said.stdout == "", said.stderr
        assert len(said.stderr.splitlines()) == 1 and why in said.stderr
    assert done["described"].returncode == 0 and len(done["described"].stdout.splitlines()) == 3


def test_what_an_outside_module_prints_as_it_loads_stays_out_of_the_output(hostile, listing, cli):
    three = str(hostile / "three.txt")
    (solved,) = run_all(
        hostile, {"solve": ("solve", three, "--backend", "printsatimport")}
    ).values()
    printed = ("printed as it loaded", "written to descriptor 1 as it loaded")
    rows = {line.split()[0]: line for line in listing.stdout.splitlines()}
    assert "available" in rows["printsatimport"], rows["printsatimport"]
    assert not any(text in listing.stdout for text in printed), listing.stdout
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout == cli("solve", three, "--backend", "propagate").out
    assert all(text in solved.stderr for text in printed), solved.stderr


# A module that never finishes importing costs the listing IMPORT_SECONDS: installed apart,
# for the slow run alone.
HANGS = """\
[sudoku_solvers.backends]
hangsatimport = sudoku_hostile_imports.hangs:Backend
described = sudoku_hostile:Described
"""


@pytest.fixture(scope="module")
def hanging(tmp_path_factory) -> Path:
    return installed(tmp_path_factory.mktemp("hanging") / "site", HANGS)


@pytest.mark.slow
def test_an_outside_module_that_never_finishes_importing_is_listed_broken_and_stops_nothing(
    hanging, cli
):
    from solvers.backends.probe import IMPORT_SECONDS

    three = str(hanging / "three.txt")
    calls = {
        "backends": ("backends",),
        "named": ("solve", three, "--backend", "hangsatimport"),
        "others": ("compare", three, "--backends", "hangsatimport,propagate"),
        "built in": ("solve", three, "--backend", "propagate"),
        "default": ("solve", three),
        "outside": ("solve", three, "--backend", "described"),
    }
    start = time.perf_counter()
    done = run_all(hanging, calls)
    seconds = time.perf_counter() - start
    why = f"importing sudoku_hostile_imports.hangs did not end within {IMPORT_SECONDS:g} s"
    listed = done["backends"]
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()}
    assert f"backend hangsatimport is broken: {why}" in rows["hangsatimport"]
    assert "available" in rows["described"] and "available" in rows["propagate"]
    for refused in ("named", "others"):
        said = done[refused]
        assert said.returncode == 2 and said.stdout == "", said.stderr
        assert said.stderr == f"sudoku: backend hangsatimport is broken: {why}\n"
    answers = cli("solve", three, "--backend", "propagate").out
    for unaffected in ("built in", "default", "outside"):
        said = done[unaffected]
        assert said.returncode == 0 and said.stdout == answers, (unaffected, said.stderr)
    assert seconds < IMPORT_SECONDS + 30, seconds  # every run at once, each probe within its bound


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_a_command_ended_while_a_module_is_being_imported_leaves_no_import_behind(hanging, number):
    import psutil

    command = [sys.executable, "-m", "solvers", "backends"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(hanging), os.getcwd()]))
    sudoku = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        probes: list[psutil.Process] = []
        for _ in range(600):  # up to 60 s for the command to reach the probe
            children = psutil.Process(sudoku.pid).children(recursive=True)
            if probes := [c for c in children if "sudoku_hostile_imports.hangs" in _argv(c)]:
                break
            time.sleep(0.1)
        assert probes, "the probe never started"
        os.kill(sudoku.pid, number)
        code = sudoku.wait(timeout=10)
    finally:
        sudoku.kill()
    assert code == (128 + number if number != signal.SIGKILL else -number)
    _, alive = psutil.wait_procs(probes, timeout=5)
    assert not alive, alive


def _argv(process) -> list[str]:
    """The command line of ``process``, none for one that has ended meanwhile (another probe)."""
    import psutil

    try:
        return process.cmdline()
    except psutil.Error:
        return []


def test_entry_point_names_that_cannot_be_selected_are_refused_at_listing(listing):
    notes = [line for line in listing.stderr.splitlines() if "left out" in line]
    assert notes == [
        f"sudoku: entry point {name!r} of sudoku-hostile left out: {why}"
        for name, why in REFUSED.items()
    ]
    listed = [line.split()[0] for line in listing.stdout.splitlines()]
    assert listed.count("dfs") == 1 and not {"two", "a,b", "c:d", "all"} & set(listed)


def test_an_outside_backend_declaring_cages_takes_killer(hostile, cli):
    """An installed package whose backend declares the alias ``CAGES`` ("cages") for sum
    groups loads, is given killer cages and solves them."""
    killer = str(hostile / "killer.txt")
    shutil.copy("examples/killer.txt", killer)
    calls = {"backends": ("backends",), "solve": ("solve", killer, "--backend", "declarescages")}
    done = run_all(hostile, calls)
    rows = {line.split()[0]: line for line in done["backends"].stdout.splitlines()}
    assert "units, killercage" in rows["declarescages"], rows["declarescages"]
    solved = done["solve"]
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout == cli("solve", killer, "--backend", "dlx").out


@pytest.mark.slow
def test_an_outside_search_that_ignores_its_deadline_ends_within_the_backstop(hostile):
    empty = hostile / "empty.txt"
    empty.write_text("." * 16 + "\n")
    start = time.perf_counter()
    (done,) = run_all(
        hostile, {"solve": ("solve", str(empty), "--backend", "deaf", "--timeout", "2")}
    ).values()
    seconds = time.perf_counter() - start
    assert done.returncode == 3, done.stderr
    # killed at 2 * 1.5 + 1 s (runner.BACKSTOP), with the command's start-up on top
    assert seconds < 2 * 1.5 + 1 + 3, seconds


def test_every_built_in_backend_keeps_the_contract_outside_ones_are_held_to():
    from solvers.backends import registry
    from solvers.backends.contract import contract_fault

    for name in registry.built_in():
        if registry.availability(name)[0]:
            assert contract_fault(registry.backend_class(name)) is None, name
