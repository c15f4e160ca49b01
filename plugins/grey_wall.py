"""The grey wall (free placement): a wall with no printed colours.

When a full pattern line is tiled, its owner chooses any empty space of that
wall row such that the wall then holds no colour twice in any row or column
(``docs/rules/grey-wall.md``). Where no space is legal the engine drops the whole
line to the floor. Every other rule stays the standard plugin's, but one.

A grey wall can block itself: a row whose missing colours all stand in the
columns of its free spaces can never be completed, and when every row of
every wall is blocked (that way, or starved of a colour as the standard
plugin judges it), the standard end (a completed row) never comes. The rules
are silent there; our **decision** (setting ``end_when_blocked``): the game
then ends after that round's tiling and penalties, with the usual bonuses.
"""

from __future__ import annotations

from azul_core import hookimpl
from azul_core.settings import Setting
from azul_core.walls import circulation, row_can_be_filled, row_can_get_its_tiles, unrepeated_spaces

AZUL_API = 1


def blocked(walls, lines=None, supply=None) -> bool:
    """Whether no row of any wall can ever be completed: each either can't be filled without a
    repeated colour, or can't get the tiles it misses (without ``lines`` and ``supply``, only
    the first is judged)."""
    # Plenty of every colour: no line is stuck and every row can get its tiles.
    judge_tiles = lines is not None and supply is not None and min(supply) < len(walls[0])
    if judge_tiles:
        available, stuck = circulation(lines, supply)
    for seat, wall in enumerate(walls):
        for row, cells in enumerate(wall):
            if not row_can_be_filled(wall, row):
                continue
            if judge_tiles and not row_can_get_its_tiles(
                    cells, row, lines[seat][row][0], available, (seat, row) in stuck):
                continue
            return False
    return True


@hookimpl
def azul_declare_settings():
    return [
        Setting("end_when_blocked", "bool", True,
                "end the game after a round in which no player's grey wall has a row that "
                "can still be completed (otherwise such a game never ends)"),
    ]


@hookimpl
def azul_wall_spaces(wall, row, colour):
    return unrepeated_spaces(wall, row, colour)


@hookimpl
def azul_wall_choice():
    # The record writes every grey-wall placement, even a forced one
    # (spec/game-record.md); a front end may take a lone legal space without asking.
    return True


@hookimpl
def azul_game_over(walls, lines, supply, settings):
    if settings.end_when_blocked and blocked(walls, lines, supply):
        return True
    return None  # the standard end (a completed row) still decides
