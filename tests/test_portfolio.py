"""The portfolio: its answers are the reference's, a member that fails does not make the race
wrong, the deadline holds, and no member's process outlives a call or the command."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from solvers import Board, Shape
from solvers.backends import registry
from solvers.backends.contract import Backend, Found, Operation
from solvers.base.deadline import Deadline
from solvers.base.errors import BackendCrashed, SolveTimeout
from solvers.formats.boards import read_puzzles
from solvers.formats.datasets import open_named
from solvers.run import portfolio
from solvers.run.answer import Status
from solvers.run.portfolio import Portfolio, race
from solvers.run.runner import Runner, built

SUDOKU = str(Path(sys.executable).with_name("sudoku"))
VARIANT_SETS = [
    "thermo9", "arrow9", "kropki9", "xv9", "antiknight9", "antiking9", "nonconsecutive9",
    "killer9", "killer16", "x9", "windoku9", "jigsaw9",
]  # fmt: skip
# Sets whose first puzzle the reference (dfs) counts in a second or so; on the others it
# takes minutes, and they are held against propagate, a search outside the portfolio.
DFS_QUICK = {"killer16": [], "arrow9": [pytest.mark.slow], "killer9": [pytest.mark.slow]}


def first_line(name: str) -> str:
    """The set's header lines and its first puzzle, a file of one puzzle."""
    with open_named(name) as handle:
        lines = handle.read().splitlines()
    puzzle = next(i for i, line in enumerate(lines) if line and not line.startswith("#"))
    return "\n".join(lines[: puzzle + 1]) + "\n"


def first(name: str) -> Board:
    with open_named(name) as handle:
        return next(iter(read_puzzles(handle.read().splitlines()))).board


def children() -> set[int]:
    """This process's living descendants (zombies are reaped by nobody but us: counted)."""
    return {child.pid for child in psutil.Process().children(recursive=True)}


@pytest.fixture
def no_orphans():
    """Every process started during the test is gone at its end."""
    before = children()
    yield
    left = children() - before
    assert not left, f"left behind: {left}"


def agree(board: Board, reference: str, timeout: float) -> None:
    with Runner("portfolio") as racing, Runner(reference) as alone:
        for operation, limit in ((Operation.SOLVE, 1), (Operation.COUNT, 2)):
            mine = racing.each(operation, [board], limit, timeout)[0]
            theirs = alone.each(operation, [board], limit, timeout)[0]
            assert theirs.status is Status.SOLVED, (reference, theirs.status, theirs.detail)
            assert (mine.status, mine.count) == (theirs.status, theirs.count), mine.detail
            if limit == 2:  # unique: one solution, the same
                assert mine.solution == theirs.solution
            engine = racing.engine
            assert mine.stats["winner"] in dict([engine.head, *engine.members])


@pytest.mark.parametrize(
    "dataset", [pytest.param(name, marks=marks) for name, marks in DFS_QUICK.items()]
)
def test_it_solves_and_counts_as_the_reference_does(dataset, no_orphans):
    agree(first(dataset), "dfs", 60)


@pytest.mark.heavy
@pytest.mark.parametrize("dataset", VARIANT_SETS)
def test_it_solves_and_counts_every_shipped_variant_set_as_propagate_does(dataset, no_orphans):
    agree(first(dataset), "propagate", 60)


def test_it_takes_what_every_member_takes():
    for name in (portfolio.HEAD_START, *portfolio.MEMBERS):
        assert Portfolio.ENCODES <= registry.backend_class(name).ENCODES


def test_its_stats_name_the_winner_and_each_members_time(no_orphans):
    members = [real("native"), real("cms")]
    found = race(members, Operation.COUNT, first("thermo9"), 2, Deadline(30))
    assert found.count == 1
    assert found.stats["winner"] in ("native", "cms")
    assert found.stats["native_s"] > 0 and found.stats["cms_s"] > 0
    assert found.stats["members_cpu_s"] > 0


