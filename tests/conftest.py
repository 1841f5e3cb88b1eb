from __future__ import annotations

import io
import os
import pickle
import random
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import corpus

from solvers import Board, Shape
from solvers.backends import registry
from solvers.cli.main import main

pytest.register_assert_rewrite("own_models")  # its asserts say what differed, as a test's do

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
# compare's default timeout (0.5 s) is wall-clock time, which a loaded machine can miss: a test
# that expects every puzzle answered gives the run room.
ROOM = ("--timeout", "30")
SIMULATED = os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")
# Backends that need a command a pip install does not bring; without it they are left out of
# the tests of every backend, and their own tests skip naming why (tests/test_minizinc.py).
TOOLCHAINS = {"minizinc": "minizinc"}
# Backends that need a device: without it (or on numba's simulator, which would take minutes
# for the tests of every backend) they are left out of those tests, and their own tests run
# them on the simulator (tests/test_gpu.py).
DEVICES = {"gpu": "/dev/nvidiactl"}
BACKENDS = [
    name
    for name in registry.names()
    if (name not in TOOLCHAINS or shutil.which(TOOLCHAINS[name]))
    and (name not in DEVICES or (os.path.exists(DEVICES[name]) and not SIMULATED))
]

BOJ2580_IN = """\
0 6 8 0 0 0 9 3 0
0 4 2 0 0 0 6 0 0
1 9 0 0 8 0 0 4 0
0 8 5 2 0 1 0 0 7
7 0 0 8 9 0 0 0 0
2 0 9 0 0 7 5 0 3
0 2 0 1 0 0 0 5 0
8 5 0 0 4 0 7 6 0
4 7 3 0 5 2 0 0 9
"""
BOJ2580_OUT = """\
5 6 8 7 2 4 9 3 1
3 4 2 5 1 9 6 7 8
1 9 7 3 8 6 2 4 5
6 8 5 2 3 1 4 9 7
7 3 4 8 9 5 1 2 6
2 1 9 4 6 7 5 8 3
9 2 6 1 7 8 3 5 4
8 5 1 9 4 3 7 6 2
4 7 3 6 5 2 8 1 9
"""
BOJ2239_IN = " ".join(
    [
        "103000509",
        "002109400",
        "000704000",
        "300502006",
        "060000050",
        "700803004",
        "000401000",
        "009205800",
        "804000107",
    ]
)
BOJ2239_OUT = " ".join(
    [
        "143628579",
        "572139468",
        "986754231",
        "391542786",
        "468917352",
        "725863914",
        "237481695",
        "619275843",
        "854396127",
    ]
)


T = TypeVar("T")


