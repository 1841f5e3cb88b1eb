"""A puzzle written in any of the forms ``sudoku convert`` writes: an f-puzzles link, a line
puzzle, a grid with its sections (text), or a JSON record."""

from __future__ import annotations

import json
from dataclasses import replace

from solvers.base.errors import InputError
from solvers.formats import variant_text
from solvers.formats.boards import Puzzle, format_board, format_puzzle
from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.model.variants import Rules

FORMS = ("fpuzzles", "line", "text", "json")
# The forms that name no box shape: a board read with --box says its boxes as regions there.
SHAPELESS = ("line", "text")


def written(puzzle: Puzzle, form: str) -> str:
    """The puzzle in ``form`` (without the ``# rules:`` header a line puzzle needs), with its
    known solution where the form holds one (``left_out`` names what it cannot hold)."""
    puzzle = in_form(puzzle, form)
    board, known = puzzle.board, puzzle.known_solution
    if form == "fpuzzles":
        from solvers.formats import fpuzzles, fpuzzles_link  # only for f-puzzles

        data = fpuzzles.to_json(board, None, puzzle.meta)
        if known is not None:
            data["solution"] = list(known.cells)
        return fpuzzles_link.encode(data)
    if form == "json":
        return json.dumps(record(puzzle))
    if form == "line":
        cells, space, fields = format_puzzle(board).partition(" ")
        solution = "" if known is None else "," + format_board(known, "line")
        return cells + solution + space + fields
    if form == "text":
        return text(board)
    raise InputError(f"unknown form {form!r}; choose from {', '.join(FORMS)}")


def in_form(puzzle: Puzzle, form: str) -> Puzzle:
    """The puzzle as ``form`` can say it: in the line and text forms, which take the default
    boxes of the board's size, boxes of another shape (``--box 3x2`` on 6x6) become jigsaw
    regions, the same cells as f-puzzles writes them; the same puzzle, the same solutions."""
    board = puzzle.board
    shape, n = board.shape, board.size
    if form not in SHAPELESS or board.rules.regions is not None or not shape.has_boxes:
        return puzzle
    if shape == Shape.for_size(n):
        return puzzle
    rules = Rules(board.geometry.box_of, board.rules.constraints)
    default = Shape.for_size(n)
    known = puzzle.known_solution
    return replace(
        puzzle,
        board=Board(default, board.cells, rules),
        known_solution=None if known is None else Board(default, known.cells, rules),
    )


def left_out(puzzle: Puzzle, form: str) -> list[str]:
    """What of the puzzle ``form`` has no place for: its known solution (text), its title,
    author and ruleset (line, text)."""
    missing = []
    if form == "text" and puzzle.known_solution is not None:
        missing.append("known solution")
    if form in SHAPELESS:
        missing += [key for key, _ in puzzle.meta]
    return missing


def record(puzzle: Puzzle) -> dict:
    """The puzzle as a JSON object: its cells in the line form, rules, known solution,
    metadata."""
    board, known = puzzle.board, puzzle.known_solution
    return (
        {"index": puzzle.line, "size": board.size}
        | {"box": str(board.shape) if board.shape.has_boxes else None}
        | {"puzzle": format_board(board, "line")}
        | variant_text.record(board.rules, board.size)
        | ({} if known is None else {"solution": format_board(known, "line")})
        | dict(puzzle.meta)
    )


def text(board: Board) -> str:
    """The board as a grid under its rules header, with its regions as a section."""
    n = board.size
    lines = [] if board.rules.is_classic else [variant_text.header(board.rules, board.size)]
    lines.append(format_board(board, "compact" if n <= 9 else "spaced"))
    if board.rules.regions is not None:
        lines += ["regions:", *_rows(variant_text.region_letters(board.rules.regions), n)]
    return "\n".join(lines)


def _rows(symbols: str, n: int) -> list[str]:
    return [symbols[i : i + n] for i in range(0, n * n, n)]
