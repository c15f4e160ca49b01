"""Questions about walls and pattern lines that rule plugins ask: the runs of tiles through a
wall space (how a placement scores), the spaces where a colour repeats in neither row nor
column (a wall without printed colours), and which lines can still be completed with the
tiles left in the game (when a game is starved). Part of the public plugin API: the shipped
plugins use it as any plugin may, rather than importing one another.

``pip install .`` compiles this module with the engine (``azul_core.engine.compiled``): a
rule's hook asked at every placement or round's end pays little for these questions. A wall
is any sequence of rows (the engine's are tuples of tuples), a cell a colour or ``None``.
"""

from __future__ import annotations

from itertools import permutations


def run_lengths(wall, row, column):
    """The unbroken horizontal and vertical runs through (row, column), the tile included."""
    size = len(wall)
    left = column
    while left > 0 and wall[row][left - 1] is not None:
        left -= 1
    right = column
    while right < size - 1 and wall[row][right + 1] is not None:
        right += 1
    up = row
    while up > 0 and wall[up - 1][column] is not None:
        up -= 1
    down = row
    while down < size - 1 and wall[down + 1][column] is not None:
        down += 1
    return right - left + 1, down - up + 1


def circulation(lines, supply) -> tuple[list[int], set]:
    """Per colour, the most tiles that can ever be drafted again, and the pattern lines
    ``(seat, row)`` that can never be completed.

    ``supply``: per colour, the tiles in the bag and the lid. A line waiting for
    ``need`` more tiles of its colour completes only if that many can reach it;
    when it does, all but the one that goes to the wall return to circulation.
    Completing a line never lowers the supply, so completing every line that
    can be, in any order, finds them all.
    """
    available = list(supply)
    waiting = {(seat, row): (colour, count) for seat, seat_lines in enumerate(lines)
               for row, (colour, count) in enumerate(seat_lines) if count}
    progress = True
    while progress:
        progress = False
        for (seat, row), (colour, count) in list(waiting.items()):
            if row + 1 - count <= available[colour]:
                available[colour] += count - 1
                del waiting[seat, row]
                progress = True
    return available, set(waiting)


def row_can_get_its_tiles(cells, row: int, held, available, stuck: bool) -> bool:
    """Whether every colour wall row ``row`` misses can still reach it: its pattern line is
    not stuck, and each missing colour (but the one the line holds) can fill the line."""
    if stuck:
        return False
    return all(available[colour] >= row + 1 for colour in range(len(cells))
               if colour not in cells and colour != held)


def unrepeated_spaces(wall, row: int, colour: int) -> tuple[int, ...]:
    """The empty spaces of wall ``row`` where ``colour`` would repeat in neither its row nor its
    column (``()`` if the row holds it already)."""
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


def row_can_be_filled(wall, row: int) -> bool:
    """Whether the colours missing from wall ``row`` can still fill its empty spaces, each in a
    column that does not hold it yet (so that no colour repeats in a row or a column; more
    tiles on the wall only ever add constraints)."""
    cells = wall[row]
    free = [column for column, cell in enumerate(cells) if cell is None]
    missing = [colour for colour in range(len(cells)) if colour not in cells]
    for colour, column in zip(missing, free):  # the usual case: colours in order fit
        if any(other[column] == colour for other in wall):
            break
    else:
        return True
    return any(all(not any(other[column] == colour for other in wall) for colour, column in zip(missing, order))
               for order in permutations(free))
