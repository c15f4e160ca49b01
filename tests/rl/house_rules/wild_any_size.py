"""Ten wild tiles on a board of any size: the first kind after the colours (a house rule of the
RL tests). As examples/wild-tiles: a draft takes one along, and it stands in on the line."""

from dataclasses import replace

from azul_core import hookimpl
from azul_core.rules import ExtraTile

AZUL_API = 1

GOLD = ExtraTile("J", "wild", 10, look="#d4af37")


@hookimpl
def azul_game_setup(answer):
    if answer is None or isinstance(answer, str):
        return None
    return replace(answer, extra_tiles=(GOLD,))


@hookimpl
def azul_draft_takes(tiles, colour):
    wild = len(tiles) - 1  # the only extra kind: after the board's colours
    takes = [count if kind == colour else 0 for kind, count in enumerate(tiles)]
    takes[wild] = min(tiles[wild], 1)
    return takes


@hookimpl
def azul_stands_in(kind, game):
    return kind >= game.size
