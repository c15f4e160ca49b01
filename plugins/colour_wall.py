"""The colour wall of standard Azul: each colour has one printed space per row.

Row 1 reads blue, yellow, red, black, white; each row below is the one above
shifted one step right, so cell (2,1) is white.
"""

from __future__ import annotations

from azul_core import hookimpl

AZUL_API = 1


def column_of(row: int, colour: int) -> int:
    """The printed column of ``colour`` in wall ``row`` (both from 0)."""
    return (colour + row) % 5


def colour_at(row: int, column: int) -> int:
    """The colour printed at (``row``, ``column``)."""
    return (column - row) % 5


@hookimpl
def azul_wall_spaces(wall, row, colour):
    column = (colour + row) % 5  # column_of, inlined: this runs for every tiled line
    return (column,) if wall[row][column] is None else ()


@hookimpl
def azul_wall_choice():
    return False
