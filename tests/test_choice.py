"""The default backend's choice by kind: a board with skyscraper clues goes to the engine
measured fastest on them (choice.PREFERRED_FOR), for a few puzzles and for many, and a user
running one such puzzle gets a verified count from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solvers import Board
from solvers.backends import choice, registry
from solvers.formats.boards import parse, read_puzzles

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def first_skyscraper_puzzle() -> str:
    """The first puzzle of examples/skyscraper-renban.txt with its rules line."""
    lines = (EXAMPLES / "skyscraper-renban.txt").read_text().splitlines()
    rules = next(i for i, line in enumerate(lines) if line.startswith("# rules: skyscraper"))
    return f"{lines[rules]}\n{lines[rules + 1]}\n"


def preferred(kind: str) -> str:
    available = [n for n in choice.PREFERRED_FOR[kind] if registry.availability(n)[0]]
    if not available:
        pytest.skip(f"none of {choice.PREFERRED_FOR[kind]} is available here")
    return available[0]


def board() -> Board:
    return next(iter(read_puzzles(first_skyscraper_puzzle().splitlines()))).board


@pytest.mark.parametrize("puzzles", [1, None])
def test_skyscraper_clues_take_the_preferred_engine_for_few_and_many(puzzles):
    assert "skyscraper" in board().rules.names
    assert choice.default_backend(board(), puzzles=puzzles) == preferred("skyscraper")


def test_a_board_without_skyscrapers_keeps_the_portfolio():
    thermometer = parse("# rules: thermometer r1c1 r1c2\n" + "." * 81)
    assert choice.default_backend(thermometer, puzzles=1) == "portfolio"


def test_counting_one_skyscraper_puzzle_by_default_uses_it_and_is_verified(cli, tmp_path):
    path = tmp_path / "sky.txt"
    path.write_text(first_skyscraper_puzzle())
    run = cli("count", str(path), "--limit", "2", "--json")
    (record,) = [json.loads(line) for line in run.out.splitlines()]
    assert (run.code, record["count"], record["backend"]) == (0, 1, preferred("skyscraper"))
