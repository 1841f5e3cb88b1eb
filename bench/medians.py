"""Median solve time per backend on a puzzle file, every backend in this one process.

    python bench/medians.py ../shared/data/top95.txt --backends csp,cpsat,sat,pysat --timeout 10

Each puzzle is parsed first (parsing is not timed); each backend solves it once as a warm-up on
the first puzzle (setup, such as PySAT's persistent solver, is not counted), then every puzzle
is solved and timed by ``solvers.solve``, model building included, the answer verified.
"""

from __future__ import annotations

import argparse
import statistics

from solvers import Status, read_puzzles, solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--backends", default="dfs,csp,cpsat,sat,pysat")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--option", action="append", default=[], help="BACKEND:KEY=VALUE")
    args = parser.parse_args()
    with open(args.file, encoding="utf-8") as handle:
        boards = [p.board for p in read_puzzles(handle) if not isinstance(p, Exception)]
    boards = boards[: args.limit]
    extra: dict[str, dict[str, str]] = {}
    for spec in args.option:
        backend, _, pair = spec.partition(":")
        key, _, value = pair.partition("=")
        extra.setdefault(backend, {})[key] = value
    print(f"{args.file}: {len(boards)} puzzles, timeout {args.timeout:g} s")
    print(f"{'backend':24} {'solved':>7} {'timeouts':>8} {'median ms':>10} {'max ms':>9}")
    for name in args.backends.split(","):
        options = extra.get(name, {})
        solve(boards[0], name, timeout=args.timeout, **options)  # warm-up: imports, setup
        results = [solve(b, name, timeout=args.timeout, **options) for b in boards]
        times = [r.seconds * 1e3 for r in results if r.status is Status.SOLVED]
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        median = f"{statistics.median(times):10.2f}" if times else f"{'-':>10}"
        top = f"{max(times):9.1f}" if times else f"{'-':>9}"
        timeouts = sum(r.status is Status.TIMEOUT for r in results)
        print(f"{label:24} {len(times):7} {timeouts:8} {median} {top}")


if __name__ == "__main__":
    main()
