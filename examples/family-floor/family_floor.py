"""Family floor: every floor tile costs 1 point, and a round's floor never costs more than 3.

A gentler floor for younger players. The start marker lies on the floor like
a tile and costs 1 like one. The cap is a setting, so a variant file can
make it 2 or 5 without touching this file.
"""

from azul_core import hookimpl
from azul_core.settings import Setting

AZUL_API = 1  # the hook API this plugin was written for
__version__ = "1.0"


@hookimpl
def azul_declare_settings():
    return [Setting("family_floor_cap", "int", 3,
                    "the most a player's floor can cost in one round", minimum=0)]


@hookimpl
def azul_floor_penalty(floor, settings):
    return -min(len(floor), settings.family_floor_cap)
