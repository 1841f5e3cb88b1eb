"""The way through the code a newcomer walks: a command's parsed arguments followed through the
calls, counted (issue 43's measure of the structure).

    python bench/walk.py                       # solve and compare, this checkout
    python bench/walk.py --root ../old-checkout --show

The command runs in this process with a profiler hook on every call and return. A call is *on
the way* when one of its arguments is the parsed ``argparse.Namespace`` or a value the way
has produced: a value read from the namespace, a value a call on the way returned (the
backend spec, the plan, the puzzles, the answers), or one of our dataclasses built from such
values (its generated ``__init__`` is in no file, ``<string>``, so it is no stop itself: its
fields carry its arguments). That is the data a reader follows from the parser to the engine
and back to the output. Calls inside a backend's own search are not followed (the engine is
where the way ends), nor calls into the standard library.

Counted over the functions on the way, each at its first call, in order:

- stops: the functions;
- files: the files they are in;
- climbs: a step from a function to the next where the next one's layer is above the first
  one's (the layers of tests/test_layers.py: base, model, backends, searches, run, services,
  cli), i.e. the way goes back up;
- returns: a step into a file the way has been in before, but not the file it is in.

Both commands run one classic puzzle (examples/boj2580.txt) with the reference backend
(``dfs``), in the checkout given by ``--root`` (its own layers), each in a process of its own
(a cache the first filled would hide the second's calls that fill it). A value is followed
when a call on the way receives or returns it, and so are the fields of one of our dataclasses
on the way (an answer's status, a board's rules: read as attributes, which the hook does not
see); a value a function builds inline from one on the way (a token cut from a line) is not.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import io
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "solve": ["solve", "examples/boj2580.txt", "--backend", "dfs"],
    "compare": ["compare", "examples/boj2580.txt", "--backends", "dfs"],
}
TARGETS = {"solve": (25, 10, 4, 10), "compare": (45, 18, 8, 20)}  # issue 43's done-when


def main_function():
    """The checkout's ``main``: ``solvers.cli.main.main`` here, ``solvers.cli.main`` before."""
    with contextlib.suppress(ImportError):
        return importlib.import_module("solvers.cli.main").main
    return importlib.import_module("solvers.cli").main


class Walk:
    """The profiler hook: which calls are on the way, in order."""

    def __init__(self, root: Path, args_type: type) -> None:
        self.prefixes = (str(root / "solvers") + "/", str(root / "adapters") + "/")
        self.args_type = args_type
        self.followed: set[int] = set()  # ids of the values on the way
        self.kept: list[object] = []  # those values, alive so that their ids stay theirs
        self.stack: list[bool | str] = []  # for each open call: on the way? ("search": a backend's)
        self.inside_search = 0
        self.stops: list[tuple[str, str]] = []  # (file, function), first calls in order
        self.stamps: list[tuple[int, str, str]] = []  # (when, file, function), this process's
        self.log: Path | None = None  # where a forked worker writes its stops
        self.child = False

    def follow(self, value: object) -> None:
        if id(value) in self.followed or value is None or isinstance(value, bool | int):
            return  # small ints and booleans are shared by everything: no trail
        self.followed.add(id(value))
        self.kept.append(value)
        if isinstance(value, self.args_type):
            for item in vars(value).values():
                self.follow(item)
        elif self._ours(value):
            # a field read off one of our dataclasses on the way is on the way too (an
            # answer's status, a plan's backends): the walk sees no attribute read, but the
            # value read is the one a reader follows
            for item in vars(value).values():
                self.follow(item)
        elif isinstance(value, list | tuple | set | frozenset):
            for item in list(value)[:50]:
                self.follow(item)

    def hook(self, frame, event, arg) -> None:
        if event == "call":
            code = frame.f_code
            ours = code.co_filename.startswith(self.prefixes)
            on_way = False
            if ours and not self.inside_search:
                values = [frame.f_locals.get(n) for n in code.co_varnames[: code.co_argcount]]
                if any(isinstance(v, self.args_type) for v in values) and not self.followed:
                    self.follow(next(v for v in values if isinstance(v, self.args_type)))
                on_way = any(id(v) in self.followed for v in values if v is not None)
                if on_way and (code.co_filename, code.co_qualname) not in self.stops:
                    self.stop(code.co_filename, code.co_qualname)
            elif not self.inside_search and self._generated_init(frame):
                # A dataclass's generated __init__ has no file of ours (``<string>``): its
                # fields carry its arguments, so the instance is on the way when they are.
                values = [frame.f_locals.get(n) for n in code.co_varnames[1 : code.co_argcount]]
                if any(id(v) in self.followed for v in values if v is not None):
                    self.follow(frame.f_locals["self"])
            if ours and code.co_name == "search" and self._is_backend(frame):
                self.inside_search += 1  # the engine: the way ends here
                self.stack.append("search")
            else:
                self.stack.append(on_way)
        elif event == "return" and self.stack:
            top = self.stack.pop()
            if top == "search":
                self.inside_search -= 1
            if top and arg is not None and not self.inside_search:
                self.follow(arg)

    def stop(self, path: str, function: str) -> None:
        self.stops.append((path, function))
        when = time.perf_counter_ns()  # one clock for the parent and its forked workers
        if self.child and self.log is not None:
            with self.log.open("a", encoding="utf-8") as log:
                log.write(f"{when}\t{path}\t{function}\n")
        else:
            self.stamps.append((when, path, function))

    def in_child(self) -> None:
        """A worker forked on the way (compare runs each backend in one): its stops are on the
        way too, written to ``log`` for the parent to put in order."""
        self.child = True

    def merged(self) -> list[tuple[str, str]]:
        found = list(self.stamps)
        if self.log is not None and self.log.exists():
            for line in self.log.read_text(encoding="utf-8").splitlines():
                when, path, function = line.split("\t")
                found.append((int(when), path, function))
        stops: list[tuple[str, str]] = []
        for _when, path, function in sorted(found):
            if (path, function) not in stops:
                stops.append((path, function))
        return stops

    def _ours(self, value: object) -> bool:
        """One of our dataclasses' instances (not the class itself)."""
        if isinstance(value, type) or not dataclasses.is_dataclass(value):
            return False
        module = sys.modules.get(type(value).__module__)
        return str(getattr(module, "__file__", "")).startswith(self.prefixes)

    def _generated_init(self, frame) -> bool:
        """A generated ``__init__`` of one of our dataclasses."""
        code, instance = frame.f_code, frame.f_locals.get("self")
        if code.co_name != "__init__" or code.co_filename != "<string>":
            return False
        if not dataclasses.is_dataclass(instance):
            return False
        module = sys.modules.get(type(instance).__module__)
        return str(getattr(module, "__file__", "")).startswith(self.prefixes)

    @staticmethod
    def _is_backend(frame) -> bool:
        owner = frame.f_locals.get("self")
        return owner is not None and any(c.__name__ == "Backend" for c in type(owner).__mro__)


