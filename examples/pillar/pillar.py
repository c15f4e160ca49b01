"""Pillar: the middle column of the wall is a pillar. Each tile in it costs a toll at the end
of the game (``pillar_toll``, 1 point); a complete pillar pays a bonus (``pillar_bonus``, 10
points) on top of the standard +7 for a column.

Every wall's middle column takes a tile from each row a player finishes, so the toll is paid
by everyone; the bonus only by who completes the pillar. Whether the bonus is worth the toll is
the question ``azul tune --goal net=pillar`` answers (docs/balance.md). Both are end bonuses
under labels of their own, so ``azul simulate`` shows them apart and the bots weigh them.
"""

from azul_core import hookimpl
from azul_core.settings import Setting

AZUL_API = 1
__version__ = "1.0"

MIDDLE = 2  # columns count from 0 in code


@hookimpl
def azul_declare_settings():
    return [Setting("pillar_toll", "int", 1, "points each tile in the middle column costs at the end",
                    minimum=0, maximum=5),
            Setting("pillar_bonus", "int", 10, "points a complete middle column pays at the end",
                    minimum=0, maximum=40)]


@hookimpl
def azul_end_bonuses(wall, settings):
    tiles = sum(row[MIDDLE] is not None for row in wall)
    complete = tiles == len(wall)
    return [("pillar toll", -settings.pillar_toll * tiles),
            ("pillar bonus", settings.pillar_bonus if complete else 0)]
