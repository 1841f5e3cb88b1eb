"""A comparison run as data: every answer, per puzzle, and the file that keeps it.

The file (``sudoku compare --json``, format ``sudoku-compare/2``) holds the settings, the
machine and the command, the CPU times of a fixed workload timed through the run
(``calibration``: absent from runs written before runs carried one), each dataset's backends
(options, setup time, peak memory) with its summary table, notes and a hash of each puzzle by
its line, and one record per answer: dataset, puzzle (its line in the file), copy (0 the
puzzle as given, 1..K its shuffled copies), backend spec, status, wall and CPU seconds, the
solution count (in unique mode) and the backend's own counters. Every table and plot can be
rebuilt from the records alone (``sudoku report`` does).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from solvers.analysis import run_fields
from solvers.base.errors import UsageError
from solvers.formats import whole
from solvers.run.answer import Answer, Status

if TYPE_CHECKING:
    from solvers.model.board import Board
    from solvers.strength.tally import Measured

FORMAT = "sudoku-compare/2"
# the most digits an integer of a run file is read with: every field's range ends far below
LONGEST_INT = 30


@dataclass(frozen=True)
class Settings:
    """How a run was asked for: ``unique`` counts up to 2 (a solution, and the proof there is
    no second), ``first`` stops at the first solution."""

    mode: str = "unique"
    timeout: float = 1.0
    shuffle: int = 0
    seed: int = 0
    baseline: str | None = None


@dataclass(frozen=True, eq=False)
class Record:
    """Where one backend's judged answer stands in a run: its dataset, its puzzle (the line in
    the file) and its copy. The answer is the runner's own, read as ``record.answer`` (read
    back from a file, with no solution: the file keeps none); its backend spec is
    ``answer.backend``, written as the record's ``spec``."""

    dataset: str
    puzzle: int
    copy: int
    answer: Answer
    disputed: bool = False  # the judge doubts the answer (another backend's disagrees)

    @property
    def finished(self) -> bool:
        """A verified solution, or a proof there is none, within the timeout, that the judge
        does not dispute."""
        return self.answer.status.finished and not self.disputed

    @property
    def key(self) -> tuple[int, int]:
        return self.puzzle, self.copy

    def as_json(self) -> dict[str, Any]:
        answer = self.answer
        return {
            "dataset": self.dataset,
            "puzzle": self.puzzle,
            "copy": self.copy,
            "spec": answer.backend,
            "status": str(answer.status),
            "seconds": answer.seconds,
            "cpu_seconds": answer.cpu_seconds,
            "count": answer.count,
            "stats": dict(answer.stats),
            "detail": answer.detail,
        } | ({"disputed": True} if self.disputed else {})

    @classmethod
    def of_json(cls, item: dict[str, Any]) -> Record:
        status, times = Status(item["status"]), (item["seconds"], item["cpu_seconds"])
        count, stats, detail = item.get("count"), item.get("stats", {}), item.get("detail", "")
        answer = Answer(status, item["spec"], None, count, *times, stats, detail)
        disputed = item.get("disputed", False)
        return cls(item["dataset"], item["puzzle"], item["copy"], answer, disputed)


@dataclass(frozen=True)
class BackendRun:
    """What a run knows of one backend spec on one dataset beyond its answers."""

    spec: str
    options: dict[str, str]
    setup_s: float = 0.0
    peak_rss_kb: int = 0


@dataclass
class DatasetRun:
    name: str
    path: str
    puzzles: int
    copies: int = 1  # the puzzle and its shuffled copies
    unshuffled: int = 0  # puzzles with variant rules, run as given only
    backends: list[BackendRun] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)  # (kind, text)
    # each puzzle's hash by its line: what tells two runs' puzzles apart (not their lines)
    hashes: dict[int, str] = field(default_factory=dict)
    # with --strength: each level on each puzzle as given, puzzle by puzzle
    strength: list[Measured] = field(default_factory=list)

    def records_of(self, spec: str) -> list[Record]:
        return [record for record in self.records if record.answer.backend == spec]


@dataclass(frozen=True)
class Calibration:
    """The CPU seconds of ``solvers.analysis.calibration``'s fixed workload, timed before each
    backend spec and at the end of a run, and the hash that names that workload."""

    workload: str
    cpu_seconds: tuple[float, ...]


@dataclass
class CompareRun:
    settings: Settings
    machine: dict[str, Any]
    command: str
    started: str
    datasets: list[DatasetRun] = field(default_factory=list)
    calibration: Calibration | None = None  # none in runs written before runs carried one


