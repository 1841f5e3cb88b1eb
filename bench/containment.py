"""What running a backend contained costs: the same runner in this process and in a worker.

    python bench/containment.py                   # propagate on easy9, 5 rounds
    python bench/containment.py --backend dfs --dataset small4 --rounds 7

An outside package's backend runs in a worker process of its own (docs/plugins.md): a fork
when the run starts and a round trip over a pipe per puzzle. Each round solves every puzzle of
the dataset with one ``Runner`` in this process (``isolate=False``) and one in a worker
(``isolate=True``), interleaved, after one untimed solve (for the worker, its start, reported
apart). Medians per puzzle; the machine is shared, so compare within one run.
"""

from __future__ import annotations

import argparse
import statistics
import time

from solvers.formats.boards import Puzzle, read_puzzles
from solvers.formats.datasets import DATASETS
from solvers.run.runner import Runner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="propagate")
    parser.add_argument("--dataset", default="easy9", choices=sorted(DATASETS))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    puzzles = read_puzzles(DATASETS[args.dataset].puzzles())
    boards = [item.board for item in puzzles if isinstance(item, Puzzle)]
    per_puzzle: dict[str, list[float]] = {"in process": [], "worker": []}
    starts = []
    for _ in range(args.rounds):
        for where, isolate in (("in process", False), ("worker", True)):
            with Runner(args.backend, isolate=isolate) as runner:
                start = time.perf_counter()
                runner.solve(boards[0])
                if isolate:
                    starts.append(time.perf_counter() - start)
                start = time.perf_counter()
                for board in boards:
                    runner.solve(board)
                per_puzzle[where].append((time.perf_counter() - start) / len(boards) * 1000)
    for where, ms in per_puzzle.items():
        rounds = ", ".join(f"{m:.2f}" for m in ms)
        print(f"{where}: median {statistics.median(ms):.2f} ms per puzzle (rounds {rounds})")
    ratio = statistics.median(per_puzzle["worker"]) / statistics.median(per_puzzle["in process"])
    print(f"ratio {ratio:.2f}")
    print(f"first call, starting the worker: median {statistics.median(starts) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
