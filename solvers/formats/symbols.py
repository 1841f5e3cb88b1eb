"""Cell symbols: ``.`` or ``0`` for an empty cell, ``1``-``9`` then ``A``-``Z`` (either case)
for 10..35. Only these ASCII symbols are values: a fullwidth zero (U+FF10) or an Arabic three
(U+0663) is not a digit here, whatever Unicode says."""

from __future__ import annotations

from solvers.base.errors import InputError

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
VALUE_OF = {s: i + 1 for i, s in enumerate(SYMBOLS)}
VALUE_OF |= {s.lower(): v for s, v in VALUE_OF.items()} | {"0": 0, ".": 0}
SYMBOL_OF = "." + SYMBOLS  # value -> symbol, 0 as "."


def value(symbol: str, size: int, line: int, column: int) -> int:
    """The value a line puzzle's symbol stands for; InputError says what and where."""
    found = VALUE_OF.get(symbol)
    if found is None:
        raise InputError(f"{describe(symbol)} is not a digit, a letter or '.'", line, column)
    if found > size:
        raise InputError(f"value {found} ({symbol!r}) is outside 1..{size}", line, column)
    return found


def describe(text: str) -> str:
    """A symbol as a message shows it: quoted, with its code point when it is not plain."""
    if len(text) == 1 and not (text.isascii() and text.isprintable()):
        return f"{text!r} (U+{ord(text):04X})"
    return repr(text)
