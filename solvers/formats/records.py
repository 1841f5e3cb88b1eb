"""The project's own JSON record of a puzzle (``sudoku convert --to json``, ``writing.record``)
read back as the same puzzle: its cells, box, regions, constraints and solution."""

from __future__ import annotations

from solvers.base.errors import InputError
from solvers.formats.fpuzzles_parts import FPuzzle
from solvers.formats.lines import SQUARES, at_line, cell_values, shape_for
from solvers.formats.variant_text import constraints_of, region_map
from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.model.variants import Rules


def from_record(data: dict, line: int | None = None):
    """The puzzle of a JSON record (``record``): what ``sudoku convert --to json`` writes reads
    back as the same puzzle."""
    number = line or 1
    cells, box, texts = data.get("puzzle"), data.get("box"), data.get("constraints", [])
    solution = data.get("solution")
    if not isinstance(cells, str):
        raise InputError("the JSON record's puzzle is not a line of cells", line)
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise InputError("the JSON record's constraints are not a list of texts", line)
    if not isinstance(box, str | None):
        raise InputError("the JSON record's box is not a text such as '3x3'", line)
    if solution is not None and (not isinstance(solution, str) or len(solution) != len(cells)):
        raise InputError("the JSON record's solution is not a line as long as its puzzle", line)
    size = SQUARES.get(len(cells))
    if size is None:
        raise InputError(f"the JSON record's puzzle has {len(cells)} cells, not N*N", line)
    if data.get("size", size) != size:
        said = f"size {data['size']!r:.12}"
        raise InputError(f"the JSON record's {said} does not match its {size}x{size} puzzle", line)
    shape = shape_for(size, at_line(lambda: Shape.parse(box), number) if box else None, number)
    regions = data.get("regions")
    if regions is not None and not isinstance(regions, str):
        raise InputError("the JSON record's regions are not a line of letters", line)
    rules = Rules(
        None if regions is None else region_map([regions], size, number),
        constraints_of(texts, size, number),
    )
    board = at_line(lambda: Board(shape, cell_values(cells, size, number, 1), rules), number)
    known = None
    if solution is not None:
        values = cell_values(solution, size, number, 1)
        known = at_line(lambda: Board(shape, values, rules), number)
    meta = tuple((key, str(data[key])) for key in ("title", "author", "ruleset") if data.get(key))
    return FPuzzle(board, known, meta, (), "line")
