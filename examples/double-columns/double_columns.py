"""Double columns: each complete vertical column of the wall pays its bonus twice.

Standard Azul gives 7 points at the end for each complete column; this house
rule adds 7 more for each, under its own label, so a column is worth 14. Every
plugin's end bonuses are added up, so the standard bonuses stay as they are.
The bots read end bonuses from the variant's hooks, so they go for columns
more often under this rule (tests/test_bots_whole_game.py).
"""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"

COLUMN_BONUS = 7


def complete_columns(wall):
    return sum(all(row[column] is not None for row in wall) for column in range(len(wall)))


@hookimpl
def azul_end_bonuses(wall):
    return [("double columns", COLUMN_BONUS * complete_columns(wall))]
