"""A file whose byte-order mark says UTF-16 but whose bytes then break it: the message names the
byte and the encoding the mark announced, not UTF-8 (which the file never claimed to be); the
other puzzles of the file are still answered."""

from __future__ import annotations

import codecs
import subprocess
import sys
from pathlib import Path

SUDOKU = str(Path(sys.executable).with_name("sudoku"))

LINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_a_broken_utf16_file_is_named_as_utf16_and_the_puzzle_before_it_answered(tmp_path):
    path = tmp_path / "notepad.txt"
    # a whole puzzle line, then an odd byte that cannot finish a UTF-16 character
    path.write_bytes(codecs.BOM_UTF16_LE + (LINE + "\n").encode("utf-16-le") + b"\x0a")
    done = subprocess.run([SUDOKU, "solve", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert (
        done.stdout
        == "534678912672195348198342567859761423426853791713924856961537284287419635345286179\n"
    )
    assert done.stderr == (
        "sudoku: line 2, column 1: byte 0x0A is not UTF-16 or UTF-32, which the file's mark"
        " names: save the file as UTF-8\n"
    )


def test_a_bad_byte_in_a_file_with_no_mark_is_still_named_as_not_utf8(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"\xff" + LINE.encode()[1:] + b"\n")
    done = subprocess.run([SUDOKU, "solve", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    said = "sudoku: line 1, column 1: byte 0xFF is not UTF-8: save the file as UTF-8\n"
    assert done.stderr == said
