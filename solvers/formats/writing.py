"""A puzzle written in any of the forms ``sudoku convert`` writes: an f-puzzles link, a line
puzzle, a grid with its sections (text), or a JSON record."""

from __future__ import annotations

import json

from solvers.board import Board
from solvers.errors import InputError
from solvers.formats import Puzzle, format_board, format_puzzle, variant_text

FORMS = ("fpuzzles", "line", "text", "json")


def written(puzzle: Puzzle, form: str) -> str:
    """The puzzle in ``form`` (without the ``# rules:`` header a line puzzle needs)."""
    board = puzzle.board
    if form == "fpuzzles":
        from solvers.formats import fpuzzles  # its readers and writers: only for f-puzzles

        return fpuzzles.link(board, None, puzzle.meta)
    if form == "json":
        return json.dumps(record(puzzle))
    if form == "line":
        return format_puzzle(board)
    if form == "text":
        return text(board)
    raise InputError(f"unknown form {form!r}; choose from {', '.join(FORMS)}")


def record(puzzle: Puzzle) -> dict:
    """The puzzle as a JSON object: its cells in the line form, rules, metadata."""
    board = puzzle.board
    return (
        {"index": puzzle.line, "size": board.size}
        | {"box": str(board.shape) if board.shape.has_boxes else None}
        | {"puzzle": format_board(board, "line")}
        | variant_text.record(board.rules, board.size)
        | dict(puzzle.meta)
    )


def from_record(data: dict, line: int | None = None):
    """The puzzle of a JSON record (``record``): what ``sudoku convert --to json`` writes reads
    back as the same puzzle."""
    from solvers.board import Shape
    from solvers.formats.fpuzzles import FPuzzle
    from solvers.formats.lines import at_line, parse_line
    from solvers.formats.variant_text import constraints_of, region_map
    from solvers.variants import Rules

    cells, box, texts = data.get("puzzle"), data.get("box"), data.get("constraints", [])
    if not isinstance(cells, str) or not isinstance(texts, list):
        raise InputError("the JSON record's puzzle is not a line of cells", line)
    if not all(isinstance(t, str) for t in texts) or not isinstance(box, str | None):
        raise InputError("the JSON record's constraints and box must be text", line)
    shape = at_line(lambda: Shape.parse(box), line or 1) if box else None
    plain, _known = parse_line(cells, line or 1, shape, frozenset())
    regions = data.get("regions")
    if regions is not None and not isinstance(regions, str):
        raise InputError("the JSON record's regions are not a line of letters", line)
    size = plain.size
    rules = Rules(
        None if regions is None else region_map([regions], size, line or 1),
        constraints_of(texts, size, line or 1),
    )
    board = at_line(lambda: Board(plain.shape, plain.cells, rules), line or 1)
    meta = tuple((key, str(data[key])) for key in ("title", "author", "ruleset") if data.get(key))
    return FPuzzle(board, None, meta, (), "line")


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
