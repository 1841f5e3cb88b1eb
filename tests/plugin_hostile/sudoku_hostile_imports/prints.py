"""A working backend whose module prints as it loads, from Python and from the descriptor (as a
C library's banner would)."""

import os

from sudoku_hostile import Described

print("printed as it loaded")
os.write(1, b"written to descriptor 1 as it loaded\n")


class Prints(Described):
    pass
