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

from itertools import permutations

from azul_core import hookimpl
from azul_core.settings import Setting
from azul_core.walls import circulation, row_can_get_its_tiles

AZUL_API = 1


def legal_columns(wall, row: int, colour: int) -> tuple[int, ...]:
    """The empty spaces of wall ``row`` where ``colour`` repeats in neither its row nor its column."""
    cells = wall[row]
    if colour in cells:
        return ()
    free = [column for column, cell in enumerate(cells) if cell is None]
    for other in wall:  # a row holds a colour at most once: one column to strike per row
        if colour in other:
            taken = other.index(colour)
            if taken in free:
                free.remove(taken)
    return tuple(free)


def row_fits(wall, row: int, columns=None) -> bool:
    """Whether the colours missing from ``row`` can still fill its free spaces, each in a
    column that does not hold it yet (more tiles on the wall only ever add constraints).
    ``columns``: the wall's columns, ``list(zip(*wall))``, when the caller has them."""
    cells = wall[row]
    if columns is None:
        columns = list(zip(*wall))
    free = [column for column, cell in enumerate(cells) if cell is None]
    missing = [colour for colour in range(len(cells)) if colour not in cells]
    for colour, column in zip(missing, free):  # the usual case: colours in order fit
        if colour in columns[column]:
            break
    else:
        return True
    return any(all(colour not in columns[column] for colour, column in zip(missing, order))
               for order in permutations(free))


def _tiles(wall) -> int:
    return sum(len(row) - row.count(None) for row in wall)


def blocked(walls, lines=None, supply=None) -> bool:
    """Whether no row of any wall can ever be completed: each either can't be filled without a
    repeated colour, or can't get the tiles it misses (without ``lines`` and ``supply``, only
    the first is judged)."""
    # Plenty of every colour: no line is stuck and every row can get its tiles.
    judge_tiles = lines is not None and supply is not None and min(supply) < len(walls[0])
    if not judge_tiles and any(_tiles(wall) < len(wall) for wall in walls):
        # A row can't fit only if some colour it misses stands in enough of its free columns:
        # that takes at least a row's worth of tiles on the wall (its own and those in the way).
        return False
    if judge_tiles:
        available, stuck = circulation(lines, supply)
    for seat, wall in enumerate(walls):
        columns = list(zip(*wall))
        for row, cells in enumerate(wall):
            if not row_fits(wall, row, columns):
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
    return legal_columns(wall, row, colour)


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