@dataclass
class CliRun:
    code: int
    out: str
    err: str


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): a worker per core, at most four (each worker loads
    the engines afresh; on 2 cores, 4 workers were slower than 2). ``--dist loadfile`` keeps a
    file's tests on one worker, so a module's fixture (every README block run at once, a
    compare run, the engines' runners) is made once."""
    return min(4, os.cpu_count() or 1)


def _hangups_reach_the_commands_run() -> None:
    """A test run under ``nohup`` (or any parent that ignores SIGHUP) passes the ignored
    SIGHUP to every command it starts, and the command keeps it ignored as nohup asks
    (docs/commands.md), so the tests that send SIGHUP would see it ignored. Here it is caught
    by a handler that does nothing instead: the run itself still outlives a hangup, and a
    command it starts gets SIGHUP's default again (exec resets a caught signal, not an
    ignored one)."""
    if signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
        signal.signal(signal.SIGHUP, lambda number, frame: None)


_hangups_reach_the_commands_run()


def _ctrl_c_reaches_the_scripts_run() -> None:
    """A shell without job control starts a background job (``pytest &`` in a script) with
    SIGINT ignored, and every process under it inherits that: Python then installs no
    KeyboardInterrupt, so a test's own script that is sent SIGINT (test_bulk_signals) never
    stops. The ``sudoku`` command puts in its own handlers either way."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


_ctrl_c_reaches_the_scripts_run()


def _signal_state() -> tuple:
    """What a command started from here inherits of the stopping signals: each one's
    disposition (an ignored one stays ignored across exec) and the blocked set."""
    dispositions = tuple(signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM))
    return dispositions, signal.pthread_sigmask(signal.SIG_BLOCK, [])


@pytest.fixture(autouse=True)
def _signals_left_as_found():
    """A test (or the code it calls in this process) that leaves Ctrl-C ignored or blocked
    here makes every later command a test starts deaf to it: a test that sends SIGINT then
    waits out its timeout, far from the cause. Named at the test that did it."""
    before = _signal_state()
    yield
    after = _signal_state()
    assert after == before, f"signals changed by this test: {before} -> {after}"


def pytest_sessionstart(session: pytest.Session) -> None:
    """The native kernels compiled once, before any test and before pytest-xdist's workers
    start (in a worker, ``workerinput`` is set: the controller has done it): a command that
    meets them uncompiled says so on stderr, which the tests comparing output must not see.
    The notice itself is tested with a cache folder of its own (tests/test_output.py)."""
    if hasattr(session.config, "workerinput"):
        return
    _compile_bytecode()
    if registry.availability("native")[0]:
        from solvers.backends.handwritten.native.warmup import compile_kernels, compiled

        if compiled() is False:
            say = _say(session)
            say("compiling the native kernel with numba, once before the tests (about 90 s of CPU)")
            start = time.perf_counter()
            compile_kernels()
            say(f"native kernel compiled in {time.perf_counter() - start:.1f} s")


def _say(session: pytest.Session) -> Callable[[str], None]:
    """A line on the terminal now, past pytest's capture (its reporter's, where it has one)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        return lambda text: (reporter.write_line(text), reporter.flush())
    return lambda text: print(text, file=sys.__stderr__, flush=True)


def _compile_bytecode() -> None:
    """The project's modules compiled to bytecode once, before the workers start. The package
    is installed editable, so pip compiled none of it, and where PYTHONDONTWRITEBYTECODE is set
    (as on the machines the project is developed on) every ``sudoku`` process a test starts
    compiled all it imports again, a cost each (docs/startup.md) that adds up over the suite.
    Python reads bytecode that is there even where it writes none."""
    import compileall

    root = Path(__file__).resolve().parents[1]
    for folder in ("solvers", "adapters", "tests"):
        compileall.compile_dir(root / folder, quiet=2)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session):
    """pytest rewrites the asserts of every test module as it imports it (6 s of CPU for the
    suite, in each worker) and keeps the rewritten bytecode only where bytecode may be written:
    where PYTHONDONTWRITEBYTECODE is set, every worker of every run rewrote them all again. As
    ``_compile_bytecode`` does for the project's modules, the rewritten ones are kept."""
    keep = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = keep


# The files whose tests take longest, handed out first (pyproject's --no-loadscope-reorder:
# pytest-xdist would otherwise hand out the files with the most tests first, and these few-test,
# long files came last, one worker running them alone while the other sat idle): the longest of
# the default run (``pytest -p no:randomly --durations=0``, summed by file, at c569e07 with the
# HEAVY below), then those of the heavy run.
HEAVY_FIRST = (
    "test_gpu.py",
    "test_kind_soundness.py",  # its heavy form: minutes of one worker (the variant sets)
    "test_plugins.py",
    "test_compare.py",
    "test_crosscheck.py",
    "test_signals.py",
    "test_failures.py",
    "test_report.py",
    "test_parallel.py",
    "test_readme.py",
    "test_vocabulary.py",
    "test_output.py",
    "test_generate.py",
    "test_specs.py",
)


@dataclass(frozen=True)
class AllBut:
    """In HEAVY, the ids of the parameters that are heavy: the rest stay in the default run."""

    ids: tuple[str, ...]


