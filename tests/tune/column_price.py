"""A test rule whose balancing value is known by construction (tests/test_tune_net.py): at the
end every tile on a wall brings ``price`` points ("wall tiles") and every tile in the first
column costs 5 ("first column"). Random bots play alike whatever the price, and the colour wall
puts each colour once in every column, so on average a fifth of a wall's tiles are in its
first column: the two labels' points balance at price 1, and at no other price."""

from azul_core import hookimpl
from azul_core.settings import Setting

AZUL_API = 1
__version__ = "1.0"

FIRST_COLUMN_COST = 5


@hookimpl
def azul_declare_settings():
    return [Setting("price", "int", 0, "points each tile on the wall brings at the end", minimum=0, maximum=10)]


@hookimpl
def azul_end_bonuses(wall, settings):
    tiles = sum(cell is not None for row in wall for cell in row)
    first_column = sum(row[0] is not None for row in wall)
    return [("wall tiles", settings.price * tiles), ("first column", -FIRST_COLUMN_COST * first_column)]
