"""Tile colours, their letters, and the start marker's stand-in on a floor.

Colours are small ints so that boards are lists of ints and bitmasks.
"""

from typing import Final

BLUE, YELLOW, RED, BLACK, WHITE = range(5)
COLOURS = (BLUE, YELLOW, RED, BLACK, WHITE)
LETTERS = "BYRKW"
NAMES = ("blue", "yellow", "red", "black", "white")

#: What a floor space holds when the start marker lies on it (not a kind of tile: kinds are
#: 0-4 for the colours and 5 on for a variant's extra tiles, ``rules.ExtraTile``). Final: the
#: compiled engine reads it as a constant.
MARKER: Final = -1

LETTER_OF = dict(zip(COLOURS, LETTERS))
COLOUR_OF_LETTER = {letter: colour for colour, letter in enumerate(LETTERS)}
COLOUR_OF_NAME = {name: colour for colour, name in enumerate(NAMES)}


def colour_set(mask: int) -> frozenset:
    """The colours whose bits are set in ``mask``."""
    return frozenset(c for c in COLOURS if mask >> c & 1)
