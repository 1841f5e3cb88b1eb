"""Every field a run file's reader takes, checked before it is used, each named by its path
(``settings.timeout``, ``records[3].count``): a type, a number out of range (huge, negative,
not finite), a missing part, a record given twice. What the reader does not use (a dataset's
``summary``, the ``machine``'s contents) is not checked beyond its type.
"""

from __future__ import annotations

import math
from typing import Any

from solvers.run.answer import Status

MODES = ("unique", "first")
MAX_COUNT = 2**53  # a count, a line, a memory figure: a whole number a float holds exactly
MAX_SECONDS = 10**7  # a time in a record or a setting (more than a hundred days)
MIN_CALIBRATION = 1e-6  # a time of the calibration workload, which takes milliseconds


class BadField(ValueError):
    """A field that a run file cannot have: ``str`` names it and says why."""


def check(data: dict) -> None:
    """BadField for the first field of ``data`` (a run file's JSON) that cannot be read."""
    for name in ("command", "started"):
        _text(_get(data, name, name), name)
    _of(_get(data, "machine", "machine"), dict, "machine", "an object")
    _settings(_get(data, "settings", "settings"))
    if "calibration" in data:
        _calibration(data["calibration"])
    datasets = _of(_get(data, "datasets", "datasets"), list, "datasets", "a list")
    for index, dataset in enumerate(datasets):
        _dataset(dataset, f"datasets[{index}]")
    seen: set[tuple] = set()
    records = _of(_get(data, "records", "records"), list, "records", "a list")
    for index, record in enumerate(records):
        where = f"records[{index}]"
        key = _record(record, where)
        if key in seen:
            raise BadField(f"{where}: a second answer of {key[1]} on {key[0]} line {key[2]}")
        seen.add(key)
    _records_fit(datasets, records)
    if "strength" in data:
        names = {dataset["name"] for dataset in datasets}
        _strength(_of(data["strength"], list, "strength", "a list"), names)


def _strength(items: list, datasets: set[str]) -> None:
    """``sudoku compare --strength``'s items: each level on each puzzle once, every puzzle of a
    dataset with the same levels (so that each level's count is over the same puzzles); at
    most one of solved, refuted and timed_out (the last two absent in files written before
    them: read as false)."""
    from solvers.strength.levels import LEVELS

    levels: dict[str, dict[int, set[str]]] = {}  # by dataset, by puzzle
    for index, item in enumerate(items):
        where = f"strength[{index}]"
        _of(item, dict, where, "an object")
        known = {"dataset", "puzzle", "level", "solved", "fixed", "seconds", "refuted", "timed_out"}
        if strange := sorted(set(item) - known):
            raise BadField(f"{where}.{strange[0]}: not a field of a strength item")
        dataset = _text(_get(item, "dataset", where), f"{where}.dataset")
        if dataset not in datasets:
            raise BadField(f"{where}.dataset is {_short(dataset)}: not a dataset of the run")
        level = _text(_get(item, "level", where), f"{where}.level")
        if level not in LEVELS:
            raise BadField(f"{where}.level is {_short(level)}: not a level of sudoku strength")
        _whole(_get(item, "puzzle", where), f"{where}.puzzle")
        _of(_get(item, "solved", where), bool, f"{where}.solved", "true or false")
        for name in ("refuted", "timed_out"):
            _of(item.get(name, False), bool, f"{where}.{name}", "true or false")
        if len(said := [name for name in ("solved", "refuted", "timed_out") if item.get(name)]) > 1:
            raise BadField(f"{where}: {said[0]} and {said[1]} both true: a level ends one way")
        _whole(_get(item, "fixed", where), f"{where}.fixed")
        _seconds(_get(item, "seconds", where), f"{where}.seconds")
        seen = levels.setdefault(dataset, {}).setdefault(item["puzzle"], set())
        if level in seen:
            raise BadField(f"{where}: a second {level} on {dataset} line {item['puzzle']}")
        seen.add(level)
    for dataset, puzzles in levels.items():
        every = set().union(*puzzles.values())
        for line, found in puzzles.items():
            if lacking := sorted(every - found, key=list(LEVELS).index):
                raise BadField(f"strength: {dataset} line {line} has no {lacking[0]}")


def _settings(settings: Any) -> None:
    _of(settings, dict, "settings", "an object")
    known = {"mode", "timeout", "shuffle", "seed", "baseline"}
    if strange := sorted(set(settings) - known):
        raise BadField(f"settings.{strange[0]}: not a setting of a run")
    if "mode" in settings and settings["mode"] not in MODES:
        raise BadField(f"settings.mode is {settings['mode']!r}: not one of {', '.join(MODES)}")
    if "timeout" in settings:
        _seconds(settings["timeout"], "settings.timeout", positive=True)
    for name in ("shuffle", "seed"):
        if name in settings:
            _whole(settings[name], f"settings.{name}")
    if settings.get("baseline") is not None:
        _text(settings["baseline"], "settings.baseline")


def _calibration(calibration: Any) -> None:
    """The workload's hash, and one or more CPU times of it, each at least a microsecond (the
    workload takes milliseconds; ``--against`` divides by them)."""
    _of(calibration, dict, "calibration", "an object")
    if strange := sorted(set(calibration) - {"workload", "cpu_seconds"}):
        raise BadField(f"calibration.{strange[0]}: not a field of a calibration")
    _text(_get(calibration, "workload", "calibration"), "calibration.workload")
    times = _get(calibration, "cpu_seconds", "calibration")
    if not _of(times, list, "calibration.cpu_seconds", "a list"):
        raise BadField("calibration.cpu_seconds is []: a calibration has a time or more")
    for index, value in enumerate(times):
        where = f"calibration.cpu_seconds[{index}]"
        _seconds(value, where)
        if value < MIN_CALIBRATION:
            raise BadField(f"{where} is {_short(value)}: under a microsecond, not a time it takes")