def write(run: CompareRun, path: str, summaries: list[list[dict]], label: str = "") -> None:
    """The run as JSON, each dataset with its summary rows; one record per line. Written whole
    or not at all: OutputError naming ``label`` (the option) and ``path`` when it cannot be."""
    head = {
        "format": FORMAT,
        "command": run.command,
        "started": run.started,
        "machine": run.machine,
        "settings": asdict(run.settings),
        **({"calibration": asdict(run.calibration)} if run.calibration else {}),
        "datasets": [
            {
                "name": d.name,
                "path": d.path,
                "puzzles": d.puzzles,
                "copies": d.copies,
                "unshuffled": d.unshuffled,
                "backends": [asdict(b) for b in d.backends],
                "summary": rows,
                "notes": [{"kind": kind, "text": text} for kind, text in d.notes],
                "hashes": {str(line): digest for line, digest in d.hashes.items()},
            }
            for d, rows in zip(run.datasets, summaries, strict=True)
        ],
    }
    records = [r.as_json() for d in run.datasets for r in d.records]
    strength = [{"dataset": d.name, **asdict(m)} for d in run.datasets for m in d.strength]
    text = json.dumps(head, indent=2)[: -len("\n}")]
    lists = {"strength": strength} if strength else {}
    lists["records"] = records
    with whole.written(path, label) as handle:
        handle.write(text)
        for name, items in lists.items():
            lines = ",\n".join(f"    {json.dumps(item)}" for item in items)
            handle.write(f',\n  "{name}": [\n{lines}\n  ]')
        handle.write("\n}\n")


def read(path: str) -> CompareRun:
    """A run written by ``write``; UsageError for a file that is not one."""
    try:
        with open(path, encoding="utf-8-sig") as handle:  # a byte-order mark, as Notepad saves
            data = json.load(handle, parse_int=_bounded_int)
    except (ValueError, RecursionError) as error:
        raise UsageError(f"{path}: not JSON ({type(error).__name__}: {error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise UsageError(
            f"{path}: not a run of 'sudoku compare --json' (format {found!r}, expected {FORMAT})"
        )
    try:
        run_fields.check(data)
    except run_fields.BadField as error:
        raise UsageError(f"{path}: a {FORMAT} file with a bad field: {error}") from None
    try:
        return _run_of(data)
    except (KeyError, TypeError, ValueError) as error:
        raise UsageError(f"{path}: a {FORMAT} file with a bad field: {error!r}") from None


def _bounded_int(text: str) -> int:
    """An integer of a run file, one of more than ``LONGEST_INT`` digits read as a stand-in
    past every range that ``run_fields`` allows, so that its check names the field: ``int``
    refuses 4,300 digits and more, and its error says nothing of where."""
    if len(text.lstrip("-")) > LONGEST_INT:
        return -(10**LONGEST_INT) if text.startswith("-") else 10**LONGEST_INT
    return int(text)


def _run_of(data: dict) -> CompareRun:
    records: dict[str, list[Record]] = {}
    for item in data["records"]:  # each field checked by run_fields
        records.setdefault(item["dataset"], []).append(Record.of_json(item))
    datasets = [
        DatasetRun(
            d["name"],
            d["path"],
            d["puzzles"],
            d["copies"],
            d["unshuffled"],
            [BackendRun(**b) for b in d["backends"]],
            records.get(d["name"], []),
            [(note["kind"], note["text"]) for note in d["notes"]],
            {int(line): digest for line, digest in d.get("hashes", {}).items()},
        )
        for d in data["datasets"]
    ]
    if data.get("strength"):
        _add_strength(datasets, data["strength"])
    for dataset in datasets:
        specs = {backend.spec for backend in dataset.backends}
        if len(specs) != len(dataset.backends):
            raise ValueError(f"a backend named twice in {dataset.name}")
        strangers = {record.answer.backend for record in dataset.records} - specs
        if strangers:
            raise ValueError(f"records of {sorted(strangers)} not among {dataset.name}'s backends")
        if specs and not dataset.records:
            raise ValueError(f"{dataset.name} has backends but no records")
    if set(records) - {dataset.name for dataset in datasets}:
        raise ValueError(f"records of datasets not in the run: {sorted(set(records))}")
    if len({dataset.name for dataset in datasets}) != len(datasets):
        raise ValueError("a dataset named twice (its records could not be told apart)")
    settings = Settings(**data["settings"])
    calibration = None
    if "calibration" in data:
        said = data["calibration"]
        calibration = Calibration(said["workload"], tuple(said["cpu_seconds"]))
    head = settings, data["machine"], data["command"], data["started"]
    return CompareRun(*head, datasets, calibration)


def _add_strength(datasets: list[DatasetRun], items: list[dict]) -> None:
    """The run file's strength items (each field checked by run_fields, each dataset named in
    the run), to their datasets."""
    from solvers.strength.tally import Measured

    by_name = {dataset.name: dataset for dataset in datasets}
    for item in items:
        fields = {key: value for key, value in item.items() if key != "dataset"}
        by_name[item["dataset"]].strength.append(Measured(**fields))


def puzzle_hash(board: Board) -> str:
    """A short hash of a puzzle as written: its rules line (constraints are there) and its
    line (``formats.format_puzzle``)."""
    from solvers.formats import variant_text  # the writers: only where a run is hashed
    from solvers.formats.boards import format_puzzle

    head = "" if board.rules.is_classic else variant_text.header(board.rules, board.size) + "\n"
    text = head + format_puzzle(board)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
