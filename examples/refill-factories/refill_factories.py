"""Refill: the first time in a round that a turn leaves only one factory holding tiles, the
player who just played decides whether the empty factories are refilled from the bag.

A phase after each turn (``Phase("after_turn")``) whose outcome draws tiles at
random (``Draw``): the engine draws them (pouring the lid into the bag when it
runs out, as a deal does) and a record writes what came out as a chance event.
"""

from azul_core import hookimpl
from azul_core.rules import Draw, Move, Outcome, Phase, factory

AZUL_API = 1
__version__ = "1.0"

REFILL = Move("refill", label="Refill the empty factories from the bag")
LEAVE = Move("leave", label="Leave them empty")


@hookimpl
def azul_declare_phases():
    return [Phase("after_turn", words="Refill the empty factories from the bag, or not (once a round)")]


@hookimpl
def azul_declare_moves():
    return [REFILL, LEAVE]


@hookimpl
def azul_initial_memory():
    return False  # whether the refill was decided this round


@hookimpl
def azul_round_start():
    return False


@hookimpl
def azul_offer_moves(stage, game, memory):
    if stage != "after_turn" or memory or not (any(game.bag) or any(game.lid)):
        return None
    return [REFILL, LEAVE] if sum(1 for tiles in game.factories if any(tiles)) == 1 else None


@hookimpl
def azul_apply_move(move, game):
    if move != REFILL:
        return Outcome(memory=True)
    empty = [number for number, tiles in enumerate(game.factories, start=1) if not any(tiles)]
    return Outcome(memory=True, draws=tuple(Draw(factory(number), game.tiles_per_factory) for number in empty))
