"""A sixth colour: pink tiles join the five, on a 6x6 wall with six pattern lines.

Hooks: ``azul_colours`` (building on the colours the rest of the variant
gives: the standard five) and ``azul_game_setup`` (one more factory for each
player count, as there are more tiles to draw). The board's size follows
from the colours: the colour wall prints six colours a row, the sixth
pattern line holds six tiles (the standard line rule, its row + 1), 20 pink
tiles join the bag (120 in all), a pink draft names line 6 (``1P6``), and a
colour's bonus needs six of it on the wall.
"""

from __future__ import annotations

import dataclasses

from azul_core import hookimpl
from azul_core.rules import Colour

AZUL_API = 1

PINK = Colour("P", "pink", "#e87ab0")


@hookimpl
def azul_colours(answer):
    return (*answer, PINK)


@hookimpl
def azul_game_setup(players, answer):
    if isinstance(answer, str):  # that player count can't be played: say why, unchanged
        return answer
    return dataclasses.replace(answer, factories=min(answer.factories + 1, 9))