def test_a_puzzle_the_head_start_proves_is_not_raced(no_orphans):
    with Runner("portfolio") as runner:
        runner.engine.head_start = 30.0  # a loaded machine's pauses aside
        runner.count(first("killer16"), 2, timeout=30)  # its first call's set-up, untimed
        answer = runner.count(first("killer16"), 2, timeout=30)
    assert (answer.status, answer.count) == (Status.SOLVED, 1)
    assert answer.stats["winner"] == "propagate"
    assert "native_s" not in answer.stats and "cms_s" not in answer.stats


def test_a_puzzle_the_head_start_proves_loads_no_member(tmp_path):
    # numba (native) and CryptoMiniSat are slow for a fresh process to load
    puzzle = tmp_path / "thermo.txt"
    puzzle.write_text(first_line("thermo9"))
    code = (
        "import sys\n"
        "from solvers.cli.main import main\n"
        f"status = main(['count', {str(puzzle)!r}, '--backend', 'portfolio', '--limit', '2'])\n"
        "print(status, [m for m in ('numba', 'pycryptosat', 'pysat') if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["1", "0 []"]


def test_members_are_loaded_in_their_children_past_the_head_start(no_orphans):
    with Runner("portfolio:head=0") as runner:
        answer = runner.count(first("thermo9"), 2, timeout=60)
        assert (answer.status, answer.count) == (Status.SOLVED, 1)
        assert answer.stats["winner"] in portfolio.MEMBERS
        assert all(isinstance(member, str) for _name, member in runner.engine.members)


def test_a_member_that_cannot_be_loaded_loses(no_orphans):
    members = [("missing", "no_such_backend"), real("propagate")]
    found = race(members, Operation.COUNT, PUZZLE, 2, Deadline(30))
    assert (found.count, found.stats["winner"]) == (1, "propagate")


def killer9_line_47(tmp_path: Path) -> Path:
    """killer9's slowest puzzle for propagate, with the set's rules line."""
    with open_named("killer9") as handle:
        lines = handle.read().splitlines()
    path = tmp_path / "killer9-47.txt"
    path.write_text(f"{lines[2]}\n{lines[46]}\n")
    return path


def test_a_few_puzzles_with_constraints_are_the_portfolios_by_default(cli, tmp_path):
    run = cli("count", str(killer9_line_47(tmp_path)), "--limit", "2", "--json")
    (record,) = [json.loads(line) for line in run.out.splitlines()]
    assert (run.code, record["count"], record["backend"]) == (0, 1, "portfolio")


@pytest.mark.slow
def test_the_default_proves_killer9s_hardest_in_under_a_second(tmp_path):
    """Wall time, start-up included: the race's members each have a core, so their CPU adds
    up past the time a user waits (on a fresh install, native compiling in its child until
    cms wins)."""
    puzzle = str(killer9_line_47(tmp_path))
    command = [SUDOKU, "count", puzzle, "--limit", "2"]
    subprocess.run(command, capture_output=True)  # caches written where they can be
    spent = []
    for _ in range(3):  # the median of three fresh processes
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True)
        spent.append(time.perf_counter() - start)
        assert done.stdout == b"1\n"
    assert sorted(spent)[1] < 1.0, spent


# Members that fail, forked like the real ones -----------------------------------------


class Wrong(Backend):
    """Answers at once with the givens' board filled with ones: never a solution."""

    def search(self, board, deadline, limit):
        cells = tuple(value or 1 for value in board.cells)
        return Found(1, Board.unchecked(board.shape, cells, board.rules))


class Crash(Backend):
    def search(self, board, deadline, limit):
        os._exit(3)  # as a C extension's crash looks to the parent: no answer


class Raises(Backend):
    def search(self, board, deadline, limit):
        raise RuntimeError("a library's own error")


class Sleeps(Backend):
    """Never answers and never looks at its deadline: only a kill stops it."""

    def search(self, board, deadline, limit):
        time.sleep(600)


