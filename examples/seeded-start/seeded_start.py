"""Seeded start: a seat drawn from the game's seed starts round 1 (instead of seat 0).

The game record says who started (``first_player``), so a replay needs no seed.
"""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_first_player(players, rng):
    return rng.randrange(players)