# Long or process-heavy tests that time no deadline: ``pytest -m heavy`` runs them (CI does, on
# every core, beside the default run), and the default run keeps a small form of each behaviour.
# Per file, each test named here: None, the whole test is heavy (a cheaper test of the same
# behaviour stays in the default run, named in the comment); the ids of the parameters the
# default run keeps, the rest heavy; or AllBut(the ids of the heavy ones). Marked here, not on
# each test, so that the default run's size is set in one place and measured as one
# (docs/startup.md, "How long the first compile and the tests take"). A name that no longer
# matches a test fails the collection.
HEAVY: dict[str, dict[str, tuple[str, ...] | AllBut | None]] = {
    "test_bad_input.py": {
        # a line with no end under a 600 MB limit, one line's error: test_dev_zero_ends_with_a_
        # message (this long form pipes 400 MB through, and answers the puzzle after it)
        "test_a_line_with_no_end_is_named_without_holding_it_in_memory": None,
    },
    "test_bulk.py": {
        # each command and each form of file (with a CSV header and without) once: count on
        # the plain file, solve on the one with a header; the other two pairs under heavy
        "test_jobs_answer_a_large_file_as_one_job_does": (
            "count --limit 3-",
            "solve-quizzes,solutions\\n",  # the id pytest gives the header (its line end escaped)
        ),
    },
    "test_cage_models.py": {
        # each cage model beside the sum's own on the same killer boards: choco's, cpmpy's and
        # cpsat's in the default run; mip's and z3's (4.3-4.5 s each of one worker on a loaded
        # machine, the three others 0.9-1.9 s) under heavy
        "test_each_cage_model_counts_killer_boards_as_cpsat_does": ("choco", "cpmpy", "cpsat"),
    },
    "test_candidates.py": {
        "test_a_sample_of_every_shipped_set_agrees_with_two_engines_enumerations": (
            "small4",
            "hard9",
            "thermo9",
            "killer9",
        ),
    },
    "test_compare.py": {
        # a rule a backend lacks: test_a_runner_does_not_attempt_a_board_whose_rules_its_...
        "test_a_backend_that_does_not_encode_a_rule_is_left_out_and_never_answers": None,
        # a wrong answer: test_a_shuffled_copy_that_disagrees_with_its_puzzle_is_a_wrong_answer
        "test_another_count_on_a_shuffled_copy_is_a_wrong_answer": None,
    },
    "test_compare_strength.py": {
        # the report's strength: test_a_refuted_puzzle_is_counted_in_the_table_the_run_file_...
        "test_the_report_shows_per_level_and_per_puzzle_strength": None,
        # strength in the run file and page: test_a_refuted_puzzle_is_counted_in_the_table_...
        "test_a_run_without_strength_has_none_in_its_file_or_its_page": None,
    },
    "test_constraints.py": {
        "test_check_and_decomposition_agree": (
            "candidates",
            "difference",
            "even",
            "odd",
            "ratio",
            "xv",
            "littlekiller",
            "modularline",
            "multisumcage",
            "parityline",
            "renban",
            "slow-thermometer",
            "arrow",
            "killercage",
        ),
    },
    "test_crosscheck.py": {
        # every backend on the corpus: test_every_backend_answers_the_corpus_right
        "test_random_boards_with_holes_all_backends_complete_and_agree": None,
        "test_random_variant_boards_every_supporting_backend_completes_and_agrees": None,
        # check on the corpus: test_check_command_reports_timeouts_apart and the tests after it
        "test_check_command_agrees_on_the_corpus": None,
    },
    "test_engines.py": {
        "test_variants_are_counted_as_cpsat_counts_them": ("cms1", "choco", "exactcover"),
        "test_tdoku_style_counts_agree_for_every_backend": (
            "6.71..5.42.......9...43.....2.3...7...1.....2....1.4.3.8...52611..68..977..9..3.5:0",
        ),
        "test_highspy_and_ortools_share_a_process_in_either_order": ("ortools-highspy",),
    },
    "test_fpuzzles.py": {
        # a document cut short: test_a_document_cut_short_is_one_error_and_the_commands_answer_...
        "test_a_pretty_printed_document_cut_short_is_one_error_and_the_documents_after_it_"
        "are_read": None,
    },
    "test_fpuzzles_kinds.py": {
        "test_round_trip_through_the_text_form_solves_the_same_with_the_same_constraints": (
            "xv",
            "zipper",
            "anti-king",
            "arrow",
            "odd",
            "palindrome",
            "thermometer",
            "xsum",
        ),
    },
    "test_formats.py": {
        "test_utf16_on_standard_input_reads_as_its_utf8_original": ("utf-16-be",),
        # the bulk path's reader (count --jobs 2: two worker processes each) on one encoding of
        # each width and byte order; the per-puzzle reader on all four in the default run
        "test_a_utf16_or_utf32_file_reads_as_its_utf8_original": AllBut(
            ("puzzles.txt-count --jobs 2-utf-16-be", "puzzles.txt-count --jobs 2-utf-32-le")
        ),
    },
    "test_generate.py": {
        "test_shipped_dataset_matches_its_recorded_command": (
            "small4",
            "six6",
            "nosolution9",
            "several9",
            "x9",
        ),
        "test_every_size_works": (
            "4-None-None",
            "6-3x2-None",
            "6-None-None",
            "8-None-None",
            "12-None-90",
        ),
    },
    "test_gpu.py": {
        # a line file counted as native counts it, each answer: its count with a deadline (a
        # 9x9 unfinished in its batch), and its solve without one, stay in the default run
        "test_a_line_file_is_answered_as_natives_byte_for_byte": AllBut(("count-lines1-options1",)),
        # the script's long batches (``simulated_long``): the default kernel's searches, each
        # answer native's, and a search past ``each`` in a batch of its own, in the default run
        "test_both_kernels_search_alike_pausing_between_launches": None,
        "test_the_band_kernel_searches_as_natives_band_kernel_does": None,
        "test_a_search_past_each_is_unfinished_and_the_others_answered": ("each",),
    },
    "test_handwritten.py": {"test_25x25_half_empty_boards_are_solved": ("native",)},
    "test_interrupts.py": {
        "test_a_signal_ends_every_backend_on_every_path": ("sat-solve FILE-sighup",)
    },
    "test_judge.py": {
        # a disputed backend in compare's tables: test_compare_catches_a_miscount_as_check_does
        "test_compare_marks_a_disputed_backend_and_leaves_it_out_of_best_and_the_vbs": None,
    },
    "test_kind_soundness.py": {
        # a kind of each family of rules (each module of solvers/model/constraints; one of the
        # three indexers, whose examples cost 1.3-4 s): of the two whose examples explained
        # quickest at c569e07, the one of less CPU at 6bfc5a1 (fasttests43j: the nine others,
        # 1.3 s of CPU, under heavy; the rest, 0.9-7.4 s each, and entropic's 4.6 s were there
        # already). Every kind under heavy; the made puzzles below keep six more kinds' steps
        # in the default run
        "test_every_kind_s_steps_keep_the_solution": (
            "dutchflatmates",
            "even",
            "negative-xv",
            "killercage",
            "zipper",
            "sandwich",
            "regionsumline",
            "boxindexer",
            "globalentropy",
            "countingcircles",
        ),
        # the first of each kind's three made puzzles (killercage's, 4 s, under heavy: its
        # kind's example stays above)
        "test_steps_keep_the_solution_on_puzzles_made_for_each_kind": (
            "parityline-0",
            "betweenline-0",
            "renban-0",
            "whispers-0",
            "odd-0",
            "palindrome-0",
            "sandwich-0",
        ),
        # arrow9's (4 s) and windoku9's (3.5 s) under heavy, beside every kind's example and the
        # sets at length
        "test_steps_keep_the_solution_on_the_shipped_variant_sets": ("thermo9", "x9", "antiking9"),
    },
    "test_minizinc.py": {
        "test_the_model_encode_writes_prints_the_projects_answer": ("windoku", "killer", "classic"),
        "test_counts_match_the_other_engines_on_the_shipped_sets": ("nosolution9",),
    },
    "test_native.py": {
        "test_killer_counts_agree_with_cpsat_pysat_and_propagate": (
            "6-none-4-4-2",
            "4-several-12-2-50",
        ),
    },
    "test_native_models.py": {
        "test_each_native_model_counts_as_the_decomposition_does_and_is_verified": (
            "sandwich",
            "xsum",
            "killercage",
            "renban",
        ),
    },
    "test_native_minizinc.py": {
        # each native model on one board in the default run (each count a minizinc command):
        # the hand-made board of four kinds, the board made unique by its rule of the others
        "test_each_native_model_counts_the_kinds_hand_made_board_as_its_meaning_says": (
            "killercage",
            "renban",
            "sandwich",
            "skyscraper",
        ),
        "test_each_native_model_makes_the_board_made_for_it_unique_as_the_rule_does": (
            "slow-thermometer",
            "thermometer",
            "xsum",
        ),
    },
    "test_native_mip.py": {
        # the board-wide kinds of aggregated pair rows: their boards have few solutions. The
        # others have boards of 24-72 solutions, each a new solve of HiGHS (20-35 s a kind on
        # a loaded machine); every kind's model still counts its made puzzles (one solution,
        # several without the rule: test_each_made_puzzle_is_unique_by_its_rule_alone) and
        # either counts its boards or solves its example on 9x9 in the default run, each
        # answer verified
        "test_each_native_model_counts_as_the_decomposition_and_cpsat_do": (
            "negative-difference",
            "negative-ratio",
            "negative-xv",
        ),
        # the others' examples on 9x9: the three counted above solve theirs under heavy
        # (board-wide rules, HiGHS's slowest: 0.8-4 s of one worker's wall each on a loaded
        # machine, negative-xv's the longest test of the file)
        "test_each_native_model_solves_the_kinds_example_on_9x9": AllBut(
            ("negative-difference", "negative-ratio", "negative-xv")
        ),
    },
    "test_native_z3.py": {
        # the kind whose board Z3 counts quickest (1-2 s for its two models on a loaded machine;
        # thermometer's and renban's 1.5-4.7 s, the others 3.9-11.6 s): every kind's model still
        # counts its made puzzles (one solution, several without the rule) and solves its
        # example in the default run, each answer verified
        "test_each_native_model_counts_as_the_decomposition_and_cpsat_do": ("whispers",),
        # Boolean cells: test_each_native_model_counts_as_the_decomposition_and_cpsat_do
        "test_each_native_model_over_integer_and_bitvector_cells_counts_alike": None,
    },
    "test_output.py": {
        # a report refused: tests/test_writes.py refuses a missing folder for every option
        "test_report_into_a_missing_folder_is_refused_and_makes_none": None,
        "test_progress_on_a_terminal_reaches_the_total_and_ends_its_line": ("2",),
    },
    "test_parallel.py": {
        "test_jobs_give_the_serial_output_in_input_order": ("command1",),
        # compare with jobs: test_jobs_give_the_serial_output_in_input_order
        "test_compare_with_jobs_counts_what_a_serial_run_counts": None,
    },
    "test_plugins.py": {
        # an installed outside package's backend on every command: the tests of
        # tests/plugin_hostile, installed the same way, below
        "test_an_installed_package_adds_a_backend_that_works_everywhere": None,
        # an outside backend solves, counts and compares: the tests of tests/plugin_hostile
        "test_an_outside_backend_declaring_cages_takes_killer": None,
        # a crash in compare: test_an_outside_backend_that_crashes_costs_that_puzzle_alone
        "test_compare_counts_an_outside_backend_crash_as_that_puzzle_error": None,
        "test_an_outside_backend_crash_costs_that_puzzle_alone_with_jobs_too": None,
    },
    "test_portfolio.py": {"test_a_failing_member_does_not_make_the_race_wrong": ("Raises",)},
    "test_prime_sizes.py": {
        "test_every_jigsaw_backend_counts_prime_boards_as_dfs_does": (
            "portfolio",
            "exactcover",
            "sat",
            "dlx",
            "native",
            "propagate",
            "pysat",
        ),
    },
    "test_readme.py": {
        # README.md:36 runs a compare, README.md:145 a check of 20 puzzles by three engines
        # (1.2 s of CPU: the command's own tests, tests/test_crosscheck.py's, stay); the
        # README's other blocks and docs/library.md's stay
        "test_readme_example_prints_what_the_readme_shows": (
            "README.md:95",
            "README.md:110",
            "README.md:122",
            "README.md:133",
            "README.md:163",
        ),
    },
    "test_regression.py": {
        # the report of a regression: test_report_against_an_older_run_names_its_machine_factor
        "test_the_report_shows_the_regressions": None,
    },
    "test_report.py": {
        "test_time_axes_have_readable_ticks_whatever_the_range": ("two-sat-encodings",),
        "test_log_ticks_label_any_range_readably": ("0.9-1.1", "0.01-5000"),
    },
    "test_shuffle.py": {
        "test_each_shuffled_copy_solves_to_the_puzzles_solution_mapped": (
            "2x2",
            "2x3",
            "3x4",
            "3x2",
            "3x3",
        ),
    },
    "test_sigh.py": {
        "test_a_string_that_starts_with_a_type_of_no_arguments_is_read_as_iss": (
            ".DisjointSets",
            ".StrictXV",
        ),
    },
    "test_signals.py": {
        "test_a_signal_ends_an_untimed_native_search": ("sighup-count",),
        "test_a_signal_ends_the_run_quickly_and_leaves_no_process": (
            "ctrl-c-solve --jobs 2",
            "sigterm-count in a worker",
            "sighup-compare",
        ),
    },
    "test_specs.py": {
        # a write error named in one line: test_report.py's test_a_full_disk_is_named_as_a_...
        "test_a_closed_pipe_under_an_output_file_is_a_write_error": None,
        "test_a_spec_that_restates_a_default_is_the_same_row_and_baseline": (
            "sat:encoding=reduced,native-sat",
        ),
    },
    "test_stderr_closed.py": {
        "test_a_stderr_read_for_its_first_line_alone_loses_no_answer": ("--backend sat",),
        "test_a_stderr_whose_reader_is_gone_loses_the_messages_alone": ("--backend sat",),
    },
    "test_sum_encodings.py": {
        # the sums' diagrams on random killer boards counted as the rows count them: one seed
        # (the quickest, 2.1 s of one worker on a loaded machine) in the default run, the
        # other three (3-5.3 s each) under heavy
        "test_killer_boards_count_alike": ("3",),
    },
    "test_strength_links.py": {
        # a UR type 3 met on a shipped puzzle's rating path (5 s): the hidden set's form on
        # another shipped puzzle below it, and test_unique_rectangle_type_three's naked set
        "test_rate_meets_a_unique_rectangle_type_three_that_keeps_the_solution": None,
    },
    "test_strength_se.py": {
        # every step sound on seven hard9 puzzles that need chains (7-11 s): the cycles each
        # in test_strength_links (and explain's XY-cycle on hard9's 10th puzzle, its removal
        # checked against the solution); the same on all of hard9 under slow
        "test_every_step_is_sound_on_puzzles_that_need_chains": None,
    },
    "test_strength.py": {
        # ctrl-c ends a command with 130 and no traceback: tests/test_signals.py
        "test_ctrl_c_ends_a_strength_run_with_130_and_no_traceback": None,
        "test_rate_and_explain_on_every_shipped_set": (
            "nosolution9-2",
            "six6-2",
            "small4-2",
            "easy9-2",
            "big16-1",
            "thermo9-2",
        ),
        "test_gac_and_sac_read_the_constraints_and_keep_the_solution": ("thermo9", "xv9"),
        "test_the_equivalences_hold_on_the_units_of_variant_boards": (
            "six6",
            "windoku9",
            "x9",
            "jigsaw9",
        ),
        "test_every_level_keeps_the_solution": ("six6", "easy9", "hard9"),
    },
    "test_threads.py": {
        # threads sharing a backend: test_several_threads_share_a_backend
        "test_two_specs_of_one_backend_in_threads": None,
    },
    "test_vocabulary.py": {
        # a kind of seven of the ten families of rules (solvers/model/constraints); slow-
        # thermometer and sandwich, a second of the sums and of the outside clues, under heavy
        "test_every_engine_that_supports_a_kind_counts_as_the_reference_does": (
            "taxicab",
            "rowindexer",
            "regionsumline",
            "thermometer",
            "renban",
            "xsum",
            "xv",
        ),
    },
    "test_writes.py": {
        # a file on a full disk kept whole: test_encode_on_a_full_disk_keeps_each_old_file and
        # tests/test_report.py's test_a_full_disk_is_named_as_a_write_error; a report's page
        # written: tests/test_report.py
        "test_report_on_a_full_disk_leaves_no_new_file": None,
        "test_report_on_a_full_disk_keeps_the_old_page": None,
        "test_a_written_file_keeps_the_old_files_mode_and_replaces_it_whole": None,
        "test_a_link_goes_on_naming_the_file_it_named": None,
        "test_a_report_with_no_output_named_goes_beside_its_run": None,
    },
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
    _mark_heavy(items)


def _mark_heavy(items: list[pytest.Item]) -> None:
    """The ``heavy`` marker on the tests HEAVY names (before ``-m`` deselects: pytest's own hook
    runs after this conftest's)."""
    modules = {}
    for item in items:
        tests = HEAVY.get(item.path.name)
        if tests is None:
            continue
        modules[item.path.name] = item.module
        kept = tests.get(getattr(item, "originalname", item.name), ())
        callspec = getattr(item, "callspec", None)
        if item.get_closest_marker("slow"):  # already out of the default run, and timed alone
            continue
        if isinstance(kept, AllBut):
            heavy = callspec is not None and callspec.id in kept.ids
        else:
            heavy = kept is None or (kept and (callspec is None or callspec.id not in kept))
        if heavy:
            item.add_marker(pytest.mark.heavy)
    stale = [
        f"{file}::{name}"
        for file, module in modules.items()
        for name in HEAVY[file]
        if not any(hasattr(holder, name) for holder in (module, *_classes(module)))
    ]
    if stale:
        raise pytest.UsageError(f"tests/conftest.py's HEAVY names no test {', '.join(stale)}")


def _classes(module) -> list[type]:
    """The module's classes, whose tests HEAVY names as it names a function's (tests/own_models.py's
    OwnModelTests)."""
    return [value for value in vars(module).values() if isinstance(value, type)]


@pytest.fixture
def registered() -> Iterator[Callable[..., str]]:
    """``registered(name, "module:Class", **details)`` makes a backend of the tests' own for
    the test: every backend it registers is gone after the test, whatever happened."""
    names: list[str] = []

    def register(name: str, target: str, **details: str) -> str:
        registry.register(name, target, **details)
        names.append(name)
        return name

    yield register
    for name in names:
        registry.unregister(name)


@pytest.fixture
def crasher(registered):
    """A backend that segfaults or hangs, registered for the test as ``crasher``."""
    return registered("crasher", "crashing_backend:Crasher", summary="crashes on purpose")


@pytest.fixture
def unsure(registered):
    """A backend that wrongly says a board with an empty first cell has no solution."""
    return registered("unsure", "tiny_backend:Unsure", summary="unsure of empty corners")


def made_once(
    factory: pytest.TempPathFactory, worker_id: str, name: str, make: Callable[[Path], T]
) -> T:
    """``make(folder)``'s result, made once per test run: under pytest-xdist the first worker
    to ask claims it and makes it (and whatever files it writes in ``folder``) in the run's
    shared temporary folder, and the others wait for it and read it. For what the tests only
    read, that each worker made again. The claim is a file made exclusively, not a lock held
    open: ``make`` may fork processes that outlive it (compare's pool), and a forked child
    would hold a lock on after the maker let go of it."""
    shared = factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent  # the folder above every worker's own
    folder, claim = shared / name, shared / f"{name}.claim"
    made = folder / "made.pickle"
    deadline = time.monotonic() + 600
    while not made.exists():
        try:
            claim.touch(exist_ok=False)
        except FileExistsError:  # another worker makes it; it lets go of the claim if it fails
            assert time.monotonic() < deadline, f"no worker made {name} in 10 minutes"
            time.sleep(0.05)
            continue
        try:
            folder.mkdir(exist_ok=True)
            result = pickle.dumps(make(folder))
            (folder / "made.partial").write_bytes(result)
            (folder / "made.partial").rename(made)  # whole or not there, for the waiting
        finally:
            if not made.exists():
                claim.unlink()
    return pickle.loads(made.read_bytes())


@pytest.fixture(scope="session")
def compare_run(tmp_path_factory, worker_id) -> tuple[CliRun, Path]:
    """One small ``sudoku compare`` run, shared by the tests that read its output, its JSON
    (the path returned; the plot beside it, ``run.png``) and the report made from it: two
    option sets of one backend side by side with a third backend, unique mode, one shuffled
    copy per puzzle, a baseline. Made once per test run (``made_once``: 6-13 s of each
    worker's time before)."""

    def make(folder: Path) -> tuple[CliRun, Path]:
        args = ["compare", "small4", "several9", "--limit", "4", "--shuffle", "1", "--seed", "1"]
        args += ["--backends", "propagate,sat:encoding=minimal,sat:encoding=extended"]
        args += ["--baseline", "sat:encoding=extended", "--json", str(folder / "run.json")]
        args += ["--plot", str(folder / "run.png"), *ROOM]
        out, err = io.StringIO(), io.StringIO()
        code = main(args, out, err)
        return CliRun(code, out.getvalue(), err.getvalue()), folder / "run.json"

    return made_once(tmp_path_factory, worker_id, "compare-run", make)


@pytest.fixture
def cli(monkeypatch):
    """Run the sudoku command in-process: cli(args..., stdin=text) -> CliRun."""

    def run(*args: str, stdin: str = "") -> CliRun:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        out, err = io.StringIO(), io.StringIO()
        code = main(list(args), out, err)
        return CliRun(code, out.getvalue(), err.getvalue())

    return run


def as_lines(text: str) -> str:
    return "\n".join(text.split()) + "\n"


@pytest.fixture(scope="session")
def puzzles(tmp_path_factory, worker_id) -> dict[str, Board]:
    """The project's own corpus, built once per run from fixed seeds (``made_once``)."""
    return made_once(tmp_path_factory, worker_id, "puzzles", lambda folder: _corpus())


def _corpus() -> dict[str, Board]:
    rng = random.Random(2580)
    s4, s6, s9, s16 = (Shape.parse(t) for t in ("2x2", "2x3", "3x3", "4x4"))
    hard9 = corpus.unique_puzzle(s9, rng)
    easy9 = corpus.unique_puzzle(s9, rng, keep=36)
    built = {
        "4x4": corpus.unique_puzzle(s4, rng),
        "6x6": corpus.unique_puzzle(s6, rng),
        "9x9-easy": easy9,
        "9x9-minimal": hard9,
        "16x16": corpus.unique_puzzle(s16, rng, keep=150),
        "16x16-minimal": corpus.unique_puzzle(s16, random.Random(16)),
        "several-9x9": corpus.several_solutions(easy9, rng),
        "several-4x4": Board(s4, (1, 0, 0, 0) + (0,) * 12),
        "no-solution-9x9": corpus.no_solution(easy9, rng),
        "no-solution-6x6": corpus.no_solution(corpus.unique_puzzle(s6, rng), rng),
        "empty-9x9": Board.empty(s9),
        "empty-6x6": Board.empty(s6),
        "full-9x9": corpus.complete_board(s9, rng),
    }
    full = list(built["full-9x9"].cells)
    full[40] = full[40] % 9 + 1
    built["full-9x9-one-wrong"] = Board(s9, tuple(full))
    full[40] = 0
    built["full-9x9-one-empty"] = Board(s9, tuple(full))  # one cell left, one value fits
    built["no-solution-4x4"] = corpus.no_solution(built["4x4"], rng)
    conflicting = list(easy9.cells)
    row0 = [v for v in conflicting[:9] if v]
    conflicting[conflicting[:9].index(0)] = row0[0]
    built["conflicting-givens"] = Board(s9, tuple(conflicting))
    return built


@pytest.fixture(scope="session")
def iss(request: pytest.FixtureRequest) -> Callable[[str], Board]:
    """ISS's published puzzles by name (tests/iss_puzzles.py), or the test skipped."""
    import iss_puzzles  # here: it imports this module

    return iss_puzzles.fixture(request)
