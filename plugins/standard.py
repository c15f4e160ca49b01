"""Standard Azul: every rule of ``docs/rules/standard.md`` except the wall layout.

Pattern-line acceptance, run-length placement scoring, the 7-space floor and
its penalties, tiling at the end of the round, the start marker on the floor,
the end when a row is complete, the 2/7/10 bonuses and the tie-break on
complete rows. The wall itself comes from another plugin (``colour_wall`` or
``grey_wall``).

Two **decisions** of ours beyond the published rules (``docs/rules/standard.md``
has them). Setting ``end_when_starved``: a game can starve. When every row of every wall
misses a colour whose tiles can never reach it again (every tile of that
colour sits on walls or on pattern lines that can never be completed), no
row can ever be completed and the standard end never comes; the game then
ends after that round's tiling and penalties, with the usual bonuses.

Setting ``max_rounds``: nothing in the rules makes a tile reach a
wall, so players who draft only to the floor could play for ever; the game ends
after round 50 whatever the walls hold.
"""

from __future__ import annotations

from azul_core import hookimpl
from azul_core.rules import Colour, MarkerRule, TableSetup
from azul_core.settings import Setting
from azul_core.walls import circulation, row_can_get_its_tiles, run_lengths

AZUL_API = 1

#: The colours the setting ``colours`` chooses from, in order: the five of the standard game,
#: then those of a bigger board.
PALETTE = (Colour("B", "blue", "#2166c4"), Colour("Y", "yellow", "#f2c42c"),
           Colour("R", "red", "#c8372d"), Colour("K", "black", "#262626"),
           Colour("W", "white", "#fbfaf5"), Colour("O", "orange", "#e8772e"),
           Colour("G", "green", "#3a9a4a"), Colour("P", "purple", "#7b4fb0"))


def _factories_problem(table):
    for players, factories in table.items():
        if not 1 <= players <= 9:
            return f"{players} players: a table seats 1 to 9"
        if not 1 <= factories <= 9:
            return f"{factories} factories for {players} players: there can be 1 to 9"
    return None


def _penalties_problem(penalties):
    positive = [p for p in penalties if p > 0]
    if positive:
        return f"floor penalties can't be positive ({positive[0]})"
    return None


@hookimpl
def azul_declare_settings():
    return [
        Setting("factories", "int_map", {2: 5, 3: 7, 4: 9},
                "factories for each player count", minimum=1, maximum=9, check=_factories_problem),
        Setting("tiles_per_factory", "int", 4, "tiles laid on each factory", minimum=1, maximum=20),
        Setting("colours", "int", 5,
                "how many colours the tiles have, and so the wall's size and the pattern lines: "
                "5 (blue, yellow, red, black, white); 6 adds orange, 7 green, 8 purple",
                minimum=4, maximum=8),
        Setting("tiles_per_colour", "int", 20, "tiles of each colour in the game", minimum=1, maximum=200),
        Setting("floor_penalties", "int_list", [-1, -1, -2, -2, -2, -3, -3],
                "the penalty of each floor space, left to right (their number is the floor's size)",
                maximum=0, check=_penalties_problem),
        Setting("row_bonus", "int", 2, "end bonus per complete horizontal row", minimum=0),
        Setting("column_bonus", "int", 7, "end bonus per complete vertical column", minimum=0),
        Setting("colour_bonus", "int", 10, "end bonus per colour with a tile in every row of the wall", minimum=0),
        Setting("marker_on_full_floor", "str", "keep",
                "when the floor is full, the start marker is kept without a space ('keep') "
                "or bumps the last floor tile, discarded like a full floor's overflow (to the lid "
                "unless a rule says otherwise) ('bump')", choices=("keep", "bump")),
        Setting("start_without_marker", "str", "same",
                "who starts the next round when nobody took from the centre: the 'same' player "
                "or the 'next' seat", choices=("same", "next")),
        Setting("end_when_starved", "bool", True,
                "end the game after a round in which no row of any wall can still get the "
                "tiles it misses (otherwise such a game never ends)"),
        Setting("max_rounds", "int", 50,
                "end the game after this round, whatever the walls hold (drafting only to the "
                "floor is legal, and rounds in which no tile reaches a wall could go on for ever)",
                minimum=1),
    ]


@hookimpl
def azul_game_setup(settings, players):
    factories = settings.factories.get(players)
    if factories is None:
        covered = ", ".join(str(p) for p in sorted(settings.factories))
        return f"the factories table covers {covered} players, not {players}"
    return TableSetup(factories, settings.tiles_per_factory, settings.tiles_per_colour)


@hookimpl
def azul_colours(settings):
    return PALETTE[:settings.colours]


@hookimpl
def azul_floor_spaces(settings):
    return len(settings.floor_penalties)


@hookimpl
def azul_line_capacity(row):
    return row + 1


@hookimpl
def azul_discard_pile():
    return "lid"


@hookimpl
def azul_tiling_time():
    return "round"


@hookimpl
def azul_tiled_line_reopens():
    return "at_once"


@hookimpl
def azul_marker_rule(settings):
    return MarkerRule("floor", settings.marker_on_full_floor, settings.start_without_marker)


@hookimpl
def azul_misplaced_draft():
    return "refuse"


@hookimpl
def azul_line_accepts(line_colour, line_count, capacity, wall_row, colour):
    if line_count >= capacity:
        return False
    if line_colour is not None and line_colour != colour:
        return False
    return colour not in wall_row




@hookimpl
def azul_placement_score(wall, row, column):
    across, down = run_lengths(wall, row, column)
    if across == 1 and down == 1:
        return 1
    return (across if across > 1 else 0) + (down if down > 1 else 0)


@hookimpl
def azul_floor_penalty(floor, settings):
    return sum(settings.floor_penalties[:len(floor)]) if floor else 0


@hookimpl
def azul_game_over(walls, round_number, lines, supply, settings):
    if round_number >= settings.max_rounds:
        return True
    for wall in walls:
        for row in wall:
            if None not in row:
                return True
    return bool(settings.end_when_starved and lines is not None and supply is not None
                and starved(walls, lines, supply))






def starved(walls, lines, supply) -> bool:
    """Whether no row of any wall can ever get the tiles it misses."""
    if min(supply) >= len(walls[0]):
        return False  # every colour is plentiful: no line is stuck and every row can fill up
    available, stuck = circulation(lines, supply)
    return not any(
        None in cells and row_can_get_its_tiles(cells, row, lines[seat][row][0], available,
                                                (seat, row) in stuck)
        for seat, wall in enumerate(walls) for row, cells in enumerate(wall))


def complete_rows(wall):
    return [None in row for row in wall].count(False)


def complete_columns(wall):
    return [None in column for column in zip(*wall)].count(False)


def complete_colours(wall):
    size = len(wall)
    tiles = [tile for row in wall for tile in row]
    return [tiles.count(colour) == size for colour in range(size)].count(True)


@hookimpl
def azul_end_bonuses(wall, settings):
    return [
        ("rows", complete_rows(wall) * settings.row_bonus),
        ("columns", complete_columns(wall) * settings.column_bonus),
        ("colours", complete_colours(wall) * settings.colour_bonus),
    ]


@hookimpl
def azul_winners(scores, walls):
    best = max(scores)
    tied = [seat for seat, score in enumerate(scores) if score == best]
    most_rows = max(complete_rows(walls[seat]) for seat in tied)
    return [seat for seat in tied if complete_rows(walls[seat]) == most_rows]
