"""Lead by forty: the game also ends after a round in which one player leads everyone by 40
points or more (scores after the round's penalties). Otherwise the variant's end decides."""

from azul_core import hookimpl
from azul_core.settings import Setting

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_declare_settings():
    return [Setting("winning_lead", "int", 40, "a lead (points) that ends the game", minimum=1)]


@hookimpl
def azul_game_over(game, settings):
    best, *others = sorted(game.scores, reverse=True)
    if best - max(others, default=0) >= settings.winning_lead:
        return True
    return None  # no opinion: the standard end (a complete row) decides