def real(name: str) -> tuple[str, Backend]:
    from solvers.backends.spec import BackendSpec

    return name, built(BackendSpec.parse(name).resolve())


PUZZLE = first("killer16")


@pytest.mark.parametrize("failing", [Wrong, Crash, Raises])
def test_a_failing_member_does_not_make_the_race_wrong(failing, no_orphans):
    members = [("failing", failing()), real("propagate")]
    for operation, limit in ((Operation.SOLVE, 1), (Operation.COUNT, 2)):
        found = race(members, operation, PUZZLE, limit, Deadline(30))
        assert found.stats["winner"] == "propagate"
        assert found.count == 1


def test_a_wrong_head_start_loses_to_the_race(registered, no_orphans):
    registered("wrong_first", "test_portfolio:WrongFirst")
    with Runner("wrong_first") as runner:
        answer = runner.count(PUZZLE, 2, timeout=30)
    assert (answer.status, answer.count) == (Status.SOLVED, 1)
    assert answer.stats["winner"] == "propagate"


def test_a_wrong_grid_and_no_proof_is_the_judged_error(registered, no_orphans):
    registered("wrong_race", "test_portfolio:WrongRace")
    with Runner("wrong_race") as runner:
        answer = runner.solve(PUZZLE, timeout=10)
    assert answer.status is Status.WRONG


def test_members_that_all_crash_are_a_crash(no_orphans):
    with pytest.raises(BackendCrashed, match=r"failing: .*died"):
        race([("failing", Crash()), ("raises", Raises())], Operation.SOLVE, PUZZLE, 1, Deadline(10))


class WrongFirst(Portfolio):
    """A portfolio whose head start lies."""

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.head = ("wrong", Wrong())
        self.members = [("wrong", Wrong()), real("propagate")]


class WrongRace(Portfolio):
    """A portfolio of a member that lies and one that crashes (for the test above)."""

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.head = ("wrong", Wrong())
        self.members = [("wrong", Wrong()), ("crash", Crash())]


# Deadlines and orphans -----------------------------------------------------------------


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
def test_the_deadline_is_kept_and_every_member_killed(no_orphans):
    timeout = 0.5
    members = [("sleeps", Sleeps()), real("propagate")]
    start = time.perf_counter()
    with pytest.raises(SolveTimeout):  # counting an empty 9x9's solutions never ends
        race(members, Operation.COUNT, Board.empty(Shape(3, 3)), 2**40, Deadline(timeout))
    assert time.perf_counter() - start < timeout * 1.5 + 1


@pytest.mark.slow  # a wall-clock bound, which a loaded machine can miss
def test_a_timeout_through_the_runner(no_orphans):
    with Runner("portfolio") as runner:
        start = time.perf_counter()
        answer = runner.count(Board.empty(Shape(3, 3)), 2**40, timeout=0.5)
    assert answer.status is Status.TIMEOUT
    assert time.perf_counter() - start < 0.5 * 1.5 + 1 + runner.setup_seconds


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_ending_the_command_leaves_no_member_behind(how):
    command = [SUDOKU, "count", "-", "--backend", "portfolio", "--limit", "1000000000"]
    process = subprocess.Popen(
        [*command, "--timeout", "120"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
    )
    process.stdin.write("." * 81 + "\n")
    process.stdin.close()
    members: list[int] = []
    wait_until = time.monotonic() + 60
    while len(members) < 2 and time.monotonic() < wait_until:
        members = [c.pid for c in psutil.Process(process.pid).children(recursive=True)]
        time.sleep(0.05)
    assert len(members) >= 2, "no race started"
    if how == "ctrl-c":  # a terminal sends it to the whole group
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGTERM)
    process.wait(timeout=10)
    process.stderr.close()
    wait_until = time.monotonic() + 2
    while any(map(alive, members)) and time.monotonic() < wait_until:
        time.sleep(0.05)
    assert not [pid for pid in members if alive(pid)]


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
