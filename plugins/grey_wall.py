"""The grey wall (free placement): a wall with no printed colours.

When a full pattern line is tiled, its owner chooses any empty space of that
wall row such that the wall then holds no colour twice in any row or column
(``rules/grey-wall.md``). Where no space is legal the engine drops the whole
line to the floor. Every other rule stays the standard plugin's, but one.

A grey wall can block itself: a row whose missing colours all stand in the
columns of its free spaces can never be completed, and when every row of
every wall is blocked, the standard end (a completed row) never comes. The
rules are silent there; our **decision** (setting ``end_when_blocked``): the
game then ends after that round's tiling, with the usual bonuses.
"""

from __future__ import annotations

from itertools import permutations

from azul_core import hookimpl
from azul_core.colours import COLOURS
from azul_core.settings import Setting

AZUL_API = 1


def legal_columns(wall, row: int, colour: int) -> tuple[int, ...]:
    """The empty spaces of wall ``row`` where ``colour`` repeats in neither its row nor its column."""
    cells = wall[row]
    if colour in cells:
        return ()
    return tuple(column for column, cell in enumerate(cells)
                 if cell is None and all(other[column] != colour for other in wall))


def row_can_be_completed(wall, row: int) -> bool:
    """Whether the colours missing from ``row`` can still fill its free spaces, each in a
    column that does not hold it yet (more tiles on the wall only ever add constraints)."""
    cells = wall[row]
    missing = [colour for colour in COLOURS if colour not in cells]
    free = [column for column, cell in enumerate(cells) if cell is None]
    column_colours = [{other[column] for other in wall} for column in free]
    return any(all(colour not in column_colours[i] for colour, i in zip(missing, order))
               for order in permutations(range(len(free))))


def wall_blocked(wall) -> bool:
    """Whether no row of ``wall`` can ever be completed."""
    return not any(row_can_be_completed(wall, row) for row in range(len(wall)))


@hookimpl
def azul_declare_settings():
    return [
        Setting("end_when_blocked", "bool", True,
                "end the game after a round in which no player's grey wall has a row that "
                "can still be completed (otherwise such a game never ends)"),
    ]


@hookimpl
def azul_wall_spaces(wall, row, colour):
    return legal_columns(wall, row, colour)


@hookimpl
def azul_wall_choice():
    # The record writes every grey-wall placement, even a forced one
    # (spec/game-record.md); a front end may take a lone legal space without asking.
    return True


@hookimpl
def azul_game_over(walls, settings):
    if settings.end_when_blocked and all(wall_blocked(wall) for wall in walls):
        return True
    return None  # the standard end (a completed row) still decides
