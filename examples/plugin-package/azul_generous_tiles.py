"""Generous tiles: a tile placed on the wall with no neighbour scores 2 instead of 1.

Every other placement is left to the next plugin (the standard run-length
scoring), by answering ``None``.
"""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0.0"

LONE_TILE_POINTS = 2


def _has_neighbour(wall, row, column):
    size = len(wall)
    for r, c in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
        if 0 <= r < size and 0 <= c < size and wall[r][c] is not None:
            return True
    return False


@hookimpl
def azul_placement_score(wall, row, column):
    if _has_neighbour(wall, row, column):
        return None  # no opinion: standard scoring applies
    return LONE_TILE_POINTS