def layer_of(module: str, root: Path) -> int:
    sys.path.insert(0, str(root / "tests"))
    try:
        layers = importlib.import_module("test_layers")
    finally:
        sys.path.pop(0)
    return layers.layer_of(module)


def module_of(path: str, root: Path) -> str:
    parts = Path(path).relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def counted(stops: list[tuple[str, str]], root: Path) -> dict[str, int]:
    climbs, returns, seen = 0, 0, set()
    previous_file, previous_layer = None, None
    for path, _function in stops:
        layer = layer_of(module_of(path, root), root)
        if previous_layer is not None and layer > previous_layer:
            climbs += 1
        if path != previous_file and path in seen:
            returns += 1
        seen.add(path)
        previous_file, previous_layer = path, layer
    return {"stops": len(stops), "files": len(seen), "climbs": climbs, "returns": returns}


def walk(command: list[str], root: Path) -> list[tuple[str, str]]:
    main = main_function()
    tracer = Walk(root, argparse.Namespace)
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        tracer.log = Path(folder) / "workers.tsv"
        os.register_at_fork(after_in_child=tracer.in_child)
        sys.setprofile(tracer.hook)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                status = main(command)
        finally:
            sys.setprofile(None)
        if status not in (0, None):
            raise SystemExit(f"{' '.join(command)} ended with {status}: {out.getvalue()[-300:]}")
        return tracer.merged()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to walk")
    parser.add_argument("--show", action="store_true", help="print each stop")
    parser.add_argument("commands", nargs="*", metavar="COMMAND", help="solve, compare (both)")
    options = parser.parse_args()
    root = options.root.resolve()
    for name in options.commands:
        if name not in COMMANDS:
            parser.error(f"no walk for {name!r}: {', '.join(COMMANDS)}")
    if len(options.commands) != 1:
        # each command walked in a fresh process: a cache one command warms (the flattened
        # rules of a classic board) would hide the other's calls that fill it
        for name in options.commands or list(COMMANDS):
            shown = ["--show"] if options.show else []
            here = [sys.executable, __file__, "--root", str(root), *shown, name]
            subprocess.run(here, check=True)
        return
    sys.path.insert(0, str(root))
    os.chdir(ROOT)  # the example board's path
    for name in options.commands:
        stops = walk(COMMANDS[name], root)
        figures = counted(stops, root)
        target = dict(zip(("stops", "files", "climbs", "returns"), TARGETS[name], strict=True))
        said = ", ".join(f"{k} {v} (at most {target[k]})" for k, v in figures.items())
        print(f"sudoku {name}: {said}")
        if options.show:
            for path, function in stops:
                print(f"    {module_of(path, root):45} {function}")


if __name__ == "__main__":
    main()
