"""Short lines: the pattern lines hold 2, 2, 3, 4 and 5 tiles (the first line holds two).

Only the first line's size changes; the others stay the standard plugin's
answer (``row + 1``). The line's tile still goes to wall row 1, and the
extra tile is discarded with the rest of the line when it is tiled.
"""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_line_capacity(row):
    if row == 0:
        return 2
    return None  # no opinion: the standard size, row + 1
