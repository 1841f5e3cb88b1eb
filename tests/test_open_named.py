"""What a command's FILE names, opened one way (``datasets.open_named``), and compare's
datasets recorded as the one it reads: a shipped set by name, a file of that name in its
place, standard input, a board given as the argument."""

from __future__ import annotations

import io
import json
import sys

import pytest

from solvers.base.errors import InputError
from solvers.formats.boards import Puzzle, format_board, read_puzzles
from solvers.formats.datasets import DATASETS, open_named


def _boards(handle) -> list:
    with handle:
        return [item.board for item in read_puzzles(handle) if isinstance(item, Puzzle)]


def test_open_named_reads_a_dataset_a_file_standard_input_and_a_board(
    puzzles, tmp_path, monkeypatch
):
    board = puzzles["4x4"]
    line = format_board(board, "line")
    assert len(_boards(open_named("small4"))) == len(DATASETS["small4"].puzzles())
    monkeypatch.chdir(tmp_path)
    (tmp_path / "small4").write_text(line + "\n")  # a file of a dataset's name wins
    assert _boards(open_named("small4")) == [board]
    assert _boards(open_named(line)) == [board]  # no such file: the argument is the board
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    assert _boards(open_named("-")) == [board]
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(InputError, match="standard input is closed"):
        open_named("-")


def test_compare_records_a_file_named_like_a_dataset_as_the_file_it_read(
    cli, puzzles, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "small4").write_text(format_board(puzzles["4x4"], "line") + "\n")
    done = cli("compare", "small4", "--backends", "dfs", "--json", "run.json")
    assert done.code == 0, done.err
    assert done.out.startswith("small4: 1 puzzle,")
    (dataset,) = json.loads((tmp_path / "run.json").read_text())["datasets"]
    assert (dataset["path"], dataset["puzzles"]) == (str(tmp_path / "small4"), 1)
    (tmp_path / "small4").unlink()  # now the name is the shipped set's
    done = cli("compare", "small4", "--backends", "dfs", "--limit", "2", "--json", "run.json")
    assert done.code == 0, done.err
    (dataset,) = json.loads((tmp_path / "run.json").read_text())["datasets"]
    assert dataset["path"] == "(shipped) solvers/formats/datasets/small4.txt"
    assert dataset["puzzles"] == 2


def test_compare_refuses_a_dataset_it_cannot_read_before_any_work(cli, puzzles, tmp_path):
    missing = tmp_path / "nosuch.txt"
    done = cli("compare", "small4", str(missing), "--backends", "dfs")
    assert done.code == 2 and done.out == ""  # small4, named first, is not run either
    assert done.err.startswith(f"sudoku: cannot read {missing}: No such file or directory;")
    assert "the shipped datasets are easy9, hard9" in done.err
    done = cli("compare", str(tmp_path), "--backends", "dfs")  # a folder
    assert (done.code, done.out) == (2, "")
    assert done.err == f"sudoku: cannot read {tmp_path}: Is a directory\n"
    # a board is read as the argument where a command reads one FILE, not as compare's
    # dataset, which is recorded by its path
    line = format_board(puzzles["4x4"], "line")
    done = cli("compare", line, "--backends", "dfs")
    assert done.code == 2 and f"cannot read {line}" in done.err
