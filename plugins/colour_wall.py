"""The colour wall of standard Azul: each colour has one printed space per row.

Row 1 reads the colours in order (blue, yellow, red, black, white); each row
below is the one above shifted one step right, so cell (2,1) is white. A
board of n colours is printed the same way, n x n.
"""

from __future__ import annotations

from azul_core import hookimpl

AZUL_API = 1


def column_of(row: int, colour: int, size: int = 5) -> int:
    """The printed column of ``colour`` in wall ``row`` (both from 0) of a ``size`` x ``size`` wall."""
    return (colour + row) % size


def colour_at(row: int, column: int, size: int = 5) -> int:
    """The colour printed at (``row``, ``column``)."""
    return (column - row) % size


@hookimpl
def azul_wall_spaces(wall, row, colour):
    column = (colour + row) % len(wall)  # column_of, inlined: this runs for every tiled line
    return (column,) if wall[row][column] is None else ()


@hookimpl
def azul_wall_choice():
    return False
