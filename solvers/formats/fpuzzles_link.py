"""f-puzzles links as text: a link, its bare payload, or the JSON itself, to and from the JSON.

An f-puzzles link is ``https://www.f-puzzles.com/?load=PAYLOAD``, the payload being the puzzle's
JSON compressed by lz-string to base64 (py-lzstring, held byte for byte to the JavaScript
library f-puzzles uses). A SudokuPad link carries the same payload after ``fpuzzles``
(``sudokupad.app/fpuzzlesPAYLOAD``, ``?puzzleid=fpuzzlesPAYLOAD``, and the older
``app.crackingthecryptic.com/sudoku/fpuzzles...``). Every way a text can fail to be one of these
is an InputError in one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import unquote

from solvers.base.errors import InputError
from solvers.formats.lines import SQUARES
from solvers.formats.source import MAX_PUZZLE, Refused, TooLong, refused
from solvers.formats.symbols import VALUE_OF

URL = "https://www.f-puzzles.com/?load="
# lz-string's base64 of any text opening with '{"' starts so: a bare payload of a JSON object.
_BARE = re.compile(r"N4Ig[A-Za-z0-9+/=%]*")
_SUDOKUPAD_HOSTS = ("sudokupad", "crackingthecryptic.com")
_SUDOKUPAD_PAYLOAD = re.compile(r"fpuzzles([^&#\s]*)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?')  # a JSON string, or one left open to the line's end
# Characters of a puzzle's JSON: a 16x16 with every pencil mark in every cell is 38,000; a
# link of one line decompresses to tens of millions when its text repeats, and writing that
# back as a link would take minutes. A line of a source is held to the same (MAX_PUZZLE).
MAX_JSON = MAX_PUZZLE
OVER_JSON = (
    f"the f-puzzles puzzle is over {MAX_JSON:,} characters of JSON: no puzzle is longer than "
    f"{MAX_JSON:,}"
)


def looks_like(text: str) -> bool:
    """Whether a content line is an f-puzzles puzzle in any of its forms, or a puzzle of the
    Interactive Sudoku Solver (read beside them: ``sigh``)."""
    from solvers.formats import sigh

    text = text.strip()
    lowered = text.lower()
    return (
        sigh.looks_like(text)
        or text.startswith("{")
        or "f-puzzles.com" in lowered
        or any(host in lowered for host in _SUDOKUPAD_HOSTS)
        or (bool(_BARE.fullmatch(text)) and not line_puzzle(text))
    )


def entries(lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """Each puzzle's (line number, text) among numbered content lines, each with its leading
    whitespace: one a line, or a JSON document written over several lines, which ends on the
    line that closes its first brace. A document holding a ``Refused`` line is ``Refused``.

    A document left open (a ``{`` without its ``}``) ends where the next puzzle starts, or at
    the end of the source: it is then one bad entry, and the lines after it are read as usual.
    The next puzzle starts at a line holding a puzzle of its own (a link, a payload, or a whole
    JSON object with a grid), or at a line opening with ``{`` where no document could go on
    with it: after a value (JSON puts ``,``, ``:`` or ``[`` before an object), or in a
    pretty-printed document (its second line indented past its first) no further right than
    the document's first line. A complete document is never split: JSON allows an object
    after a value nowhere, and a pretty-printer indents every nested line.
    """
    document: _Document | None = None
    for number, line in lines:
        if document is not None and document.ends_before(line):
            yield from document.ended()
            document = None
        if document is None:
            document = _Document(number, _margin(line))
        document.add(line)
        if document.depth <= 0:
            yield from document.ended()
            document = None
        elif document.length > MAX_JSON and not document.told:
            # refused as soon as it is past the cap, its rest read to its end and dropped:
            # a document fed forever costs no memory, and its message comes at once
            document.told = True
            yield document.start, document.text()
    if document is not None:
        yield from document.ended()


class _Document:
    """An entry being read: its first line's number and margin, its lines (up to the longest
    a puzzle is), the depth of its braces, whether it is pretty-printed, its last character."""

    def __init__(self, start: int, margin: int) -> None:
        self.start, self.margin = start, margin
        self.lines: list[str] = []
        self.length = self.depth = self.count = 0
        self.pretty = False
        self.last = ""
        self.refused: Refused | None = None  # a line no puzzle can hold: the whole is refused
        self.told = False  # refused already, for its length: the rest of it is dropped

    def add(self, line: str) -> None:
        if self.count == 1:
            self.pretty = _margin(line) > self.margin
        self.count += 1
        self.length += len(line) + 1
        if self.length <= MAX_JSON:  # past it, the document is refused for its length
            self.lines.append(line)
        else:
            self.lines = []
        self.depth = _depth(line, self.depth)
        self.last = line[-1:]
        if isinstance(line, Refused) and self.refused is None:
            self.refused = line

    def ends_before(self, line: str) -> bool:
        """Whether a line starts the next puzzle rather than going on with this document."""
        text = line.lstrip()
        if _starts_puzzle(text):
            return True
        if not text.startswith("{"):
            return False
        return self.last not in ",:[" or (self.pretty and _margin(line) <= self.margin)

    def ended(self) -> Iterator[tuple[int, str]]:
        """The document's entry at its end, unless it was refused before it."""
        if not self.told:
            yield self.start, self.text()

    def text(self) -> str:
        """The document's text; a ``Refused`` one when it holds a line no puzzle can (with
        that line's error) or is past ``MAX_JSON``."""
        text = "\n".join(self.lines)
        if self.refused is not None:
            return refused(text, self.refused.error)
        if self.length > MAX_JSON:
            return refused(text, TooLong(OVER_JSON, self.start))
        return text


def _margin(line: str) -> int:
    return len(line) - len(line.lstrip())


def _depth(text: str, depth: int) -> int:
    """The depth of JSON braces and brackets after a line, strings skipped (JSON strings hold
    no line break, so an unclosed quote ends with its line)."""
    bare = _STRING.sub("", text)
    return depth + sum(map(bare.count, "{[")) - sum(map(bare.count, "}]"))


def _starts_puzzle(text: str) -> bool:
    """Whether a line inside an open JSON document is a puzzle of its own: no line of a
    document is a link, a bare payload, or a whole object holding a grid."""
    if text.lower().startswith(("http://", "https://")) or _BARE.fullmatch(text):
        return True
    if not (text.startswith("{") and text.endswith("}") and '"grid"' in text):
        return False
    import json

    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


def decode(text: str, line: int | None = None) -> dict[str, Any]:
    """The puzzle's JSON object from a link, a bare payload or the JSON text."""
    import json  # here, as lzstring: every reader looks for links, few meet one (docs/startup.md)

    text = text.strip()
    packed = not text.startswith("{")
    if packed:
        text = _decompress(_payload(text, line), line)
    if len(text) > MAX_JSON:
        size = f"decompresses to {len(text):,}" if packed else f"is over {MAX_JSON:,}"
        raise InputError(
            f"the f-puzzles puzzle {size} characters of JSON: no puzzle is longer than "
            f"{MAX_JSON:,}",
            line,
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        where = f"character {error.pos + 1}"
        if "\n" in text:
            where = f"its line {error.lineno}, character {error.colno}"
        if error.msg == "Extra data" and text[error.pos :].startswith("{"):  # two on a line
            raise InputError(
                f"a second JSON document starts at {where}: put each puzzle on a line of its own",
                line,
            ) from None
        if error.pos >= len(text):  # the text runs out inside the document
            where = f" at its line {error.lineno}" if "\n" in text else ""
            raise InputError(
                f"the f-puzzles puzzle is not JSON: it ends{where} before its braces close "
                "(cut short?)",
                line,
            ) from None
        message = error.msg.removesuffix(" at")  # "Unterminated string starting at"
        raise InputError(f"the f-puzzles puzzle is not JSON: {message} at {where}", line) from None
    except RecursionError:
        raise InputError("the f-puzzles puzzle is JSON nested too deep", line) from None
    if not isinstance(data, dict):
        raise InputError(
            f"the f-puzzles puzzle is a JSON {type(data).__name__}, not an object", line
        )
    return data


def encode(data: dict[str, Any], start: str = URL) -> str:
    """The link of a puzzle's JSON object: f-puzzles', or, given the ``start`` of a SudokuPad
    link (``answer_start``), a link of that form."""
    import json

    import lzstring

    payload = lzstring.compress_to_base64(json.dumps(data, separators=(",", ":")))
    if start != URL and "?" in start:  # a query's '+' reads as a space: written as %2B
        payload = payload.replace("+", "%2B")
    return start + payload


def answer_start(text: str) -> str:
    """What a puzzle's answer link starts with: a SudokuPad link's own text up to its payload
    (``https://sudokupad.app/fpuzzles``, ``.../?puzzleid=fpuzzles``, the older
    ``app.crackingthecryptic.com/sudoku/fpuzzles``), so that it opens where the puzzle did;
    f-puzzles' ``URL`` for every other form."""
    text = text.strip()
    lowered = text.lower()
    if "f-puzzles.com" in lowered or not any(host in lowered for host in _SUDOKUPAD_HOSTS):
        return URL
    found = _SUDOKUPAD_PAYLOAD.search(text)
    return URL if found is None else text[: found.start(1)]


def line_puzzle(text: str) -> bool:
    """Whether a payload-like word is as well a line puzzle (N*N symbols): it is read so."""
    return len(text) in SQUARES and all(c in VALUE_OF for c in text)


def _payload(text: str, line: int | None) -> str:
    lowered = text.lower()
    if "f-puzzles.com" in lowered:
        fields = dict(part.partition("=")[::2] for part in text.partition("?")[2].split("&"))
        if fields.get("load"):
            return fields["load"]
        if fields.get("id"):
            raise InputError(
                "a short f-puzzles link (?id=) is kept on the f-puzzles site: open it there and "
                "copy the full ?load= link",
                line,
            )
        raise InputError("an f-puzzles link with no ?load= puzzle (cut short?)", line)
    if any(host in lowered for host in _SUDOKUPAD_HOSTS):
        found = _SUDOKUPAD_PAYLOAD.search(text)
        if found is None or not found.group(1):
            raise InputError(
                "a SudokuPad link whose puzzle is not an f-puzzles payload (only "
                "sudokupad.app/fpuzzles... links carry one)",
                line,
            )
        return found.group(1)
    return text


def _decompress(payload: str, line: int | None) -> str:
    # Links pasted through chat or a query parser come percent-encoded, or with '+' as ' '.
    payload = unquote(payload).replace(" ", "+").removeprefix("fpuzzles")
    if not payload:
        raise InputError("the f-puzzles link holds no puzzle (cut short?)", line)
    if not re.fullmatch(r"[A-Za-z0-9+/=]+", payload):
        bad = next(c for c in payload if not (c.isascii() and (c.isalnum() or c in "+/=")))
        raise InputError(f"the f-puzzles payload holds {bad!r}, which base64 never does", line)
    import lzstring

    try:
        text = lzstring.decompress_from_base64(payload)
    except (ValueError, KeyError, IndexError, TypeError):
        text = None
    if not text:
        raise InputError(
            "the f-puzzles payload does not decompress (a link cut short or mangled?)", line
        )
    return text
