"""Secret goal: each player is dealt a secret colour at the start and scores 2 points
at the end for each tile of that colour on their wall.

A secret dealt per seat with the game's random generator: each seat sees its
own (its page, its bot, its observation) and nobody sees the others' until
the game is over; the game record keeps them all.
"""

from azul_core import hookimpl
from azul_core.colours import COLOURS, NAMES

AZUL_API = 1
__version__ = "1.0"

POINTS = 2


@hookimpl
def azul_deal_secrets(players, rng):
    return [rng.choice(COLOURS) for _ in range(players)]


@hookimpl
def azul_end_bonuses(wall, secret):
    if secret is None:  # asked by someone who may not see this seat's goal
        return None
    return [("secret goal", POINTS * sum(cell == secret for row in wall for cell in row))]


@hookimpl
def azul_describe(kind, value, you):
    if kind != "secret":
        return None
    goal = f"{NAMES[value]}, {POINTS} points a tile"
    return f"Your goal: {goal}" if you else f"had the goal {goal}"  # others see it at the end
