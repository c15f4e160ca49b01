"""Wild tiles: ten gold wild tiles join the 100 in the bag.

A draft takes every tile of its colour and, if the source holds any, one
wild tile along. On the pattern line the wild tile stands in for the
colour (it fills the line as one of its tiles); the wall takes a tile of
the colour itself, and the wild tile is discarded with the line's others.
A wild tile that finds no room falls to the floor, like any tile. Wild
tiles left alone on the table at the end of a round go to the lid.
"""

from dataclasses import replace

from azul_core import hookimpl
from azul_core.rules import ExtraTile

AZUL_API = 1
__version__ = "1.0"

WILD = 5  # the first kind after the five colours
GOLD = ExtraTile("J", "wild", 10, look="#d4af37")


@hookimpl
def azul_game_setup(answer):
    if answer is None or isinstance(answer, str):
        return None  # no table (or a reason why not): nothing to add to
    return replace(answer, extra_tiles=(GOLD,))


@hookimpl
def azul_draft_takes(tiles, colour):
    takes = [count if kind == colour else 0 for kind, count in enumerate(tiles)]
    takes[WILD] = min(tiles[WILD], 1)
    return takes


@hookimpl
def azul_stands_in(kind):
    return kind == WILD