def _dataset(dataset: Any, where: str) -> None:
    _of(dataset, dict, where, "an object")
    for name in ("name", "path"):
        _text(_get(dataset, name, where), f"{where}.{name}")
    for name in ("puzzles", "copies", "unshuffled"):
        _whole(_get(dataset, name, where), f"{where}.{name}")
    for index, backend in enumerate(_of(_get(dataset, "backends", where), list, where, "a list")):
        at = f"{where}.backends[{index}]"
        _of(backend, dict, at, "an object")
        if strange := sorted(set(backend) - {"spec", "options", "setup_s", "peak_rss_kb"}):
            raise BadField(f"{at}.{strange[0]}: not a field of a backend")
        _text(_get(backend, "spec", at), f"{at}.spec")
        options = _of(backend.get("options", {}), dict, f"{at}.options", "an object")
        for key, value in options.items():
            _text(value, f"{at}.options.{key}")
        _seconds(backend.get("setup_s", 0.0), f"{at}.setup_s")
        _whole(backend.get("peak_rss_kb", 0), f"{at}.peak_rss_kb")
    for index, note in enumerate(_of(_get(dataset, "notes", where), list, where, "a list")):
        at = f"{where}.notes[{index}]"
        _of(note, dict, at, "an object")
        _text(_get(note, "kind", at), f"{at}.kind")
        _text(_get(note, "text", at), f"{at}.text")
    hashes = _of(dataset.get("hashes", {}), dict, f"{where}.hashes", "an object")
    for line, digest in hashes.items():
        number = line.isascii() and line.isdigit() and len(line) <= len(str(MAX_COUNT))
        if not number or not isinstance(digest, str):
            raise BadField(f"{where}.hashes.{_short(line)}: not a line number and a puzzle's hash")


def _records_fit(datasets: list, records: list) -> None:
    """BadField for a record no run writes: a puzzle line 0, a copy past its dataset's
    copies, or more puzzles answered than its dataset holds."""
    index = {dataset["name"]: (at, dataset) for at, dataset in enumerate(datasets)}
    lines: dict[str, set[int]] = {}
    for at, record in enumerate(records):
        if record["puzzle"] == 0:
            raise BadField(f"records[{at}].puzzle is 0: a puzzle's line counts from 1")
        if record["dataset"] not in index:
            continue
        place, dataset = index[record["dataset"]]
        if record["copy"] >= dataset["copies"]:
            raise BadField(
                f"records[{at}].copy is {record['copy']}: datasets[{place}] runs "
                f"{dataset['copies']} copies of each puzzle (0 to {dataset['copies'] - 1})"
            )
        lines.setdefault(record["dataset"], set()).add(record["puzzle"])
    for name, found in lines.items():
        place, dataset = index[name]
        if len(found) > dataset["puzzles"]:
            raise BadField(
                f"datasets[{place}].puzzles is {dataset['puzzles']}, but its records answer "
                f"{len(found)} puzzles"
            )


def _record(record: Any, where: str) -> tuple:
    _of(record, dict, where, "an object")
    known = {"dataset", "puzzle", "copy", "spec", "status", "seconds", "cpu_seconds"}
    known |= {"count", "stats", "detail", "disputed"}
    if strange := sorted(set(record) - known):
        raise BadField(f"{where}.{strange[0]}: not a field of a record")
    for name in ("dataset", "spec", "status"):
        _text(_get(record, name, where), f"{where}.{name}")
    if record["status"] not in {status.value for status in Status}:
        raise BadField(f"{where}.status is {record['status']!r}: not a status a run writes")
    for name in ("puzzle", "copy"):
        _whole(_get(record, name, where), f"{where}.{name}")
    for name in ("seconds", "cpu_seconds"):
        _seconds(_get(record, name, where), f"{where}.{name}")
    if record.get("count") is not None:
        _whole(record["count"], f"{where}.count")
    _of(record.get("stats", {}), dict, f"{where}.stats", "an object")
    _text(record.get("detail", ""), f"{where}.detail")
    _of(record.get("disputed", False), bool, f"{where}.disputed", "true or false")
    return record["dataset"], record["spec"], record["puzzle"], record["copy"]


def _get(container: dict, name: str, where: str) -> Any:
    if name not in container:
        raise BadField(f"{where}: no {name}" if where != name else f"no {name}")
    return container[name]


def _of(value: Any, kind: type, where: str, said: str) -> Any:
    if not isinstance(value, kind):
        raise BadField(f"{where} is {_short(value)}: not {said}")
    return value


def _text(value: Any, where: str) -> str:
    return _of(value, str, where, "text")


def _whole(value: Any, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise BadField(f"{where} is {_short(value)}: not a whole number from 0 to 2**53")


def _seconds(value: Any, where: str, positive: bool = False) -> None:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    # compared before isfinite, which cannot take an int past a float's range (10**400)
    if not number or not 0 <= value <= MAX_SECONDS or not math.isfinite(value):
        raise BadField(f"{where} is {_short(value)}: not a number of seconds from 0 to 10**7")
    if positive and value == 0:
        raise BadField(f"{where} is 0: a timeout is above 0")


def _short(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return "a huge number"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
