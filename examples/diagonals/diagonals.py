"""Diagonals: +5 at the end of the game for each complete main diagonal of the wall.

The two main diagonals of the 5x5 wall are the cells (1,1) (2,2) (3,3) (4,4)
(5,5) and (1,5) (2,4) (3,3) (4,2) (5,1) (row, column; counted from 1). They
share the centre cell. Only these two count, not the shorter diagonals.
The bonus is added to the standard bonuses (rows, columns, colours), because
every plugin's end bonuses are added up.
"""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"

DIAGONAL_BONUS = 5


def complete_diagonals(wall):
    size = len(wall)
    falling = all(wall[i][i] is not None for i in range(size))
    rising = all(wall[i][size - 1 - i] is not None for i in range(size))
    return int(falling) + int(rising)


@hookimpl
def azul_end_bonuses(wall):
    return [("diagonals", DIAGONAL_BONUS * complete_diagonals(wall))]
